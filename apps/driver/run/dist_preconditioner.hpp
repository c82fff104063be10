#pragma once
/// The preconditioner of `kelp run` under mpirun (compiled with MPI only): either the configured
/// preconditioner on each rank's local block (block Jacobi over the ranks, the default), or
/// `additive_schwarz`, which builds overlapping subdomains (distributed/additive_schwarz.hpp)
/// with its `local` preconditioner on each.

#include <functional>
#include <memory>
#include <string>

#include "kelp/apps/driver/registry/registries.hpp"
#include "kelp/distributed/dist_crs_matrix.hpp"

namespace kelp::solvers {

/// A distributed preconditioner and its two setup phases, each collective (every rank calls
/// it; an error on one rank throws the same error on all).
template <class Scalar>
struct DistPreconditioner {
  std::shared_ptr<const ConfigOperator<Scalar>> op;
  std::function<void()> setup_symbolic;
  std::function<void()> setup_numeric;
  /// Where it runs, for the solver summary (" (preconditioner on each rank's local block)").
  std::string note;
};

/// What a preconditioner's messages call the matrix of this rank's local block ("FILE, the
/// local block of rank 1: its row r is row 5 + r of the distributed matrix ..."). They count
/// rows within the block, so the name says where the block lies. `matrix_name` is the task's
/// description of the matrix ("matrix FILE" or a generator).
std::string local_block_name(MPI_Comm comm, const dist::RowPartition& rows, std::string matrix_name);

/// Builds (does not set up) the preconditioner `spec` for A. `solver_type` picks the variant of
/// additive_schwarz's `auto` (symmetric for cg). Collective. @throws on every rank alike
template <class Scalar>
DistPreconditioner<Scalar> make_dist_preconditioner(const ComponentSpec& spec, const std::string& solver_type,
                                                    std::shared_ptr<const dist::DistCrsMatrix<Scalar>> A,
                                                    const std::string& matrix_name);

}  // namespace kelp::solvers
