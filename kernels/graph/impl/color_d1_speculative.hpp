#pragma once
/// Distance-1 coloring by speculation and conflict resolution (vertex-based, bit-array forbidden
/// colors), after Deveci, Boman, Devine and Rajamanickam, "Parallel graph coloring for manycore
/// architectures", IPDPS 2016 (VB_BIT).
///
/// Round 1 colors every vertex greedily in parallel, reading the neighbours' colors as they are
/// at that moment; two neighbours colored at the same time may pick the same color. A conflict
/// pass then uncolors the larger vertex of each such edge and appends it to a worklist, and the
/// next round recolors only the worklist. Vertices outside the worklist keep their colors, so
/// conflicts can only arise inside the worklist and each pass shrinks it.
///
/// Memory: colors (n), two worklists (n each) and one counter, allocated once per call; no
/// allocation inside the rounds. Per round: one pass over the adjacency of the worklist to color
/// and one to detect conflicts (on one thread, round 1 is a sequential greedy coloring in
/// natural order, and the conflict pass is skipped).

#include <Kokkos_Core.hpp>
#include <utility>

#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels::impl {

/// Smallest color >= 1 that no neighbour of v holds (0 = uncolored), 64 colors per window.
template <class RowMap, class Entries, class Colors>
KOKKOS_INLINE_FUNCTION Ordinal first_free_color(const RowMap& row_map, const Entries& entries,
                                                const Colors& colors, Ordinal v) {
  const Offset begin = row_map(v), end = row_map(v + 1);
  for (Ordinal offset = 1;; offset += 64) {
    std::uint64_t used = 0;
    for (Offset k = begin; k < end; ++k) {
      // Unsigned: colors below the window (and 0, uncolored) wrap to large values.
      const std::uint32_t c = static_cast<std::uint32_t>(colors(entries(k)) - offset);
      if (c < 64) used |= std::uint64_t(1) << c;
    }
    if (~used != 0) return offset + lowest_set_bit(~used);
  }
}

/// Colors with 1-based colors into `colors` (which must hold 0 on entry); returns the rounds.
template <class Device>
int color_d1_speculative(const Graph<Device>& g, Kokkos::View<Ordinal*, Device> colors) {
  using Exec = typename Device::execution_space;
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  const Ordinal n = g.num_rows();
  Kokkos::View<Ordinal*, Device> worklist(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance1::worklist"), n);
  Kokkos::View<Ordinal*, Device> next(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance1::next"), n);
  Kokkos::View<Ordinal, Device> next_size("kelp::kernels::color_distance1::next_size");

  // The larger vertex of a monochromatic edge gives up its color. Self loops never conflict
  // (u < v fails). A vertex uncolored concurrently by its own conflict reads as 0 and is on the
  // worklist already, so every remaining conflict keeps at least one end on the worklist.
  const auto detect = KOKKOS_LAMBDA(const Ordinal v) {
    const Ordinal cv = colors(v);
    for (Offset k = row_map(v); k < row_map(v + 1); ++k) {
      const Ordinal u = entries(k);
      if (u < v && colors(u) == cv) {
        colors(v) = 0;
        next(Kokkos::atomic_fetch_add(&next_size(), 1)) = v;
        return;
      }
    }
  };

  Kokkos::parallel_for(
      "kelp::kernels::color_distance1::speculate", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const Ordinal v) { colors(v) = first_free_color(row_map, entries, colors, v); });
  // One thread colors the vertices in order, each against its neighbours' final colors: round 1
  // is the sequential greedy coloring and cannot have conflicts, so the pass is skipped.
  if (Exec().concurrency() == 1) return 1;
  Kokkos::parallel_for("kelp::kernels::color_distance1::conflicts", Kokkos::RangePolicy<Exec>(0, n),
                       detect);
  // The smallest worklist vertex always keeps its color (its smaller neighbours are final), so
  // every round shrinks the worklist: at most n rounds, and a round without progress throws.
  RoundGuard guard("kelp::kernels::color_distance1 (speculative)", static_cast<long long>(n) + 1);
  Ordinal size = read_scalar(next_size);
  guard.record(size, n - size);
  while (size > 0) {
    const Ordinal before = size;
    std::swap(worklist, next);
    Kokkos::deep_copy(next_size, 0);
    const auto current = worklist;
    const auto next_list = next;
    Kokkos::parallel_for(
        "kelp::kernels::color_distance1::speculate", Kokkos::RangePolicy<Exec>(0, size),
        KOKKOS_LAMBDA(const Ordinal w) {
          const Ordinal v = current(w);
          colors(v) = first_free_color(row_map, entries, colors, v);
        });
    Kokkos::parallel_for(
        "kelp::kernels::color_distance1::conflicts", Kokkos::RangePolicy<Exec>(0, size),
        KOKKOS_LAMBDA(const Ordinal w) {
          const Ordinal v = current(w);
          const Ordinal cv = colors(v);
          for (Offset k = row_map(v); k < row_map(v + 1); ++k) {
            const Ordinal u = entries(k);
            if (u < v && colors(u) == cv) {
              colors(v) = 0;
              next_list(Kokkos::atomic_fetch_add(&next_size(), 1)) = v;
              return;
            }
          }
        });
    size = read_scalar(next_size);
    guard.record(size, before - size);
  }
  return guard.rounds();
}

}  // namespace kelp::kernels::impl
