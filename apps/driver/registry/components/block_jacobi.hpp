#pragma once
/// Preconditioner `block_jacobi`: block Jacobi with diagonal blocks of block_size consecutive
/// rows, factored by the batched LU (precond/block_jacobi/block_jacobi.hpp).
///
///   preconditioner: {type: block_jacobi, block_size: 5}

#include "kelp/apps/driver/registry/registries.hpp"
#include "kelp/precond/block_jacobi/block_jacobi.hpp"

namespace kelp::solvers::components {

/// Keys of BlockJacobiParams: block_size (1..256).
void block_jacobi_fields(config::FieldVisitor& v, precond::BlockJacobiParams& params);
void register_block_jacobi(PreconditionerRegistry& registry);

}  // namespace kelp::solvers::components
