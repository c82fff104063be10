#pragma once
/// The symbolic phase of multicolor and cluster Gauss-Seidel: which rows (or clusters) form each
/// color, in the order the sweeps visit them. The coloring and the aggregation run on the device
/// (kernels/graph); the grouping by color is a counting sort on the host, O(n) once per pattern.

#include <Kokkos_Core.hpp>
#include <string>
#include <vector>

#include "kelp/kernels/graph.hpp"
#include "kelp/precond/gauss_seidel/gauss_seidel_params.hpp"
#include "kelp/precond/gauss_seidel/impl/sweeps.hpp"

namespace kelp::precond::impl {

template <class Device>
struct GsOrdering {
  Ordinal num_colors = 0;
  /// The color of each row (cluster variant: of the row's cluster).
  Kokkos::View<Ordinal*, Device> row_colors;
  /// Multicolor: rows of color c are short_rows(short_ptr[c] .. short_ptr[c+1]) (a thread each)
  /// and long_rows(long_ptr[c] .. long_ptr[c+1]) (a team each), ascending within a color.
  Kokkos::View<Ordinal*, Device> short_rows, long_rows;
  std::vector<Ordinal> short_ptr, long_ptr;
  /// Multicolor: the short rows' pattern in sweep order (row k of it = row short_rows(k) of A);
  /// the values follow in setup_numeric.
  Kokkos::View<Offset*, Device> sweep_row_map;
  Kokkos::View<Ordinal*, Device> sweep_entries;
  /// Cluster: clusters sorted by color; cluster k holds cluster_rows(cluster_ptr(k) ..
  /// cluster_ptr(k+1)), ascending; the clusters of color c are color_ptr[c] .. color_ptr[c+1].
  Ordinal num_clusters = 0;
  Kokkos::View<Ordinal*, Device> cluster_ptr, cluster_rows;
  std::vector<Ordinal> color_ptr;
  /// The rows in the order a forward sweep visits them (for tests and diagnostics).
  std::vector<Ordinal> forward_order;
};

template <class Device>
Kokkos::View<Ordinal*, Device> to_device_view(const std::vector<Ordinal>& values, const char* label) {
  Kokkos::View<Ordinal*, Device> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                                     values.size());
  Kokkos::View<const Ordinal*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
      values.data(), values.size());
  Kokkos::deep_copy(out, host);
  return out;
}

template <class View>
std::vector<Ordinal> to_host_vector(const View& v) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<Ordinal>(host.data(), host.data() + host.extent(0));
}

/// Greedy distance-1 coloring in natural order, on the host: vertex v takes the smallest color
/// that none of its lower-numbered neighbours has. Reproducible; 2 colors on bipartite grids.
template <class Device>
kernels::Coloring<Device> greedy_coloring(const kernels::Graph<Device>& g) {
  auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_map());
  auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.entries());
  const Ordinal n = g.num_rows();
  std::vector<Ordinal> colors(n, -1), forbidden(n + 1, -1);  // forbidden[c] == v: taken near v
  Ordinal num_colors = 0;
  for (Ordinal v = 0; v < n; ++v) {
    for (Offset p = row_map(v); p < row_map(v + 1); ++p) {
      const Ordinal c = colors[entries(p)];
      if (c >= 0) forbidden[c] = v;
    }
    Ordinal c = 0;
    while (forbidden[c] == v) ++c;
    colors[v] = c;
    if (c + 1 > num_colors) num_colors = c + 1;
  }
  kernels::Coloring<Device> result;
  result.colors = to_device_view<Device>(colors, "kelp::precond::GaussSeidel::colors");
  result.num_colors = num_colors;
  result.rounds = 1;
  return result;
}

/// Colors the (symmetric) graph g with the chosen algorithm.
template <class Device>
kernels::Coloring<Device> color_graph(const kernels::Graph<Device>& g, GaussSeidelColoring coloring) {
  if (coloring == GaussSeidelColoring::sequential_greedy) return greedy_coloring(g);
  kernels::Color1Params params;
  params.algorithm = coloring == GaussSeidelColoring::deterministic
                         ? kernels::Color1Algorithm::deterministic
                         : kernels::Color1Algorithm::speculative;
  return kernels::color_distance1(g, params);
}

/// Distance-1 coloring of the symmetrized pattern; rows grouped by color, split short / long.
template <class Matrix>
GsOrdering<typename Matrix::device_type> multicolor_ordering(const Matrix& A, GaussSeidelColoring coloring_algorithm,
                                                             long long long_row_threshold) {
  using Device = typename Matrix::device_type;
  GsOrdering<Device> o;
  const Ordinal n = A.num_rows();
  const kernels::Graph<Device> pattern(n, A.num_cols(), A.row_map(), A.entries());
  const auto coloring = color_graph(kernels::symmetrize(pattern), coloring_algorithm);
  o.num_colors = coloring.num_colors;
  o.row_colors = coloring.colors;
  const auto colors = to_host_vector(coloring.colors);
  auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  const auto is_long = [&](Ordinal i) {
    return long_row_threshold > 0 && row_map(i + 1) - row_map(i) > long_row_threshold;
  };
  o.short_ptr.assign(o.num_colors + 1, 0);
  o.long_ptr.assign(o.num_colors + 1, 0);
  for (Ordinal i = 0; i < n; ++i) ++(is_long(i) ? o.long_ptr : o.short_ptr)[colors[i] + 1];
  for (Ordinal c = 0; c < o.num_colors; ++c) {
    o.short_ptr[c + 1] += o.short_ptr[c];
    o.long_ptr[c + 1] += o.long_ptr[c];
  }
  std::vector<Ordinal> short_rows(o.short_ptr.back()), long_rows(o.long_ptr.back());
  std::vector<Ordinal> short_next(o.short_ptr.begin(), o.short_ptr.end() - 1);
  std::vector<Ordinal> long_next(o.long_ptr.begin(), o.long_ptr.end() - 1);
  for (Ordinal i = 0; i < n; ++i) {
    if (is_long(i)) {
      long_rows[long_next[colors[i]]++] = i;
    } else {
      short_rows[short_next[colors[i]]++] = i;
    }
  }
  for (Ordinal c = 0; c < o.num_colors; ++c) {
    o.forward_order.insert(o.forward_order.end(), short_rows.begin() + o.short_ptr[c],
                           short_rows.begin() + o.short_ptr[c + 1]);
    o.forward_order.insert(o.forward_order.end(), long_rows.begin() + o.long_ptr[c],
                           long_rows.begin() + o.long_ptr[c + 1]);
  }
  o.short_rows = to_device_view<Device>(short_rows, "kelp::precond::GaussSeidel::short_rows");
  o.long_rows = to_device_view<Device>(long_rows, "kelp::precond::GaussSeidel::long_rows");
  std::vector<Offset> sweep_row_map(short_rows.size() + 1, 0);
  for (std::size_t k = 0; k < short_rows.size(); ++k) {
    sweep_row_map[k + 1] = sweep_row_map[k] + row_map(short_rows[k] + 1) - row_map(short_rows[k]);
  }
  o.sweep_row_map = Kokkos::View<Offset*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::GaussSeidel::sweep_row_map"),
      sweep_row_map.size());
  Kokkos::deep_copy(o.sweep_row_map,
                    Kokkos::View<const Offset*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        sweep_row_map.data(), sweep_row_map.size()));
  o.sweep_entries = Kokkos::View<Ordinal*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::GaussSeidel::sweep_entries"),
      sweep_row_map.back());
  gather_rows(A.row_map(), A.entries(), o.short_rows, o.sweep_row_map, o.sweep_entries);
  return o;
}

/// Clusters (MIS-2 aggregates, or cluster_size consecutive rows), the cluster graph colored at
/// distance 1, clusters grouped by color.
template <class Matrix>
GsOrdering<typename Matrix::device_type> cluster_ordering(const Matrix& A, int cluster_size, GaussSeidelColoring coloring_algorithm) {
  using Device = typename Matrix::device_type;
  GsOrdering<Device> o;
  const Ordinal n = A.num_rows();
  const kernels::Graph<Device> pattern(n, A.num_cols(), A.row_map(), A.entries());
  const auto graph = kernels::symmetrize(pattern);
  kernels::Aggregation<Device> clusters;
  if (cluster_size > 0) {
    std::vector<Ordinal> labels(n);
    for (Ordinal i = 0; i < n; ++i) labels[i] = i / cluster_size;
    clusters.num_aggregates = n == 0 ? 0 : (n - 1) / cluster_size + 1;
    clusters.aggregates = to_device_view<Device>(labels, "kelp::precond::GaussSeidel::clusters");
  } else {
    kernels::Mis2AggregateParams one_pass;  // the pinned cluster sizes (GS tests) predate the second pass
    one_pass.second_pass = false;
    clusters = kernels::mis2_aggregate(graph, one_pass);
  }
  const Ordinal nc = clusters.num_aggregates;
  const auto coloring = color_graph(kernels::coarse_graph(graph, clusters), coloring_algorithm);
  o.num_colors = coloring.num_colors;
  o.num_clusters = nc;
  const auto labels = to_host_vector(clusters.aggregates);
  const auto cluster_colors = to_host_vector(coloring.colors);
  // Clusters sorted by color (stable: ascending id within a color).
  o.color_ptr.assign(o.num_colors + 1, 0);
  for (Ordinal k = 0; k < nc; ++k) ++o.color_ptr[cluster_colors[k] + 1];
  for (Ordinal c = 0; c < o.num_colors; ++c) o.color_ptr[c + 1] += o.color_ptr[c];
  std::vector<Ordinal> position(nc);  // sorted position of cluster k
  {
    std::vector<Ordinal> next(o.color_ptr.begin(), o.color_ptr.end() - 1);
    for (Ordinal k = 0; k < nc; ++k) position[k] = next[cluster_colors[k]]++;
  }
  std::vector<Ordinal> cluster_ptr(nc + 1, 0), cluster_rows(n), row_colors(n);
  for (Ordinal i = 0; i < n; ++i) ++cluster_ptr[position[labels[i]] + 1];
  for (Ordinal k = 0; k < nc; ++k) cluster_ptr[k + 1] += cluster_ptr[k];
  {
    std::vector<Ordinal> next(cluster_ptr.begin(), cluster_ptr.end() - 1);
    for (Ordinal i = 0; i < n; ++i) {
      cluster_rows[next[position[labels[i]]]++] = i;
      row_colors[i] = cluster_colors[labels[i]];
    }
  }
  o.forward_order = cluster_rows;
  o.row_colors = to_device_view<Device>(row_colors, "kelp::precond::GaussSeidel::row_colors");
  o.cluster_ptr = to_device_view<Device>(cluster_ptr, "kelp::precond::GaussSeidel::cluster_ptr");
  o.cluster_rows = to_device_view<Device>(cluster_rows, "kelp::precond::GaussSeidel::cluster_rows");
  return o;
}

}  // namespace kelp::precond::impl
