#pragma once
/// Distance-2 maximal independent set (MIS-2).

#include <Kokkos_Core.hpp>
#include <string>
#include <utility>

#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/graph/graph_types.hpp"
#include "kelp/kernels/graph/impl/graph_common.hpp"

namespace kelp::kernels {

namespace impl {

/// Vertex status in MIS-2: 0 = in the set, all ones = out of it, anything else = undecided with
/// that priority (a fresh 32-bit hash in the high half, the vertex in the low half: no ties).
constexpr std::uint64_t kMis2In = 0;
constexpr std::uint64_t kMis2Out = ~std::uint64_t(0);

KOKKOS_INLINE_FUNCTION std::uint64_t mis2_priority(Ordinal v, int round) {
  // In [1, 2^32 - 2]: never 0 (in) and never all ones (out) once the vertex is appended.
  const std::uint64_t h = hash32(static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(round) + 1u) % 0xfffffffeu + 1u;
  return (h << 32) | static_cast<std::uint32_t>(v);
}

}  // namespace impl

/// A distance-2 maximal independent set of g: no two set vertices are within distance 2, and
/// every other vertex is within distance 2 of the set.
///
/// [in] g: square, structurally symmetric graph (symmetrize() a nonsymmetric one); self loops are
///      ignored; isolated vertices are always in the set.
/// Algorithm: Bell, Dalton and Olson's MIS-2 with re-randomized priorities, in the worklist form
/// of Kelley and Rajamanickam ("Parallel, portable algorithms for distance-2 maximal independent
/// set and graph coarsening", IPDPS 2022). Each round (1) gives every undecided vertex a fresh
/// hashed priority; (2) every vertex u whose closed neighbourhood has no set vertex yet takes the
/// smallest status in it (0 when a set vertex is adjacent: u is covered for good); (3) an
/// undecided vertex whose closed neighbourhood holds a covered vertex leaves the set, and one that
/// holds the two-hop minimum joins it. Worklists of undecided vertices and uncovered vertices are
/// compacted by prefix sums, so the result is deterministic (it depends only on g).
/// Memory: two 64-bit statuses and four worklists (n each), allocated once per call.
/// Throws DimensionMismatch for a non-square graph, InvalidArgument for a malformed one.
template <class Device>
Mis2<Device> mis2(const Graph<Device>& g) {
  using Exec = typename Device::execution_space;
  using Status = Kokkos::View<std::uint64_t*, Device>;
  using List = Kokkos::View<Ordinal*, Device>;
  impl::require_valid_graph(g, "kelp::kernels::mis2", true);
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  const Ordinal n = g.num_rows();
  const auto no_init = [](const std::string& label) { return Kokkos::view_alloc(Kokkos::WithoutInitializing, label); };
  Status row_status(no_init("kelp::kernels::mis2::row_status"), n);
  Status col_status(no_init("kelp::kernels::mis2::col_status"), n);
  List rows(no_init("kelp::kernels::mis2::rows"), n), next_rows(no_init("kelp::kernels::mis2::next_rows"), n);
  List cols(no_init("kelp::kernels::mis2::cols"), n), next_cols(no_init("kelp::kernels::mis2::next_cols"), n);
  Kokkos::parallel_for(
      "kelp::kernels::mis2::init", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const Ordinal v) {
        rows(v) = v;
        cols(v) = v;
      });
  Ordinal num_rows = n, num_cols = n;
  int round = 0;
  // The undecided row of smallest priority is the minimum of its two-hop neighbourhood (or sees
  // a covered vertex) and is decided every round: at most n rounds; no progress throws.
  impl::RoundGuard guard("kelp::kernels::mis2", static_cast<long long>(n));
  while (num_rows > 0) {
    const int r = round++;
    const Ordinal before = num_rows;
    const List row_list = rows, col_list = cols, next_row_list = next_rows, next_col_list = next_cols;
    Kokkos::parallel_for(
        "kelp::kernels::mis2::priorities", Kokkos::RangePolicy<Exec>(0, num_rows),
        KOKKOS_LAMBDA(const Ordinal w) {
          const Ordinal v = row_list(w);
          row_status(v) = impl::mis2_priority(v, r);
        });
    Kokkos::parallel_for(
        "kelp::kernels::mis2::neighbourhood_min", Kokkos::RangePolicy<Exec>(0, num_cols),
        KOKKOS_LAMBDA(const Ordinal w) {
          const Ordinal u = col_list(w);
          std::uint64_t m = row_status(u);
          for (Offset k = row_map(u); k < row_map(u + 1) && m != impl::kMis2In; ++k) {
            const std::uint64_t s = row_status(entries(k));
            if (s < m) m = s;
          }
          col_status(u) = m;
        });
    Kokkos::parallel_for(
        "kelp::kernels::mis2::decide", Kokkos::RangePolicy<Exec>(0, num_rows),
        KOKKOS_LAMBDA(const Ordinal w) {
          const Ordinal v = row_list(w);
          std::uint64_t m = col_status(v);
          for (Offset k = row_map(v); k < row_map(v + 1) && m != impl::kMis2In; ++k) {
            const std::uint64_t s = col_status(entries(k));
            if (s < m) m = s;
          }
          if (m == impl::kMis2In) {
            row_status(v) = impl::kMis2Out;
          } else if (m == row_status(v)) {
            row_status(v) = impl::kMis2In;
          }
        });
    // Keep undecided rows, and columns that are neither covered nor surrounded by decided rows
    // only (their status can no longer change).
    Ordinal kept_rows = 0, kept_cols = 0;
    Kokkos::parallel_scan(
        "kelp::kernels::mis2::compact_rows", Kokkos::RangePolicy<Exec>(0, num_rows),
        KOKKOS_LAMBDA(const Ordinal w, Ordinal& position, const bool final) {
          const Ordinal v = row_list(w);
          const std::uint64_t s = row_status(v);
          if (s != impl::kMis2In && s != impl::kMis2Out) {
            if (final) next_row_list(position) = v;
            ++position;
          }
        },
        kept_rows);
    Kokkos::parallel_scan(
        "kelp::kernels::mis2::compact_cols", Kokkos::RangePolicy<Exec>(0, num_cols),
        KOKKOS_LAMBDA(const Ordinal w, Ordinal& position, const bool final) {
          const Ordinal u = col_list(w);
          const std::uint64_t s = col_status(u);
          if (s != impl::kMis2In && s != impl::kMis2Out) {
            if (final) next_col_list(position) = u;
            ++position;
          }
        },
        kept_cols);
    std::swap(rows, next_rows);
    std::swap(cols, next_cols);
    num_rows = kept_rows;
    num_cols = kept_cols;
    guard.record(num_rows, before - num_rows);
  }
  Mis2<Device> result;
  result.rounds = round;
  Kokkos::parallel_reduce(
      "kelp::kernels::mis2::count", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const Ordinal v, Ordinal& count) { count += row_status(v) == impl::kMis2In ? 1 : 0; },
      result.size);
  result.vertices = List(no_init("kelp::kernels::mis2::vertices"), result.size);
  const List vertices = result.vertices;
  Kokkos::parallel_scan(
      "kelp::kernels::mis2::gather", Kokkos::RangePolicy<Exec>(0, n),
      KOKKOS_LAMBDA(const Ordinal v, Ordinal& position, const bool final) {
        if (row_status(v) == impl::kMis2In) {
          if (final) vertices(position) = v;
          ++position;
        }
      });
  return result;
}

#define KELP_GRAPH_MIS2_ETI(PREFIX, DEVICE) PREFIX template Mis2<DEVICE> mis2<DEVICE>(const Graph<DEVICE>&);

KELP_GRAPH_MIS2_ETI(extern, DefaultDevice)

}  // namespace kelp::kernels
