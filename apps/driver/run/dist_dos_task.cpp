#include "kelp/apps/driver/run/dist_tasks.hpp"

#include <ostream>

#include "kelp/kernels/core/error.hpp"

#ifdef KELP_HAVE_MPI
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>

#include "kelp/apps/driver/run/dist_task_common.hpp"
#include "kelp/apps/driver/run/dos_task.hpp"
#include "kelp/apps/driver/run/task_common.hpp"
#include "kelp/distributed/check_hermitian.hpp"
#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/solvers/kpm/kpm_lanczos.hpp"
#include "kelp/solvers/kpm/kpm_operator.hpp"
#endif

namespace kelp::solvers {

#ifndef KELP_HAVE_MPI

RunResult run_distributed_dos(const RunConfig&, std::ostream&) {
  KELP_THROW(NotSupported, "kelp::solvers::run: the configuration has a distribution section, but this kelp "
                           "was built without MPI (configure with -DKELP_ENABLE_MPI=ON)");
}

#else

namespace {

using task::Clock;
using task::seconds_since;
constexpr const char* where = "kelp::solvers::run_distributed_dos";

template <class Scalar>
using RowBlock = MultiVectorView<Scalar, Kokkos::LayoutRight, ConfigDevice>;

/// Start vectors first .. first + count - 1 on this rank's rows: the serial kpm_start_vectors
/// hashed by each row's ORIGINAL global index, so every rank count (and partition) draws the
/// serial run's vectors.
template <class Scalar>
RowBlock<Scalar> start_block(const KpmParams& p, long long first, long long count,
                             const Kokkos::View<const long long*, ConfigDevice>& global_row) {
  KELP_REQUIRE(ScalarTraits<Scalar>::is_complex || p.trace == KpmTrace::exact ||
                   p.random_vector != KpmRandomVector::random_phase,
               InvalidArgument,
               where << ": random_vector = random_phase needs a complex Hamiltonian; use rademacher for real ones");
  RowBlock<Scalar> V("kelp::run::kpm_start", global_row.extent(0), static_cast<std::size_t>(count));
  const int mode = p.trace == KpmTrace::exact ? 0 : (p.random_vector == KpmRandomVector::rademacher ? 1 : 2);
  impl::KpmStartVectors<Scalar, RowBlock<Scalar>> f{V, p.seed, first, mode, global_row};
  Kokkos::parallel_for("kelp::run::kpm_start_vectors",
                       Kokkos::RangePolicy<ConfigDevice::execution_space>(0, static_cast<long long>(V.extent(0))), f);
  return V;
}

/// Gershgorin bounds of the whole matrix from every rank's rows (host; one min and one max
/// allreduce): the serial gershgorin_bounds' per-row sums, so the bounds are the serial ones.
template <class Scalar>
SpectralBounds gershgorin(const dist::LocalRows<Scalar>& rows, int rank, MPI_Comm comm) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const dist::GlobalOrdinal first = rows.rows.begin(rank);
  for (std::int64_t i = 0; i < rows.num_local_rows(); ++i) {
    double centre = 0, radius = 0;
    for (auto k = rows.row_map[i]; k < rows.row_map[i + 1]; ++k) {
      const auto v = rows.values[static_cast<std::size_t>(k)];
      if (rows.col_index[static_cast<std::size_t>(k)] == first + i) {
        centre += ScalarTraits<Scalar>::real(v);
      } else {
        radius += ScalarTraits<Scalar>::abs(v);
      }
    }
    lo = std::min(lo, centre - radius);
    hi = std::max(hi, centre + radius);
  }
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_DOUBLE, MPI_MAX, comm);
  if (!(lo <= hi)) return {};  // 0 x 0
  return {lo, hi};
}

template <class Scalar>
RunResult dos(const RunConfig& config, std::ostream& out, MPI_Comm comm) {
  RunResult result;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const DosConfig& d = config.dos;
  const KpmParams& p = d.params;
  dist::collective_try(comm, where, [&] { validate(p); });
  // Under MPI the rows are already renumbered by the partition (partition: metis); the
  // single-process locality order is not applied to a rank's rows.
  dist::require_all(comm, p.row_order == KpmRowOrder::natural,
                    "dos.row_order: locality is for one process; under mpirun the rows follow the "
                    "distribution (distribution.partition: metis groups neighbours), so use "
                    "row_order: natural",
                    where);
  auto start = Clock::now();
  std::string matrix;
  dist::LocalRows<Scalar> rows = dist_task::build_rows<Scalar>(config.problem, comm, matrix, where);
  dist::require_all(comm, rows.global_rows == rows.global_cols && rows.global_rows > 0,
                    "problem " + matrix + " is " + std::to_string(rows.global_rows) + " x " +
                        std::to_string(rows.global_cols) + "; task dos needs a square matrix with at least one row",
                    where);
  // The serial task's check (kpm_dos), on the rows as built: before a renumbering, so that the
  // offending entry carries its original indices. A non-Hermitian H gave negative densities.
  dist::check_hermitian(comm, rows, p.hermitian_tolerance);
  std::vector<dist::GlobalOrdinal> new_of_old;
  dist_task::partition(comm, config.distribution.partition, rows, new_of_old);
  auto A = std::make_shared<dist::DistCrsMatrix<Scalar>>(comm, rows);
  const dist::DistOperator<Scalar> H(A);
  const dist::MpiReduction reduce(comm);
  result.problem_seconds = seconds_since(start);
  long long nnz_local = static_cast<long long>(A->local_nnz()), nnz = 0;
  MPI_Allreduce(&nnz_local, &nnz, 1, MPI_LONG_LONG, MPI_SUM, comm);
  ProblemDescription& desc = result.problem;
  desc.matrix = desc.matrix_name = matrix;
  desc.scalar = config.problem.scalar;
  const long long n = static_cast<long long>(A->global_rows());
  desc.num_rows = n;
  desc.nnz = nnz;
  out << "problem: " << desc.matrix << "\n"
      << "  rows " << n << ", nnz " << nnz << ", scalar " << to_string(desc.scalar) << "\n"
      << "distribution: " << size << " ranks, partition " << partition_methods().name(config.distribution.partition)
      << "\n";
  const bool blocked = p.implementation == KpmImplementation::blocked;
  char summary[320];
  std::snprintf(summary, sizeof summary,
                "kpm {moments: %d, vectors: %lld, trace: %s, %s, %s, %s} on %d ranks (%s: %s)", p.num_moments,
                kpm_trace_vectors(p, n), to_string(p.trace), to_string(p.implementation),
                dos_block_summary(p, n).c_str(), to_string(p.kernel), size,
                blocked ? "blocks of vectors through the distributed SpMMV"
                        : "one vector at a time through the distributed SpMV",
                "moments reduced once at the end");
  result.solver_summary = summary;
  out << "solver: " << result.solver_summary << "\n";

  // Each local row's original global index: the start vectors are hashed by it.
  const auto original = dist_task::original_rows(A->row_partition(), rank, new_of_old);
  Kokkos::View<long long*, ConfigDevice> global_row("kelp::run::global_row", original.size());
  {
    auto host = Kokkos::create_mirror_view(global_row);
    for (std::size_t i = 0; i < original.size(); ++i) host(i) = original[i];
    Kokkos::deep_copy(global_row, host);
  }

  start = Clock::now();
  KpmDosResult& r = result.dos.result;
  const SpectralBounds gersh = gershgorin(rows, rank, comm);
  r.bounds = p.bounds == KpmBoundsMethod::gershgorin
                 ? gersh
                 : kpm_lanczos_bounds(H, gersh, n, p.lanczos_steps, p.seed ^ 0x5A5A5A5AULL, global_row, reduce);
  r.scaling = KpmScaling::from_bounds(r.bounds, p.safety_margin);
  r.energies = dos_energy_grid(d, r.bounds);
  const long long num_vectors = kpm_trace_vectors(p, n);
  // Vectors go block by block (block_size: the exact trace never holds an n x n block); each
  // block's partial moments stay on the rank, and all of them are summed over the ranks in
  // ONE allreduce after the last block (the KPM paper's single global reduction).
  const long long chunk = kpm_block_width(p, n);
  KpmMoments all;
  all.num_moments = p.num_moments;
  all.num_vectors = static_cast<int>(num_vectors);
  all.values.assign(static_cast<std::size_t>(num_vectors) * p.num_moments, 0.0);
  Kokkos::fence();
  const auto t0 = std::chrono::steady_clock::now();
  for (long long first = 0; first < num_vectors; first += chunk) {
    const long long count = std::min(chunk, num_vectors - first);
    dist::collective_try(comm, where, [&] {  // a bad random_vector fails on every rank alike
      const RowBlock<Scalar> block = start_block<Scalar>(p, first, count, global_row);
      kpm_operator_partial_moments(H, r.scaling, block, p.num_moments, blocked,
                                   all.values.data() + static_cast<std::size_t>(first) * p.num_moments);
    });
  }
  reduce.sum(all.values.data(), all.values.size());
  Kokkos::fence();
  r.moments_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  impl::check_growth(all, r.scaling, p.growth_tolerance);  // reduced moments: the same on every rank
  r.num_vectors = static_cast<int>(num_vectors);
  r.num_products = num_vectors * ((p.num_moments + 1) / 2);
  kpm_density_of_moments(all, p, r);
  result.solve_seconds = seconds_since(start);
  result.exit_code = ExitCode::success;
  Repetition repetition;
  repetition.solve_seconds = result.solve_seconds;
  result.repetitions.push_back(repetition);

  char line[160];
  std::snprintf(line, sizeof line, "  bounds [%.6g, %.6g], scaling center %.6g half-width %.6g\n", r.bounds.lower,
                r.bounds.upper, r.scaling.center, r.scaling.half_width);
  out << "summary:\n" << line;
  std::snprintf(line, sizeof line, "  %lld products in %.3e s (moments), total %.3e s\n", r.num_products,
                r.moments_seconds, result.solve_seconds);
  out << line;
  const std::size_t step = std::max<std::size_t>(1, r.energies.size() / 10);
  for (std::size_t k = 0; k < r.energies.size(); k += step) {
    std::snprintf(line, sizeof line, "  E %12.5e  rho %12.5e  +- %.2e\n", r.energies[k], r.density[k],
                  r.density_error[k]);
    out << line;
  }
  if (!d.csv.empty()) {
    dist::collective_try(comm, where, [&] {
      if (rank == 0) write_dos_csv(d.csv, r);
    });
    out << "csv: " << d.csv << "\n";
  }
  result.solution = Solution<Scalar>{};
  return result;
}

}  // namespace

RunResult run_distributed_dos(const RunConfig& config, std::ostream& out) {
  return dist_task::run_distributed_task(config, out, where, [&](std::ostream& o, MPI_Comm comm) {
    return task::dispatch_double_scalar(config, where, "dos", [&](auto tag) {
      return dos<typename decltype(tag)::type>(config, o, comm);
    });
  });
}

#endif

}  // namespace kelp::solvers
