#pragma once
/// What an iterative solve reports: numerical outcomes are values, not exceptions.

#include <functional>
#include <string>
#include <vector>

namespace kelp::solvers {

enum class StopReason {
  converged_relative,        ///< ||b - A x|| <= relative_tolerance * ||b||
  converged_absolute,        ///< ||b - A x|| <= absolute_tolerance
  max_iterations,            ///< iteration limit reached first
  breakdown,                 ///< a recurrence divided by an exact zero (e.g. r^T M^{-1} r = 0)
  indefinite_matrix,         ///< p^T A p < 0: A is not positive definite (= 0 is a breakdown)
  indefinite_preconditioner, ///< r^T M^{-1} r < 0: M is not positive definite
  non_finite,                ///< NaN or Inf appeared (in A, b, M or the iterates)
  incompatible_rhs,          ///< b has a component in A's given null space: no solution exists
  diverged,                  ///< ||r|| > divergence_tolerance * ||r_0|| (StoppingRules)
  stagnated,                 ///< no progress for stagnation_window iterations (StoppingRules)
  time_limit,                ///< the wall-time limit was reached (StoppingRules)
};

inline std::string to_string(StopReason reason) {
  switch (reason) {
    case StopReason::converged_relative: return "converged_relative";
    case StopReason::converged_absolute: return "converged_absolute";
    case StopReason::max_iterations: return "max_iterations";
    case StopReason::breakdown: return "breakdown";
    case StopReason::indefinite_matrix: return "indefinite_matrix";
    case StopReason::indefinite_preconditioner: return "indefinite_preconditioner";
    case StopReason::non_finite: return "non_finite";
    case StopReason::incompatible_rhs: return "incompatible_rhs";
    case StopReason::diverged: return "diverged";
    case StopReason::stagnated: return "stagnated";
    case StopReason::time_limit: return "time_limit";
  }
  return "unknown";
}

/// The residual norm a solver's stopping test and residual_history use.
enum class ResidualNorm {
  unpreconditioned,  ///< ||b - A x||: CG, BiCGStab, right-preconditioned and flexible GMRES
  preconditioned,    ///< ||M^{-1} (b - A x)||: left-preconditioned GMRES (what it minimises)
};

inline std::string to_string(ResidualNorm norm) {
  return norm == ResidualNorm::unpreconditioned ? "unpreconditioned" : "preconditioned";
}

/// Result of solve(). Norms are 2-norms of residuals b - A x; residual_norm is the TRUE residual
/// of the returned x, recomputed at exit, never the recurrence's estimate.
struct SolveResult {
  int iterations = 0;
  double rhs_norm = 0;
  double initial_residual_norm = 0;
  double residual_norm = 0;
  StopReason reason = StopReason::max_iterations;
  /// Recurrence residual norm after each iteration, index 0 = initial residual.
  std::vector<double> residual_history;
  /// The Krylov space closed (GMRES: h_{j+1,j} = 0; BiCGStab: s = 0): the iterate is exact up to
  /// rounding. Reported with reason converged_* when the true residual meets the tolerance.
  bool happy_breakdown = false;
  /// The norm of residual_history and of the stopping test (relative_tolerance then multiplies
  /// the same norm of b or r_0). residual_norm is always the unpreconditioned true residual.
  ResidualNorm stopping_norm = ResidualNorm::unpreconditioned;
  /// The stopping norm of the returned x, recomputed at exit (GMRES sets it; where the stopping
  /// norm is unpreconditioned, residual_norm is the same number).
  double stopping_residual_norm = 0;
  /// Free text on how the solve ended (which quantity broke down, restarts, ...); may be empty.
  std::string detail;

  bool converged() const {
    return reason == StopReason::converged_relative || reason == StopReason::converged_absolute;
  }
  /// ||b - A x|| / ||b|| (or the absolute norm when b = 0).
  double relative_residual() const { return rhs_norm > 0 ? residual_norm / rhs_norm : residual_norm; }
};

/// Called after every iteration with (iteration, recurrence residual norm, relative to ||b||).
using IterationMonitor = std::function<void(int, double, double)>;

}  // namespace kelp::solvers
