#pragma once
/// Preconditioner `jacobi`: point Jacobi, M^{-1} = damping * D^{-1} (precond/jacobi/jacobi.hpp).
///
///   preconditioner: {type: jacobi, damping: 1.0}

#include "kelp/apps/driver/registry/registries.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"

namespace kelp::solvers::components {

/// Keys of JacobiParams: damping (0 < damping <= 2).
void jacobi_fields(config::FieldVisitor& v, precond::JacobiParams& params);
void register_jacobi(PreconditionerRegistry& registry);

}  // namespace kelp::solvers::components
