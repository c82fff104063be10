#pragma once
/// Assembly of a CrsMatrix from coordinate (COO) triplets.

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <string>
#include <vector>

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp {

/// Builds a CRS matrix from triplets (rows[k], cols[k], values[k]), 0-based.
///
/// Rows come out sorted by column; duplicate (row, col) pairs are summed (as Matrix Market and
/// finite-element assembly expect); explicit zeros are kept. Host work: O(nnz log(row length))
/// time, about 2 x nnz extra memory. The result is copied to Device.
/// @param[in] num_rows, num_cols  matrix dimensions (>= 0)
/// @param[in] rows, cols, values  triplets; equal lengths; every index inside the dimensions
/// @throws DimensionMismatch when the triplet arrays differ in length,
///         InvalidArgument when an index lies outside the matrix (names the triplet and index)
template <class Scalar, class OrdinalT = Ordinal, class OffsetT = Offset,
          class Device = DefaultDevice>
CrsMatrix<Scalar, OrdinalT, OffsetT, Device> crs_from_coo(OrdinalT num_rows, OrdinalT num_cols,
                                                         const std::vector<OrdinalT>& rows,
                                                         const std::vector<OrdinalT>& cols,
                                                         const std::vector<Scalar>& values) {
  KELP_REQUIRE(num_rows >= 0 && num_cols >= 0, InvalidArgument,
               "kelp::crs_from_coo: negative dimensions " << num_rows << " x " << num_cols);
  KELP_REQUIRE(rows.size() == cols.size() && rows.size() == values.size(), DimensionMismatch,
               "kelp::crs_from_coo: triplet arrays differ in length: rows " << rows.size()
                   << ", cols " << cols.size() << ", values " << values.size());
  const std::size_t num_triplets = rows.size();
  for (std::size_t k = 0; k < num_triplets; ++k) {
    KELP_REQUIRE(rows[k] >= 0 && rows[k] < num_rows && cols[k] >= 0 && cols[k] < num_cols,
                 InvalidArgument,
                 "kelp::crs_from_coo: triplet " << k << " has index (" << rows[k] << ", "
                     << cols[k] << ") outside the " << num_rows << " x " << num_cols
                     << " matrix (indices are 0-based)");
  }

  // Counting sort by row, then sort each row by column and merge duplicates in place.
  std::vector<OffsetT> row_start(static_cast<std::size_t>(num_rows) + 1, 0);
  for (std::size_t k = 0; k < num_triplets; ++k) ++row_start[rows[k] + 1];
  std::partial_sum(row_start.begin(), row_start.end(), row_start.begin());
  std::vector<std::pair<OrdinalT, Scalar>> sorted(num_triplets);
  {
    std::vector<OffsetT> next(row_start.begin(), row_start.end() - 1);
    for (std::size_t k = 0; k < num_triplets; ++k) sorted[next[rows[k]]++] = {cols[k], values[k]};
  }

  using Host = CrsMatrix<Scalar, OrdinalT, OffsetT, HostDevice>;
  typename Host::row_map_type row_map("kelp::CrsMatrix::row_map", num_rows + 1);
  std::vector<OrdinalT> merged_cols;
  std::vector<Scalar> merged_values;
  merged_cols.reserve(num_triplets);
  merged_values.reserve(num_triplets);
  for (OrdinalT i = 0; i < num_rows; ++i) {
    auto first = sorted.begin() + row_start[i];
    auto last = sorted.begin() + row_start[i + 1];
    std::stable_sort(first, last, [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto it = first; it != last; ++it) {
      if (it != first && it->first == merged_cols.back()) {
        merged_values.back() += it->second;
      } else {
        merged_cols.push_back(it->first);
        merged_values.push_back(it->second);
      }
    }
    row_map(i + 1) = static_cast<OffsetT>(merged_cols.size());
  }

  const std::size_t nnz = merged_cols.size();
  typename Host::entries_type entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::CrsMatrix::entries"), nnz);
  typename Host::values_type vals(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::CrsMatrix::values"), nnz);
  std::copy(merged_cols.begin(), merged_cols.end(), entries.data());
  std::copy(merged_values.begin(), merged_values.end(), vals.data());
  return copy_to<Device>(Host(num_rows, num_cols, row_map, entries, vals));
}

}  // namespace kelp
