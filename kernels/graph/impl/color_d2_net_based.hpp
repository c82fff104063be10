#pragma once
/// Net-based distance-2 and bipartite coloring (NB), after Taş, Kaya and Saule, "Greed is good:
/// parallel algorithms for bipartite-graph partial coloring on multicore architectures", ICPP
/// 2017, as Kokkos Kernels' D2_NB_BIT describes it: the colors of a vertex's two-hop
/// neighbourhood are gathered through its nets in two one-hop passes instead of the vertex-based
/// nested loop, O(sum of degrees) per pass instead of O(sum of squared degrees).
///
/// A net is a row j of A^T (a column of A): the rows that share column j must differ. For the
/// distance-2 coloring of a symmetric graph (hops.distance1), net j is the closed neighbourhood
/// {j} + N(j) and vertex v lies in the nets {v} + N(v): two vertices within distance 2 share a
/// net (one of them, or the middle vertex).
///
/// Colors are 1-based (0 = uncolored) and handled in windows of 64 shared by all vertices. Each
/// round, over the worklist of uncolored vertices:
///   1. gather: every net ORs the window bits of its colored pins into its mask;
///   2. color: every worklist vertex ORs the masks of its nets and takes one of its lowest free
///      colors (see pick; none free: it stays uncolored; when no vertex found one, the window
///      moves up by 64);
///   3. conflicts: in every net, among the pins colored in this round with the same color, all
///      but the one of highest hashed priority lose (a net walks its pins once, and once more per
///      duplicated color);
///   4. the losers and the vertices without a free color form the next worklist.
/// Vertices colored in earlier rounds are in the masks, so conflicts only arise between vertices
/// colored in the same round, and every conflicting pair shares a net. The winner of a conflict
/// is chosen by hashed priority (as in the edge-based distance-1 kernel), so each round settles
/// the local maxima and every step is a function of the previous state: the coloring is the same
/// on any thread count and on the GPU.
///
/// Cost: each round reads every net and the nets of the worklist (about 3 nnz).
/// Memory: masks and uncolored counts (one per net), round stamps and loser marks (n each), two
/// worklists, a counter.

#include <Kokkos_Core.hpp>
#include <utility>

#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/color_d1_deterministic.hpp"
#include "kelp/kernels/graph/impl/color_d2_speculative.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels::impl {

/// The net-side passes of the net-based coloring (see above) over the patterns of `hops`.
template <class Device>
struct NetPasses {
  using Mask = std::uint64_t;
  TwoHop<Device> hops;
  Kokkos::View<Ordinal*, Device> colors;
  Kokkos::View<Mask*, Device> masks;  ///< per net: window bits of its colored pins
  Kokkos::View<Ordinal*, Device> uncolored;  ///< per net: its uncolored pins
  Kokkos::View<int*, Device> colored_in;  ///< per vertex: the round it was last colored in
  Kokkos::View<int*, Device> lost_in;     ///< per vertex: the round it lost a conflict in

  /// Calls f(u) for every pin u of net j (j itself first when the nets are closed).
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_pin(Ordinal j, const F& f) const {
    if (hops.distance1) f(j);
    for (Offset l = hops.t_row_map(j); l < hops.t_row_map(j + 1); ++l) {
      const Ordinal u = hops.t_entries(l);
      if (!hops.distance1 || u != j) f(u);
    }
  }

  /// Step 1 for net j: its mask and its number of uncolored pins.
  KOKKOS_INLINE_FUNCTION void gather(Ordinal j, Ordinal base) const {
    Mask mask = 0;
    Ordinal open = 0;
    for_each_pin(j, [&](Ordinal u) {
      const Ordinal c = colors(u);
      const auto bit = static_cast<std::uint32_t>(c - 1 - base);  // 0 wraps above 64
      if (bit < 64) mask |= Mask(1) << bit;
      open += c == 0 ? 1 : 0;
    });
    masks(j) = mask;
    uncolored(j) = open;
  }

  /// Step 2 for vertex v in `round`: its color, 0 when the window is full.
  ///
  /// Why not always the lowest free color: the k uncolored pins of a net see the same mask, so
  /// the lowest free color would settle one of them per round (k rounds for a hub). They need k
  /// distinct colors anyway, so each takes a hashed one among its first k free colors (k: the
  /// most uncolored pins of its nets): a constant fraction settles per round. The color stays
  /// at most the vertex's distance-2 degree + 1 (k - 1 free colors skipped, each left for an
  /// uncolored neighbour).
  KOKKOS_INLINE_FUNCTION Ordinal pick(Ordinal v, Ordinal base, int round) const {
    Mask used = 0;
    Ordinal spread = 1;
    if (hops.distance1) {
      used = masks(v);
      spread = uncolored(v);
    }
    for (Offset k = hops.a_row_map(v); k < hops.a_row_map(v + 1); ++k) {
      const Ordinal j = hops.a_entries(k);
      used |= masks(j);
      spread = spread > uncolored(j) ? spread : uncolored(j);
    }
    Mask free = ~used;
    if (free == 0) return 0;
    const int free_count = popcount(free);
    const int choices = spread < free_count ? static_cast<int>(spread) : free_count;
    int skip = choices > 1 ? static_cast<int>(hash32(static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(round)) %
                                              static_cast<std::uint32_t>(choices))
                           : 0;
    for (; skip > 0; --skip) free &= free - 1;  // drop the lowest free colors
    return 1 + base + lowest_set_bit(free);
  }

  /// Step 3 for net j: marks the losers among the pins colored in `round`.
  KOKKOS_INLINE_FUNCTION void resolve(Ordinal j, int round) const {
    Mask seen = 0, duplicated = 0;
    for_each_pin(j, [&](Ordinal u) {
      if (colored_in(u) != round) return;
      // New colors lie in the current window: colors(u) - 1 - base < 64, taken mod 64.
      const Mask bit = Mask(1) << ((colors(u) - 1) & 63);
      duplicated |= seen & bit;
      seen |= bit;
    });
    while (duplicated != 0) {
      const int b = lowest_set_bit(duplicated);
      duplicated &= duplicated - 1;
      Ordinal best = -1;
      for_each_pin(j, [&](Ordinal u) {
        if (colored_in(u) == round && ((colors(u) - 1) & 63) == b && (best < 0 || precedes(u, best))) best = u;
      });
      for_each_pin(j, [&](Ordinal u) {
        if (colored_in(u) == round && ((colors(u) - 1) & 63) == b && u != best) lost_in(u) = round;
      });
    }
  }
};

/// Colors the rows of A with 1-based colors into `colors` (0 on entry); returns the rounds.
/// num_nets: the rows of A^T (hops.t_row_map.extent(0) - 1).
template <class Device>
int color_two_hop_net_based(const TwoHop<Device>& hops, Ordinal num_rows, Ordinal num_nets,
                            Kokkos::View<Ordinal*, Device> colors) {
  using Exec = typename Device::execution_space;
  NetPasses<Device> passes{hops, colors,
                           Kokkos::View<std::uint64_t*, Device>(
                               Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance2::masks"),
                               num_nets),
                           Kokkos::View<Ordinal*, Device>(
                               Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance2::uncolored"),
                               num_nets),
                           Kokkos::View<int*, Device>("kelp::kernels::color_distance2::colored_in", num_rows),
                           Kokkos::View<int*, Device>("kelp::kernels::color_distance2::lost_in", num_rows)};
  Kokkos::View<Ordinal*, Device> worklist(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance2::worklist"), num_rows);
  Kokkos::View<Ordinal*, Device> next(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance2::next"), num_rows);
  Kokkos::View<Ordinal, Device> next_size("kelp::kernels::color_distance2::next_size");
  Kokkos::parallel_for(
      "kelp::kernels::color_distance2::identity", Kokkos::RangePolicy<Exec>(0, num_rows),
      KOKKOS_LAMBDA(const Ordinal v) { worklist(v) = v; });
  Ordinal size = num_rows;
  Ordinal base = 0;
  int round = 0;
  // A round either colors the highest-priority vertex that found a free color (it wins every
  // net it is in) or, when none found one, moves the window (at most num_rows + 1 times: a
  // vertex's window is never full past its distance-2 degree). Bound: 2 num_rows + 1 rounds.
  RoundGuard guard("kelp::kernels::color_distance2 (net-based)", 2 * static_cast<long long>(num_rows) + 1);
  while (size > 0) {
    ++round;
    const Ordinal before = size;
    const int r = round;
    const Ordinal window = base;
    const auto current = worklist;
    const auto next_list = next;
    Kokkos::parallel_for(
        "kelp::kernels::color_distance2::net_gather", Kokkos::RangePolicy<Exec>(0, num_nets),
        KOKKOS_LAMBDA(const Ordinal j) { passes.gather(j, window); });
    Ordinal colored = 0;
    Kokkos::parallel_reduce(
        "kelp::kernels::color_distance2::net_color", Kokkos::RangePolicy<Exec>(0, size),
        KOKKOS_LAMBDA(const Ordinal w, Ordinal& count) {
          const Ordinal v = current(w);
          const Ordinal c = passes.pick(v, window, r);
          passes.colors(v) = c;
          if (c > 0) {
            passes.colored_in(v) = r;
            ++count;
          }
        },
        colored);
    if (colored == 0) {  // the window is full for every remaining vertex
      base += 64;
      guard.record(size, 1);
      continue;
    }
    Kokkos::parallel_for(
        "kelp::kernels::color_distance2::net_conflicts", Kokkos::RangePolicy<Exec>(0, num_nets),
        KOKKOS_LAMBDA(const Ordinal j) { passes.resolve(j, r); });
    Kokkos::deep_copy(next_size, 0);
    Kokkos::parallel_for(
        "kelp::kernels::color_distance2::net_compact", Kokkos::RangePolicy<Exec>(0, size),
        KOKKOS_LAMBDA(const Ordinal w) {
          const Ordinal v = current(w);
          if (passes.colors(v) == 0 || passes.lost_in(v) == r) {
            passes.colors(v) = 0;
            next_list(Kokkos::atomic_fetch_add(&next_size(), 1)) = v;
          }
        });
    size = read_scalar(next_size);
    guard.record(size, before - size);
    std::swap(worklist, next);
  }
  return round;
}

}  // namespace kelp::kernels::impl
