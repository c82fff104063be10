#pragma once
/// Sparse matrix-vector and matrix-multi-vector products (SpMV / SpMMV).
///
///   y = beta * y + alpha * op(A) * x,   op in {A, A^T, conj(A), A^H}
///
/// x and y are rank-1 views (SpMV) or rank-2 views with one column per right-hand side (SpMMV,
/// LayoutLeft or LayoutRight). beta = 0 overwrites y without reading it, so NaN in y does not
/// propagate; alpha = 0 scales y without reading x or A. x and y must not overlap.
/// Algorithms for A and conj(A): row-parallel, merge-path, adaptive and, for matrices that carry
/// a stencil description, stencil (spmv_handle.hpp); transposed modes scatter with atomics. With a handle, the pattern analysis is done once per matrix.
///
/// Every overload also takes an execution-space instance of the matrix's execution space first
/// (as Kokkos Kernels does; kernels/core/execution_space.hpp): all of the product's kernels, the
/// pattern analysis and the timed algorithm choice included, then run on that instance. The
/// call does not fence it (except to analyse a new pattern), so on a GPU the product can overlap
/// work in other streams.
///
/// Example:
///   kernels::SpmvHandle<Matrix> handle;                       // automatic algorithm choice
///   kernels::spmv(handle, SpmvMode::no_transpose, 1.0, A, x, 0.0, y);
///   kernels::spmv(exec, handle, SpmvMode::no_transpose, 1.0, A, x, 0.0, y);   // on instance exec

#include <type_traits>

#include "kelp/kernels/core/column_access.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/execution_space.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/kernels/core/standard_views.hpp"
#include "kelp/kernels/spmv/impl/spmv_adaptive.hpp"
#include "kelp/kernels/spmv/impl/spmv_merge_path.hpp"
#include "kelp/kernels/spmv/impl/spmv_row_parallel.hpp"
#include "kelp/kernels/spmv/impl/spmv_stencil.hpp"
#include "kelp/kernels/spmv/impl/spmv_timing.hpp"
#include "kelp/kernels/spmv/impl/spmv_transpose.hpp"
#include "kelp/kernels/spmv/spmv_handle.hpp"

namespace kelp::kernels {

namespace impl {
template <class Matrix, class XView, class YView>
void check_spmv_arguments(SpmvMode mode, const Matrix& A, const XView& x, const YView& y) {
  static_assert(static_cast<int>(XView::rank) == static_cast<int>(YView::rank), "spmv: x and y must both be vectors or both multi-vectors");
  static_assert(XView::rank == 1 || XView::rank == 2, "spmv: x and y must be rank-1 or rank-2 views");
  static_assert(std::is_same<typename YView::non_const_value_type, typename Matrix::scalar_type>::value,
                "spmv: y must have the matrix's scalar type");
  static_assert(std::is_same<typename XView::non_const_value_type, typename Matrix::scalar_type>::value,
                "spmv: x must have the matrix's scalar type");
  static_assert(Kokkos::SpaceAccessibility<typename Matrix::execution_space,
                                           typename XView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<typename Matrix::execution_space,
                                               typename YView::memory_space>::accessible,
                "spmv: x and y must be accessible from the matrix's execution space");
  const bool transposed = mode == SpmvMode::transpose || mode == SpmvMode::conjugate_transpose;
  const long long in = transposed ? A.num_rows() : A.num_cols();
  const long long out = transposed ? A.num_cols() : A.num_rows();
  KELP_REQUIRE(static_cast<long long>(x.extent(0)) == in, DimensionMismatch,
               "kelp::kernels::spmv: dimension mismatch: A is " << A.num_rows() << " x " << A.num_cols()
                   << " (mode " << to_string(mode) << "), x has " << x.extent(0)
                   << " rows, expected " << in);
  KELP_REQUIRE(static_cast<long long>(y.extent(0)) == out, DimensionMismatch,
               "kelp::kernels::spmv: dimension mismatch: A is " << A.num_rows() << " x " << A.num_cols()
                   << " (mode " << to_string(mode) << "), y has " << y.extent(0)
                   << " rows, expected " << out);
  if constexpr (XView::rank == 2) {
    KELP_REQUIRE(x.extent(1) == y.extent(1), DimensionMismatch,
                 "kelp::kernels::spmv: dimension mismatch: x has " << x.extent(1)
                     << " columns, y has " << y.extent(1));
  }
  KELP_REQUIRE(x.span() == 0 || y.span() == 0 ||
                   static_cast<const void*>(x.data()) != static_cast<const void*>(y.data()),
               InvalidArgument, "kelp::kernels::spmv: x and y are the same array; y must not alias x");
}
}  // namespace impl

namespace impl {
/// The SpMV/SpMMV body for one (matrix, x, y) type triple, on exec; x and y already checked.
/// Instantiated once per standard type in kernels/spmv/eti/ (see the extern templates below).
template <class Matrix, class XView, class YView>
void spmv_body(const typename Matrix::execution_space& exec, SpmvHandle<Matrix>& handle,
               SpmvMode mode, typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
               typename Matrix::scalar_type beta, const YView& y) {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  const auto X = kelp::impl::as_columns(x);
  const auto Y = kelp::impl::as_columns(y);
  using XC = decltype(X);
  using YC = decltype(Y);

  if (alpha == Scalar(0)) {  // BLAS semantics: op(A) and x are not read
    Kokkos::parallel_for("kelp::kernels::spmv(scale)", Kokkos::RangePolicy<Exec>(exec, 0, y.extent(0)),
                         ScaleRows<YC, Scalar>{Y, beta, Y.extent(1)});
    return;
  }
  switch (mode) {
    case SpmvMode::transpose:
      spmv_transpose<false>(exec, alpha, A, X, beta, Y);
      return;
    case SpmvMode::conjugate_transpose:
      spmv_transpose<true>(exec, alpha, A, X, beta, Y);
      return;
    case SpmvMode::no_transpose:
    case SpmvMode::conjugate:
      break;
  }
  handle.analyze(exec, A);
  if (handle.needs_timing()) handle.set_timed_choice(time_algorithms(exec, handle, A));
  const bool conj = mode == SpmvMode::conjugate && ScalarTraits<Scalar>::is_complex;
  if (handle.algorithm() == SpmvAlgorithm::adaptive) {
    if (conj) {
      spmv_adaptive<true, Matrix, XC, YC>(exec, handle, alpha, A, X, beta, Y);
    } else {
      spmv_adaptive<false, Matrix, XC, YC>(exec, handle, alpha, A, X, beta, Y);
    }
  } else if (handle.algorithm() == SpmvAlgorithm::stencil) {
    if (conj) {
      spmv_stencil<true, Matrix, XC, YC>(exec, alpha, A, X, beta, Y);
    } else {
      spmv_stencil<false, Matrix, XC, YC>(exec, alpha, A, X, beta, Y);
    }
  } else if (handle.algorithm() == SpmvAlgorithm::merge_path) {
    if (conj) {
      spmv_merge_path<true, Matrix, XC, YC>(exec, handle, alpha, A, X, beta, Y);
    } else {
      spmv_merge_path<false, Matrix, XC, YC>(exec, handle, alpha, A, X, beta, Y);
    }
  } else if (conj) {
    spmv_row_parallel<true, Matrix, XC, YC>(exec, handle.statistics(), alpha, A, X, beta, Y);
  } else {
    spmv_row_parallel<false, Matrix, XC, YC>(exec, handle.statistics(), alpha, A, X, beta, Y);
  }
}
}  // namespace impl

namespace impl {
/// The fused product and dot for one (matrix, vector) type pair; see spmv_dot.
template <class Matrix, class XView, class YView>
bool spmv_dot_body(const typename Matrix::execution_space& exec, SpmvHandle<Matrix>& handle,
                   const Matrix& A, const XView& x, const YView& y,
                   typename Matrix::scalar_type& dot) {
  if (A.num_rows() == 0) return false;
  handle.analyze(exec, A);
  if (handle.needs_timing()) handle.set_timed_choice(time_algorithms(exec, handle, A));
  if (handle.algorithm() != SpmvAlgorithm::adaptive) return false;
  return spmv_adaptive_dot(exec, handle, A, kelp::impl::as_columns(x), kelp::impl::as_columns(y), dot);
}
}  // namespace impl

/// y = A x and, in the same pass, dot = conj(x)^T y over this process's rows (A square: the
/// p^H A p of CG), when the handle's algorithm can fuse them (adaptive with one lane per row,
/// the GPU choice for regular matrices); returns false and does nothing otherwise, and the
/// caller computes both separately. Saves one pass over x and y and one launch.
/// @throws DimensionMismatch when A is not square or x, y do not match it
template <class Matrix, class XView, class YView>
bool spmv_dot(SpmvHandle<Matrix>& handle, const Matrix& A, const XView& x, const YView& y,
              typename Matrix::scalar_type& dot) {
  static_assert(XView::rank == 1 && YView::rank == 1, "spmv_dot: x and y must be vectors");
  using Device = typename Matrix::device_type;
  static_assert(kelp::impl::has_standard_form<XView, Device>::value &&
                    kelp::impl::has_standard_form<YView, Device>::value,
                "spmv_dot: x and y must be contiguous vectors in the matrix's device");
  KELP_REQUIRE(A.num_rows() == A.num_cols(), DimensionMismatch,
               "kelp::kernels::spmv_dot: A is " << A.num_rows() << " x " << A.num_cols()
                                                << ", expected square");
  impl::check_spmv_arguments(SpmvMode::no_transpose, A, x, y);
  const ProfilingRegion region("kelp::kernels::spmv");
  using XS = typename kelp::impl::has_standard_form<XView, Device>::const_type;
  using YS = typename kelp::impl::has_standard_form<YView, Device>::type;
  return impl::spmv_dot_body<Matrix, XS, YS>(typename Matrix::execution_space(), handle, A, XS(x),
                                              YS(y), dot);
}

/// y = beta*y + alpha*op(A)*x on the execution-space instance exec, using (and, on first use,
/// filling) an analysis handle.
/// @param[in] exec        an instance of the matrix's execution space; every kernel runs on it
/// @param[in,out] handle  pattern analysis and algorithm choice for A (see SpmvHandle)
/// @param[in] mode        op: no_transpose, transpose, conjugate or conjugate_transpose
/// @param[in] x           rank-1 (SpMV) or rank-2 (SpMMV) view; rows = columns of op(A)
/// @param[in,out] y       same rank as x; rows = rows of op(A); same number of columns as x
/// @throws DimensionMismatch when shapes don't conform, InvalidArgument when x aliases y
/// Views of the standard forms (contiguous vectors, LayoutLeft/LayoutRight multi-vectors, in
/// A's device) run the body compiled once in the library; other views compile it here.
template <class ExecSpace, class Matrix, class XView, class YView,
          kelp::impl::if_execution_space<ExecSpace> = 0>
void spmv(const ExecSpace& exec, SpmvHandle<Matrix>& handle, SpmvMode mode,
          typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
          typename Matrix::scalar_type beta, const YView& y) {
  static_assert(std::is_same<ExecSpace, typename Matrix::execution_space>::value,
                "spmv: exec must be an instance of the matrix's execution space");
  impl::check_spmv_arguments(mode, A, x, y);
  const ProfilingRegion region("kelp::kernels::spmv");
  using Device = typename Matrix::device_type;
  if constexpr (kelp::impl::has_standard_form<XView, Device>::value &&
                kelp::impl::has_standard_form<YView, Device>::value) {
    using XS = typename kelp::impl::has_standard_form<XView, Device>::const_type;
    using YS = typename kelp::impl::has_standard_form<YView, Device>::type;
    impl::spmv_body<Matrix, XS, YS>(exec, handle, mode, alpha, A, XS(x), beta, YS(y));
  } else {
    impl::spmv_body<Matrix, XView, YView>(exec, handle, mode, alpha, A, x, beta, y);
  }
}

/// y = beta*y + alpha*op(A)*x using (and, on first use, filling) an analysis handle, on a
/// default instance of the matrix's execution space. Parameters as above.
template <class Matrix, class XView, class YView>
void spmv(SpmvHandle<Matrix>& handle, SpmvMode mode, typename Matrix::scalar_type alpha,
          const Matrix& A, const XView& x, typename Matrix::scalar_type beta, const YView& y) {
  spmv(typename Matrix::execution_space(), handle, mode, alpha, A, x, beta, y);
}

/// y = beta*y + alpha*op(A)*x on exec with a one-off handle (automatic algorithm). On parallel
/// execution spaces this re-analyses A on every call: keep a SpmvHandle when calling repeatedly.
template <class ExecSpace, class Matrix, class XView, class YView,
          kelp::impl::if_execution_space<ExecSpace> = 0>
void spmv(const ExecSpace& exec, SpmvMode mode, typename Matrix::scalar_type alpha,
          const Matrix& A, const XView& x, typename Matrix::scalar_type beta, const YView& y) {
  SpmvHandle<Matrix> handle;
  handle.disable_timing();  // timing would cost more than the one product it serves
  spmv(exec, handle, mode, alpha, A, x, beta, y);
}

/// y = beta*y + alpha*op(A)*x with a one-off handle (automatic algorithm). On parallel execution
/// spaces this re-analyses A on every call: keep a SpmvHandle when calling repeatedly.
template <class Matrix, class XView, class YView>
void spmv(SpmvMode mode, typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
          typename Matrix::scalar_type beta, const YView& y) {
  spmv(typename Matrix::execution_space(), mode, alpha, A, x, beta, y);
}

/// y = beta*y + alpha*A*x on exec.
template <class ExecSpace, class Matrix, class XView, class YView,
          kelp::impl::if_execution_space<ExecSpace> = 0>
void spmv(const ExecSpace& exec, typename Matrix::scalar_type alpha, const Matrix& A,
          const XView& x, typename Matrix::scalar_type beta, const YView& y) {
  spmv(exec, SpmvMode::no_transpose, alpha, A, x, beta, y);
}

/// y = beta*y + alpha*A*x.
template <class Matrix, class XView, class YView>
void spmv(typename Matrix::scalar_type alpha, const Matrix& A, const XView& x,
          typename Matrix::scalar_type beta, const YView& y) {
  spmv(SpmvMode::no_transpose, alpha, A, x, beta, y);
}

// The bodies for Kelp's standard types are compiled once, in kernels/spmv/eti/, for instances of
// the matrix's (the default) execution space.
#define KELP_SPMV_ETI(PREFIX, SCALAR)                                                           \
  PREFIX template class SpmvHandle<CrsMatrix<SCALAR>>;                                          \
  PREFIX template void impl::spmv_body(                                                         \
      const CrsMatrix<SCALAR>::execution_space&, SpmvHandle<CrsMatrix<SCALAR>>&, SpmvMode,      \
      SCALAR, const CrsMatrix<SCALAR>&, const ConstVectorView<SCALAR>&, SCALAR,                 \
      const VectorView<SCALAR>&);                                                               \
  PREFIX template void impl::spmv_body(                                                         \
      const CrsMatrix<SCALAR>::execution_space&, SpmvHandle<CrsMatrix<SCALAR>>&, SpmvMode,      \
      SCALAR, const CrsMatrix<SCALAR>&, const ConstMultiVectorView<SCALAR, Kokkos::LayoutLeft>&, \
      SCALAR, const MultiVectorView<SCALAR, Kokkos::LayoutLeft>&);                              \
  PREFIX template void impl::spmv_body(                                                         \
      const CrsMatrix<SCALAR>::execution_space&, SpmvHandle<CrsMatrix<SCALAR>>&, SpmvMode,      \
      SCALAR, const CrsMatrix<SCALAR>&,                                                         \
      const ConstMultiVectorView<SCALAR, Kokkos::LayoutRight>&, SCALAR,                         \
      const MultiVectorView<SCALAR, Kokkos::LayoutRight>&);                                  \
  PREFIX template bool impl::spmv_dot_body(                                                     \
      const CrsMatrix<SCALAR>::execution_space&, SpmvHandle<CrsMatrix<SCALAR>>&,               \
      const CrsMatrix<SCALAR>&, const ConstVectorView<SCALAR>&, const VectorView<SCALAR>&,      \
      SCALAR&);
KELP_ETI_FOR_EACH_SCALAR(KELP_SPMV_ETI, extern)

}  // namespace kelp::kernels
