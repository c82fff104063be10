#pragma once
/// A smoother run as a stand-alone stationary solver: x <- x + M^{-1} (b - A x) until the true
/// residual meets a tolerance (Gauss-Seidel / SOR iteration, damped Jacobi, Chebyshev, ...).

#include <algorithm>
#include <cmath>

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/blas1/norms.hpp"
#include "kelp/kernels/core/initial_guess.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/precond/smoother.hpp"
#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers {

struct StationaryParams {
  double relative_tolerance = 1e-8;  ///< stop when ||b - A x|| <= this * ||b||
  double absolute_tolerance = 0;     ///< or when ||b - A x|| <= this
  int max_iterations = 1000;         ///< sweeps (a symmetric sweep counts once)
  int check_every = 1;               ///< sweeps between residual checks (each one SpMV)
};

/// Runs `smoother` (set up on the matrix of A) on A x = b from x (guess: provided) or from 0.
/// Per check: one SpMV and one norm; the result's residual_norm is the true residual of x.
/// @throws InvalidArgument for a negative tolerance, max_iterations < 0 or check_every < 1;
///         the smoother's and the operator's checks (setup, lengths) otherwise
template <class Matrix, class Op>
SolveResult stationary_solve(const precond::Smoother<Matrix>& smoother, const Op& A,
                             typename Op::const_vector_type b, typename Op::vector_type x,
                             const StationaryParams& params,
                             InitialGuess guess = InitialGuess::provided) {
  using Scalar = typename Op::scalar_type;
  KELP_REQUIRE(params.relative_tolerance >= 0 && params.absolute_tolerance >= 0, InvalidArgument,
               "kelp::solvers::stationary_solve: tolerances must be >= 0 (relative "
                   << params.relative_tolerance << ", absolute " << params.absolute_tolerance << ")");
  KELP_REQUIRE(params.max_iterations >= 0 && params.check_every >= 1, InvalidArgument,
               "kelp::solvers::stationary_solve: max_iterations = " << params.max_iterations
                   << " (expected >= 0), check_every = " << params.check_every << " (expected >= 1)");
  KELP_REQUIRE(!kelp::impl::memory_overlaps(b, x), InvalidArgument,
               "kelp::solvers::stationary_solve: x and b overlap in memory; pass the solution in a vector of its own");
  typename Op::vector_type r(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::solvers::stationary::r"),
                             b.extent(0));
  if (guess == InitialGuess::zero) kernels::fill(x, Scalar(0));
  const auto residual_norm = [&]() {
    A.apply(x, r, Scalar(-1), Scalar(0));  // r = b - A x
    kernels::axpby(Scalar(1), b, Scalar(1), r);
    return static_cast<double>(kernels::nrm2(r));
  };
  SolveResult result;
  result.rhs_norm = static_cast<double>(kernels::nrm2(b));
  result.initial_residual_norm = residual_norm();
  result.residual_norm = result.initial_residual_norm;
  result.residual_history.push_back(result.residual_norm);
  const auto stop = [&](double norm) {
    if (!std::isfinite(norm)) return StopReason::non_finite;
    if (norm <= params.absolute_tolerance) return StopReason::converged_absolute;
    if (norm <= params.relative_tolerance * result.rhs_norm) return StopReason::converged_relative;
    return StopReason::max_iterations;
  };
  result.reason = stop(result.residual_norm);
  while (result.reason == StopReason::max_iterations && result.iterations < params.max_iterations) {
    const int sweeps = std::min(params.check_every, params.max_iterations - result.iterations);
    smoother.smooth(b, x, sweeps);
    result.iterations += sweeps;
    result.residual_norm = residual_norm();
    result.residual_history.push_back(result.residual_norm);
    result.reason = stop(result.residual_norm);
  }
  return result;
}

}  // namespace kelp::solvers
