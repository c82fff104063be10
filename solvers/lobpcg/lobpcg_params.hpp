#pragma once
/// The parameters and the report of LOBPCG.

#include <string>
#include <vector>

#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers {

/// Which end of the spectrum LOBPCG computes.
enum class EigenWhich { smallest, largest };

inline std::string to_string(EigenWhich which) {
  return which == EigenWhich::smallest ? "smallest" : "largest";
}

struct LobpcgParams {
  /// Eigenpairs wanted (k >= 1). Default 1.
  int num_eigenpairs = 1;
  /// Extra block columns iterated but not required to converge; they speed up the last wanted
  /// pairs when the spectrum is clustered. Default 0. Block size = num_eigenpairs + guard_vectors,
  /// and 3 * block size must not exceed the number of rows.
  int guard_vectors = 0;
  /// smallest (default) or largest eigenvalues.
  EigenWhich which = EigenWhich::smallest;
  /// Iteration limit. Default 500: unpreconditioned Laplacians of ~10^5 unknowns need a few hundred.
  int max_iterations = 500;
  /// A pair has converged when ||A x - lambda B x|| <= max(relative_tolerance * |lambda|,
  /// absolute_tolerance), x B-normalised. Default 1e-6 (eigenvalues then are accurate to about
  /// the square of that, relative to the gap).
  double relative_tolerance = 1e-6;
  /// See relative_tolerance. Default 0: relative test only.
  double absolute_tolerance = 0.0;
  /// Restart (drop the search directions P for one step) when the scaled Gram matrix of the basis
  /// [X P W] is worse conditioned than this; dependent directions beyond it are dropped anyway.
  /// Default 1e10: keeps about 6 digits in the Rayleigh-Ritz coefficients.
  double restart_condition = 1e10;
  /// Seed of the random start (and of the guard vectors). Default 1: runs are reproducible.
  int seed = 1;
};

/// Wall-clock seconds spent in each part of a LOBPCG solve (each part fenced).
struct LobpcgTimings {
  double total = 0;
  double apply_a = 0;          ///< block applications of A (SpMMV)
  double apply_b = 0;          ///< block applications of B
  double preconditioner = 0;   ///< block applications of M
  double gram = 0;             ///< block reductions: Gram pair and the W-against-X projection
  double combine = 0;          ///< V C combinations (Ritz vectors, P, projection) and residuals
  double rayleigh_ritz = 0;    ///< dense host eigenproblems (Eigen)
};

/// What LOBPCG reports. Eigenvalues and residual norms are for the first num_eigenpairs
/// columns, in the order of `which` (ascending for smallest, descending for largest).
struct LobpcgResult {
  int iterations = 0;
  /// converged_relative (every wanted pair met its tolerance), max_iterations, breakdown (the
  /// basis lost rank below the block size even after a restart, or B is not positive definite on
  /// it) or non_finite (NaN/Inf in A, B, M or the start).
  StopReason reason = StopReason::max_iterations;
  std::vector<double> eigenvalues;
  /// ||A x_j - lambda_j B x_j|| of the returned vectors.
  std::vector<double> residual_norms;
  /// Iteration at which each pair converged (and was soft-locked), -1 when it did not.
  std::vector<int> converged_at;
  /// residual_history[it][j]: the residual norm of pair j after iteration it (0 = the start).
  std::vector<std::vector<double>> residual_history;
  /// Iterations that dropped P because the basis was ill-conditioned.
  int restarts = 0;
  LobpcgTimings timings;

  bool converged() const { return reason == StopReason::converged_relative; }
};

}  // namespace kelp::solvers
