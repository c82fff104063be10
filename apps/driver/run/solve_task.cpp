#include "kelp/apps/driver/run/solve_task.hpp"

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

namespace kelp::solvers {

namespace {

using task::Clock;
using task::sci;
using task::seconds_since;

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

std::string monitor_line(int iteration, double residual, double relative) {
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "iter %5d  residual %.3e  relative %.3e", iteration,
                residual, relative);
  return buffer;
}

/// `v` in double precision (float problems' residual checks).
template <class View>
Kokkos::View<double*, typename View::device_type> widened(const View& v, const char* label) {
  Kokkos::View<double*, typename View::device_type> out(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                                                        v.extent(0));
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<typename View::execution_space>(0, v.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) { out(i) = static_cast<double>(v(i)); });
  return out;
}

/// ||b - A x||, with its own SpMV (not the solver's operator), so the check is independent. A
/// float problem's residual is formed in double from its float A, b and x: in float it carries
/// rounding of about eps_float ||A|| ||x||, as large as the tolerances float runs ask for.
template <class Scalar>
double true_residual_norm(const ConfigMatrix<Scalar>& A, ConstConfigVector<Scalar> b,
                          ConstConfigVector<Scalar> x) {
  if constexpr (std::is_same<Scalar, float>::value) {
    const ConfigMatrix<double> wide(A.num_rows(), A.num_cols(), A.row_map(), A.entries(),
                                    widened(A.values(), "kelp::run::residual::A"));
    auto r = widened(b, "kelp::run::residual");
    kernels::spmv(-1.0, wide, widened(x, "kelp::run::residual::x"), 1.0, r);  // r = b - A x
    return kernels::nrm2(r);
  } else {
    ConfigVector<Scalar> r(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::run::residual"),
                           A.num_rows());
    Kokkos::deep_copy(r, b);
    kernels::spmv(Scalar(-1), A, x, Scalar(1), r);  // r = b - A x
    return static_cast<double>(kernels::nrm2(r));
  }
}

template <class Scalar>
RunResult solve(const RunConfig& config, std::ostream& out) {
  RunResult result;
  const int repeat = config.task.repeat;

  auto start = Clock::now();
  Solution<Scalar> solution;
  {
    ProfilingRegion region("kelp::run::problem");
    solution.problem = build_problem<Scalar>(config.problem);
    result.problem_seconds = seconds_since(start);
  }
  const Problem<Scalar>& problem = solution.problem;
  const ConfigMatrix<Scalar>& A = problem.A;
  result.problem = problem.description;
  out << "problem: " << result.problem.matrix << "\n"
      << "  rows " << A.num_rows() << ", nnz " << A.nnz() << ", scalar "
      << to_string(result.problem.scalar) << ", rhs " << result.problem.rhs
      << ", initial guess " << result.problem.initial_guess << "  (built in "
      << fixed(result.problem_seconds, 3) << " s)\n";

  // The preconditioner is built unset; its two setup phases are the driver's to run and time.
  auto op = std::make_shared<const MatrixOperator<ConfigMatrix<Scalar>>>(A);
  auto solver = solver_registry().build<Scalar>(
      config.solver, op, NamedMatrix<Scalar>{A, result.problem.matrix_name});
  start = Clock::now();
  {
    ProfilingRegion region("kelp::run::setup_symbolic");
    solver->setup_symbolic(A);
    result.setup_symbolic_seconds = seconds_since(start);
  }
  result.solver_summary = solver->summary();  // refreshed after the first value setup, below

  const int every = config.output.monitor_every;
  const double rhs_norm = static_cast<double>(kernels::nrm2(problem.b));
  // The initial residual, for the monitor's line 0 (b itself from a zero guess).
  const double initial_norm = every > 0 ? true_residual_norm<Scalar>(A, problem.b, problem.x0) : 0;
  if (every > 0) {
    solver->set_monitor([&out, every](int iteration, double residual, double relative) {
      if (iteration % every == 0) out << monitor_line(iteration, residual, relative) << "\n";
    });
  }

  solution.x = ConfigVector<Scalar>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::run::x"), A.num_rows());
  bool all_converged = true;
  for (int rep = 0; rep < repeat; ++rep) {
    Repetition repetition;
    if (repeat > 1) out << "repetition " << rep + 1 << " of " << repeat << "\n";
    start = Clock::now();
    {
      ProfilingRegion region("kelp::run::setup_numeric");
      solver->setup_numeric(A);
      repetition.setup_numeric_seconds = seconds_since(start);
    }
    if (rep == 0) {  // what the value setup decided (Chebyshev's interval, Eisenstat's split) shows now
      result.solver_summary = solver->summary();
      out << "solver: " << result.solver_summary << "\n";
    }
    if (every > 0) {
      out << monitor_line(0, initial_norm, rhs_norm > 0 ? initial_norm / rhs_norm : initial_norm)
          << "\n";
    }
    Kokkos::deep_copy(solution.x, problem.x0);  // every repetition starts from the guess
    start = Clock::now();
    {
      ProfilingRegion region("kelp::run::solve");
      repetition.solve = solver->solve(problem.b, solution.x);
      repetition.solve_seconds = seconds_since(start);
    }
    all_converged = all_converged && repetition.solve.converged();
    result.setup_numeric_seconds += repetition.setup_numeric_seconds;
    result.solve_seconds += repetition.solve_seconds;
    result.repetitions.push_back(std::move(repetition));
  }
  result.solve = result.repetitions.back().solve;

  {
    ProfilingRegion region("kelp::run::true_residual");
    result.true_residual_norm = true_residual_norm<Scalar>(A, problem.b, solution.x);
  }
  result.true_relative_residual =
      rhs_norm > 0 ? result.true_residual_norm / rhs_norm : result.true_residual_norm;
  // Only a stop in the preconditioned norm needs the check (and, without a monitor, ||b - A x0||).
  result.converged_in_preconditioned_norm_only =
      result.solve.stopping_norm == ResidualNorm::preconditioned &&
      task::converged_in_preconditioned_norm_only(
          config.solver, result.solve, result.true_residual_norm, rhs_norm,
          every > 0 ? initial_norm : true_residual_norm<Scalar>(A, problem.b, problem.x0));
  const bool preconditioned_only = result.converged_in_preconditioned_norm_only;
  result.true_residual_misses_tolerance =
      all_converged && result.solve.stopping_norm != ResidualNorm::preconditioned &&
      task::true_residual_misses_tolerance(
          config.solver, result.solve, result.true_residual_norm, rhs_norm,
          every > 0 ? initial_norm : true_residual_norm<Scalar>(A, problem.b, problem.x0));
  result.exit_code = (all_converged && !preconditioned_only && !result.true_residual_misses_tolerance) ||
                             !config.output.fail_on_no_convergence
                         ? ExitCode::success
                         : ExitCode::not_converged;

  const auto label = [&out](const char* name) -> std::ostream& {
    return out << "  " << std::left << std::setw(24) << name << std::right;
  };
  out << "summary:\n";
  label("iterations") << result.solve.iterations << "\n";
  label("stop reason") << to_string(result.solve.reason)
                       << (result.solve.converged() ? "" : "  (NOT converged)") << "\n";
  label("true relative residual") << sci(result.true_relative_residual)
                                  << "  (||b - A x|| / ||b||, recomputed)\n";
  if (result.solve.stopping_norm == ResidualNorm::preconditioned) {
    label("stopping norm") << "preconditioned, ||M^-1 (b - A x)|| = " << sci(result.solve.stopping_residual_norm)
                           << "  (side: left)\n";
  }
  if (result.true_residual_misses_tolerance) out << task::true_residual_warning();
  if (preconditioned_only) {
    out << "  warning: converged in the preconditioned norm only; ||b - A x|| misses the tolerance "
           "(use side: right to bound it)\n";
  }
  label("setup symbolic time") << fixed(result.setup_symbolic_seconds, 3) << " s\n";
  label("setup numeric time") << fixed(result.setup_numeric_seconds, 3) << " s";
  if (repeat > 1) out << "  (" << repeat << " repetitions)";
  out << "\n";
  label("solve time") << fixed(result.solve_seconds, 3) << " s";
  int iterations = 0;
  for (const auto& r : result.repetitions) iterations += r.solve.iterations;
  if (iterations > 0) {
    out << "  (" << fixed(1e3 * result.solve_seconds / iterations, 3) << " ms/iteration)";
  }
  out << "\n";

  if (!config.output.solution.empty()) {
    task::write_vectors(config.output.solution, solution.x,
                        "kelp solution of " + result.problem.matrix + ", rhs " + result.problem.rhs +
                            ", scalar " + to_string(result.problem.scalar),
                        "solution", out);
  }
  result.solution = std::move(solution);
  return result;
}

}  // namespace

RunResult run_solve_task(const RunConfig& config, std::ostream& out) {
  return dispatch_scalar(config.problem.scalar, [&](auto tag) {
    return solve<typename decltype(tag)::type>(config, out);
  });
}

}  // namespace kelp::solvers
