#pragma once
/// Validity checkers for colorings, MIS-2 sets and aggregations: sequential host code, O(nnz)
/// (O(sum of squared degrees) at distance 2), for tests and for users who want to verify.
///
/// Each returns a GraphCheck: valid, or the first violation in words ("vertices 3 and 7 are
/// adjacent and both have color 2"). Self loops are ignored. The graph must be well formed
/// (checked: InvalidArgument otherwise); the labels being checked may be anything.

#include <sstream>
#include <vector>

#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels {

namespace impl {

/// Host copy of a graph's arrays, as std::vectors for the sequential checkers.
struct HostGraph {
  Ordinal num_rows = 0, num_cols = 0;
  std::vector<Offset> row_map;
  std::vector<Ordinal> entries;
};

template <class Device>
HostGraph host_graph(const Graph<Device>& g, const char* where) {
  impl::require_valid_graph(g, where, false);
  HostGraph h;
  h.num_rows = g.num_rows();
  h.num_cols = g.num_cols();
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_map());
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.entries());
  h.row_map.assign(row_map.data(), row_map.data() + row_map.extent(0));
  h.entries.assign(entries.data(), entries.data() + entries.extent(0));
  return h;
}

template <class Device>
std::vector<Ordinal> host_labels(const Kokkos::View<Ordinal*, Device>& labels) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels);
  return std::vector<Ordinal>(h.data(), h.data() + h.extent(0));
}

/// Transpose of a host graph by counting sort.
HostGraph host_transpose(const HostGraph& g);

inline GraphCheck fail(const std::ostringstream& message) { return GraphCheck{false, message.str()}; }

/// Colors must be one per row and non-negative.
GraphCheck check_color_range(const std::vector<Ordinal>& colors, Ordinal num_rows);

GraphCheck check_coloring_distance1(const HostGraph& g, const std::vector<Ordinal>& colors);
GraphCheck check_coloring_two_hop(const HostGraph& a, const HostGraph& at,
                                  const std::vector<Ordinal>& colors, bool distance1);
GraphCheck check_mis2(const HostGraph& g, const std::vector<Ordinal>& vertices);
GraphCheck check_aggregation(const HostGraph& g, const std::vector<Ordinal>& aggregates,
                             Ordinal num_aggregates);

}  // namespace impl

/// The labels a checker reads (a non-deduced parameter, so any compatible view converts).
template <class Device>
using Labels = typename Graph<Device>::entries_type;

/// Whether colors(i) != colors(j) for every edge (i, j), i != j, of the square graph g.
template <class Device>
GraphCheck is_valid_coloring_distance1(const Graph<Device>& g, const Labels<Device>& colors) {
  return impl::check_coloring_distance1(impl::host_graph(g, "kelp::kernels::is_valid_coloring_distance1"),
                                        impl::host_labels(colors));
}

/// Whether vertices at distance 1 or 2 in the square graph g have different colors.
template <class Device>
GraphCheck is_valid_coloring_distance2(const Graph<Device>& g, const Labels<Device>& colors) {
  const impl::HostGraph h = impl::host_graph(g, "kelp::kernels::is_valid_coloring_distance2");
  return impl::check_coloring_two_hop(h, h, impl::host_labels(colors), true);
}

/// Whether rows (side rows) or columns (side columns) of the pattern a that share a column (a
/// row) have different colors.
template <class Device>
GraphCheck is_valid_coloring_bipartite(const Graph<Device>& a, const Labels<Device>& colors,
                                       bool color_columns = false) {
  const impl::HostGraph h = impl::host_graph(a, "kelp::kernels::is_valid_coloring_bipartite");
  const impl::HostGraph t = impl::host_transpose(h);
  return color_columns ? impl::check_coloring_two_hop(t, h, impl::host_labels(colors), false)
                       : impl::check_coloring_two_hop(h, t, impl::host_labels(colors), false);
}

/// Whether `vertices` (distinct, in range) is a distance-2 maximal independent set of the
/// symmetric graph g: no two within distance 2, every other vertex within distance 2 of one.
template <class Device>
GraphCheck is_mis2(const Graph<Device>& g, const Labels<Device>& vertices) {
  return impl::check_mis2(impl::host_graph(g, "kelp::kernels::is_mis2"), impl::host_labels(vertices));
}

/// Whether `aggregates` partitions the vertices of g into num_aggregates non-empty aggregates,
/// each connected through edges of g inside the aggregate.
template <class Device>
GraphCheck is_valid_aggregation(const Graph<Device>& g, const Labels<Device>& aggregates,
                                Ordinal num_aggregates) {
  return impl::check_aggregation(impl::host_graph(g, "kelp::kernels::is_valid_aggregation"),
                                 impl::host_labels(aggregates), num_aggregates);
}

#define KELP_GRAPH_CHECKERS_ETI(PREFIX, DEVICE)                                                         \
  PREFIX template GraphCheck is_valid_coloring_distance1<DEVICE>(const Graph<DEVICE>&,                \
                                                                 const Kokkos::View<Ordinal*, DEVICE>&); \
  PREFIX template GraphCheck is_valid_coloring_distance2<DEVICE>(const Graph<DEVICE>&,                \
                                                                 const Kokkos::View<Ordinal*, DEVICE>&); \
  PREFIX template GraphCheck is_valid_coloring_bipartite<DEVICE>(                                      \
      const Graph<DEVICE>&, const Kokkos::View<Ordinal*, DEVICE>&, bool);                              \
  PREFIX template GraphCheck is_mis2<DEVICE>(const Graph<DEVICE>&, const Kokkos::View<Ordinal*, DEVICE>&); \
  PREFIX template GraphCheck is_valid_aggregation<DEVICE>(const Graph<DEVICE>&,                        \
                                                          const Kokkos::View<Ordinal*, DEVICE>&, Ordinal);

KELP_GRAPH_CHECKERS_ETI(extern, DefaultDevice)

}  // namespace kelp::kernels
