#include "kelp/apps/driver/run/dist_tasks.hpp"

#include <ostream>

#include "kelp/kernels/core/error.hpp"

#ifdef KELP_HAVE_MPI
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <memory>
#include <random>

#include "kelp/apps/driver/run/dist_preconditioner.hpp"
#include "kelp/apps/driver/run/dist_task_common.hpp"
#include "kelp/apps/driver/run/task_common.hpp"
#include "kelp/distributed/check_hermitian.hpp"
#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/dist_vector.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/solvers/lobpcg/lobpcg.hpp"
#endif

namespace kelp::solvers {

#ifndef KELP_HAVE_MPI

RunResult run_distributed_eigen(const RunConfig&, std::ostream&) {
  KELP_THROW(NotSupported, "kelp::solvers::run: the configuration has a distribution section, but this kelp "
                           "was built without MPI (configure with -DKELP_ENABLE_MPI=ON)");
}

#else

namespace {

using task::Clock;
using task::sci;
using task::seconds_since;
constexpr const char* where = "kelp::solvers::run_distributed_eigen";

/// ||A x - lambda x|| over all ranks, with the driver's own distributed SpMV.
template <class Scalar, class X>
double eigen_residual(const dist::DistCrsMatrix<Scalar>& A, const X& x, double lambda) {
  ConfigVector<Scalar> r(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::run::residual"),
                         A.num_local_rows());
  A.apply(x, r);                                     // r = A x
  kernels::axpby(Scalar(-lambda), x, Scalar(1), r);  // r -= lambda x
  const double local = static_cast<double>(kernels::nrm2(r));
  double local_sq = local * local, global_sq = 0;
  MPI_Allreduce(&local_sq, &global_sq, 1, MPI_DOUBLE, MPI_SUM, A.communicator());
  return std::sqrt(global_sq);
}

/// The first k columns of the serial LOBPCG's random start block (the same generator and
/// draw order as Lobpcg::solve: column by column over all N global rows), this rank's rows only,
/// so the distributed run starts where the serial one does. Each rank draws all N k values
/// (host, O(N k)); `local_of_original[i]` is the local row of original row i or -1.
template <class Scalar>
void serial_start_block(const MultiVectorView<Scalar, Kokkos::LayoutLeft, ConfigDevice>& X, unsigned seed,
                        long long global_rows, const std::vector<long long>& original) {
  using Traits = ScalarTraits<Scalar>;
  std::vector<long long> local_of_original(static_cast<std::size_t>(global_rows), -1);
  for (std::size_t i = 0; i < original.size(); ++i) local_of_original[static_cast<std::size_t>(original[i])] = static_cast<long long>(i);
  auto host = Kokkos::create_mirror_view(X);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (std::size_t j = 0; j < X.extent(1); ++j) {
    for (long long g = 0; g < global_rows; ++g) {
      Scalar value;
      if constexpr (Traits::is_complex) {
        const double re = uniform(rng);
        value = Scalar(re, uniform(rng));
      } else {
        value = Scalar(uniform(rng));
      }
      const long long i = local_of_original[static_cast<std::size_t>(g)];
      if (i >= 0) host(static_cast<std::size_t>(i), j) = value;
    }
  }
  Kokkos::deep_copy(X, host);
}

/// Writes the eigenvectors (all columns of X, original numbering) to output.solution on rank 0,
/// as the serial task does; collective.
template <class Scalar>
void write_eigenvectors(const RunConfig& config, MPI_Comm comm, const dist::DistCrsMatrix<Scalar>& A,
                        const MultiVectorView<Scalar, Kokkos::LayoutLeft, ConfigDevice>& X,
                        const std::vector<dist::GlobalOrdinal>& new_of_old, const RunResult& result,
                        std::ostream& out) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const std::size_t n = static_cast<std::size_t>(A.global_rows()), k = X.extent(1);
  Kokkos::View<Scalar**, Kokkos::LayoutLeft, Kokkos::HostSpace> all("kelp::run::eigenvectors", rank == 0 ? n : 0, k);
  ConfigVector<Scalar> column("kelp::run::eigenvector", A.num_local_rows());
  for (std::size_t j = 0; j < k; ++j) {
    Kokkos::deep_copy(column, Kokkos::subview(X, Kokkos::ALL, j));
    const std::vector<Scalar> global = dist::gather_vector(comm, A.col_partition(), column, new_of_old);
    for (std::size_t i = 0; i < global.size(); ++i) all(i, j) = global[i];
  }
  dist::collective_try(comm, where, [&] {
    if (rank == 0) {  // the other ranks' out is a null stream
      task::write_vectors(config.output.solution, all,
                          task::eigenvector_comment(result.problem, result.eigen.eigenvalues, size), "eigenvectors",
                          out);
    }
  });
}

template <class Scalar>
RunResult eigen(const RunConfig& config, std::ostream& out, MPI_Comm comm) {
  RunResult result;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  auto start = Clock::now();
  std::string matrix;
  dist::LocalRows<Scalar> rows = dist_task::build_rows<Scalar>(config.problem, comm, matrix, where);
  dist::require_all(comm, rows.global_rows == rows.global_cols,
                    "problem.matrix: " + config.problem.matrix.file + " is " + std::to_string(rows.global_rows) +
                        " x " + std::to_string(rows.global_cols) + "; task eigen needs a square matrix",
                    where);
  // The serial task's check, on the rows as built (original indices): LOBPCG needs A Hermitian.
  dist::check_hermitian(comm, rows, config.eigen.hermitian_tolerance);
  std::vector<dist::GlobalOrdinal> new_of_old;
  dist_task::partition(comm, config.distribution.partition, rows, new_of_old);
  auto A = std::make_shared<dist::DistCrsMatrix<Scalar>>(comm, rows);
  auto op = std::make_shared<const dist::DistOperator<Scalar>>(A);
  result.problem_seconds = seconds_since(start);
  long long nnz_local = static_cast<long long>(A->local_nnz()), nnz = 0;
  MPI_Allreduce(&nnz_local, &nnz, 1, MPI_LONG_LONG, MPI_SUM, comm);
  ProblemDescription& d = result.problem;
  d.matrix = d.matrix_name = matrix;
  d.scalar = config.problem.scalar;
  d.num_rows = static_cast<long long>(A->global_rows());
  d.nnz = nnz;
  out << "problem: " << d.matrix << "\n"
      << "  rows " << d.num_rows << ", nnz " << d.nnz << ", scalar " << to_string(d.scalar) << "\n"
      << "distribution: " << size << " ranks, partition " << partition_methods().name(config.distribution.partition)
      << "\n";

  // The preconditioner works on this rank's local block only (block Jacobi over the ranks),
  // as in the distributed solve task; its errors are made collective.
  std::shared_ptr<const ConfigOperator<Scalar>> M;
  start = Clock::now();
  if (config.eigen.preconditioner.type() != "identity") {
    const auto& local = A->local_block();
    dist::collective_try(comm, where, [&] {
      auto P = preconditioner_registry().build<Scalar>(config.eigen.preconditioner,
                                                       NamedMatrix<Scalar>{local, local_block_name(comm, A->row_partition(), matrix)});
      P->setup_symbolic(local);
      P->setup_numeric(local);
      M = P;
    });
  }
  result.setup_numeric_seconds = seconds_since(start);
  const LobpcgParams& params = config.eigen.params;
  Lobpcg<Scalar, ConfigDevice, dist::MpiReduction> lobpcg(op, M, nullptr, params, dist::MpiReduction(comm));
  result.solver_summary = lobpcg.summary() + (M ? " (preconditioner on each rank's local block)" : "");
  out << "solver: " << result.solver_summary << "\n";

  const auto original = dist_task::original_rows(A->row_partition(), rank, new_of_old);
  MultiVectorView<Scalar, Kokkos::LayoutLeft, ConfigDevice> X("kelp::run::eigenvectors", A->num_local_rows(),
                                                              params.num_eigenpairs);
  serial_start_block(X, static_cast<unsigned>(params.seed), d.num_rows, original);
  start = Clock::now();
  const LobpcgResult lr = lobpcg.solve(X, LobpcgStart::provided);
  result.solve_seconds = seconds_since(start);
  const int every = config.output.monitor_every;
  for (std::size_t it = 0; every > 0 && it < lr.residual_history.size(); ++it) {
    if (static_cast<int>(it) % every != 0 && it + 1 != lr.residual_history.size()) continue;
    double worst = 0;
    for (double r : lr.residual_history[it]) worst = std::max(worst, r);
    char line[96];
    std::snprintf(line, sizeof line, "iter %5d  largest residual %.3e", static_cast<int>(it), worst);
    out << line << "\n";
  }

  // Eigenvalues and residual histories come from global reductions: the same on every rank.
  EigenOutcome& e = result.eigen;
  e.eigenvalues = lr.eigenvalues;
  e.residual_norms = lr.residual_norms;
  e.converged_at = lr.converged_at;
  e.restarts = lr.restarts;
  e.residual_history = lr.residual_history;
  for (std::size_t j = 0; j < lr.eigenvalues.size(); ++j) {
    e.true_residual_norms.push_back(eigen_residual<Scalar>(*A, Kokkos::subview(X, Kokkos::ALL, j), lr.eigenvalues[j]));
  }
  result.solve.iterations = lr.iterations;
  result.solve.reason = lr.reason;
  for (double r : e.true_residual_norms) result.true_residual_norm = std::max(result.true_residual_norm, r);
  result.solve.residual_norm = result.true_residual_norm;
  result.true_relative_residual = result.true_residual_norm;
  Repetition repetition;
  repetition.setup_numeric_seconds = result.setup_numeric_seconds;
  repetition.solve_seconds = result.solve_seconds;
  repetition.solve = result.solve;
  result.repetitions.push_back(repetition);
  result.exit_code =
      lr.converged() || !config.output.fail_on_no_convergence ? ExitCode::success : ExitCode::not_converged;

  out << "summary:\n"
      << "  iterations              " << lr.iterations << "\n"
      << "  stop reason             " << to_string(lr.reason) << (lr.converged() ? "" : "  (NOT converged)") << "\n"
      << "  solve time              " << sci(result.solve_seconds, 3) << " s\n"
      << "  eigenvalues (||A x - lambda x||, recomputed):\n";
  for (std::size_t j = 0; j < e.eigenvalues.size(); ++j) {
    out << "  " << std::setw(4) << j << "  " << sci(e.eigenvalues[j], 12) << "  " << sci(e.true_residual_norms[j], 3)
        << "\n";
  }

  if (!config.output.solution.empty()) write_eigenvectors(config, comm, *A, X, new_of_old, result, out);
  // The first eigenvector in the original numbering, on rank 0 only (as the serial task's x).
  Solution<Scalar> solution;
  ConfigVector<Scalar> x0("kelp::run::x_local", A->num_local_rows());
  if (params.num_eigenpairs > 0) Kokkos::deep_copy(x0, Kokkos::subview(X, Kokkos::ALL, 0));
  const std::vector<Scalar> global = dist::gather_vector(comm, A->col_partition(), x0, new_of_old);
  if (rank == 0) {
    solution.x = ConfigVector<Scalar>("kelp::run::x", global.size());
    auto host = Kokkos::create_mirror_view(solution.x);
    for (std::size_t i = 0; i < global.size(); ++i) host(i) = global[i];
    Kokkos::deep_copy(solution.x, host);
  }
  result.solution = std::move(solution);
  return result;
}

}  // namespace

RunResult run_distributed_eigen(const RunConfig& config, std::ostream& out) {
  return dist_task::run_distributed_task(config, out, where, [&](std::ostream& o, MPI_Comm comm) {
    return task::dispatch_double_scalar(config, where, "eigen", [&](auto tag) {
      return eigen<typename decltype(tag)::type>(config, o, comm);
    });
  });
}

#endif

}  // namespace kelp::solvers
