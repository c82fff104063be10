#pragma once
// Graph builders and sequential references for the graph kernel tests.
#include <algorithm>
#include <string>
#include <vector>

#include "kelp/kernels/graph.hpp"
#include "kelp/kernels/io/matrix_market.hpp"

namespace kelp::test {

using Graph = kernels::Graph<>;

/// A num_rows x num_cols graph on the default device from its rows (columns in any order).
inline Graph graph_from(Ordinal num_rows, Ordinal num_cols, const std::vector<std::vector<Ordinal>>& rows) {
  Graph::row_map_type row_map("row_map", num_rows + 1);
  auto row_map_h = Kokkos::create_mirror_view(row_map);
  std::vector<Ordinal> cols;
  row_map_h(0) = 0;
  for (Ordinal i = 0; i < num_rows; ++i) {
    if (i < static_cast<Ordinal>(rows.size())) cols.insert(cols.end(), rows[i].begin(), rows[i].end());
    row_map_h(i + 1) = static_cast<Offset>(cols.size());
  }
  Graph::entries_type entries("entries", cols.size());
  auto entries_h = Kokkos::create_mirror_view(entries);
  std::copy(cols.begin(), cols.end(), entries_h.data());
  Kokkos::deep_copy(row_map, row_map_h);
  Kokkos::deep_copy(entries, entries_h);
  return Graph(num_rows, num_cols, row_map, entries);
}

/// Square graph from its rows.
inline Graph graph_from(const std::vector<std::vector<Ordinal>>& rows) {
  const auto n = static_cast<Ordinal>(rows.size());
  return graph_from(n, n, rows);
}

/// Rows of a graph on the host.
inline std::vector<std::vector<Ordinal>> rows_of(const Graph& g) {
  auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_map());
  auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.entries());
  std::vector<std::vector<Ordinal>> rows(static_cast<std::size_t>(g.num_rows()));
  for (Ordinal i = 0; i < g.num_rows(); ++i) {
    for (Offset k = row_map(i); k < row_map(i + 1); ++k) rows[i].push_back(entries(k));
  }
  return rows;
}

/// Pattern of a Matrix Market file of test/data/matrices (duplicates and diagonal kept).
inline Graph graph_of_file(const std::string& path) {
  const auto coo = io::read_matrix_market_coo(path);
  std::vector<std::vector<Ordinal>> rows(static_cast<std::size_t>(coo.info.num_rows));
  for (std::size_t k = 0; k < coo.rows.size(); ++k) rows[coo.rows[k]].push_back(static_cast<Ordinal>(coo.cols[k]));
  return graph_from(static_cast<Ordinal>(coo.info.num_rows), static_cast<Ordinal>(coo.info.num_cols), rows);
}

/// Labels of a view on the host.
inline std::vector<Ordinal> labels_of(const Kokkos::View<Ordinal*>& labels) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels);
  return std::vector<Ordinal>(h.data(), h.data() + h.extent(0));
}

/// A view from host labels.
inline Kokkos::View<Ordinal*> view_of(const std::vector<Ordinal>& labels) {
  Kokkos::View<Ordinal*> v("labels", labels.size());
  auto h = Kokkos::create_mirror_view(v);
  std::copy(labels.begin(), labels.end(), h.data());
  Kokkos::deep_copy(v, h);
  return v;
}

/// Sequential greedy distance-1 coloring in natural order (self loops ignored): its color count.
inline Ordinal greedy_color_count(const std::vector<std::vector<Ordinal>>& rows) {
  const auto n = static_cast<Ordinal>(rows.size());
  std::vector<Ordinal> color(rows.size(), -1), mark;
  Ordinal count = 0;
  for (Ordinal v = 0; v < n; ++v) {
    mark.assign(rows[v].size() + 1, 0);
    for (const Ordinal u : rows[v]) {
      if (u != v && color[u] >= 0 && color[u] <= static_cast<Ordinal>(rows[v].size())) mark[color[u]] = 1;
    }
    Ordinal c = 0;
    while (mark[c]) ++c;
    color[v] = c;
    count = std::max(count, c + 1);
  }
  return count;
}

/// Largest number of distinct other vertices within distance 2 of a vertex (self loops ignored):
/// any greedy distance-2 coloring needs at most this + 1 colors.
inline Ordinal max_distance2_degree(const std::vector<std::vector<Ordinal>>& rows) {
  std::vector<Ordinal> mark(rows.size(), -1);
  Ordinal largest = 0;
  for (Ordinal v = 0; v < static_cast<Ordinal>(rows.size()); ++v) {
    Ordinal count = 0;
    mark[v] = v;
    for (const Ordinal u : rows[v]) {
      if (mark[u] != v) mark[u] = v, ++count;
      for (const Ordinal w : rows[u]) {
        if (mark[w] != v) mark[w] = v, ++count;
      }
    }
    largest = std::max(largest, count);
  }
  return largest;
}

/// Largest degree (self loops ignored, duplicates counted).
inline Ordinal max_degree(const std::vector<std::vector<Ordinal>>& rows) {
  Ordinal largest = 0;
  for (std::size_t v = 0; v < rows.size(); ++v) {
    const auto self = std::count(rows[v].begin(), rows[v].end(), static_cast<Ordinal>(v));
    largest = std::max(largest, static_cast<Ordinal>(rows[v].size() - self));
  }
  return largest;
}

/// Sequential greedy MIS-2 in natural order: its size.
inline Ordinal greedy_mis2_size(const std::vector<std::vector<Ordinal>>& rows) {
  std::vector<char> blocked(rows.size(), 0);
  Ordinal size = 0;
  for (std::size_t v = 0; v < rows.size(); ++v) {
    if (blocked[v]) continue;
    ++size;
    blocked[v] = 1;
    for (const Ordinal u : rows[v]) {
      blocked[u] = 1;
      for (const Ordinal w : rows[u]) blocked[w] = 1;
    }
  }
  return size;
}

}  // namespace kelp::test
