#pragma once
/// Sparse matrix addition C = αA + βB with symbolic and numeric phases.
///
/// A and B may have unsorted rows and duplicate entries; C's rows are sorted with unique columns
/// (duplicates of A or B are summed into one entry). The pattern of C is the union of the
/// patterns: entries that cancel numerically stay as explicit zeros, so C's pattern does not
/// depend on values.
///  - symbolic: per row, A's and B's columns are concatenated into a scratch row, sorted
///    (kernels::sort_rows' row sort), counted without repeats, prefix-summed into C's row_map and
///    copied out unique;
///  - numeric: one thread per row; each entry of A and B finds its column in C's sorted row by
///    binary search and adds its scaled value (no atomics: the thread owns the row).
///
/// Example:
///   kernels::SpaddHandle<Matrix> handle;
///   Matrix C;
///   kernels::spadd_symbolic(handle, A, B, C);
///   kernels::spadd_numeric(handle, alpha, A, beta, B, C);

#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/sparse/impl/row_scan.hpp"
#include "kelp/kernels/sparse/sort_rows.hpp"
#include "kelp/kernels/spadd/spadd_handle.hpp"
#include "kelp/kernels/spgemm/impl/spgemm_rows.hpp"
#include "kelp/kernels/spgemm/spgemm.hpp"

namespace kelp::kernels {

/// Symbolic phase of C = αA + βB: C's pattern, kept in handle; allocates C (values
/// uninitialised).
///
/// @param[in] A, B  matrices of the same shape; unsorted rows and duplicates allowed
/// @param[out] C    same shape, sorted unique columns per row
/// @param[in] exec  the instance all the work runs on (fenced before returning)
/// @throws DimensionMismatch when the shapes differ
template <class Matrix>
void spadd_symbolic(const typename Matrix::execution_space& exec, SpaddHandle<Matrix>& handle,
                    const Matrix& A, const Matrix& B, Matrix& C) {
  using Exec = typename Matrix::execution_space;
  using OrdinalT = typename Matrix::ordinal_type;
  using OffsetT = typename Matrix::offset_type;
  using Device = typename Matrix::device_type;
  constexpr const char* where = "kelp::kernels::spadd_symbolic";
  KELP_REQUIRE(A.num_rows() == B.num_rows() && A.num_cols() == B.num_cols(), DimensionMismatch,
               where << ": dimension mismatch: A is " << impl::shape_string(A.num_rows(), A.num_cols())
                     << ", B is " << impl::shape_string(B.num_rows(), B.num_cols())
                     << "; they must have the same shape");
  const OrdinalT num_rows = A.num_rows();
  const auto a_row_map = A.row_map();
  const auto a_entries = A.entries();
  const auto b_row_map = B.row_map();
  const auto b_entries = B.entries();

  // Concatenated rows (A's columns, then B's), sorted: the union with repeats.
  Kokkos::View<OffsetT*, Device> counts(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spadd::counts"), num_rows);
  Kokkos::parallel_for(
      "kelp::kernels::spadd_symbolic(lengths)", Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
      KOKKOS_LAMBDA(const OrdinalT i) {
        counts(i) = a_row_map(i + 1) - a_row_map(i) + b_row_map(i + 1) - b_row_map(i);
      });
  // row_maps without initialisation: counts_to_row_map writes every entry (on exec).
  typename Matrix::row_map_type merged_map(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spadd::merged_row_map"),
      static_cast<std::size_t>(num_rows) + 1);
  const long long merged_nnz = impl::counts_to_row_map(exec, where, counts, merged_map, num_rows);
  typename Matrix::entries_type merged(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spadd::merged"), merged_nnz);
  Kokkos::parallel_for(
      "kelp::kernels::spadd_symbolic(concatenate)", Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
      KOKKOS_LAMBDA(const OrdinalT i) {
        OffsetT out = merged_map(i);
        for (OffsetT k = a_row_map(i); k < a_row_map(i + 1); ++k) merged(out++) = a_entries(k);
        for (OffsetT k = b_row_map(i); k < b_row_map(i + 1); ++k) merged(out++) = b_entries(k);
      });
  impl::sort_graph_rows(exec, num_rows, merged_map, merged);

  // Unique columns: count, prefix-sum, copy.
  Kokkos::parallel_for(
      "kelp::kernels::spadd_symbolic(count)", Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
      KOKKOS_LAMBDA(const OrdinalT i) {
        OffsetT count = 0;
        for (OffsetT k = merged_map(i); k < merged_map(i + 1); ++k) {
          if (k == merged_map(i) || merged(k) != merged(k - 1)) ++count;
        }
        counts(i) = count;
      });
  typename Matrix::row_map_type row_map(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spadd::row_map"),
      static_cast<std::size_t>(num_rows) + 1);
  const long long nnz = impl::counts_to_row_map(exec, where, counts, row_map, num_rows);
  typename Matrix::entries_type entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spadd::entries"), nnz);
  Kokkos::parallel_for(
      "kelp::kernels::spadd_symbolic(unique)", Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
      KOKKOS_LAMBDA(const OrdinalT i) {
        OffsetT out = row_map(i);
        for (OffsetT k = merged_map(i); k < merged_map(i + 1); ++k) {
          if (k == merged_map(i) || merged(k) != merged(k - 1)) entries(out++) = merged(k);
        }
      });
  typename Matrix::values_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spadd::values"), nnz);
  exec.fence();

  auto& state = handle.state();
  state.a = pattern_fingerprint(exec, A);
  state.b = pattern_fingerprint(exec, B);
  state.row_map = row_map;
  state.entries = entries;
  state.done = true;
  C = Matrix(num_rows, A.num_cols(), row_map, entries, values);
}

/// spadd_symbolic on a default instance of the matrices' execution space.
template <class Matrix>
void spadd_symbolic(SpaddHandle<Matrix>& handle, const Matrix& A, const Matrix& B, Matrix& C) {
  spadd_symbolic(typename Matrix::execution_space(), handle, A, B, C);
}

/// Numeric phase of C = αA + βB (values only, with the pattern of spadd_symbolic).
///
/// @param[in] A, B  the patterns that spadd_symbolic saw; any values
/// @param[in,out] C the matrix spadd_symbolic produced; values overwritten
/// @throws InvalidState before spadd_symbolic or when a pattern changed; DimensionMismatch when
///         a shape changed; InvalidArgument when C is another matrix. Messages name both sides.
/// @param[in] exec  the instance all the work runs on (fenced before returning)
template <class Matrix>
void spadd_numeric(const typename Matrix::execution_space& exec, SpaddHandle<Matrix>& handle,
                   typename Matrix::scalar_type alpha, const Matrix& A,
                   typename Matrix::scalar_type beta, const Matrix& B, Matrix& C) {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  using OrdinalT = typename Matrix::ordinal_type;
  using OffsetT = typename Matrix::offset_type;
  constexpr const char* where = "kelp::kernels::spadd_numeric";
  const auto& state = handle.state();
  KELP_REQUIRE(state.done, InvalidState,
               where << ": called before spadd_symbolic (the handle has no symbolic phase)");
  const PatternFingerprint a = pattern_fingerprint(exec, A);
  const PatternFingerprint b = pattern_fingerprint(exec, B);
  KELP_REQUIRE(a.num_rows == state.a.num_rows && a.num_cols == state.a.num_cols &&
                   b.num_rows == state.b.num_rows && b.num_cols == state.b.num_cols,
               DimensionMismatch,
               where << ": dimension mismatch: A is " << impl::shape_string(a.num_rows, a.num_cols)
                     << ", B is " << impl::shape_string(b.num_rows, b.num_cols)
                     << "; the symbolic phase saw A " << impl::shape_string(state.a.num_rows, state.a.num_cols)
                     << ", B " << impl::shape_string(state.b.num_rows, state.b.num_cols));
  KELP_REQUIRE(a == state.a, InvalidState,
               where << ": A's pattern differs from the one the symbolic phase saw: A is now "
                     << impl::fingerprint_string(a) << ", was " << impl::fingerprint_string(state.a)
                     << " (run spadd_symbolic again for a new pattern)");
  KELP_REQUIRE(b == state.b, InvalidState,
               where << ": B's pattern differs from the one the symbolic phase saw: B is now "
                     << impl::fingerprint_string(b) << ", was " << impl::fingerprint_string(state.b)
                     << " (run spadd_symbolic again for a new pattern)");
  KELP_REQUIRE(C.num_rows() == state.a.num_rows && C.num_cols() == state.a.num_cols &&
                   C.entries().data() == state.entries.data() &&
                   C.values().extent(0) == state.entries.extent(0),
               InvalidArgument,
               where << ": C (" << impl::shape_string(C.num_rows(), C.num_cols()) << " with "
                     << C.nnz() << " entries) is not the matrix that spadd_symbolic produced ("
                     << impl::shape_string(state.a.num_rows, state.a.num_cols) << " with "
                     << state.entries.extent(0) << " entries)");
  const auto a_row_map = A.row_map();
  const auto a_entries = A.entries();
  const auto a_values = A.values();
  const auto b_row_map = B.row_map();
  const auto b_entries = B.entries();
  const auto b_values = B.values();
  const auto c_row_map = C.row_map();
  const auto c_entries = C.entries();
  const auto c_values = C.values();
  Kokkos::parallel_for(
      "kelp::kernels::spadd_numeric", Kokkos::RangePolicy<Exec>(exec, 0, C.num_rows()),
      KOKKOS_LAMBDA(const OrdinalT i) {
        const OffsetT begin = c_row_map(i);
        const OffsetT end = c_row_map(i + 1);
        for (OffsetT k = begin; k < end; ++k) c_values(k) = Scalar(0);
        for (OffsetT k = a_row_map(i); k < a_row_map(i + 1); ++k) {
          c_values(impl::lower_bound(c_entries, begin, end, a_entries(k))) += alpha * a_values(k);
        }
        for (OffsetT k = b_row_map(i); k < b_row_map(i + 1); ++k) {
          c_values(impl::lower_bound(c_entries, begin, end, b_entries(k))) += beta * b_values(k);
        }
      });
  exec.fence();
}

/// spadd_numeric on a default instance of the matrices' execution space.
template <class Matrix>
void spadd_numeric(SpaddHandle<Matrix>& handle, typename Matrix::scalar_type alpha,
                   const Matrix& A, typename Matrix::scalar_type beta, const Matrix& B, Matrix& C) {
  spadd_numeric(typename Matrix::execution_space(), handle, alpha, A, beta, B, C);
}

/// C = αA + βB in one call on exec (symbolic and numeric with a temporary handle).
template <class Matrix>
Matrix spadd(const typename Matrix::execution_space& exec, typename Matrix::scalar_type alpha,
             const Matrix& A, typename Matrix::scalar_type beta, const Matrix& B) {
  SpaddHandle<Matrix> handle;
  Matrix C;
  spadd_symbolic(exec, handle, A, B, C);
  spadd_numeric(exec, handle, alpha, A, beta, B, C);
  return C;
}

/// C = αA + βB in one call (symbolic and numeric with a temporary handle).
template <class Matrix>
Matrix spadd(typename Matrix::scalar_type alpha, const Matrix& A,
             typename Matrix::scalar_type beta, const Matrix& B) {
  return spadd(typename Matrix::execution_space(), alpha, A, beta, B);
}

#define KELP_SPADD_ETI(PREFIX, S)                                                           \
  PREFIX template void spadd_symbolic<CrsMatrix<S>>(                                        \
      const CrsMatrix<S>::execution_space&, SpaddHandle<CrsMatrix<S>>&, const CrsMatrix<S>&, \
      const CrsMatrix<S>&, CrsMatrix<S>&);                                                  \
  PREFIX template void spadd_numeric<CrsMatrix<S>>(                                         \
      const CrsMatrix<S>::execution_space&, SpaddHandle<CrsMatrix<S>>&, S, const CrsMatrix<S>&, \
      S, const CrsMatrix<S>&, CrsMatrix<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_SPADD_ETI, extern)

}  // namespace kelp::kernels
