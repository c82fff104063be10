#pragma once
/// What every Krylov solver (CG, GMRES, BiCGStab) checks and does the same way: the operator and
/// preconditioner at construction, the right-hand sides that need no iteration, the true residual.

#include <cmath>
#include <string>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers::impl {

/// Construction checks: A and M given, A square, M the shape of A, and, where the method is not
/// flexible (`fixed_hint` not empty), M a fixed linear operator; `fixed_hint` ends the message
/// that says why and what to use instead.
template <class Op>
void check_operator_and_preconditioner(const Op* A, const Op* M, const std::string& where,
                                       const std::string& fixed_hint) {
  KELP_REQUIRE(A != nullptr && M != nullptr, InvalidArgument,
               where << ": operator and preconditioner must not be null");
  KELP_REQUIRE(A->num_rows() == A->num_cols(), DimensionMismatch,
               where << ": operator is " << A->num_rows() << " x " << A->num_cols()
                     << ", expected square");
  KELP_REQUIRE(M->num_rows() == A->num_rows() && M->num_cols() == A->num_cols(), DimensionMismatch,
               where << ": preconditioner is " << M->num_rows() << " x " << M->num_cols()
                     << ", operator is " << A->num_rows() << " x " << A->num_cols());
  KELP_REQUIRE(fixed_hint.empty() || !M->is_variable(), InvalidArgument,
               where << ": the preconditioner '" << M->summary()
                     << "' changes from one application to the next" << fixed_hint);
}

/// Settles the right-hand sides that need no iteration and returns true for them: a non-finite
/// ||b|| (reason non_finite) and b = 0, whose solution is x = 0 exactly (x is overwritten).
template <class Vector>
bool settle_trivial_rhs(double rhs_norm, const Vector& x, SolveResult& result) {
  using Scalar = typename Vector::non_const_value_type;
  if (!std::isfinite(rhs_norm)) {
    result.reason = StopReason::non_finite;
    result.residual_norm = result.initial_residual_norm = rhs_norm;
    return true;
  }
  if (rhs_norm == 0) {
    kernels::fill(x, Scalar(0));
    result.reason = StopReason::converged_absolute;
    result.residual_history.push_back(0);
    return true;
  }
  return false;
}

/// r = b - A x; returns ||r||, summed over processes by `reduce`.
template <class Op, class Reduction, class ConstVector, class Vector>
double true_residual(const Op& A, const Reduction& reduce, const ConstVector& b,
                     const ConstVector& x, const Vector& r) {
  using Scalar = typename Vector::non_const_value_type;
  A.apply(x, r, Scalar(-1), Scalar(0));
  kernels::axpby(Scalar(1), b, Scalar(1), r);
  return reduce.norm2(r);
}

}  // namespace kelp::solvers::impl
