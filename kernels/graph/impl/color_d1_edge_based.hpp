#pragma once
/// Edge-based distance-1 coloring (EB), after Deveci, Boman, Devine and Rajamanickam, "Parallel
/// graph coloring for manycore architectures", IPDPS 2016: one thread per edge, so a vertex of
/// huge degree (a hub of a power-law graph) is spread over many threads instead of serializing
/// one, as it does in the vertex-based kernel. Every neighbour pass is a pass over edges; the
/// vertex passes do O(1) work per vertex.
///
/// State per vertex: a color (1-based, 0 = uncolored, negative = lost a conflict this round), the
/// first color of its 64-color window, `forbidden` (the window's colors that colored neighbours
/// hold), a tentative color and `taken` (bits of tentative colors of uncolored neighbours of
/// higher priority). A worklist holds the edges (u, v), u < v, with at least one uncolored end.
/// Each round:
///   1. tentative coloring, kEdgeBasedLookahead + 1 passes: every uncolored vertex proposes the lowest
///      color of its window that is neither forbidden nor taken; between passes, every edge
///      with two uncolored ends ORs the higher-priority end's proposal into the other end's
///      `taken` (a vertex whose window is all forbidden moves it up by 64 and sits out);
///   2. the last proposals become colors; conflicts, per worklist edge: equal colors mark the end
///      of lower priority as a loser (its color negated: readers compare absolute values, so the
///      outcome does not depend on the order in which threads run);
///   3. forbid and compact, one scan over the worklist edges: an edge with both ends colored is
///      final and leaves; otherwise the colored end's color is OR-ed into the uncolored end's
///      `forbidden` (rebuilt from zero each round) and the edge stays.
/// Why the lookahead (Kokkos Kernels' EB lets an uncolored vertex ban its uncolored neighbour's
/// tentative color, which is one step of it): without it every uncolored vertex around the
/// colored region proposes the same lowest free color, only local priority maxima keep it, and
/// each round adds about one color (rounds = colors). The proposals converge to the greedy
/// coloring in priority order (a Jacobi iteration of it), so after a few passes most neighbours
/// propose different colors: few rounds, and the colors of the deterministic (Jones-Plassmann)
/// coloring.
///
/// Progress: the highest-priority uncolored vertex has no uncolored neighbour of higher priority,
/// so its proposal is its lowest non-forbidden color and it wins every conflict: every round
/// colors a vertex or moves a window (RoundGuard checks it and bounds the rounds). A vertex that
/// survives step 2 keeps its color (every neighbour colored later has it in `forbidden`), so
/// conflicts only arise between vertices colored in the same round.
///
/// Determinism: the loser of a conflict is the end of lower hashed priority (impl::precedes, as
/// in the deterministic kernel), not the larger index; every step is a function of the previous
/// state (bits OR-ed atomically, losers marked idempotently, the worklist compacted by a prefix
/// sum), so the coloring is the same on any thread count and on the GPU. No counter is shared by
/// all threads: an earlier version appended the edges through one 64-bit atomic counter, which
/// CUDA (Kokkos 3.4) implements as a compare-and-swap loop; with millions of edges contending for
/// one word it stalled the H100 for minutes per round.
///
/// Memory: colors, windows, forbidden, taken and proposals (n each), two edge worklists
/// (2 x (nnz / 2) ordinals each). Cost per round: kEdgeBasedLookahead + 3 passes over the worklist edges
/// and kEdgeBasedLookahead + 1 over the vertices.

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

/// Passes between proposals per round (see above): 3 gave the fewest rounds for the colors of
/// the deterministic coloring on the benchmark graphs (docs/performance.md, issue 9).
constexpr int kEdgeBasedLookahead = 3;
static_assert(kEdgeBasedLookahead >= 1, "the last lookahead pass writes the colors");

/// Colors with 1-based colors into `colors` (which must hold 0 on entry); returns the rounds.
template <class Device>
int color_d1_edge_based(const Graph<Device>& g, Kokkos::View<Ordinal*, Device> colors) {
  using Exec = typename Device::execution_space;
  using Mask = unsigned long long;  // the type Kokkos' CUDA atomic_fetch_or takes natively
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
  Kokkos::View<Mask*, Device> taken("kelp::kernels::color_distance1::taken", n);
  Kokkos::View<Ordinal*, Device> proposal("kelp::kernels::color_distance1::proposal", n);

  // Every round colors a vertex or moves a window (at most nnz / 64 + n moves in all).
  RoundGuard guard("kelp::kernels::color_distance1 (edge-based)",
                   2 * static_cast<long long>(n) + static_cast<long long>(count) / 32 + 2);
  long long previous_uncolored = -1, previous_moves = 0;
  int rounds = 0;
  while (n > 0 && (rounds == 0 || current.size > 0)) {
    ++rounds;
    const auto u_of = current.first;
    const auto v_of = current.second;
    // 1. Proposals. Pass 0 also moves full windows and counts the uncolored vertices (low half)
    // and the window moves (high half) for the progress check.
    long long tally = 0;
    Kokkos::parallel_reduce(
        "kelp::kernels::color_distance1::edge_based_propose", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(const Ordinal v, long long& sum) {
          if (colors(v) > 0) return;
          sum += 1;
          const Mask free = ~forbidden(v);
          if (free == 0) {
            window(v) += 64;
            proposal(v) = 0;  // sits out this round; forbidden is rebuilt for the new window
            sum += 1LL << 32;
          } else {
            proposal(v) = 1 + window(v) + lowest_set_bit(free);
          }
          taken(v) = 0;
        },
        tally);
    const long long uncolored = tally & 0xffffffffLL, moves = tally >> 32;
    if (previous_uncolored >= 0) guard.record(uncolored, previous_uncolored - uncolored + previous_moves);
    previous_uncolored = uncolored;
    previous_moves = moves;
    for (int pass = 0; pass < kEdgeBasedLookahead; ++pass) {
      Kokkos::parallel_for(
          "kelp::kernels::color_distance1::edge_based_lookahead", Kokkos::RangePolicy<Exec>(0, current.size),
          KOKKOS_LAMBDA(const Offset e) {
            const Ordinal u = u_of(e), v = v_of(e);
            if (colors(u) > 0 || colors(v) > 0) return;
            const Ordinal high = precedes(u, v) ? u : v;
            const Ordinal low = high == u ? v : u;
            const Ordinal p = proposal(high);
            if (p <= 0 || proposal(low) <= 0) return;
            const auto bit = static_cast<std::uint32_t>(p - 1 - window(low));
            if (bit < 64) Kokkos::atomic_fetch_or(&taken(low), Mask(1) << bit);
          });
      const bool last = pass + 1 == kEdgeBasedLookahead;
      Kokkos::parallel_for(
          "kelp::kernels::color_distance1::edge_based_repropose", Kokkos::RangePolicy<Exec>(0, n),
          KOKKOS_LAMBDA(const Ordinal v) {
            if (colors(v) > 0 || proposal(v) <= 0) return;
            const Mask forbid = forbidden(v);
            const Mask free = ~(forbid | taken(v));
            // All free colors taken: keep the lowest non-forbidden one (a conflict may follow).
            const Ordinal p = 1 + window(v) + lowest_set_bit(free != 0 ? free : ~forbid);
            taken(v) = 0;
            if (last) {
              colors(v) = p;
              forbidden(v) = 0;  // rebuilt by the forbid pass below
            } else {
              proposal(v) = p;
            }
          });
    }
    // Vertices that sat out (full window) still hold a negative or zero color: make it 0 and
    // clear their forbidden bits of the old window.
    Kokkos::parallel_for(
        "kelp::kernels::color_distance1::edge_based_sit_out", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(const Ordinal v) {
          if (colors(v) <= 0 && proposal(v) <= 0) {
            colors(v) = 0;
            forbidden(v) = 0;
          }
        });
    // 2. Conflicts: the end of lower priority loses.
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
    // 3. Forbid and compact by a prefix sum (no shared counter; deterministic order).
    const auto next_u = next.first;
    const auto next_v = next.second;
    Offset kept = 0;
    Kokkos::parallel_scan(
        "kelp::kernels::color_distance1::edge_based_forbid", Kokkos::RangePolicy<Exec>(0, current.size),
        KOKKOS_LAMBDA(const Offset e, Offset& position, const bool final) {
          const Ordinal u = u_of(e), v = v_of(e);
          const Ordinal cu = colors(u), cv = colors(v);
          if (cu > 0 && cv > 0) return;
          if (final) {
            if (cu > 0) {
              const auto bit = static_cast<std::uint32_t>(cu - 1 - window(v));
              if (bit < 64) Kokkos::atomic_fetch_or(&forbidden(v), Mask(1) << bit);
            } else if (cv > 0) {
              const auto bit = static_cast<std::uint32_t>(cv - 1 - window(u));
              if (bit < 64) Kokkos::atomic_fetch_or(&forbidden(u), Mask(1) << bit);
            }
            next_u(position) = u;
            next_v(position) = v;
          }
          ++position;
        },
        kept);
    next.size = kept;
    std::swap(current, next);
  }
  return rounds;
}

}  // namespace kelp::kernels::impl
