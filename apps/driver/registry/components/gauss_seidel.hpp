#pragma once
/// Preconditioner `gauss_seidel`: multicolor, cluster or two-stage Gauss-Seidel / SOR sweeps
/// (precond/gauss_seidel/gauss_seidel.hpp). Symmetric sweeps (the default) for CG.
///
///   preconditioner: {type: gauss_seidel, variant: multicolor, direction: symmetric, sweeps: 1,
///                    omega: 1.0}
///   # under solver type cg: one fused pass per iteration (solvers/cg/eisenstat_cg.hpp)
///   preconditioner: {type: gauss_seidel, variant: multicolor, fused: eisenstat}

#include "kelp/apps/driver/registry/registries.hpp"
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"

namespace kelp::solvers::components {

/// Keys of GaussSeidelParams: variant (multicolor | cluster | two_stage), direction (forward |
/// backward | symmetric), sweeps (>= 1), omega (0 < omega < 2), coloring
/// (speculative | deterministic | sequential_greedy),
/// long_row_threshold (>= 0), cluster_size (>= 0), inner_sweeps (>= 0), form (classic | compact),
/// fused (none | eisenstat: read by the cg solver).
void gauss_seidel_fields(config::FieldVisitor& v, precond::GaussSeidelParams& params);

/// Whether `spec` is a gauss_seidel with fused: eisenstat, which only solver cg reads: the other
/// solvers and the eigen task refuse it (with its location) instead of ignoring it.
bool asks_for_eisenstat(const ComponentSpec& spec);
inline constexpr const char* eisenstat_elsewhere =
    "gauss_seidel with fused: eisenstat is read by solver cg only, and this one would ignore it; "
    "drop fused or use solver cg";
/// Whether `spec` is a gauss_seidel with direction forward or backward: a nonsymmetric
/// preconditioner, which CG's recurrences (they assume M symmetric positive definite) cannot use;
/// solver cg refuses it, with its location, unless the variant is flexible.
bool is_one_sided_sweep(const ComponentSpec& spec);
void register_gauss_seidel(PreconditionerRegistry& registry);

}  // namespace kelp::solvers::components
