#include "kelp/apps/driver/registry/solver_registry.hpp"

#include <vector>

#include "kelp/precond/identity.hpp"

namespace kelp::solvers {

using config::Bounds;
using config::FieldVisitor;

void cg_fields(FieldVisitor& v, CgParams& params) {
  v.field("max_iterations", params.max_iterations, Bounds::at_least(0));
  v.field("relative_tolerance", params.relative_tolerance, Bounds::at_least(0));
  v.field("absolute_tolerance", params.absolute_tolerance, Bounds::at_least(0));
}

void jacobi_fields(FieldVisitor& v, precond::JacobiParams& params) {
  v.field("damping", params.damping, Bounds::open_closed(0, 2));
}

void cg_config_fields(FieldVisitor& v, CgConfig& config) {
  cg_fields(v, config.params);
  v.component("preconditioner", config.preconditioner);
}

namespace {

void register_preconditioners(PreconditionerRegistry& registry) {
  registry.add<NoParams>(
      "identity", "no preconditioning, M^{-1} = I", no_fields,
      [](const NoParams&, const NamedMatrix& A) -> std::shared_ptr<const ConfigOperator> {
        auto M = std::make_shared<precond::Identity<ConfigMatrix>>();
        M->setup(A.matrix);
        return M;
      });
  registry.add<precond::JacobiParams>(
      "jacobi", "point Jacobi, M^{-1} = damping * D^{-1}", jacobi_fields,
      [](const precond::JacobiParams& params,
         const NamedMatrix& A) -> std::shared_ptr<const ConfigOperator> {
        auto M = std::make_shared<precond::Jacobi<ConfigMatrix>>(params, A.name);
        M->setup(A.matrix);
        return M;
      });
}

void register_solvers(SolverRegistry& registry) {
  registry.add<CgConfig>(
      "cg", "preconditioned conjugate gradients (A and M Hermitian positive definite)",
      cg_config_fields,
      [](const CgConfig& config, std::shared_ptr<const ConfigOperator> A,
         const NamedMatrix& matrix) -> std::shared_ptr<LinearSolver> {
        auto M = preconditioner_registry().build(config.preconditioner, matrix);
        auto cg = std::make_shared<Cg<ConfigScalar, ConfigDevice>>(std::move(A), std::move(M),
                                                                   config.params);
        return std::make_shared<SolverAdapter<Cg<ConfigScalar, ConfigDevice>>>(std::move(cg));
      });
}

}  // namespace

PreconditionerRegistry& preconditioner_registry() {
  static PreconditionerRegistry registry("preconditioner");
  static const bool registered = (register_preconditioners(registry), true);
  (void)registered;
  return registry;
}

SolverRegistry& solver_registry() {
  static SolverRegistry registry("solver");
  static const bool registered = (register_solvers(registry), true);
  (void)registered;
  return registry;
}

}  // namespace kelp::solvers
