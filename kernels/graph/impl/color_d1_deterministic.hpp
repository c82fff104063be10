#pragma once
/// Deterministic distance-1 coloring by priority rounds (Jones and Plassmann, "A parallel graph
/// coloring heuristic", SIAM J. Sci. Comput. 1993), with hashed vertex priorities.
///
/// In round r, an uncolored vertex whose higher-priority neighbours are all colored (in rounds
/// before r) takes the smallest color none of its colored neighbours holds. The vertices chosen in
/// one round form an independent set, and what each reads was fixed in earlier rounds (a round
/// stamp tells "colored before this round" from "colored now"), so the coloring depends only on
/// the graph: the same on any thread count and on the GPU.
///
/// Cost: one pass over the adjacency of the remaining vertices per round; the rounds grow with
/// the longest chain of decreasing priorities (tens on meshes). Memory: colors, a round stamp and
/// two worklists (n each), allocated once per call.

#include <Kokkos_Core.hpp>
#include <utility>

#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels::impl {

/// Whether u comes before v in the coloring order: higher hash first, ties by index.
KOKKOS_INLINE_FUNCTION bool precedes(Ordinal u, Ordinal v) {
  const std::uint32_t hu = hash32(static_cast<std::uint32_t>(u), 0x5eedu);
  const std::uint32_t hv = hash32(static_cast<std::uint32_t>(v), 0x5eedu);
  return hu > hv || (hu == hv && u < v);
}

/// Colors with 1-based colors into `colors` (which must hold 0 on entry); returns the rounds.
template <class Device>
int color_d1_deterministic(const Graph<Device>& g, Kokkos::View<Ordinal*, Device> colors) {
  using Exec = typename Device::execution_space;
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  const Ordinal n = g.num_rows();
  Kokkos::View<int*, Device> stamp("kelp::kernels::color_distance1::stamp", n);
  Kokkos::View<Ordinal*, Device> worklist(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance1::worklist"), n);
  Kokkos::View<Ordinal*, Device> next(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance1::next"), n);
  Kokkos::View<Ordinal, Device> next_size("kelp::kernels::color_distance1::next_size");
  Kokkos::parallel_for(
      "kelp::kernels::color_distance1::identity", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const Ordinal v) { worklist(v) = v; });
  Ordinal size = n;
  int round = 0;
  // The highest-priority uncolored vertex has no uncolored higher-priority neighbour, so it is
  // colored in every round: at most n rounds, and a round without progress throws.
  RoundGuard guard("kelp::kernels::color_distance1 (deterministic)", static_cast<long long>(n));
  while (size > 0) {
    ++round;
    const int r = round;
    const Ordinal before = size;
    const auto current = worklist;
    const auto next_list = next;
    Kokkos::deep_copy(next_size, 0);
    Kokkos::parallel_for(
        "kelp::kernels::color_distance1::deterministic_round", Kokkos::RangePolicy<Exec>(0, size),
        KOKKOS_LAMBDA(const Ordinal w) {
          const Ordinal v = current(w);
          const Offset begin = row_map(v), end = row_map(v + 1);
          for (Offset k = begin; k < end; ++k) {
            const Ordinal u = entries(k);
            const int su = stamp(u);
            if ((su == 0 || su == r) && u != v && precedes(u, v)) {
              next_list(Kokkos::atomic_fetch_add(&next_size(), 1)) = v;
              return;
            }
          }
          for (Ordinal offset = 1;; offset += 64) {
            std::uint64_t used = 0;
            for (Offset k = begin; k < end; ++k) {
              const Ordinal u = entries(k);
              const int su = stamp(u);
              if (su == 0 || su == r) continue;  // not colored before this round
              const std::uint32_t c = static_cast<std::uint32_t>(colors(u) - offset);
              if (c < 64) used |= std::uint64_t(1) << c;
            }
            if (~used != 0) {
              colors(v) = offset + lowest_set_bit(~used);
              stamp(v) = r;
              return;
            }
          }
        });
    size = read_scalar(next_size);
    guard.record(size, before - size);
    std::swap(worklist, next);
  }
  return round;
}

}  // namespace kelp::kernels::impl
