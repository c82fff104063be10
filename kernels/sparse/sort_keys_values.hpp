#pragma once
/// Device-wide sort of a plain array of keys, with values permuted alongside (in place).
///
///   kernels::sort_keys_values(exec, keys, values);
///   kernels::sort_keys(exec, keys);
///
/// The array is one segment for the long-row sorter of sort_rows (impl/sort_long_rows.hpp): the
/// global bitonic network on GPU backends (all threads on every step, O(n log^2 n) work), a
/// merge sort by one thread on CPU backends. Not stable. Keys: any type with operator<
/// (integers, floating point without NaN). Fences exec, so on return the arrays are
/// sorted.

#include <string>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/sparse/impl/sort_long_rows.hpp"

namespace kelp::kernels {

namespace impl {
/// The row_map {0, n} that makes an array one segment.
template <class RowMap>
struct SingleSegment {
  RowMap row_map;
  long long n;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { row_map(i) = i == 0 ? 0 : n; }
};

template <class Exec, class Keys, class Values>
void sort_segment_views(const Exec& exec, const Keys& keys, const Values& values, bool has_values,
                        LongRowSort method) {
  using RowMap = Kokkos::View<long long*, typename Keys::device_type>;
  const long long n = static_cast<long long>(keys.extent(0));
  if (n < 2) return;
  RowMap row_map(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::sort_keys::row_map"), 2);
  Kokkos::parallel_for("kelp::kernels::sort_keys(segment)", Kokkos::RangePolicy<Exec>(exec, 0, 2),
                       SingleSegment<RowMap>{row_map, n});
  sort_long_rows(exec, 1, row_map, keys, values, has_values, 1, method);
}
}  // namespace impl

/// Sorts keys ascending on exec, permuting values alongside.
/// @param[in,out] keys, values  rank-1 views of the same length in exec's memory space
/// @param[in] method           impl::LongRowSort::automatic picks by backend (tests force each)
/// @throws DimensionMismatch when the lengths differ
template <class Exec, class Keys, class Values>
void sort_keys_values(const Exec& exec, const Keys& keys, const Values& values,
                      impl::LongRowSort method = impl::LongRowSort::automatic) {
  static_assert(Kokkos::is_execution_space<Exec>::value, "sort_keys_values: exec must be an execution space");
  static_assert(Keys::rank == 1 && Values::rank == 1, "sort_keys_values: keys and values must be rank 1");
  KELP_REQUIRE(keys.extent(0) == values.extent(0), DimensionMismatch,
               "kelp::kernels::sort_keys_values: keys has " << keys.extent(0) << " entries, values has "
                                                           << values.extent(0) << "; they must match");
  impl::sort_segment_views(exec, keys, values, true, method);
}

/// Sorts keys ascending on exec.
template <class Exec, class Keys>
void sort_keys(const Exec& exec, const Keys& keys, impl::LongRowSort method = impl::LongRowSort::automatic) {
  static_assert(Kokkos::is_execution_space<Exec>::value, "sort_keys: exec must be an execution space");
  using NoValues = Kokkos::View<char*, typename Keys::device_type>;
  impl::sort_segment_views(exec, keys, NoValues(), false, method);
}

}  // namespace kelp::kernels
