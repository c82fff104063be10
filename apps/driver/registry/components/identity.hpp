#pragma once
/// Preconditioner `identity`: no preconditioning, M^{-1} = I (no keys).
///
///   preconditioner: identity

#include "kelp/apps/driver/registry/registries.hpp"

namespace kelp::solvers::components {

void register_identity(PreconditionerRegistry& registry);

}  // namespace kelp::solvers::components
