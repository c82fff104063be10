#pragma once
/// What the distributed tasks (solve, eigen, dos: `kelp run` under mpirun) share: MPI set-up,
/// the frame of a run (output on rank 0, output paths and report), this rank's rows of the
/// configured problem (distributed generators or the distributed Matrix Market read) and the
/// partition step. Included only by the task files under KELP_HAVE_MPI.

#include <mpi.h>

#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "kelp/apps/driver/registry/components/generators.hpp"
#include "kelp/apps/driver/run/run.hpp"
#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/generators.hpp"
#include "kelp/distributed/partition.hpp"
#include "kelp/distributed/read_matrix_market.hpp"

namespace kelp::solvers::dist_task {

/// Finalises MPI at exit when kelp initialised it (after main's Kokkos scope guard is gone).
struct MpiSession {
  bool owned = false;
  ~MpiSession() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owned && !finalized) MPI_Finalize();
  }
};

inline void ensure_mpi() {
  static MpiSession session;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    MPI_Init(nullptr, nullptr);
    session.owned = true;
  }
}

/// Ranks other than 0 print nothing.
struct NullBuffer : std::streambuf {
  int overflow(int c) override { return c; }
};

/// The frame of every distributed task: starts MPI when needed, gives `task(out, comm)` a stream
/// that prints on rank 0 only, and has rank 0 check the output paths first and write the report
/// last (both collective: a failure stops every rank with the same message).
template <class Task>
RunResult run_distributed_task(const RunConfig& config, std::ostream& out, const char* where, Task task) {
  ensure_mpi();
  const MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  NullBuffer null_buffer;
  std::ostream null_out(&null_buffer);
  std::ostream& o = rank == 0 ? out : null_out;
  dist::collective_try(comm, where, [&] {
    if (rank == 0) check_output_paths(config);
  });
  if (config.output.print_config) o << "# effective configuration\n" << effective_config(config) << "\n";
  RunResult result = task(o, comm);
  if (!config.output.report.empty()) {
    dist::collective_try(comm, where, [&] {
      if (rank == 0) write_report(config.output.report, config, result);
    });
    o << "report: " << config.output.report << "\n";
  }
  o.flush();
  return result;
}

/// This rank's rows of the configured matrix, rows balanced over the ranks: the Laplacians, the
/// stencil generators, tight_binding and topological_insulator (complex only), or a Matrix
/// Market file (each rank parses its share). Errors are collective.
template <class Scalar>
dist::LocalRows<Scalar> build_rows(const ProblemConfig& problem, MPI_Comm comm, std::string& description,
                                   const char* where) {
  dist::LocalRows<Scalar> rows;
  if (problem.generator.empty()) {
    description = "matrix " + problem.matrix.file;
    return dist::read_matrix_market<Scalar>(problem.matrix.file, comm);  // collective errors
  }
  const ComponentSpec& g = problem.generator;
  description = g.summary();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // The rows of an nx x ny x nz grid with `per_point` rows a point, formed without overflow.
  const auto balanced = [size, where](long long nx, long long ny, long long nz, long long per_point = 1) {
    const long long n = generators::checked_grid_count(where, nx, ny, nz, per_point, generators::max_distributed_rows);
    return dist::RowPartition::balanced(n, size);
  };
  // Every rank parses the same configuration, so a generator error happens on all ranks alike;
  // collective_try still makes the message and exit the same everywhere.
  dist::collective_try(comm, where, [&] {
    namespace c = components;
    const std::string& type = g.type();
    if (type == "laplace1d") {
      const auto& p = g.params<c::Laplace1dParams>();
      rows = dist::laplace1d<Scalar>(p.nx, balanced(p.nx, 1, 1), rank);
    } else if (type == "laplace2d" || type == "laplace2d_9pt") {
      const auto& p = g.params<c::Laplace2dParams>();
      rows = type == "laplace2d" ? dist::laplace2d<Scalar>(p.nx, p.ny, balanced(p.nx, p.ny, 1), rank)
                                 : dist::laplace2d_9pt<Scalar>(p.nx, p.ny, balanced(p.nx, p.ny, 1), rank);
    } else if (type == "laplace3d" || type == "laplace3d_27pt") {
      const auto& p = g.params<c::Laplace3dParams>();
      const auto part = balanced(p.nx, p.ny, p.nz);
      rows = type == "laplace3d" ? dist::laplace3d<Scalar>(p.nx, p.ny, p.nz, part, rank)
                                 : dist::laplace3d_27pt<Scalar>(p.nx, p.ny, p.nz, part, rank);
    } else if (type == "anisotropic2d") {
      const auto& p = g.params<c::Anisotropic2dParams>();
      rows = dist::anisotropic2d<Scalar>(p.nx, p.ny, p.epsilon, p.theta, balanced(p.nx, p.ny, 1), rank);
    } else if (type == "convection_diffusion") {
      const auto& p = g.params<c::ConvectionDiffusionParams>();
      rows = dist::convection_diffusion<Scalar>(p.nx, p.ny, p.nz, p.wx, p.wy, p.wz, balanced(p.nx, p.ny, p.nz),
                                                rank);
    } else if (type == "tight_binding") {
      const auto& p = g.params<c::TightBindingParams>();
      rows = dist::tight_binding<Scalar>(p.nx, p.ny, p.nz, p.hopping, p.periodic, balanced(p.nx, p.ny, p.nz),
                                         rank);
    } else if (type == "topological_insulator") {
      if constexpr (ScalarTraits<Scalar>::is_complex) {
        const auto& p = g.params<c::TopologicalInsulatorConfigParams>();
        generators::TopologicalInsulatorParams q;
        q.nx = p.nx, q.ny = p.ny, q.nz = p.nz;
        q.hopping = p.hopping;
        q.disorder = p.disorder;
        q.seed = static_cast<std::uint64_t>(p.seed);
        q.periodic_xy = p.periodic_xy;
        rows = dist::topological_insulator<Scalar>(q, balanced(p.nx, p.ny, p.nz, 4), rank);
      } else {
        KELP_THROW(NotSupported, where << ": the TI Hamiltonian is complex; set problem.scalar: complex");
      }
    } else {
      KELP_THROW(NotSupported, where << ": problem.generator " << type
                                     << " has no distributed version here (laplace1d, laplace2d, laplace2d_9pt, "
                                        "laplace3d, laplace3d_27pt, anisotropic2d, convection_diffusion, "
                                        "tight_binding, topological_insulator, or a matrix file)");
    }
  });
  return rows;
}

/// Applies distribution.partition to square `rows`; new_of_old is the renumbering (empty: the
/// original numbering).
template <class Scalar>
void partition(MPI_Comm comm, PartitionMethod method, dist::LocalRows<Scalar>& rows,
               std::vector<dist::GlobalOrdinal>& new_of_old) {
  new_of_old.clear();
  switch (method) {
    case PartitionMethod::rows: break;
    case PartitionMethod::nonzeros: {
      const auto parts = dist::balanced_by_nonzeros(comm, rows);
      rows = dist::redistribute(comm, rows, parts, parts);
      break;
    }
    case PartitionMethod::metis: {
      auto parts = dist::partition_metis(comm, rows);
      rows = dist::renumber(comm, rows, parts);
      new_of_old = std::move(parts.new_of_old);
      break;
    }
  }
}

/// The original global index of each of this rank's rows [part.begin(rank), part.end(rank)).
/// O(global rows) when renumbered (new_of_old is global).
inline std::vector<long long> original_rows(const dist::RowPartition& part, int rank,
                                            const std::vector<dist::GlobalOrdinal>& new_of_old) {
  const dist::GlobalOrdinal first = part.begin(rank), last = part.end(rank);
  std::vector<long long> rows(static_cast<std::size_t>(last - first));
  if (new_of_old.empty()) {
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = first + static_cast<long long>(i);
    return rows;
  }
  for (std::size_t old = 0; old < new_of_old.size(); ++old) {
    const dist::GlobalOrdinal now = new_of_old[old];
    if (now >= first && now < last) rows[static_cast<std::size_t>(now - first)] = static_cast<long long>(old);
  }
  return rows;
}

}  // namespace kelp::solvers::dist_task
