#pragma once
/// Builds a sorted, duplicate-free CRS pattern from a list of (row, column) keys.

#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>

#include "kelp/kernels/graph/graph_types.hpp"

namespace kelp::kernels::impl {

/// key = row * num_cols + col; negative keys are ignored (callers mark dropped entries with -1).
KOKKOS_INLINE_FUNCTION std::int64_t edge_key(Ordinal row, Ordinal col, Ordinal num_cols) {
  return static_cast<std::int64_t>(row) * num_cols + col;
}

/// `keys` without its negative (dropped) entries: `keys` itself when it has none, else a compact
/// copy. Why before the sort: Kokkos 3.4's device sort (BinSort) orders each bin serially, by
/// insertion, so the thousands of equal -1 keys of dropped diagonals or intra-aggregate edges
/// in one bin cost O(k^2) steps on one GPU thread (minutes on the H100 for the real matrices).
template <class Device>
Kokkos::View<std::int64_t*, Device> without_negative_keys(Kokkos::View<std::int64_t*, Device> keys) {
  using Exec = typename Device::execution_space;
  const std::int64_t count = static_cast<std::int64_t>(keys.extent(0));
  std::int64_t kept = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::graph::crs_from_keys::count_kept", Kokkos::RangePolicy<Exec>(0, count),
      KOKKOS_LAMBDA(const std::int64_t k, std::int64_t& sum) { sum += keys(k) >= 0 ? 1 : 0; },
      kept);
  if (kept == count) return keys;
  Kokkos::View<std::int64_t*, Device> compact(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::graph::kept_keys"), kept);
  Kokkos::parallel_scan(
      "kelp::kernels::graph::crs_from_keys::compact", Kokkos::RangePolicy<Exec>(0, count),
      KOKKOS_LAMBDA(const std::int64_t k, std::int64_t& position, const bool final) {
        const std::int64_t key = keys(k);
        if (key >= 0) {
          if (final) compact(position) = key;
          ++position;
        }
      });
  return compact;
}

/// The num_rows x num_cols pattern holding each distinct non-negative key once, rows sorted.
/// `keys` is sorted in place when it has no negative keys (else a compact copy is). Cost: one
/// sort of the kept keys (std::sort on the host, Kokkos' BinSort on devices), three passes and a
/// row_map scan.
template <class Device>
Graph<Device> crs_from_keys(Kokkos::View<std::int64_t*, Device> all_keys, Ordinal num_rows,
                            Ordinal num_cols) {
  using Exec = typename Device::execution_space;
  const Kokkos::View<std::int64_t*, Device> keys = without_negative_keys(all_keys);
  const std::int64_t count = static_cast<std::int64_t>(keys.extent(0));
  if (count > 1) Kokkos::sort(keys);
  // A key is kept when it is non-negative and differs from its predecessor.
  Kokkos::View<Offset*, Device> row_map("kelp::kernels::graph::row_map", num_rows + 1);
  Offset nnz = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::graph::crs_from_keys::count", Kokkos::RangePolicy<Exec>(0, count),
      KOKKOS_LAMBDA(const std::int64_t k, Offset& kept) {
        const std::int64_t key = keys(k);
        if (key >= 0 && (k == 0 || keys(k - 1) != key)) {
          Kokkos::atomic_increment(&row_map(key / num_cols + 1));
          ++kept;
        }
      },
      nnz);
  Kokkos::parallel_scan(
      "kelp::kernels::graph::crs_from_keys::row_map", Kokkos::RangePolicy<Exec>(0, num_rows + 1),
      KOKKOS_LAMBDA(const Ordinal i, Offset& sum, const bool final) {
        sum += row_map(i);
        if (final) row_map(i) = sum;
      });
  Kokkos::View<Ordinal*, Device> entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::graph::entries"), nnz);
  Kokkos::parallel_scan(
      "kelp::kernels::graph::crs_from_keys::fill", Kokkos::RangePolicy<Exec>(0, count),
      KOKKOS_LAMBDA(const std::int64_t k, Offset& position, const bool final) {
        const std::int64_t key = keys(k);
        if (key >= 0 && (k == 0 || keys(k - 1) != key)) {
          if (final) entries(position) = static_cast<Ordinal>(key % num_cols);
          ++position;
        }
      });
  return Graph<Device>(num_rows, num_cols, row_map, entries);
}

}  // namespace kelp::kernels::impl
