#include "kelp/apps/driver/run/dist_solve_task.hpp"

#include <ostream>

#include "kelp/kernels/core/error.hpp"

#ifdef KELP_HAVE_MPI
#include <mpi.h>

#include <cmath>
#include <functional>
#include <iomanip>
#include <memory>

#include "kelp/apps/driver/registry/components/cg.hpp"
#include "kelp/apps/driver/registry/components/generators.hpp"
#include "kelp/apps/driver/registry/components/krylov.hpp"
#include "kelp/apps/driver/run/dist_preconditioner.hpp"
#include "kelp/apps/driver/run/dist_task_common.hpp"
#include "kelp/apps/driver/run/task_common.hpp"
#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/dist_vector.hpp"
#include "kelp/distributed/generators.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/distributed/partition.hpp"
#include "kelp/distributed/read_matrix_market.hpp"
#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#endif

namespace kelp::solvers {

#ifndef KELP_HAVE_MPI

RunResult run_distributed_solve(const RunConfig&, std::ostream&) {
  KELP_THROW(NotSupported, "kelp::solvers::run: the configuration has a distribution section, but this kelp "
                           "was built without MPI (configure with -DKELP_ENABLE_MPI=ON)");
}

#else

namespace {

using task::Clock;
using task::sci;
using task::seconds_since;
constexpr const char* where = "kelp::solvers::run_distributed_solve";

/// A solver over MPI reductions, type-erased (Cg, Gmres and Bicgstab share no solve() base).
template <class Scalar>
struct DistSolver {
  std::function<SolveResult(ConstConfigVector<Scalar>, ConfigVector<Scalar>)> solve;
  std::function<void(IterationMonitor)> set_monitor;
  std::function<std::string()> summary;
};

template <class Method, class Scalar, class Params>
DistSolver<Scalar> erase(std::shared_ptr<const ConfigOperator<Scalar>> A, std::shared_ptr<const ConfigOperator<Scalar>> M,
                         const Params& params, MPI_Comm comm) {
  auto s = std::make_shared<Method>(std::move(A), std::move(M), params, dist::MpiReduction(comm));
  return {[s](ConstConfigVector<Scalar> b, ConfigVector<Scalar> x) { return s->solve(b, x); },
          [s](IterationMonitor m) { s->set_monitor(std::move(m)); }, [s] { return s->summary(); }};
}

/// The solver of the configuration over MPI reductions (cg, gmres, bicgstab).
template <class Scalar>
DistSolver<Scalar> make_solver(const ComponentSpec& spec, std::shared_ptr<const ConfigOperator<Scalar>> A,
                               std::shared_ptr<const ConfigOperator<Scalar>> M, MPI_Comm comm) {
  using R = dist::MpiReduction;
  const std::string& type = spec.type();
  if (type == "cg") {
    const auto& c = spec.params<components::CgConfig>();
    switch (c.params.variant) {
      case CgVariant::single_reduction:
        return erase<CgSingleReduction<Scalar, ConfigDevice, R>>(A, M, c.params, comm);
      case CgVariant::flexible:
        return erase<FlexibleCg<Scalar, ConfigDevice, R>>(A, M, c.params, comm);
      case CgVariant::standard: break;
    }
    return erase<Cg<Scalar, ConfigDevice, R>>(A, M, c.params, comm);
  }
  if (type == "gmres") {
    return erase<Gmres<Scalar, ConfigDevice, R>>(A, M, spec.params<components::GmresConfig>().params, comm);
  }
  if (type == "bicgstab") {
    return erase<Bicgstab<Scalar, ConfigDevice, R>>(A, M, spec.params<components::BicgstabConfig>().params, comm);
  }
  KELP_THROW(NotSupported, where << ": solver " << type << " has no distributed version here (cg, gmres, bicgstab)");
}

const ComponentSpec& preconditioner_of(const ComponentSpec& spec) {
  if (spec.type() == "cg") return spec.params<components::CgConfig>().preconditioner;
  if (spec.type() == "gmres") return spec.params<components::GmresConfig>().preconditioner;
  if (spec.type() == "bicgstab") return spec.params<components::BicgstabConfig>().preconditioner;
  KELP_THROW(NotSupported, where << ": solver " << spec.type() << " has no distributed version here (cg, gmres, bicgstab)");
}

/// ||b - A x|| over all ranks, with its own distributed SpMV.
template <class Scalar>
double true_residual_norm(const dist::DistCrsMatrix<Scalar>& A, ConstConfigVector<Scalar> b,
                          ConstConfigVector<Scalar> x) {
  ConfigVector<Scalar> r(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::run::residual"), b.extent(0));
  Kokkos::deep_copy(r, b);
  A.apply(x, r, Scalar(-1), Scalar(1));
  const double local = static_cast<double>(kernels::nrm2(r));
  double local_sq = local * local, global_sq = 0;
  MPI_Allreduce(&local_sq, &global_sq, 1, MPI_DOUBLE, MPI_SUM, A.communicator());
  return std::sqrt(global_sq);
}

template <class Scalar>
RunResult solve(const RunConfig& config, std::ostream& out, MPI_Comm comm) {
  RunResult result;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const ProblemConfig& pc = config.problem;
  const std::string rhs = pc.rhs.type(), guess = pc.initial_guess.type();
  KELP_REQUIRE(rhs == "ones" || rhs == "A_times_ones", NotSupported,
               where << ": problem.rhs " << rhs << " has no distributed version here (ones, A_times_ones)");
  KELP_REQUIRE(guess == "zero", NotSupported,
               where << ": problem.initial_guess " << guess << " has no distributed version here (zero)");

  auto start = Clock::now();
  std::string matrix;
  dist::LocalRows<Scalar> rows = dist_task::build_rows<Scalar>(pc, comm, matrix, where);
  dist::require_all(comm, rows.global_rows == rows.global_cols,
                    "problem.matrix: " + pc.matrix.file + " is " + std::to_string(rows.global_rows) + " x " +
                        std::to_string(rows.global_cols) + "; the solvers need a square matrix",
                    where);
  std::vector<dist::GlobalOrdinal> new_of_old;  // empty: the original numbering
  dist_task::partition(comm, config.distribution.partition, rows, new_of_old);
  auto A = std::make_shared<dist::DistCrsMatrix<Scalar>>(comm, rows);
  auto op = std::make_shared<const dist::DistOperator<Scalar>>(A);
  const auto n_local = static_cast<std::size_t>(A->num_local_rows());
  ConfigVector<Scalar> b("kelp::run::b", n_local);
  Kokkos::deep_copy(b, Scalar(1));
  if (rhs == "A_times_ones") {
    ConfigVector<Scalar> ones("kelp::run::ones", n_local);
    Kokkos::deep_copy(ones, Scalar(1));
    A->apply(ones, b);
  }
  result.problem_seconds = seconds_since(start);
  long long nnz_local = static_cast<long long>(A->local_nnz()), nnz = 0;
  MPI_Allreduce(&nnz_local, &nnz, 1, MPI_LONG_LONG, MPI_SUM, comm);
  ProblemDescription& d = result.problem;
  d.matrix = matrix;
  d.matrix_name = matrix;
  d.rhs = pc.rhs.summary();
  d.initial_guess = pc.initial_guess.summary();
  d.scalar = pc.scalar;
  d.num_rows = static_cast<long long>(A->global_rows());
  d.nnz = nnz;
  out << "problem: " << d.matrix << "\n"
      << "  rows " << d.num_rows << ", nnz " << d.nnz << ", scalar " << to_string(d.scalar) << ", rhs " << d.rhs
      << ", initial guess " << d.initial_guess << "  (built in " << std::fixed << std::setprecision(3)
      << result.problem_seconds << " s)\n"
      << std::defaultfloat;
  out << "distribution: " << size << " ranks, partition "
      << partition_methods().name(config.distribution.partition) << "\n";

  // The preconditioner on each rank's local block (block Jacobi over the ranks), or overlapping
  // subdomains (additive_schwarz); its setup errors are collective.
  start = Clock::now();
  const auto M = make_dist_preconditioner<Scalar>(preconditioner_of(config.solver), config.solver.type(), A, matrix);
  M.setup_symbolic();
  result.setup_symbolic_seconds = seconds_since(start);
  auto solver = make_solver<Scalar>(config.solver, op, M.op, comm);
  result.solver_summary = solver.summary() + M.note;
  out << "solver: " << result.solver_summary << "\n";
  const int every = config.output.monitor_every;
  if (every > 0) {
    solver.set_monitor([&out, every](int iteration, double residual, double relative) {
      if (iteration % every == 0) {
        char line[128];
        std::snprintf(line, sizeof line, "iter %5d  residual %.3e  relative %.3e", iteration, residual, relative);
        out << line << "\n";
      }
    });
  }

  Solution<Scalar> solution;
  ConfigVector<Scalar> x("kelp::run::x", n_local);
  bool all_converged = true;
  for (int rep = 0; rep < config.task.repeat; ++rep) {
    Repetition repetition;
    start = Clock::now();
    M.setup_numeric();
    repetition.setup_numeric_seconds = seconds_since(start);
    Kokkos::deep_copy(x, Scalar(0));
    start = Clock::now();
    repetition.solve = solver.solve(b, x);
    repetition.solve_seconds = seconds_since(start);
    all_converged = all_converged && repetition.solve.converged();
    result.setup_numeric_seconds += repetition.setup_numeric_seconds;
    result.solve_seconds += repetition.solve_seconds;
    result.repetitions.push_back(std::move(repetition));
  }
  result.solve = result.repetitions.back().solve;
  const double rhs_norm = result.solve.rhs_norm;
  result.true_residual_norm = true_residual_norm<Scalar>(*A, b, x);
  result.true_relative_residual = rhs_norm > 0 ? result.true_residual_norm / rhs_norm : result.true_residual_norm;
  // The initial guess is zero here, so the initial residual is b.
  result.converged_in_preconditioned_norm_only = task::converged_in_preconditioned_norm_only(
      config.solver, result.solve, result.true_residual_norm, rhs_norm, rhs_norm);
  result.true_residual_misses_tolerance = all_converged && task::true_residual_misses_tolerance(
      config.solver, result.solve, result.true_residual_norm, rhs_norm, rhs_norm);
  result.exit_code = (all_converged && !result.converged_in_preconditioned_norm_only &&
                      !result.true_residual_misses_tolerance) ||
                             !config.output.fail_on_no_convergence
                         ? ExitCode::success
                         : ExitCode::not_converged;

  out << "summary:\n"
      << "  iterations              " << result.solve.iterations << "\n"
      << "  stop reason             " << to_string(result.solve.reason)
      << (result.solve.converged() ? "" : "  (NOT converged)") << "\n"
      << "  true relative residual  " << sci(result.true_relative_residual) << "  (||b - A x|| / ||b||, recomputed)\n"
      << (result.true_residual_misses_tolerance ? task::true_residual_warning() : "")
      << (result.converged_in_preconditioned_norm_only
              ? "  warning: converged in the preconditioned norm only; ||b - A x|| misses the tolerance "
                "(use side: right to bound it)\n"
              : "")
      << "  solve time              " << std::fixed << std::setprecision(3) << result.solve_seconds << " s\n"
      << std::defaultfloat;

  // The solution in the original numbering, on rank 0 only.
  const std::vector<Scalar> global = dist::gather_vector(comm, A->col_partition(), x, new_of_old);
  if (rank == 0) {
    solution.x = ConfigVector<Scalar>("kelp::run::x_global", global.size());
    auto host = Kokkos::create_mirror_view(solution.x);
    for (std::size_t i = 0; i < global.size(); ++i) host(i) = global[i];
    Kokkos::deep_copy(solution.x, host);
  }
  if (!config.output.solution.empty()) {
    dist::collective_try(comm, where, [&] {
      if (rank == 0) {  // the other ranks' out is a null stream
        task::write_vectors(config.output.solution, solution.x,
                            "kelp solution of " + d.matrix + ", rhs " + d.rhs + ", scalar " + to_string(d.scalar) +
                                ", " + std::to_string(size) + " ranks",
                            "solution", out);
      }
    });
  }
  result.solution = std::move(solution);
  return result;
}

}  // namespace

RunResult run_distributed_solve(const RunConfig& config, std::ostream& out) {
  return dist_task::run_distributed_task(config, out, where, [&](std::ostream& o, MPI_Comm comm) {
    return dispatch_scalar(config.problem.scalar, [&](auto tag) {
      return solve<typename decltype(tag)::type>(config, o, comm);
    });
  });
}

#endif

}  // namespace kelp::solvers
