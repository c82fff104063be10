#pragma once
/// Speculative coloring of the rows of A where rows sharing a column conflict (partial distance-2,
/// "bipartite" coloring), and optionally rows adjacent through A itself as well (distance-2
/// coloring of a symmetric graph: A = A^T = G, with direct neighbours included).
///
/// Vertex-based as the distance-1 kernel (impl/color_d1_speculative.hpp): speculate over a
/// worklist, uncolor the larger vertex of each conflict, repeat on the uncolored ones. A vertex's
/// forbidden colors are gathered through its two-hop neighbourhood, A(i, :) then A^T(j, :), one
/// window of 64 colors per pass over it (Deveci et al., IPDPS 2016; Taş, Kaya and Saule,
/// "Greed is good: parallel algorithms for bipartite-graph partial coloring", 2017).
///
/// Memory: two worklists (rows) and a counter per call. Cost per round: two passes over the
/// two-hop neighbourhoods of the worklist (sum over i of sum_{j in A(i,:)} |A^T(j,:)|).

#include <Kokkos_Core.hpp>
#include <utility>

#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels::impl {

/// Rows of A (num_rows) and of its transpose At (num_cols rows), both as views.
template <class Device>
struct TwoHop {
  typename Graph<Device>::row_map_type a_row_map;
  typename Graph<Device>::entries_type a_entries;
  typename Graph<Device>::row_map_type t_row_map;
  typename Graph<Device>::entries_type t_entries;
  bool distance1 = false;  ///< also forbid colors of A's columns (A square: distance-2 coloring)

  /// Smallest 1-based color that no row within two hops of v holds (0 = uncolored).
  template <class Colors>
  KOKKOS_INLINE_FUNCTION Ordinal first_free_color(const Colors& colors, Ordinal v) const {
    for (Ordinal offset = 1;; offset += 64) {
      std::uint64_t used = 0;
      for (Offset k = a_row_map(v); k < a_row_map(v + 1); ++k) {
        const Ordinal j = a_entries(k);
        if (distance1 && j != v) {
          const std::uint32_t c = static_cast<std::uint32_t>(colors(j) - offset);
          if (c < 64) used |= std::uint64_t(1) << c;
        }
        for (Offset l = t_row_map(j); l < t_row_map(j + 1); ++l) {
          const Ordinal u = t_entries(l);
          const std::uint32_t c = static_cast<std::uint32_t>(colors(u) - offset);
          if (u != v && c < 64) used |= std::uint64_t(1) << c;
        }
      }
      if (~used != 0) return offset + lowest_set_bit(~used);
    }
  }

  /// Whether a smaller row within two hops of v holds v's color.
  template <class Colors>
  KOKKOS_INLINE_FUNCTION bool loses_conflict(const Colors& colors, Ordinal v) const {
    const Ordinal cv = colors(v);
    for (Offset k = a_row_map(v); k < a_row_map(v + 1); ++k) {
      const Ordinal j = a_entries(k);
      if (distance1 && j < v && colors(j) == cv) return true;
      for (Offset l = t_row_map(j); l < t_row_map(j + 1); ++l) {
        const Ordinal u = t_entries(l);
        if (u < v && colors(u) == cv) return true;
      }
    }
    return false;
  }
};

/// The sequential greedy two-hop coloring in natural order, as one thread runs the speculative
/// kernel's first round (same colors up to 64; beyond, a vertex whose 64-color window is full
/// waits for the next window), but net-based: a mask per net (row of A^T) holds the colors of
/// its colored rows, so a vertex ORs the masks of its nets and, once colored, ORs its color
/// into them: O(nnz) per window instead of the speculative kernel's O(sum of squared degrees).
/// (Kokkos Kernels' serial distance-2 coloring works the same way.) One thread, host spaces only.
template <class Device>
int color_two_hop_sequential(const TwoHop<Device>& hops, Ordinal num_rows,
                             Kokkos::View<Ordinal*, Device> colors) {
  using Exec = typename Device::execution_space;
  using Mask = std::uint64_t;
  const Ordinal num_nets = static_cast<Ordinal>(hops.t_row_map.extent(0)) - 1;
  Kokkos::View<Mask*, Device> masks("kelp::kernels::color_distance2::net_masks", num_nets > 0 ? num_nets : 0);
  Kokkos::View<Ordinal*, Device> worklist(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance2::worklist"), num_rows);
  Kokkos::View<int, Device> windows("kelp::kernels::color_distance2::windows");
  Kokkos::parallel_for(
      "kelp::kernels::color_distance2::sequential", Kokkos::RangePolicy<Exec>(0, 1), KOKKOS_LAMBDA(const int) {
        Ordinal remaining = num_rows;
        for (Ordinal base = 0; remaining > 0; base += 64) {
          Ordinal kept = 0;  // the worklist is rebuilt in place (kept <= i)
          for (Ordinal i = 0; i < remaining; ++i) {
            const Ordinal v = base == 0 ? i : worklist(i);
            Mask used = hops.distance1 ? masks(v) : Mask(0);
            for (Offset k = hops.a_row_map(v); k < hops.a_row_map(v + 1); ++k) used |= masks(hops.a_entries(k));
            if (~used == 0) {
              worklist(kept++) = v;
              continue;
            }
            const int bit = lowest_set_bit(~used);
            colors(v) = 1 + base + bit;
            if (hops.distance1) masks(v) |= Mask(1) << bit;
            for (Offset k = hops.a_row_map(v); k < hops.a_row_map(v + 1); ++k) {
              masks(hops.a_entries(k)) |= Mask(1) << bit;
            }
          }
          remaining = kept;
          for (Ordinal j = 0; j < num_nets; ++j) masks(j) = 0;
          windows() += 1;
        }
      });
  return num_rows > 0 ? read_scalar(windows) : 0;
}

/// Colors the rows of A with 1-based colors into `colors` (0 on entry); returns the rounds.
template <class Device>
int color_two_hop_speculative(const TwoHop<Device>& hops, Ordinal num_rows,
                              Kokkos::View<Ordinal*, Device> colors) {
  using Exec = typename Device::execution_space;
  // One thread: the first round would be the sequential greedy coloring; the net-based
  // sequential pass gives it at O(nnz) instead of O(sum of squared degrees).
  if (Exec().concurrency() == 1) return color_two_hop_sequential(hops, num_rows, colors);
  Kokkos::View<Ordinal*, Device> worklist(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance2::worklist"),
      num_rows);
  Kokkos::View<Ordinal*, Device> next(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance2::next"),
      num_rows);
  Kokkos::View<Ordinal, Device> next_size("kelp::kernels::color_distance2::next_size");
  Kokkos::parallel_for(
      "kelp::kernels::color_distance2::identity", Kokkos::RangePolicy<Exec>(0, num_rows),
      KOKKOS_LAMBDA(const Ordinal v) { worklist(v) = v; });
  Ordinal size = num_rows;
  int rounds = 0;
  // The smallest worklist row keeps its color (every smaller row within two hops is final), so
  // each round shrinks the worklist; a round without progress throws instead of looping.
  RoundGuard guard("kelp::kernels::color_distance2 (vertex-based)", static_cast<long long>(num_rows));
  while (size > 0) {
    ++rounds;
    const Ordinal before = size;
    const auto current = worklist;
    const auto next_list = next;
    Kokkos::deep_copy(next_size, 0);
    Kokkos::parallel_for(
        "kelp::kernels::color_distance2::speculate", Kokkos::RangePolicy<Exec>(0, size),
        KOKKOS_LAMBDA(const Ordinal w) {
          const Ordinal v = current(w);
          colors(v) = hops.first_free_color(colors, v);
        });
    // One thread colors in order against final colors: no conflicts (see color_d1_speculative).
    if (Exec().concurrency() == 1) break;
    // A vertex uncolored concurrently reads as 0 and is on the next worklist already.
    Kokkos::parallel_for(
        "kelp::kernels::color_distance2::conflicts", Kokkos::RangePolicy<Exec>(0, size),
        KOKKOS_LAMBDA(const Ordinal w) {
          const Ordinal v = current(w);
          if (hops.loses_conflict(colors, v)) {
            colors(v) = 0;
            next_list(Kokkos::atomic_fetch_add(&next_size(), 1)) = v;
          }
        });
    size = read_scalar(next_size);
    guard.record(size, before - size);
    std::swap(worklist, next);
  }
  return rounds;
}

}  // namespace kelp::kernels::impl
