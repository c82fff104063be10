#pragma once
/// The parameters of CG (single-vector and block solves): the shared stopping rules.

#include "kelp/solvers/stopping.hpp"

namespace kelp::solvers {

/// max_iterations, relative_tolerance, absolute_tolerance, relative_to, divergence_tolerance,
/// stagnation_window, stagnation_reduction, time_limit_seconds (see StoppingRules).
struct CgParams : StoppingRules {};

}  // namespace kelp::solvers
