#pragma once
/// What every Krylov solver (CG and its variants, GMRES, BiCGStab) checks and does the same way:
/// the operator and preconditioner at construction, the shapes of b and x, the start of a solve
/// (zero guess, ||b||, the right-hand sides that need no iteration), the residual record of each
/// iteration, the true residual and the result at the end.

#include <cmath>
#include <sstream>
#include <string>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/initial_guess.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/types.hpp"
#include "kelp/solvers/solve_result.hpp"
#include "kelp/solvers/stopping.hpp"

namespace kelp::solvers::impl {

/// Construction checks: A and M given, A square, M set up and the shape of A, and, where the method is not
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
  // An empty M in front of a non-empty A is a preconditioner not set up yet: say so, not "0 x 0".
  KELP_REQUIRE(!(M->num_rows() == 0 && M->num_cols() == 0 && A->num_rows() > 0), InvalidState,
               where << ": the preconditioner '" << M->summary()
                     << "' is not set up (0 x 0); call its setup(A) (or setup_symbolic and "
                        "setup_numeric) before constructing the solver");
  KELP_REQUIRE(M->num_rows() == A->num_rows() && M->num_cols() == A->num_cols(), DimensionMismatch,
               where << ": preconditioner is " << M->num_rows() << " x " << M->num_cols()
                     << ", operator is " << A->num_rows() << " x " << A->num_cols());
  KELP_REQUIRE(fixed_hint.empty() || !M->is_variable(), InvalidArgument,
               where << ": the preconditioner '" << M->summary()
                     << "' changes from one application to the next" << fixed_hint);
}

/// A solver's summary(): "<method> (max_iterations N, relative_tolerance T) preconditioned by
/// <M's summary>".
template <class Op>
std::string solver_summary(const char* method, const StoppingRules& rules, const Op& M) {
  std::ostringstream out;
  out << method << " (max_iterations " << rules.max_iterations << ", relative_tolerance "
      << rules.relative_tolerance << ") preconditioned by " << M.summary();
  return out.str();
}

/// solve(b, x) checks: b and x both have the operator's n rows, and x does not share memory
/// with b (the iteration overwrites x while it still reads b: solve(b, b) drove x to 0 and
/// reported "converged" for a residual of a b that was gone); `where` names the solve.
template <class ConstVector, class Vector>
void check_solve_dimensions(const char* where, Ordinal n, const ConstVector& b, const Vector& x) {
  KELP_REQUIRE(static_cast<Ordinal>(b.extent(0)) == n && static_cast<Ordinal>(x.extent(0)) == n,
               DimensionMismatch,
               where << ": dimension mismatch: operator is " << n << " x " << n << ", b has "
                     << b.extent(0) << " rows, x has " << x.extent(0));
  KELP_REQUIRE(!kelp::impl::memory_overlaps(b, x), InvalidArgument,
               where << ": x and b overlap in memory; pass the solution in a vector of its own "
                        "(copy b first to solve in place)");
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

/// The start every solve shares: x = 0 for a zero guess (x is not read), result.rhs_norm = ||b||
/// (summed over processes by `reduce`), then settle_trivial_rhs. Returns true when b needs no
/// iteration (result is then final).
template <class Reduction, class ConstVector, class Vector>
bool begin_solve(const Reduction& reduce, const ConstVector& b, const Vector& x,
                 InitialGuess guess, SolveResult& result) {
  using Scalar = typename Vector::non_const_value_type;
  if (guess == InitialGuess::zero) kernels::fill(x, Scalar(0));
  result.rhs_norm = reduce.norm2(b);
  return settle_trivial_rhs(result.rhs_norm, x, result);
}

/// The residual norm the iteration starts from: the reference of the relative stopping rules
/// (relative_to = initial_residual), the reported initial residual and the first history entry.
inline void record_initial_residual(double r_norm, StoppingState& stopping, SolveResult& result) {
  stopping.set_initial_residual(r_norm);
  result.initial_residual_norm = r_norm;
  result.residual_history.push_back(r_norm);
}

/// After iteration `it`: its residual norm into the history and to the monitor (with the norm
/// relative to `reference`, ||b|| or the stopping norm's equivalent).
inline void record_iteration(SolveResult& result, const IterationMonitor& monitor, int it,
                             double r_norm, double reference) {
  result.residual_history.push_back(r_norm);
  if (monitor) monitor(it, r_norm, r_norm / reference);
}

/// True (and reason non_finite) when a residual norm is NaN or Inf: the solve must stop.
inline bool non_finite(double r_norm, StopReason& reason) {
  if (std::isfinite(r_norm)) return false;
  reason = StopReason::non_finite;
  return true;
}

/// q = A p and returns p^H q summed over processes by `reduce`; one pass when the operator fuses
/// them (Operator::try_apply_and_dot).
template <class Op, class Reduction, class ConstVector, class Vector>
typename Vector::non_const_value_type apply_and_dot(const Op& A, const Reduction& reduce,
                                                    const ConstVector& p, const Vector& q) {
  typename Vector::non_const_value_type pq{};
  if (A.try_apply_and_dot(p, q, pq)) {
    reduce.sum(&pq, 1);
    return pq;
  }
  A.apply(p, q);
  return reduce.dot(p, q);
}

/// A "converged" that `norm` (the stopping norm of the returned x, recomputed) does not meet
/// the tolerance with becomes max_iterations: convergence is only ever claimed on it.
inline void confirm_convergence(SolveResult& result, double norm, double tolerance) {
  if (result.converged() && !(norm <= tolerance)) result.reason = StopReason::max_iterations;
}

/// The end every solve shares: iterations, reason and the TRUE residual norm of the returned x
/// into result, the convergence claim checked against it (confirm_convergence).
inline void finish_result(SolveResult& result, int iterations, StopReason reason,
                          double true_norm, double tolerance) {
  result.iterations = iterations;
  result.reason = reason;
  result.residual_norm = true_norm;
  confirm_convergence(result, true_norm, tolerance);
}

/// As an operator, a solver applies an approximate A^{-1}: y = alpha * x_s + beta * y, x_s
/// solving A x_s = x from a zero initial guess into the work vector `solution`.
template <class Solver, class ConstVector, class Vector, class Scalar>
void apply_inverse(const Solver& solver, const ConstVector& x, const Vector& solution,
                   Scalar alpha, Scalar beta, const Vector& y) {
  solver.solve(x, solution, InitialGuess::zero);
  kernels::axpby(alpha, solution, beta, y);
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
