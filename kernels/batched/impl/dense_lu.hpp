#pragma once
/// LU factorization, solves and inverse of one small dense problem, for any context of
/// contexts.hpp. Status codes as in batched_types.hpp (0, +k zero pivot, -k non-finite pivot);
/// every thread of the context computes the same status, so all of them leave together.

#include "kelp/kernels/batched/impl/dense_blas.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::kernels::batched::impl {

/// Status of pivot p of column k (0-based): 0, k + 1 (|p| <= tiny) or -(k + 1) (not finite).
template <class Scalar, class Magnitude>
KOKKOS_INLINE_FUNCTION int pivot_status(const Scalar& p, const Magnitude tiny, const int k) {
  if (!ScalarTraits<Scalar>::is_finite(p)) return -(k + 1);
  if (ScalarTraits<Scalar>::abs(p) <= tiny) return k + 1;
  return 0;
}

/// A = L U in place without pivoting (L unit lower, U upper). Returns the status.
template <class Ctx, class AView, class Magnitude>
KOKKOS_INLINE_FUNCTION int lu_nopivot(const Ctx& ctx, const AView& A, const Magnitude tiny) {
  using Scalar = typename AView::non_const_value_type;
  const int n = int(A.extent(0));
  for (int k = 0; k < n; ++k) {
    const Scalar p = A(k, k);
    const int status = pivot_status(p, tiny, k);
    if (status != 0) return status;
    ctx.for_range(n - k - 1, [&](const int r) { A(k + 1 + r, k) = A(k + 1 + r, k) / p; });
    ctx.barrier();
    ctx.for_2d(n - k - 1, n - k - 1, [&](const int r, const int c) {
      A(k + 1 + r, k + 1 + c) -= A(k + 1 + r, k) * A(k, k + 1 + c);
    });
    ctx.barrier();
  }
  return 0;
}

/// P A = L U in place with partial pivoting (row interchanges as LAPACK's getrf: at step k rows
/// k and piv(k) were swapped, 0-based). Returns the status; on failure A and piv are partial.
template <class Ctx, class AView, class PivView, class Magnitude>
KOKKOS_INLINE_FUNCTION int lu_pivot(const Ctx& ctx, const AView& A, const PivView& piv,
                                    const Magnitude tiny) {
  using Scalar = typename AView::non_const_value_type;
  using Traits = ScalarTraits<Scalar>;
  const int n = int(A.extent(0));
  for (int k = 0; k < n; ++k) {
    // Every thread searches the column (n - k reads, cheap next to the update): no reduction and
    // no broadcast is needed, and all threads agree on the pivot row.
    int p = k;
    auto best = Traits::abs(A(k, k));
    bool finite = Traits::is_finite(A(k, k));
    for (int i = k + 1; i < n; ++i) {
      const auto v = Traits::abs(A(i, k));
      finite = finite && Traits::is_finite(A(i, k));
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (!finite) return -(k + 1);
    if (best <= tiny) return k + 1;
    ctx.barrier();  // everyone has read column k before rows are swapped
    ctx.single([&]() { piv(k) = p; });
    if (p != k) {
      ctx.for_range(n, [&](const int j) {
        const Scalar t = A(k, j);
        A(k, j) = A(p, j);
        A(p, j) = t;
      });
      ctx.barrier();
    }
    const Scalar pivot = A(k, k);
    ctx.for_range(n - k - 1, [&](const int r) { A(k + 1 + r, k) = A(k + 1 + r, k) / pivot; });
    ctx.barrier();
    ctx.for_2d(n - k - 1, n - k - 1, [&](const int r, const int c) {
      A(k + 1 + r, k + 1 + c) -= A(k + 1 + r, k) * A(k, k + 1 + c);
    });
    ctx.barrier();
  }
  return 0;
}

/// Applies the interchanges piv (from lu_pivot) to the rows of B (n x nrhs), in order.
template <class Ctx, class PivView, class BView>
KOKKOS_INLINE_FUNCTION void apply_pivots(const Ctx& ctx, const PivView& piv, const BView& B) {
  using Scalar = typename BView::non_const_value_type;
  const int n = int(piv.extent(0));
  const int nrhs = int(B.extent(1));
  // Columns are independent: each thread applies all the swaps to its own columns.
  ctx.for_range(nrhs, [&](const int c) {
    for (int k = 0; k < n; ++k) {
      const int p = piv(k);
      if (p != k) {
        const Scalar t = B(k, c);
        B(k, c) = B(p, c);
        B(p, c) = t;
      }
    }
  });
  ctx.barrier();
}

/// Vector form of apply_pivots (one thread applies the swaps: they are sequential).
template <class Ctx, class PivView, class XView>
KOKKOS_INLINE_FUNCTION void apply_pivots_vector(const Ctx& ctx, const PivView& piv, const XView& b) {
  using Scalar = typename XView::non_const_value_type;
  const int n = int(piv.extent(0));
  ctx.single([&]() {
    for (int k = 0; k < n; ++k) {
      const int p = piv(k);
      if (p != k) {
        const Scalar t = b(k);
        b(k) = b(p);
        b(p) = t;
      }
    }
  });
  ctx.barrier();
}

/// b = A^{-1} b with A = P^T L U from lu_pivot.
template <class Ctx, class AView, class PivView, class XView>
KOKKOS_INLINE_FUNCTION void lu_solve(const Ctx& ctx, const AView& LU, const PivView& piv, const XView& b) {
  apply_pivots_vector(ctx, piv, b);
  trsv(ctx, Uplo::lower, Diag::unit, LU, b);
  trsv(ctx, Uplo::upper, Diag::non_unit, LU, b);
}

/// B = A^{-1} B for n x nrhs B, with A = P^T L U from lu_pivot.
template <class Ctx, class AView, class PivView, class BView>
KOKKOS_INLINE_FUNCTION void lu_solve_multi(const Ctx& ctx, const AView& LU, const PivView& piv,
                                           const BView& B) {
  apply_pivots(ctx, piv, B);
  trsm(ctx, Uplo::lower, Diag::unit, LU, B);
  trsm(ctx, Uplo::upper, Diag::non_unit, LU, B);
}

/// Ainv = A^{-1} from the factors of lu_pivot.
template <class Ctx, class AView, class PivView, class InvView>
KOKKOS_INLINE_FUNCTION void lu_inverse(const Ctx& ctx, const AView& LU, const PivView& piv,
                                       const InvView& Ainv) {
  set_identity(ctx, Ainv);
  lu_solve_multi(ctx, LU, piv, Ainv);
}

}  // namespace kelp::kernels::batched::impl
