#pragma once
/// Edge-based distance-1 coloring (EB), after Deveci, Boman, Devine and Rajamanickam, "Parallel
/// graph coloring for manycore architectures", IPDPS 2016: one thread per edge, so a vertex of
/// huge degree (a hub of a power-law graph) is spread over many threads instead of serializing
/// one, as it does in the vertex-based kernel.
///
/// State per vertex: a color (1-based, 0 = uncolored), the first color of its 64-color window
/// and a 64-bit mask of the window's colors that colored neighbours hold. A worklist holds the
/// edges (u, v), u < v, of which at least one end is uncolored. Each round:
///   1. color: every uncolored vertex takes a color of its window not in its mask: the lowest,
///      or the second lowest when it has an uncolored neighbour of higher priority (k > 0),
///      which is expected to take the lowest (a full window moves up by 64 and the vertex waits
///      a round: its mask and k are rebuilt in step 3);
///   2. conflicts, per worklist edge: equal colors mark the end of lower priority as a loser (its
///      color negated, so readers compare absolute values and the outcome does not depend on
///      the order in which threads run);
///   3. forbid, per worklist edge: an edge with both ends colored is final and leaves the list;
///      otherwise the colored end's color is OR-ed into the uncolored end's mask (rebuilt from
///      zero each round), or, both ends uncolored, the lower-priority end's k counts one, and
///      the edge goes on the next worklist.
/// Why skip one: with the lowest free color, all uncolored vertices around a colored region pick
/// the same color and each round adds about one color (rounds = colors: 57 on astro-ph).
/// Skipping one free color when a higher-priority neighbour competes halves the rounds (29)
/// for about the same colors (58); skipping k (all of them) gave 6 rounds but 80 colors, and
/// 128 instead of 37 on wiki-Vote. The color stays within degree + 1.
/// A vertex that survives step 2 keeps its color: every neighbour colored later has it in its
/// mask. So conflicts only arise between vertices colored in the same round.
///
/// Difference from the paper: the loser of a conflict is the end of lower hashed priority, not
/// the larger index. With the index, the vertices of a path colored in lockstep (a GPU) settle
/// two per round; with hashed priorities every local maximum wins, so the rounds are bounded by
/// the longest chain of decreasing priorities (as in Jones-Plassmann). Every step is a function
/// of the previous state (masks are OR-ed atomically, losers marked idempotently), so the
/// coloring is the same on any thread count and on the GPU.
///
/// Memory: colors, windows, masks and k (n each), two edge worklists (2 x (nnz / 2) ordinals each)
/// and a counter. Cost per round: n for step 1 plus two passes over the worklist edges.

#include <Kokkos_Core.hpp>
#include <utility>

#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/color_d1_deterministic.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels::impl {

/// The edges (u, v), u < v, of a symmetric graph: one per undirected edge, self loops dropped.
template <class Device>
struct EdgeList {
  Kokkos::View<Ordinal*, Device> first;
  Kokkos::View<Ordinal*, Device> second;
  Offset size = 0;
};

/// The half edges of g (u < v of each stored (u, v)), in row order.
template <class Device>
EdgeList<Device> half_edges(const Graph<Device>& g, Offset capacity) {
  using Exec = typename Device::execution_space;
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  EdgeList<Device> edges;
  edges.first = Kokkos::View<Ordinal*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance1::edges_u"), capacity);
  edges.second = Kokkos::View<Ordinal*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance1::edges_v"), capacity);
  const auto first = edges.first;
  const auto second = edges.second;
  Kokkos::parallel_scan(
      "kelp::kernels::color_distance1::half_edges", Kokkos::RangePolicy<Exec>(0, g.num_rows()),
      KOKKOS_LAMBDA(const Ordinal u, Offset& position, const bool final) {
        for (Offset k = row_map(u); k < row_map(u + 1); ++k) {
          const Ordinal v = entries(k);
          if (v <= u) continue;
          if (final) {
            first(position) = u;
            second(position) = v;
          }
          ++position;
        }
      },
      edges.size);
  return edges;
}

/// Colors with 1-based colors into `colors` (which must hold 0 on entry); returns the rounds.
template <class Device>
int color_d1_edge_based(const Graph<Device>& g, Kokkos::View<Ordinal*, Device> colors) {
  using Exec = typename Device::execution_space;
  using Mask = unsigned long long;  // the type Kokkos' CUDA atomic_fetch_or takes
  const Ordinal n = g.num_rows();
  // Half of the stored entries bound the half edges of a symmetric graph; an asymmetric pattern
  // may have more u < v entries, so count them (one cheap pass) rather than trust the half.
  Offset count = 0;
  {
    const auto row_map = g.row_map();
    const auto entries = g.entries();
    Kokkos::parallel_reduce(
        "kelp::kernels::color_distance1::count_half_edges", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(const Ordinal u, Offset& sum) {
          for (Offset k = row_map(u); k < row_map(u + 1); ++k) sum += entries(k) > u ? 1 : 0;
        },
        count);
  }
  EdgeList<Device> current = half_edges(g, count);
  EdgeList<Device> next;
  next.first = Kokkos::View<Ordinal*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance1::next_u"), count);
  next.second = Kokkos::View<Ordinal*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::color_distance1::next_v"), count);
  Kokkos::View<Ordinal*, Device> window("kelp::kernels::color_distance1::window", n);
  Kokkos::View<Mask*, Device> forbidden("kelp::kernels::color_distance1::forbidden", n);
  Kokkos::View<Ordinal*, Device> ahead("kelp::kernels::color_distance1::ahead", n);
  Kokkos::View<Offset, Device> next_size("kelp::kernels::color_distance1::next_size");
  {
    const auto u_of = current.first;
    const auto v_of = current.second;
    Kokkos::parallel_for(
        "kelp::kernels::color_distance1::edge_based_ahead", Kokkos::RangePolicy<Exec>(0, current.size),
        KOKKOS_LAMBDA(const Offset e) {
          const Ordinal u = u_of(e), v = v_of(e);
          Kokkos::atomic_increment(&ahead(precedes(u, v) ? v : u));
        });
  }

  int rounds = 0;
  while (n > 0 && (rounds == 0 || current.size > 0)) {
    ++rounds;
    // 1. Color. Negative colors are the losers of the last round: uncolored.
    Kokkos::parallel_for(
        "kelp::kernels::color_distance1::edge_based_color", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(const Ordinal v) {
          if (colors(v) > 0) return;
          Mask free = ~forbidden(v);
          const Ordinal skip_wanted = ahead(v);
          forbidden(v) = 0;
          ahead(v) = 0;
          if (free == 0) {
            window(v) += 64;
            colors(v) = 0;
          } else {
            // Leave the lowest free color to an uncolored neighbour of higher priority.
            const int free_count = popcount(free);
            const Ordinal capped = skip_wanted < 1 ? skip_wanted : 1;
            const int skip = capped < free_count ? static_cast<int>(capped) : free_count - 1;
            for (int s = 0; s < skip; ++s) free &= free - 1;
            colors(v) = 1 + window(v) + lowest_set_bit(free);
          }
        });
    const auto u_of = current.first;
    const auto v_of = current.second;
    // 2. Conflicts: the end of lower priority loses (precedes: hashed order, as the
    // deterministic coloring uses).
    Kokkos::parallel_for(
        "kelp::kernels::color_distance1::edge_based_conflicts", Kokkos::RangePolicy<Exec>(0, current.size),
        KOKKOS_LAMBDA(const Offset e) {
          const Ordinal u = u_of(e), v = v_of(e);
          const Ordinal su = colors(u), sv = colors(v);
          const Ordinal cu = su < 0 ? -su : su;
          if (cu == 0 || cu != (sv < 0 ? -sv : sv)) return;
          const Ordinal loser = precedes(u, v) ? v : u;
          colors(loser) = -cu;
        });
    // 3. Forbid and compact.
    Kokkos::deep_copy(next_size, 0);
    const auto next_u = next.first;
    const auto next_v = next.second;
    Kokkos::parallel_for(
        "kelp::kernels::color_distance1::edge_based_forbid", Kokkos::RangePolicy<Exec>(0, current.size),
        KOKKOS_LAMBDA(const Offset e) {
          const Ordinal u = u_of(e), v = v_of(e);
          const Ordinal cu = colors(u), cv = colors(v);
          if (cu > 0 && cv > 0) return;
          if (cu <= 0 && cv <= 0) {
            Kokkos::atomic_increment(&ahead(precedes(u, v) ? v : u));
          } else if (cu > 0) {
            const auto bit = static_cast<std::uint32_t>(cu - 1 - window(v));
            if (bit < 64) Kokkos::atomic_fetch_or(&forbidden(v), Mask(1) << bit);
          } else if (cv > 0) {
            const auto bit = static_cast<std::uint32_t>(cv - 1 - window(u));
            if (bit < 64) Kokkos::atomic_fetch_or(&forbidden(u), Mask(1) << bit);
          }
          const Offset slot = Kokkos::atomic_fetch_add(&next_size(), Offset(1));
          next_u(slot) = u;
          next_v(slot) = v;
        });
    next.size = read_scalar(next_size);
    std::swap(current, next);
  }
  return rounds;
}

}  // namespace kelp::kernels::impl
