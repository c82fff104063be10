#pragma once
/// Stopping rules shared by every Krylov solver, as PETSc (KSPSetTolerances) and hypre users know
/// them: a tolerance relative to ||b|| or to ||r_0||, an absolute tolerance, a divergence
/// tolerance, stagnation detection, an iteration limit and a wall-time limit.
///
/// Solvers keep their own recurrences; they ask one StoppingState, built once per solve, whether
/// a residual norm has converged (converged) and whether the solve must stop for another reason
/// (must_stop). The true residual is still checked at the end by each solver.
///
/// Example:
///   solvers::StoppingRules rules;
///   rules.relative_tolerance = 1e-6;
///   rules.relative_to = solvers::ToleranceReference::initial_residual;   // PETSc's default
///   rules.divergence_tolerance = 1e5;
///   StoppingState stop(rules, rhs_norm, r0_norm);
///   if (stop.converged(r_norm, reason) || stop.must_stop(it, r_norm, reason)) break;

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "kelp/kernels/core/error.hpp"
#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers {

/// What relative_tolerance is relative to.
enum class ToleranceReference {
  rhs,               ///< ||r|| <= relative_tolerance * ||b|| (hypre's and Kelp's default)
  initial_residual,  ///< ||r|| <= relative_tolerance * ||r_0|| (PETSc's default)
};

inline std::string to_string(ToleranceReference reference) {
  return reference == ToleranceReference::rhs ? "rhs" : "initial_residual";
}

/// The stopping rules; every solver's parameters inherit them.
struct StoppingRules {
  /// Iteration limit; 1000 suits well-preconditioned problems up to ~10^7 unknowns.
  int max_iterations = 1000;
  /// Stop when ||b - A x|| <= relative_tolerance * (||b|| or ||r_0||, see relative_to).
  double relative_tolerance = 1e-8;
  /// Or when ||b - A x|| <= absolute_tolerance. Default 0: relative test only.
  double absolute_tolerance = 0.0;
  /// The reference norm of relative_tolerance. Default ||b||.
  ToleranceReference relative_to = ToleranceReference::rhs;
  /// Stop (diverged) when ||r|| > divergence_tolerance * ||r_0||. 0 (default): never.
  double divergence_tolerance = 0.0;
  /// Stop (stagnated) when stagnation_window iterations in a row did not reduce the smallest
  /// residual norm seen so far by a factor (1 - stagnation_reduction). 0 (default): never.
  int stagnation_window = 0;
  /// The relative decrease that counts as progress for stagnation_window. Default 1e-3.
  double stagnation_reduction = 1e-3;
  /// Stop (time_limit) when the solve has run this many seconds. 0 (default): no limit.
  double time_limit_seconds = 0.0;
};

/// Throws InvalidArgument, naming `where` and the field, when a rule is out of range.
inline void check_stopping_rules(const StoppingRules& rules, const char* where) {
  KELP_REQUIRE(rules.max_iterations >= 0, InvalidArgument,
               where << ": max_iterations = " << rules.max_iterations << " < 0");
  KELP_REQUIRE(rules.relative_tolerance >= 0 && rules.absolute_tolerance >= 0, InvalidArgument,
               where << ": tolerances must be >= 0 (relative_tolerance = " << rules.relative_tolerance
                     << ", absolute_tolerance = " << rules.absolute_tolerance << ")");
  KELP_REQUIRE(rules.divergence_tolerance == 0 || rules.divergence_tolerance >= 1, InvalidArgument,
               where << ": divergence_tolerance = " << rules.divergence_tolerance
                     << ", expected 0 (off) or >= 1");
  KELP_REQUIRE(rules.stagnation_window >= 0, InvalidArgument,
               where << ": stagnation_window = " << rules.stagnation_window << " < 0");
  KELP_REQUIRE(rules.stagnation_reduction > 0 && rules.stagnation_reduction < 1, InvalidArgument,
               where << ": stagnation_reduction = " << rules.stagnation_reduction
                     << ", expected 0 < stagnation_reduction < 1");
  KELP_REQUIRE(rules.time_limit_seconds >= 0, InvalidArgument,
               where << ": time_limit_seconds = " << rules.time_limit_seconds << " < 0");
}

/// The stopping rules applied to one solve. Host only; holds the clock of the solve.
class StoppingState {
 public:
  using Clock = std::chrono::steady_clock;

  /// Starts the clock. rhs_norm = ||b||; call set_initial_residual once ||r_0|| is known.
  StoppingState(const StoppingRules& rules, double rhs_norm)
      : rules_(rules), rhs_norm_(rhs_norm), start_(Clock::now()) {}

  /// Records ||r_0||: the reference of relative_to = initial_residual and of divergence.
  void set_initial_residual(double r0_norm) {
    r0_norm_ = r0_norm;
    best_ = r0_norm;
    best_iteration_ = 0;
  }

  /// The norm relative_tolerance multiplies.
  double reference_norm() const {
    return rules_.relative_to == ToleranceReference::rhs ? rhs_norm_ : r0_norm_;
  }
  /// max(relative_tolerance * reference, absolute_tolerance).
  double tolerance() const {
    return std::max(rules_.relative_tolerance * reference_norm(), rules_.absolute_tolerance);
  }

  /// True when r_norm meets the tolerance; sets converged_relative or converged_absolute.
  bool converged(double r_norm, StopReason& reason) const {
    if (!(r_norm <= tolerance())) return false;
    reason = r_norm <= rules_.relative_tolerance * reference_norm() ? StopReason::converged_relative
                                                                     : StopReason::converged_absolute;
    return true;
  }

  /// After iteration `iteration` with residual norm r_norm: true (and reason) when the solve
  /// must stop for non-finite values, divergence, stagnation or the time limit. The iteration
  /// limit stays with the solver's loop.
  bool must_stop(int iteration, double r_norm, StopReason& reason) {
    if (!std::isfinite(r_norm)) {
      reason = StopReason::non_finite;
      return true;
    }
    if (rules_.divergence_tolerance > 0 && r_norm > rules_.divergence_tolerance * r0_norm_) {
      reason = StopReason::diverged;
      return true;
    }
    if (rules_.stagnation_window > 0) {
      if (r_norm < (1 - rules_.stagnation_reduction) * best_) {
        best_ = r_norm;
        best_iteration_ = iteration;
      } else if (iteration - best_iteration_ >= rules_.stagnation_window) {
        reason = StopReason::stagnated;
        return true;
      }
    }
    if (rules_.time_limit_seconds > 0 && elapsed_seconds() >= rules_.time_limit_seconds) {
      reason = StopReason::time_limit;
      return true;
    }
    return false;
  }

  double elapsed_seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

 private:
  StoppingRules rules_;
  double rhs_norm_ = 0;
  double r0_norm_ = 0;
  double best_ = 0;
  int best_iteration_ = 0;
  Clock::time_point start_;
};

}  // namespace kelp::solvers
