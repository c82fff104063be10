#pragma once
/// The `eigen` task of the run driver (an entry of task_table()): LOBPCG on the problem's matrix.

#include <iosfwd>

#include "kelp/apps/driver/run/run.hpp"

namespace kelp::solvers {

/// Builds the problem's matrix (problem.scalar double or complex), the preconditioner of eigen (set up),
/// runs LOBPCG (a timed phase), recomputes ||A x_j - lambda_j x_j|| for every pair with its own
/// SpMV, prints the eigenvalues and residuals and fills RunResult::eigen. The returned
/// Solution's x is the first eigenvector. Exit code not_converged when LOBPCG stopped without
/// converging and output.fail_on_no_convergence.
/// @throws NotSupported for problem.scalar float (LOBPCG is compiled for double precision)
RunResult run_eigen_task(const RunConfig& config, std::ostream& out);

}  // namespace kelp::solvers
