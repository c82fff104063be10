#pragma once
/// Solvers `gmres`, `fgmres` and `bicgstab` (solvers/gmres, solvers/bicgstab):
///
///   solver:
///     type: gmres                   # or fgmres (flexible: any preconditioner, inner solvers)
///     restart: 30                   # >= 1 (gmres, fgmres)
///     orthogonalization: cgs2       # cgs2 | mgs | cgs | cgs_refine_if_needed (gmres, fgmres)
///     side: right                   # right | left (gmres; left stops on ||M^{-1} r||)
///     <stopping rules>              # components/stopping.hpp
///     preconditioner: {type: jacobi}   # default identity
///
///   solver: {type: bicgstab, <stopping rules>, preconditioner: ...}

#include "kelp/apps/driver/registry/registries.hpp"
#include "kelp/solvers/bicgstab/bicgstab.hpp"
#include "kelp/solvers/gmres/gmres.hpp"

namespace kelp::solvers::components {

/// The `solver` node of type gmres or fgmres (params.flexible tells which).
struct GmresConfig {
  GmresParams params;
  ComponentSpec preconditioner = preconditioner_registry().make("identity");
};
struct BicgstabConfig {
  BicgstabParams params;
  ComponentSpec preconditioner = preconditioner_registry().make("identity");
};

const config::Choices<Orthogonalization>& orthogonalizations();
const config::Choices<PreconditionerSide>& preconditioner_sides();
void gmres_config_fields(config::FieldVisitor& v, GmresConfig& config);
void bicgstab_config_fields(config::FieldVisitor& v, BicgstabConfig& config);
/// Registers gmres, fgmres and bicgstab.
void register_krylov(SolverRegistry& registry);

}  // namespace kelp::solvers::components
