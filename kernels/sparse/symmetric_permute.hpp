#pragma once
/// B = P A P^T: the rows and columns of a square matrix renumbered by one permutation.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp::kernels {

/// Row i of the result is row old_of_new[i] of A, its column j renumbered to new_of_old[j]
/// (the inverse permutation) and the row sorted by column. Values are copied unchanged, so any
/// quantity invariant under a symmetric permutation (the spectrum, traces of matrix functions,
/// <P v| f(B) |P v> = <v| f(A) |v>) is the same for B and A.
///
/// Host work on mirrors: O(nnz log(row length)) time, about 2 nnz extra memory; the result is on
/// A's device. No stencil description (the pattern is new).
/// @throws DimensionMismatch when A is not square or old_of_new has another length,
///         InvalidArgument when old_of_new is not a permutation (names the first repeated or
///         out-of-range entry)
template <class Scalar, class OrdinalT, class OffsetT, class Device>
CrsMatrix<Scalar, OrdinalT, OffsetT, Device> symmetric_permute(
    const CrsMatrix<Scalar, OrdinalT, OffsetT, Device>& A, const std::vector<std::int64_t>& old_of_new) {
  const std::int64_t n = A.num_rows();
  KELP_REQUIRE(A.num_cols() == A.num_rows(), DimensionMismatch,
               "kelp::kernels::symmetric_permute: A is " << A.num_rows() << " x " << A.num_cols()
                                                         << ", expected square");
  KELP_REQUIRE(static_cast<std::int64_t>(old_of_new.size()) == n, DimensionMismatch,
               "kelp::kernels::symmetric_permute: the permutation has " << old_of_new.size()
                   << " entries, A has " << n << " rows");
  std::vector<std::int64_t> new_of_old(static_cast<std::size_t>(n), -1);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t old = old_of_new[static_cast<std::size_t>(i)];
    KELP_REQUIRE(old >= 0 && old < n && new_of_old[static_cast<std::size_t>(old)] < 0, InvalidArgument,
                 "kelp::kernels::symmetric_permute: entry " << i << " of the permutation is " << old
                     << (old >= 0 && old < n ? ", already taken by an earlier entry" : ", outside [0, n)")
                     << "; expected a permutation of 0.." << n - 1);
    new_of_old[static_cast<std::size_t>(old)] = i;
  }
  const auto host = to_host(A);
  using Host = CrsMatrix<Scalar, OrdinalT, OffsetT, HostDevice>;
  typename Host::row_map_type row_map("kelp::CrsMatrix::row_map", n + 1);
  for (std::int64_t i = 0; i < n; ++i) {
    const auto old = old_of_new[static_cast<std::size_t>(i)];
    row_map(i + 1) = row_map(i) + (host.row_map()(old + 1) - host.row_map()(old));
  }
  const std::size_t nnz = static_cast<std::size_t>(row_map(n));
  typename Host::entries_type entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::CrsMatrix::entries"), nnz);
  typename Host::values_type values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::CrsMatrix::values"), nnz);
  std::vector<std::pair<OrdinalT, Scalar>> row;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto old = old_of_new[static_cast<std::size_t>(i)];
    row.clear();
    for (auto k = host.row_map()(old); k < host.row_map()(old + 1); ++k) {
      row.emplace_back(static_cast<OrdinalT>(new_of_old[static_cast<std::size_t>(host.entries()(k))]), host.values()(k));
    }
    std::stable_sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    auto out = static_cast<std::size_t>(row_map(i));
    for (const auto& [col, value] : row) {
      entries(out) = col;
      values(out) = value;
      ++out;
    }
  }
  return copy_to<Device>(Host(static_cast<OrdinalT>(n), static_cast<OrdinalT>(n), row_map, entries, values));
}

}  // namespace kelp::kernels
