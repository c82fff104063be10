#pragma once
/// Diagonal of a CRS matrix.

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp::kernels {

/// diag(i) = A(i, i) (summed over duplicates, 0 where the diagonal entry is absent), for
/// i < min(num_rows, num_cols). One pass over A's rows.
/// @param[out] diag  rank-1 view of length min(num_rows, num_cols), in A's memory space
template <class Matrix, class DiagView>
void extract_diagonal(const Matrix& A, const DiagView& diag) {
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;
  const Ordinal n = A.num_rows() < A.num_cols() ? A.num_rows() : A.num_cols();
  KELP_REQUIRE(static_cast<long long>(diag.extent(0)) == n, DimensionMismatch,
               "kelp::kernels::extract_diagonal: diag has " << diag.extent(0)
                   << " entries, expected " << n << " for a " << A.num_rows() << " x "
                   << A.num_cols() << " matrix");
  auto row_map = A.row_map();
  auto entries = A.entries();
  auto values = A.values();
  Kokkos::parallel_for(
      "kelp::kernels::extract_diagonal",
      Kokkos::RangePolicy<typename Matrix::execution_space>(0, n), KOKKOS_LAMBDA(const Ordinal i) {
        Scalar d = Scalar(0);
        for (Offset k = row_map(i); k < row_map(i + 1); ++k) {
          if (entries(k) == i) d += values(k);
        }
        diag(i) = d;
      });
}

}  // namespace kelp::kernels
