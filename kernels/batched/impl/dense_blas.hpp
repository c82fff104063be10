#pragma once
/// BLAS on one small dense problem, for any context of contexts.hpp. Matrices are rank-2 views
/// (a subview of a batch), vectors rank-1 views. beta = 0 never reads the output (NaN there does
/// not propagate). Each routine ends with a barrier: its results are visible to the whole context.

#include "kelp/kernels/batched/batched_types.hpp"
#include "kelp/kernels/batched/impl/contexts.hpp"

namespace kelp::kernels::batched::impl {

/// A = I (A may be rectangular: ones on its main diagonal).
template <class Ctx, class AView>
KOKKOS_INLINE_FUNCTION void set_identity(const Ctx& ctx, const AView& A) {
  using Scalar = typename AView::non_const_value_type;
  ctx.for_2d(int(A.extent(0)), int(A.extent(1)),
             [&](const int i, const int j) { A(i, j) = i == j ? Scalar(1) : Scalar(0); });
  ctx.barrier();
}

/// A = alpha * A.
template <class Ctx, class Scalar, class AView>
KOKKOS_INLINE_FUNCTION void scale(const Ctx& ctx, const Scalar alpha, const AView& A) {
  ctx.for_2d(int(A.extent(0)), int(A.extent(1)),
             [&](const int i, const int j) { A(i, j) = alpha * A(i, j); });
  ctx.barrier();
}

/// B = A.
template <class Ctx, class AView, class BView>
KOKKOS_INLINE_FUNCTION void copy(const Ctx& ctx, const AView& A, const BView& B) {
  ctx.for_2d(int(A.extent(0)), int(A.extent(1)), [&](const int i, const int j) { B(i, j) = A(i, j); });
  ctx.barrier();
}

/// C = alpha * A * B + beta * C  (A m x k, B k x n, C m x n). One thread per entry of C.
template <class Ctx, class Scalar, class AView, class BView, class CView>
KOKKOS_INLINE_FUNCTION void gemm(const Ctx& ctx, const Scalar alpha, const AView& A, const BView& B,
                                 const Scalar beta, const CView& C) {
  const int k = int(A.extent(1));
  ctx.for_2d(int(C.extent(0)), int(C.extent(1)), [&](const int i, const int j) {
    Scalar sum = Scalar(0);
    for (int l = 0; l < k; ++l) sum += A(i, l) * B(l, j);
    C(i, j) = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * C(i, j);
  });
  ctx.barrier();
}

/// y = alpha * A * x + beta * y  (A m x n).
template <class Ctx, class Scalar, class AView, class XView, class YView>
KOKKOS_INLINE_FUNCTION void gemv(const Ctx& ctx, const Scalar alpha, const AView& A, const XView& x,
                                 const Scalar beta, const YView& y) {
  const int n = int(A.extent(1));
  ctx.for_range(int(A.extent(0)), [&](const int i) {
    Scalar sum = Scalar(0);
    for (int j = 0; j < n; ++j) sum += A(i, j) * x(j);
    y(i) = beta == Scalar(0) ? alpha * sum : alpha * sum + beta * y(i);
  });
  ctx.barrier();
}

/// B = op(A)^{-1} B in place, with op(A) the lower or upper triangle of the square A (unit: its
/// diagonal taken as ones, not read), B n x nrhs. Column-oriented: step k finishes row k of B
/// and updates the rows after it (before it, for upper), one barrier per step.
template <class Ctx, class AView, class BView>
KOKKOS_INLINE_FUNCTION void trsm(const Ctx& ctx, const Uplo uplo, const Diag diag, const AView& A,
                                 const BView& B) {
  using Scalar = typename BView::non_const_value_type;
  const int n = int(A.extent(0));
  const int nrhs = int(B.extent(1));
  const bool unit = diag == Diag::unit;
  for (int step = 0; step < n; ++step) {
    const int k = uplo == Uplo::lower ? step : n - 1 - step;
    const int begin = uplo == Uplo::lower ? k + 1 : 0;
    const int count = uplo == Uplo::lower ? n - k - 1 : k;
    const Scalar akk = unit ? Scalar(1) : A(k, k);
    ctx.for_2d(count, nrhs, [&](const int r, const int c) {
      const int i = begin + r;
      B(i, c) -= A(i, k) * (B(k, c) / akk);
    });
    ctx.barrier();  // row k is read above by every thread before it is scaled below
    if (!unit) ctx.for_range(nrhs, [&](const int c) { B(k, c) = B(k, c) / akk; });
  }
  ctx.barrier();
}

/// b = op(A)^{-1} b in place for one vector (trsm with one right-hand side).
template <class Ctx, class AView, class XView>
KOKKOS_INLINE_FUNCTION void trsv(const Ctx& ctx, const Uplo uplo, const Diag diag, const AView& A,
                                 const XView& b) {
  using Scalar = typename XView::non_const_value_type;
  const int n = int(A.extent(0));
  const bool unit = diag == Diag::unit;
  for (int step = 0; step < n; ++step) {
    const int k = uplo == Uplo::lower ? step : n - 1 - step;
    const int begin = uplo == Uplo::lower ? k + 1 : 0;
    const int count = uplo == Uplo::lower ? n - k - 1 : k;
    const Scalar akk = unit ? Scalar(1) : A(k, k);
    ctx.for_range(count, [&](const int r) { b(begin + r) -= A(begin + r, k) * (b(k) / akk); });
    ctx.barrier();
    if (!unit) ctx.single([&]() { b(k) = b(k) / akk; });
  }
  ctx.barrier();
}

/// B = alpha * tri(A) * B in place (left side, A n x n, B n x nrhs). Columns of B are
/// independent: each thread owns whole columns, and within a column the rows are overwritten in
/// the order that keeps the rows still needed (bottom-up for lower, top-down for upper).
template <class Ctx, class Scalar, class AView, class BView>
KOKKOS_INLINE_FUNCTION void trmm(const Ctx& ctx, const Uplo uplo, const Diag diag, const Scalar alpha,
                                 const AView& A, const BView& B) {
  const int n = int(A.extent(0));
  const bool unit = diag == Diag::unit;
  ctx.for_range(int(B.extent(1)), [&](const int c) {
    for (int step = 0; step < n; ++step) {
      const int i = uplo == Uplo::lower ? n - 1 - step : step;
      Scalar sum = unit ? B(i, c) : A(i, i) * B(i, c);
      const int begin = uplo == Uplo::lower ? 0 : i + 1;
      const int end = uplo == Uplo::lower ? i : n;
      for (int k = begin; k < end; ++k) sum += A(i, k) * B(k, c);
      B(i, c) = alpha * sum;
    }
  });
  ctx.barrier();
}

/// tri(A) = tri(A)^{-1} in place (LAPACK's trti2: column by column, each column a triangular
/// product with the part already inverted). Returns 0, or k + 1 when the diagonal entry k is zero
/// (A then partly overwritten). The recurrence is sequential: one thread of the context does it,
/// the batch gives the parallelism.
template <class Ctx, class AView>
KOKKOS_INLINE_FUNCTION int trtri(const Ctx& ctx, const Uplo uplo, const Diag diag, const AView& A) {
  using Scalar = typename AView::non_const_value_type;
  const int n = int(A.extent(0));
  const bool unit = diag == Diag::unit;
  if (!unit) {
    for (int k = 0; k < n; ++k) {
      if (A(k, k) == Scalar(0)) return k + 1;
    }
  }
  ctx.barrier();  // every thread has checked the diagonal before it changes
  ctx.single([&]() {
    for (int step = 0; step < n; ++step) {
      const int j = uplo == Uplo::upper ? step : n - 1 - step;
      if (!unit) A(j, j) = Scalar(1) / A(j, j);
      const Scalar ajj = unit ? Scalar(-1) : -A(j, j);
      if (uplo == Uplo::upper) {  // column j above the diagonal: x = triu(inv) * x, top-down
        for (int i = 0; i < j; ++i) {
          Scalar sum = unit ? A(i, j) : A(i, i) * A(i, j);
          for (int k = i + 1; k < j; ++k) sum += A(i, k) * A(k, j);
          A(i, j) = ajj * sum;
        }
      } else {  // column j below the diagonal: x = tril(inv) * x, bottom-up
        for (int i = n - 1; i > j; --i) {
          Scalar sum = unit ? A(i, j) : A(i, i) * A(i, j);
          for (int k = j + 1; k < i; ++k) sum += A(i, k) * A(k, j);
          A(i, j) = ajj * sum;
        }
      }
    }
  });
  ctx.barrier();
  return 0;
}

}  // namespace kelp::kernels::batched::impl
