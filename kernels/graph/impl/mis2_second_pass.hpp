#pragma once
/// The second pass of MIS-2 aggregation: new aggregates from the vertices that the first pass
/// (MIS-2 roots and their neighbours) leaves over, as Kokkos Kernels' MIS-2 coarsening does
/// (Kelley and Rajamanickam, "Parallel, portable algorithms for distance-2 maximal independent
/// set and graph coarsening", IPDPS 2022).
///
/// Without it every leftover joins a neighbouring first-pass aggregate, and the aggregates near
/// many leftovers grow large and irregular. Here the leftovers' induced subgraph gets its own
/// MIS-2; each of its roots with enough leftover neighbours (min_size vertices with itself)
/// forms a new aggregate with them. Roots of a MIS-2 are at distance >= 3 in the subgraph, so
/// these stars are disjoint, and each is connected through edges of g. What remains joins a
/// neighbouring aggregate afterwards (every leftover has a first-pass neighbour: it is within
/// distance 2 of a first-pass root but not adjacent to it).
///
/// Memory: the subgraph (its leftovers' rows restricted to leftovers) and its MIS-2. Cost: two
/// passes over the leftovers' rows, the MIS-2 of the subgraph, one pass over its roots' rows.
/// Deterministic: prefix sums only, and mis2 is deterministic.

#include <Kokkos_Core.hpp>

#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"
#include "kelp/kernels/graph/mis2.hpp"

namespace kelp::kernels::impl {

/// Labels new aggregates num_aggregates, num_aggregates + 1, ... in `labels` (-1 = leftover on
/// entry; other labels are kept) and returns their number. min_size >= 1.
template <class Device>
Ordinal mis2_second_pass(const Graph<Device>& g, Kokkos::View<Ordinal*, Device> labels, Ordinal num_aggregates,
                         Ordinal min_size) {
  using Exec = typename Device::execution_space;
  using List = Kokkos::View<Ordinal*, Device>;
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  const Ordinal n = g.num_rows();
  // The leftovers, their local numbers, and the subgraph's row lengths (leftover neighbours,
  // self loops dropped).
  List local(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::mis2_aggregate::local"), n);
  Ordinal m = 0;
  Kokkos::parallel_scan(
      "kelp::kernels::mis2_aggregate::number_leftovers", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const Ordinal v, Ordinal& position, const bool final) {
        const bool leftover = labels(v) < 0;
        if (final) local(v) = leftover ? position : -1;
        if (leftover) ++position;
      },
      m);
  if (m == 0) return 0;
  List vertex_of(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::mis2_aggregate::vertex_of"), m);
  typename Graph<Device>::row_map_type sub_row_map("kelp::kernels::mis2_aggregate::sub_row_map", m + 1);
  Kokkos::parallel_for(
      "kelp::kernels::mis2_aggregate::sub_counts", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const Ordinal v) {
        const Ordinal i = local(v);
        if (i < 0) return;
        vertex_of(i) = v;
        Offset count = 0;
        for (Offset k = row_map(v); k < row_map(v + 1); ++k) {
          const Ordinal u = entries(k);
          count += u != v && local(u) >= 0 ? 1 : 0;
        }
        sub_row_map(i + 1) = count;
      });
  Offset sub_nnz = 0;
  Kokkos::parallel_scan(
      "kelp::kernels::mis2_aggregate::sub_row_map", Kokkos::RangePolicy<Exec>(0, m + 1),
      KOKKOS_LAMBDA(const Ordinal i, Offset& sum, const bool final) {
        sum += sub_row_map(i);
        if (final) sub_row_map(i) = sum;
      },
      sub_nnz);
  typename Graph<Device>::entries_type sub_entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::mis2_aggregate::sub_entries"), sub_nnz);
  Kokkos::parallel_for(
      "kelp::kernels::mis2_aggregate::sub_entries", Kokkos::RangePolicy<Exec>(0, m), KOKKOS_LAMBDA(const Ordinal i) {
        const Ordinal v = vertex_of(i);
        Offset slot = sub_row_map(i);
        for (Offset k = row_map(v); k < row_map(v + 1); ++k) {
          const Ordinal u = entries(k);
          if (u != v && local(u) >= 0) sub_entries(slot++) = local(u);
        }
      });
  const Graph<Device> sub(m, m, sub_row_map, sub_entries);
  const Mis2<Device> roots = mis2(sub);
  // Roots with at least min_size - 1 leftover neighbours found aggregates, numbered in order.
  const List root_list = roots.vertices;
  Ordinal created = 0;
  Kokkos::parallel_scan(
      "kelp::kernels::mis2_aggregate::second_pass", Kokkos::RangePolicy<Exec>(0, roots.size),
      KOKKOS_LAMBDA(const Ordinal a, Ordinal& position, const bool final) {
        const Ordinal r = root_list(a);
        if (1 + sub_row_map(r + 1) - sub_row_map(r) < min_size) return;
        if (final) {
          const Ordinal label = num_aggregates + position;
          labels(vertex_of(r)) = label;
          for (Offset k = sub_row_map(r); k < sub_row_map(r + 1); ++k) labels(vertex_of(sub_entries(k))) = label;
        }
        ++position;
      },
      created);
  return created;
}

}  // namespace kelp::kernels::impl
