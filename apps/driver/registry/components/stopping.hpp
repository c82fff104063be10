#pragma once
/// The keys of the shared stopping rules (solvers/stopping.hpp), for every solver but cg (whose
/// keys stay max_iterations, relative_tolerance, absolute_tolerance):
///
///     max_iterations: 1000          # >= 0
///     relative_tolerance: 1.0e-8    # >= 0
///     absolute_tolerance: 0         # >= 0
///     relative_to: rhs              # rhs | initial_residual
///     divergence_tolerance: 0       # 0 (off) or >= 1: stop when ||r|| > dtol ||r_0||
///     stagnation_window: 0          # 0 (off): iterations without progress before stopping
///     stagnation_reduction: 1.0e-3  # the relative decrease that counts as progress
///     time_limit_seconds: 0         # 0: no limit

#include "kelp/apps/driver/config/fields.hpp"
#include "kelp/solvers/stopping.hpp"

namespace kelp::solvers::components {

const config::Choices<ToleranceReference>& tolerance_references();
void stopping_fields(config::FieldVisitor& v, StoppingRules& rules);

}  // namespace kelp::solvers::components
