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

/// The num_rows x num_cols pattern holding each distinct non-negative key once, rows sorted.
/// `keys` is sorted in place. Cost: one sort of the keys (std::sort on the host, Kokkos' BinSort
/// on devices), two passes and a row_map scan.
template <class Device>
Graph<Device> crs_from_keys(Kokkos::View<std::int64_t*, Device> keys, Ordinal num_rows,
                            Ordinal num_cols) {
  using Exec = typename Device::execution_space;
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
