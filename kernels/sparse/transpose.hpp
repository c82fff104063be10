#pragma once
/// Transpose and conjugate transpose of a CRS matrix, as a new matrix.
///
///   B = A^T  (B(j, i) = A(i, j))   or   B = A^H  (B(j, i) = conj(A(i, j)))
///
/// Three passes: count the entries of each column (atomics), prefix-sum the counts into B's
/// row_map, scatter each entry to its column's next free slot (atomics), then sort B's rows, so
/// the result has sorted rows whatever order the scatter took. Duplicate entries of A stay
/// duplicates in B. Memory: B plus one counter per column of A.

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/sparse/impl/row_scan.hpp"
#include "kelp/kernels/sparse/sort_rows.hpp"

namespace kelp::kernels {

/// B = A^T, or B = A^H when `conjugate` (the same as A^T for real scalars).
///
/// @param[in] exec  the instance all passes run on (fenced before returning)
/// @param[in] A     any CRS matrix (rows need not be sorted; empty rows and 0 x n shapes are fine)
/// @return          a num_cols x num_rows matrix with sorted rows, in A's memory space
template <class Matrix>
Matrix transpose(const typename Matrix::execution_space& exec, const Matrix& A, bool conjugate = false) {
  using Exec = typename Matrix::execution_space;
  using Scalar = typename Matrix::scalar_type;
  using OrdinalT = typename Matrix::ordinal_type;
  using OffsetT = typename Matrix::offset_type;
  const OrdinalT num_rows = A.num_rows();
  const OrdinalT num_cols = A.num_cols();
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto values = A.values();

  // Zeroed on exec (a labelled allocation would zero it on the default instance).
  Kokkos::View<OffsetT*, typename Matrix::device_type> cursor(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::transpose::cursor"),
      static_cast<std::size_t>(num_cols) + 1);
  Kokkos::deep_copy(exec, cursor, OffsetT(0));
  Kokkos::parallel_for(
      "kelp::kernels::transpose(count)", Kokkos::RangePolicy<Exec>(exec, 0, A.nnz()),
      KOKKOS_LAMBDA(const OffsetT k) { Kokkos::atomic_increment(&cursor(entries(k))); });
  typename Matrix::row_map_type out_row_map(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::transpose::row_map"),
      static_cast<std::size_t>(num_cols) + 1);
  impl::counts_to_row_map(exec, "kelp::kernels::transpose", cursor, out_row_map, num_cols);
  Kokkos::deep_copy(exec, cursor, out_row_map);

  typename Matrix::entries_type out_entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::transpose::entries"), A.nnz());
  typename Matrix::values_type out_values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::transpose::values"), A.nnz());
  const bool conj = conjugate && ScalarTraits<Scalar>::is_complex;
  Kokkos::parallel_for(
      "kelp::kernels::transpose(scatter)", Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
      KOKKOS_LAMBDA(const OrdinalT i) {
        for (OffsetT k = row_map(i); k < row_map(i + 1); ++k) {
          const OffsetT slot = Kokkos::atomic_fetch_add(&cursor(entries(k)), OffsetT(1));
          out_entries(slot) = i;
          out_values(slot) = conj ? ScalarTraits<Scalar>::conj(values(k)) : values(k);
        }
      });
  impl::sort_crs_rows(exec, num_cols, out_row_map, out_entries, out_values, true);
  exec.fence();
  return Matrix(num_cols, num_rows, out_row_map, out_entries, out_values);
}

/// transpose on a default instance of A's execution space.
template <class Matrix>
Matrix transpose(const Matrix& A, bool conjugate = false) {
  return transpose(typename Matrix::execution_space(), A, conjugate);
}

#define KELP_TRANSPOSE_ETI(PREFIX, S) \
  PREFIX template CrsMatrix<S> transpose<CrsMatrix<S>>(const CrsMatrix<S>::execution_space&, \
                                                       const CrsMatrix<S>&, bool);
KELP_ETI_FOR_EACH_SCALAR(KELP_TRANSPOSE_ETI, extern)

}  // namespace kelp::kernels
