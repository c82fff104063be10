// Sequential host implementations of the graph checkers (kernels/graph/checkers.hpp).
#include "kelp/kernels/graph/checkers.hpp"

#include <vector>

namespace kelp::kernels::impl {

HostGraph host_transpose(const HostGraph& g) {
  HostGraph t;
  t.num_rows = g.num_cols;
  t.num_cols = g.num_rows;
  t.row_map.assign(static_cast<std::size_t>(g.num_cols) + 1, 0);
  for (const Ordinal j : g.entries) ++t.row_map[static_cast<std::size_t>(j) + 1];
  for (std::size_t j = 0; j < static_cast<std::size_t>(g.num_cols); ++j) t.row_map[j + 1] += t.row_map[j];
  t.entries.resize(g.entries.size());
  std::vector<Offset> cursor(t.row_map.begin(), t.row_map.end() - 1);
  for (Ordinal i = 0; i < g.num_rows; ++i) {
    for (Offset k = g.row_map[i]; k < g.row_map[i + 1]; ++k) t.entries[cursor[g.entries[k]]++] = i;
  }
  return t;
}

GraphCheck check_color_range(const std::vector<Ordinal>& colors, Ordinal num_rows) {
  std::ostringstream message;
  if (colors.size() != static_cast<std::size_t>(num_rows)) {
    message << colors.size() << " colors for " << num_rows << " vertices";
    return fail(message);
  }
  for (Ordinal i = 0; i < num_rows; ++i) {
    if (colors[i] < 0) {
      message << "vertex " << i << " has no color (" << colors[i] << ")";
      return fail(message);
    }
  }
  return {};
}

GraphCheck check_coloring_distance1(const HostGraph& g, const std::vector<Ordinal>& colors) {
  if (GraphCheck range = check_color_range(colors, g.num_rows); !range) return range;
  for (Ordinal i = 0; i < g.num_rows; ++i) {
    for (Offset k = g.row_map[i]; k < g.row_map[i + 1]; ++k) {
      const Ordinal j = g.entries[k];
      if (j != i && j < g.num_rows && colors[j] == colors[i]) {
        std::ostringstream message;
        message << "vertices " << i << " and " << j << " are adjacent and both have color " << colors[i];
        return fail(message);
      }
    }
  }
  return {};
}

GraphCheck check_coloring_two_hop(const HostGraph& a, const HostGraph& at,
                                  const std::vector<Ordinal>& colors, bool distance1) {
  if (GraphCheck range = check_color_range(colors, a.num_rows); !range) return range;
  for (Ordinal i = 0; i < a.num_rows; ++i) {
    for (Offset k = a.row_map[i]; k < a.row_map[i + 1]; ++k) {
      const Ordinal j = a.entries[k];
      if (distance1 && j != i && colors[j] == colors[i]) {
        std::ostringstream message;
        message << "vertices " << i << " and " << j << " are adjacent and both have color " << colors[i];
        return fail(message);
      }
      for (Offset l = at.row_map[j]; l < at.row_map[j + 1]; ++l) {
        const Ordinal u = at.entries[l];
        if (u != i && colors[u] == colors[i]) {
          std::ostringstream message;
          message << (distance1 ? "vertices " : "rows ") << i << " and " << u << " are two hops apart (through "
                  << j << ") and both have color " << colors[i];
          return fail(message);
        }
      }
    }
  }
  return {};
}

GraphCheck check_mis2(const HostGraph& g, const std::vector<Ordinal>& vertices) {
  const Ordinal n = g.num_rows;
  std::vector<char> in_set(static_cast<std::size_t>(n), 0);
  for (const Ordinal v : vertices) {
    std::ostringstream message;
    if (v < 0 || v >= n) {
      message << "set vertex " << v << " is outside [0, " << n << ")";
      return fail(message);
    }
    if (in_set[v]) {
      message << "vertex " << v << " is listed twice";
      return fail(message);
    }
    in_set[v] = 1;
  }
  // closed[w] = set vertices in w's closed neighbourhood; two set vertices within distance 2
  // share a closed neighbourhood (one of them, or the vertex between them).
  // An edge stored twice must not count its set vertex twice: seen[u] = the last w that counted u.
  std::vector<Ordinal> closed(static_cast<std::size_t>(n), 0);
  std::vector<Ordinal> seen(static_cast<std::size_t>(n), -1);
  for (Ordinal w = 0; w < n; ++w) {
    closed[w] = in_set[w];
    for (Offset k = g.row_map[w]; k < g.row_map[w + 1]; ++k) {
      const Ordinal u = g.entries[k];
      if (u == w || !in_set[u] || seen[u] == w) continue;
      seen[u] = w;
      ++closed[w];
    }
    if (closed[w] > 1) {
      std::ostringstream message;
      message << "not independent: " << closed[w] << " set vertices in the closed neighbourhood of vertex " << w;
      return fail(message);
    }
  }
  for (Ordinal v = 0; v < n; ++v) {
    if (in_set[v]) continue;
    bool covered = closed[v] > 0;
    for (Offset k = g.row_map[v]; k < g.row_map[v + 1] && !covered; ++k) covered = closed[g.entries[k]] > 0;
    if (!covered) {
      std::ostringstream message;
      message << "not maximal: vertex " << v << " is at distance > 2 from every set vertex";
      return fail(message);
    }
  }
  return {};
}

GraphCheck check_aggregation(const HostGraph& g, const std::vector<Ordinal>& aggregates,
                             Ordinal num_aggregates) {
  const Ordinal n = g.num_rows;
  std::ostringstream message;
  if (aggregates.size() != static_cast<std::size_t>(n)) {
    message << aggregates.size() << " aggregate labels for " << n << " vertices";
    return fail(message);
  }
  if (num_aggregates < 0) {
    message << "negative number of aggregates " << num_aggregates;
    return fail(message);
  }
  for (Ordinal v = 0; v < n; ++v) {
    if (aggregates[v] < 0 || aggregates[v] >= num_aggregates) {
      message << "vertex " << v << " has aggregate " << aggregates[v] << " outside [0, " << num_aggregates << ")";
      return fail(message);
    }
  }
  // One breadth-first search inside each aggregate from its first vertex; a second search
  // starting in an aggregate already seen means it is not connected.
  std::vector<char> seen_aggregate(static_cast<std::size_t>(num_aggregates), 0);
  std::vector<char> visited(static_cast<std::size_t>(n), 0);
  std::vector<Ordinal> queue;
  for (Ordinal start = 0; start < n; ++start) {
    if (visited[start]) continue;
    const Ordinal a = aggregates[start];
    if (seen_aggregate[a]) {
      message << "aggregate " << a << " is not connected: vertex " << start
              << " is not reachable inside it from its first vertex";
      return fail(message);
    }
    seen_aggregate[a] = 1;
    queue.assign(1, start);
    visited[start] = 1;
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const Ordinal v = queue[q];
      for (Offset k = g.row_map[v]; k < g.row_map[v + 1]; ++k) {
        const Ordinal u = g.entries[k];
        if (!visited[u] && aggregates[u] == a) {
          visited[u] = 1;
          queue.push_back(u);
        }
      }
    }
  }
  for (Ordinal a = 0; a < num_aggregates; ++a) {
    if (!seen_aggregate[a]) {
      message << "aggregate " << a << " is empty";
      return fail(message);
    }
  }
  return {};
}

}  // namespace kelp::kernels::impl
