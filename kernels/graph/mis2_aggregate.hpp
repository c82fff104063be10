#pragma once
/// MIS-2 aggregation (the coarsening of smoothed-aggregation AMG) and the coarse graph.

#include <Kokkos_Core.hpp>

#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/crs_from_keys.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"
#include "kelp/kernels/graph/impl/mis2_second_pass.hpp"
#include "kelp/kernels/graph/mis2.hpp"

namespace kelp::kernels {

/// Parameters of mis2_aggregate.
struct Mis2AggregateParams {
  /// Form new aggregates from the vertices the first pass leaves over (a second MIS-2 on their
  /// subgraph, as Kokkos Kernels' MIS-2 coarsening does; impl/mis2_second_pass.hpp) before the
  /// rest joins neighbouring aggregates. false: every leftover joins a neighbouring aggregate
  /// (fewer, larger aggregates; the cluster Gauss-Seidel ordering uses this).
  bool second_pass = true;
  /// A second-pass aggregate needs at least this many vertices (>= 1); smaller would-be
  /// aggregates join neighbouring ones instead.
  Ordinal min_second_pass_size = 3;
};

/// Partitions the vertices of g into connected aggregates around the points of a MIS-2.
///
/// [in] g: square, structurally symmetric graph (symmetrize() a nonsymmetric one; for AMG, the
///      strength graph of strength_graph()); self loops are ignored.
/// Phase 1: every MIS-2 root and its neighbours form one aggregate (roots are at distance >= 3,
/// so these sets are disjoint), numbered in root order. Phase 2 (params.second_pass): a MIS-2 of
/// the leftovers' subgraph; each of its roots with at least params.min_second_pass_size - 1
/// leftover neighbours forms a new aggregate with them, numbered after phase 1's. Phase 3: every
/// vertex still left over is at distance 2 from a phase-1 root (maximality), so it has an
/// aggregated neighbour; it joins the smallest-numbered such aggregate. Phase 3 reads the labels
/// of phases 1 and 2 only, so the result depends only on g, and each aggregate is connected
/// (stars around roots, phase-3 vertices hang off an aggregated neighbour); every vertex is
/// within distance 2 of its aggregate's root.
/// Isolated vertices are roots of singleton aggregates.
/// Reference: Kelley and Rajamanickam, IPDPS 2022 (MIS-2 coarsening); Bell, Dalton and Olson,
/// SIAM J. Sci. Comput. 2012.
/// Throws DimensionMismatch / InvalidArgument for a bad graph or min_second_pass_size < 1,
/// NumericalError when a vertex finds
/// no aggregated neighbour (only possible for a nonsymmetric pattern).
template <class Device>
Aggregation<Device> mis2_aggregate(const Graph<Device>& g, const Mis2AggregateParams& params = {}) {
  using Exec = typename Device::execution_space;
  KELP_REQUIRE(params.min_second_pass_size >= 1, InvalidArgument,
               "kelp::kernels::mis2_aggregate: min_second_pass_size is " << params.min_second_pass_size
                                                                         << "; expected >= 1");
  const Mis2<Device> roots = mis2(g);  // checks g
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  const Ordinal n = g.num_rows();
  Kokkos::View<Ordinal*, Device> phase1(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::mis2_aggregate::phase1"), n);
  Kokkos::deep_copy(phase1, -1);
  const auto root_list = roots.vertices;
  Kokkos::parallel_for(
      "kelp::kernels::mis2_aggregate::roots", Kokkos::RangePolicy<Exec>(0, roots.size),
      KOKKOS_LAMBDA(const Ordinal a) {
        const Ordinal r = root_list(a);
        phase1(r) = a;
        for (Offset k = row_map(r); k < row_map(r + 1); ++k) phase1(entries(k)) = a;
      });
  Aggregation<Device> result;
  result.num_aggregates = roots.size;
  if (params.second_pass) {
    result.num_aggregates += impl::mis2_second_pass(g, phase1, roots.size, params.min_second_pass_size);
  }
  result.aggregates = Kokkos::View<Ordinal*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::mis2_aggregate::aggregates"), n);
  const auto aggregates = result.aggregates;
  Ordinal orphans = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::mis2_aggregate::join", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const Ordinal v, Ordinal& missing) {
        Ordinal label = phase1(v);
        if (label < 0) {
          for (Offset k = row_map(v); k < row_map(v + 1); ++k) {
            const Ordinal candidate = phase1(entries(k));
            if (candidate >= 0 && (label < 0 || candidate < label)) label = candidate;
          }
          if (label < 0) ++missing;
        }
        aggregates(v) = label;
      },
      orphans);
  KELP_REQUIRE(orphans == 0, NumericalError,
               "kelp::kernels::mis2_aggregate: " << orphans
                   << " vertices have no aggregated neighbour; is the graph structurally "
                      "symmetric? (use symmetrize())");
  return result;
}

/// The graph of the aggregates: an edge (a, b), a != b, when some edge (u, v) of g has u in a and
/// v in b. Rows sorted, duplicate-free, no self loops. Cost: one sort of nnz(g) 64-bit keys.
/// Throws DimensionMismatch when the aggregation does not have one label per vertex,
/// InvalidArgument for labels outside [0, num_aggregates).
template <class Device>
Graph<Device> coarse_graph(const Graph<Device>& g, const Aggregation<Device>& aggregation) {
  using Exec = typename Device::execution_space;
  impl::require_valid_graph(g, "kelp::kernels::coarse_graph", true);
  const Ordinal n = g.num_rows();
  const Ordinal nc = aggregation.num_aggregates;
  KELP_REQUIRE(aggregation.aggregates.extent(0) == static_cast<std::size_t>(n), DimensionMismatch,
               "kelp::kernels::coarse_graph: " << aggregation.aggregates.extent(0)
                                               << " aggregate labels for " << n << " vertices");
  const auto aggregates = aggregation.aggregates;
  Ordinal bad = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::coarse_graph::check", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const Ordinal v, Ordinal& count) { count += aggregates(v) < 0 || aggregates(v) >= nc ? 1 : 0; },
      bad);
  KELP_REQUIRE(bad == 0, InvalidArgument,
               "kelp::kernels::coarse_graph: " << bad << " aggregate labels outside [0, " << nc << ")");
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  Kokkos::View<std::int64_t*, Device> keys(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::coarse_graph::keys"), g.nnz());
  Kokkos::parallel_for(
      "kelp::kernels::coarse_graph::keys", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const Ordinal v) {
        const Ordinal a = aggregates(v);
        for (Offset k = row_map(v); k < row_map(v + 1); ++k) {
          const Ordinal b = aggregates(entries(k));
          keys(k) = a == b ? -1 : impl::edge_key(a, b, nc);
        }
      });
  return impl::crs_from_keys(keys, nc, nc);
}

#define KELP_GRAPH_MIS2_AGGREGATE_ETI(PREFIX, DEVICE)                                       \
  PREFIX template Aggregation<DEVICE> mis2_aggregate<DEVICE>(const Graph<DEVICE>&, const Mis2AggregateParams&); \
  PREFIX template Graph<DEVICE> coarse_graph<DEVICE>(const Graph<DEVICE>&, const Aggregation<DEVICE>&);

KELP_GRAPH_MIS2_AGGREGATE_ETI(extern, DefaultDevice)

}  // namespace kelp::kernels
