#pragma once
/// Diagonal of a CRS matrix.

#include <type_traits>
#include <utility>

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp::kernels {

namespace impl {
/// The row loop of extract_diagonal (a named functor: the diagonal is taken of the same matrix
/// type in several .cpp files; docs/conventions.md on nvcc's lambdas).
template <class Matrix, class DiagView>
struct ExtractDiagonal {
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;
  std::decay_t<decltype(std::declval<const Matrix&>().row_map())> row_map;
  std::decay_t<decltype(std::declval<const Matrix&>().entries())> entries;
  std::decay_t<decltype(std::declval<const Matrix&>().values())> values;
  DiagView diag;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    Scalar d = Scalar(0);
    for (Offset k = row_map(i); k < row_map(i + 1); ++k) {
      if (entries(k) == i) d += values(k);
    }
    diag(i) = d;
  }
};
}  // namespace impl

/// diag(i) = A(i, i) (summed over duplicates, 0 where the diagonal entry is absent), for
/// i < min(num_rows, num_cols). One pass over A's rows.
/// @param[out] diag  rank-1 view of length min(num_rows, num_cols), in A's memory space
/// @param[in] exec  the instance the pass runs on (extract_diagonal(A, diag): a default one)
template <class Matrix, class DiagView>
void extract_diagonal(const typename Matrix::execution_space& exec, const Matrix& A, const DiagView& diag) {
  using Ordinal = typename Matrix::ordinal_type;
  const Ordinal n = A.num_rows() < A.num_cols() ? A.num_rows() : A.num_cols();
  KELP_REQUIRE(static_cast<long long>(diag.extent(0)) == n, DimensionMismatch,
               "kelp::kernels::extract_diagonal: diag has " << diag.extent(0)
                   << " entries, expected " << n << " for a " << A.num_rows() << " x "
                   << A.num_cols() << " matrix");
  Kokkos::parallel_for("kelp::kernels::extract_diagonal",
                       Kokkos::RangePolicy<typename Matrix::execution_space>(exec, 0, n),
                       impl::ExtractDiagonal<Matrix, DiagView>{A.row_map(), A.entries(), A.values(), diag});
}

template <class Matrix, class DiagView>
void extract_diagonal(const Matrix& A, const DiagView& diag) {
  extract_diagonal(typename Matrix::execution_space(), A, diag);
}

}  // namespace kelp::kernels
