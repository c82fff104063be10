#pragma once
/// Preconditioner `chebyshev`: Chebyshev polynomial in D^{-1} A (precond/chebyshev):
///
///   preconditioner: {type: chebyshev, degree: 3, eigenvalue_ratio: 30, lambda_max: 0,
///                    lambda_min: 0, power_iterations: 10, boost: 1.1, sweeps: 1}
///   # lambda_max 0: estimated by power iterations (times boost); lambda_min 0: lambda_max / ratio

#include "kelp/apps/driver/registry/registries.hpp"
#include "kelp/precond/chebyshev/chebyshev.hpp"

namespace kelp::solvers::components {

void chebyshev_fields(config::FieldVisitor& v, precond::ChebyshevParams& params);
void register_chebyshev(PreconditionerRegistry& registry);

}  // namespace kelp::solvers::components
