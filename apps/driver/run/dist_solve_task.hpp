#pragma once
/// Task solve under MPI (`kelp run` under mpirun; a configuration with a `distribution` section).

#include <iosfwd>

#include "kelp/apps/driver/run/run.hpp"

namespace kelp::solvers {

/// Initialises MPI when nobody has (finalised at exit), builds this rank's rows (distributed
/// generators for the Laplacians, the distributed Matrix Market reader for files), partitions
/// them (distribution.partition), and solves with cg, gmres or bicgstab over dist::MpiReduction,
/// the configured preconditioner built on each rank's local block (block Jacobi over ranks).
/// Rank 0 alone prints, checks and writes the output files; the solution is gathered to rank 0
/// in the original numbering. Errors are collective: every rank throws the same error.
/// @throws NotSupported when Kelp was built without MPI, or for a generator, rhs, initial guess
///         or solver the distributed path does not have
RunResult run_distributed_solve(const RunConfig& config, std::ostream& out);

}  // namespace kelp::solvers
