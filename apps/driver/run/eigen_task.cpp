#include "kelp/apps/driver/run/eigen_task.hpp"

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <ostream>

#include "kelp/apps/driver/run/task_common.hpp"
#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "kelp/solvers/kpm/kpm.hpp"
#include "kelp/solvers/lobpcg/lobpcg.hpp"

namespace kelp::solvers {

namespace {

using task::Clock;
using task::sci;
using task::seconds_since;

/// ||A x - lambda x|| with the driver's own SpMV, independently of the solver.
template <class Scalar, class X>
double eigen_residual(const ConfigMatrix<Scalar>& A, const X& x, double lambda) {
  ConfigVector<Scalar> r(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::run::residual"),
                         A.num_rows());
  kernels::spmv(Scalar(1), A, x, Scalar(0), r);      // r = A x
  kernels::axpby(Scalar(-lambda), x, Scalar(1), r);  // r -= lambda x
  return static_cast<double>(kernels::nrm2(r));
}

template <class Scalar>
RunResult eigen(const RunConfig& config, std::ostream& out) {
  RunResult result;
  auto start = Clock::now();
  Solution<Scalar> solution;
  {
    ProfilingRegion region("kelp::run::problem");
    solution.problem = build_problem<Scalar>(config.problem);
    result.problem_seconds = seconds_since(start);
  }
  const ConfigMatrix<Scalar>& A = solution.problem.A;
  result.problem = solution.problem.description;
  out << "problem: " << result.problem.matrix << "\n"
      << "  rows " << A.num_rows() << ", nnz " << A.nnz() << ", scalar "
      << to_string(result.problem.scalar) << "\n";
  // LOBPCG needs a Hermitian A: a nonsymmetric one ran to max_iterations and ended with a hint
  // about eigenvalues near 0.
  check_hermitian(A, config.eigen.hermitian_tolerance);

  std::shared_ptr<const ConfigOperator<Scalar>> M;
  start = Clock::now();
  if (config.eigen.preconditioner.type() != "identity") {
    auto P = preconditioner_registry().build<Scalar>(
        config.eigen.preconditioner, NamedMatrix<Scalar>{A, result.problem.matrix_name});
    P->setup_symbolic(A);
    P->setup_numeric(A);
    M = P;
  }
  result.setup_numeric_seconds = seconds_since(start);
  auto op = std::make_shared<const MatrixOperator<ConfigMatrix<Scalar>>>(A);
  const LobpcgParams& params = config.eigen.params;
  Lobpcg<Scalar, ConfigDevice> lobpcg(op, M, nullptr, params);
  result.solver_summary = lobpcg.summary();
  out << "solver: " << result.solver_summary << "\n";

  MultiVectorView<Scalar, Kokkos::LayoutLeft, ConfigDevice> X("kelp::run::eigenvectors",
                                                              A.num_rows(), params.num_eigenpairs);
  start = Clock::now();
  LobpcgResult lr;
  {
    ProfilingRegion region("kelp::run::solve");
    lr = lobpcg.solve(X);
    result.solve_seconds = seconds_since(start);
  }
  const int every = config.output.monitor_every;
  for (std::size_t it = 0; every > 0 && it < lr.residual_history.size(); ++it) {
    if (static_cast<int>(it) % every != 0 && it + 1 != lr.residual_history.size()) continue;
    double worst = 0;
    for (double r : lr.residual_history[it]) worst = std::max(worst, r);
    char line[96];
    std::snprintf(line, sizeof line, "iter %5d  largest residual %.3e", static_cast<int>(it), worst);
    out << line << "\n";
  }

  EigenOutcome& e = result.eigen;
  e.eigenvalues = lr.eigenvalues;
  e.residual_norms = lr.residual_norms;
  e.converged_at = lr.converged_at;
  e.restarts = lr.restarts;
  e.residual_history = lr.residual_history;
  {
    ProfilingRegion region("kelp::run::true_residual");
    for (std::size_t j = 0; j < lr.eigenvalues.size(); ++j) {
      e.true_residual_norms.push_back(
          eigen_residual<Scalar>(A, Kokkos::subview(X, Kokkos::ALL, j), lr.eigenvalues[j]));
    }
  }
  result.solve.iterations = lr.iterations;
  result.solve.reason = lr.reason;
  for (double r : e.true_residual_norms) {
    result.true_residual_norm = std::max(result.true_residual_norm, r);
  }
  result.solve.residual_norm = result.true_residual_norm;
  result.true_relative_residual = result.true_residual_norm;
  Repetition repetition;
  repetition.setup_numeric_seconds = result.setup_numeric_seconds;
  repetition.solve_seconds = result.solve_seconds;
  repetition.solve = result.solve;
  result.repetitions.push_back(repetition);
  result.exit_code = lr.converged() || !config.output.fail_on_no_convergence
                         ? ExitCode::success
                         : ExitCode::not_converged;

  out << "summary:\n"
      << "  iterations              " << lr.iterations << "\n"
      << "  stop reason             " << to_string(lr.reason)
      << (lr.converged() ? "" : "  (NOT converged)") << "\n"
      << "  solve time              " << sci(result.solve_seconds, 3) << " s\n"
      << "  eigenvalues (||A x - lambda x||, recomputed):\n";
  for (std::size_t j = 0; j < e.eigenvalues.size(); ++j) {
    out << "  " << std::setw(4) << j << "  " << sci(e.eigenvalues[j], 12) << "  "
        << sci(e.true_residual_norms[j], 3) << "\n";
  }

  if (!config.output.solution.empty()) {
    task::write_vectors(config.output.solution, X, task::eigenvector_comment(result.problem, e.eigenvalues, 1),
                        "eigenvectors", out);
  }
  solution.x = ConfigVector<Scalar>("kelp::run::x", A.num_rows());
  Kokkos::deep_copy(solution.x, Kokkos::subview(X, Kokkos::ALL, 0));
  result.solution = std::move(solution);
  return result;
}

}  // namespace

RunResult run_eigen_task(const RunConfig& config, std::ostream& out) {
  return task::dispatch_double_scalar(config, "kelp::solvers::run_eigen_task", "eigen", [&](auto tag) {
    return eigen<typename decltype(tag)::type>(config, out);
  });
}

}  // namespace kelp::solvers
