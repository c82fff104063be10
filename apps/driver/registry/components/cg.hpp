#pragma once
/// Solver `cg`: preconditioned conjugate gradients (solvers/cg/cg.hpp).
///
///   solver:
///     type: cg
///     max_iterations: 1000          # >= 0
///     relative_tolerance: 1.0e-8    # >= 0
///     absolute_tolerance: 0         # >= 0
///     variant: standard             # standard | single_reduction | flexible (M may vary)
///     preconditioner: {type: jacobi}   # default identity
///     # {type: gauss_seidel, fused: eisenstat}: EisenstatCg, one fused pass over A per iteration

#include "kelp/apps/driver/registry/registries.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/cg/cg_single_reduction.hpp"
#include "kelp/solvers/cg/eisenstat_cg.hpp"
#include "kelp/solvers/cg/flexible_cg.hpp"

namespace kelp::solvers::components {

/// The `solver` node of type cg: CgParams plus the preconditioner.
struct CgConfig {
  CgParams params;
  /// solver.preconditioner; default identity (plain, unpreconditioned CG).
  ComponentSpec preconditioner = preconditioner_registry().make("identity");
};

const config::Choices<CgVariant>& cg_variants();
/// Keys of CgParams: max_iterations, relative_tolerance, absolute_tolerance, variant.
void cg_fields(config::FieldVisitor& v, CgParams& params);
/// cg_fields plus `preconditioner`.
void cg_config_fields(config::FieldVisitor& v, CgConfig& config);
void register_cg(SolverRegistry& registry);

}  // namespace kelp::solvers::components
