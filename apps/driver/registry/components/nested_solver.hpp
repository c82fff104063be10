#pragma once
/// Preconditioner `solver`: any configured solver used as a preconditioner, to any depth:
///
///   solver:
///     type: fgmres
///     preconditioner:
///       type: solver
///       solver: {type: cg, max_iterations: 5, relative_tolerance: 1.0e-2,
///                preconditioner: {type: jacobi}}
///
/// An inner solver run to a tolerance changes from one application to the next (is_variable),
/// so only flexible methods (fgmres, cg with variant: flexible) accept it; cg (standard,
/// single_reduction), gmres and bicgstab refuse it at setup with a message saying so.

#include "kelp/apps/driver/registry/registries.hpp"

namespace kelp::solvers::components {

struct NestedSolverParams {
  /// The inner solver; default cg with identity.
  ComponentSpec solver = solver_registry().make("cg");
};

void nested_solver_fields(config::FieldVisitor& v, NestedSolverParams& params);
void register_nested_solver(PreconditionerRegistry& registry);

}  // namespace kelp::solvers::components
