#pragma once
/// Row counts to row_map: the exclusive prefix sum that every two-pass CRS construction
/// (count, then fill) shares.

#include <limits>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp::kernels::impl {

/// The scan body of counts_to_row_map. A named functor, not a lambda: this helper is
/// instantiated with the same arguments in several .cpp files, and nvcc's extended-lambda wrapper
/// keeps per-file state that the linker may pair with another file's (null) copy; on the H100
/// that made the SpAdd and transpose tests jump to address 0 (see docs/conventions.md).
template <class CountView, class RowMap>
struct CountsToRowMapScan {
  using OffsetT = typename RowMap::non_const_value_type;
  CountView counts;
  RowMap row_map;
  long long n;
  KOKKOS_INLINE_FUNCTION void operator()(const long long i, long long& sum, const bool final) const {
    if (final) row_map(i) = static_cast<OffsetT>(sum);
    if (i < n) sum += static_cast<long long>(counts(i));
  }
};

/// row_map(i) = sum of counts(0..i-1) for i in [0, n], counts of length >= n. The sum runs in
/// 64 bits and is checked against the offset type, so an overflowing product or sum is an error
/// naming `what` instead of a wrapped row_map.
template <class Exec, class CountView, class RowMap>
long long counts_to_row_map(const Exec& exec, const char* what, const CountView& counts,
                            const RowMap& row_map, long long n) {
  using OffsetT = typename RowMap::non_const_value_type;
  long long total = 0;
  Kokkos::parallel_scan(
      "kelp::kernels::counts_to_row_map", Kokkos::RangePolicy<Exec>(exec, 0, n + 1),
      CountsToRowMapScan<CountView, RowMap>{counts, row_map, n}, total);
  exec.fence();
  KELP_REQUIRE(total <= static_cast<long long>(std::numeric_limits<OffsetT>::max()),
               DimensionMismatch,
               what << ": the result has " << total << " entries, more than the offset type holds ("
                    << std::numeric_limits<OffsetT>::max() << ")");
  return total;
}

/// Teams of one thread on host backends (a team there is a core, and one row is not worth
/// several); a warp-sized multiple elsewhere.
template <class Exec>
int sparse_team_size() {
  return Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible ? 1 : 64;
}

}  // namespace kelp::kernels::impl
