#pragma once
/// The `eigen` section of a run configuration (task: eigen) and what the eigen task reports.
///
///   task: eigen
///   problem: {generator: {type: laplace3d, nx: 16, ny: 16, nz: 16}}
///   eigen:
///     num_eigenpairs: 4
///     guard_vectors: 2
///     which: smallest            # or largest
///     max_iterations: 500
///     relative_tolerance: 1.0e-8
///     absolute_tolerance: 0
///     restart_condition: 1.0e10
///     seed: 1
///     preconditioner: {type: jacobi}   # preconditioner_registry(); default identity (none)
///
/// The keys are LobpcgParams' fields (solvers/lobpcg/lobpcg_params.hpp).

#include <vector>

#include "kelp/apps/driver/registry/registries.hpp"
#include "kelp/solvers/lobpcg/lobpcg_params.hpp"

namespace kelp::solvers {

/// Names of EigenWhich in configurations: smallest, largest.
const config::Choices<EigenWhich>& eigen_which_choices();

struct EigenConfig {
  LobpcgParams params;
  /// eigen.preconditioner; default identity (unpreconditioned LOBPCG).
  ComponentSpec preconditioner = preconditioner_registry().make("identity");
  /// eigen.hermitian_tolerance: LOBPCG needs A Hermitian (symmetric); the task checks
  /// |a_ij - conj(a_ji)| <= this * max |a_kl| before it runs (as task dos does).
  double hermitian_tolerance = 1e-12;
};

void lobpcg_fields(config::FieldVisitor& v, LobpcgParams& params);
void eigen_config_fields(config::FieldVisitor& v, EigenConfig& config);

/// What the eigen task found (RunResult::eigen; empty for other tasks).
struct EigenOutcome {
  std::vector<double> eigenvalues;
  /// The solver's ||A x_j - lambda_j x_j||.
  std::vector<double> residual_norms;
  /// The same, recomputed by the driver with its own SpMV, independently of the solver.
  std::vector<double> true_residual_norms;
  std::vector<int> converged_at;
  int restarts = 0;
  /// residual_history[it][j] (see LobpcgResult).
  std::vector<std::vector<double>> residual_history;
};

}  // namespace kelp::solvers
