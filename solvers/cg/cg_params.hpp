#pragma once
/// The parameters of CG (single-vector and block solves): the shared stopping rules and the
/// variant.

#include <string>

#include "kelp/solvers/stopping.hpp"

namespace kelp::solvers {

/// Which CG recurrence runs; each is its own class (solvers/cg/).
enum class CgVariant {
  standard,          ///< Cg: Hestenes-Stiefel PCG, 2 reductions per iteration (1 + a fused pair)
  single_reduction,  ///< CgSingleReduction: Chronopoulos-Gear, 1 reduction per iteration
  flexible,          ///< FlexibleCg: Polak-Ribiere beta, for preconditioners that vary (inner solvers)
};

inline std::string to_string(CgVariant variant) {
  switch (variant) {
    case CgVariant::standard: return "standard";
    case CgVariant::single_reduction: return "single_reduction";
    case CgVariant::flexible: return "flexible";
  }
  return "unknown";
}

/// max_iterations, relative_tolerance, absolute_tolerance, relative_to, divergence_tolerance,
/// stagnation_window, stagnation_reduction, time_limit_seconds (see StoppingRules), and the
/// variant.
struct CgParams : StoppingRules {
  /// standard (default): the textbook recurrence, and the only one with block solves and null
  /// spaces. single_reduction pays off where reductions cost messages (many ranks, GPUs);
  /// flexible is required when M changes between applications.
  CgVariant variant = CgVariant::standard;
};

}  // namespace kelp::solvers
