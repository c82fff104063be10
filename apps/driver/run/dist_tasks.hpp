#pragma once
/// Tasks eigen and dos under MPI (`kelp run` under mpirun; a configuration with a `distribution`
/// section), beside run_distributed_solve (dist_solve_task.hpp).

#include <iosfwd>

#include "kelp/apps/driver/run/run.hpp"

namespace kelp::solvers {

/// LOBPCG on many ranks: each rank builds or reads only its rows (distributed generators or the
/// distributed Matrix Market read), partitions them (distribution.partition), and runs LOBPCG
/// through dist::DistOperator and dist::MpiReduction, the eigen preconditioner built on each
/// rank's local block. The start block is the serial run's (the same random draws, by global
/// row), so the run follows the serial one to rounding. The eigenvalues, residual norms and
/// history are global (the same on every rank); the first eigenvector is gathered to rank 0 in
/// the original numbering. Rank 0 alone prints and writes files; errors are collective.
/// @throws NotSupported without MPI, for float, or a generator with no distributed version
RunResult run_distributed_eigen(const RunConfig& config, std::ostream& out);

/// The KPM density of states on many ranks: rows as above; bounds (Gershgorin from the local
/// rows, or the serial Lanczos through the distributed SpMV); the start vectors hashed by each
/// row's original global index (the serial run's vectors); per-rank partial moments of all
/// vectors (naive: one vector at a time through the distributed SpMV; blocked: block_size
/// vectors at once through the distributed SpMMV), summed over the ranks in one allreduce at
/// the end. The moments equal the serial ones to rounding. The Hermitian check of the serial
/// task is not made here (it would need the transposed entries of other ranks).
/// @throws NotSupported without MPI, for float; InvalidArgument / NumericalError as kpm_dos
RunResult run_distributed_dos(const RunConfig& config, std::ostream& out);

}  // namespace kelp::solvers
