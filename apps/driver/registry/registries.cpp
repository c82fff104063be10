#include "kelp/apps/driver/registry/registries.hpp"

#include "kelp/apps/driver/registry/components/cg.hpp"
#include "kelp/apps/driver/registry/components/chebyshev.hpp"
#include "kelp/apps/driver/registry/components/generators.hpp"
#include "kelp/apps/driver/registry/components/identity.hpp"
#include "kelp/apps/driver/registry/components/jacobi.hpp"
#include "kelp/apps/driver/registry/components/block_jacobi.hpp"
#include "kelp/apps/driver/registry/components/krylov.hpp"
#include "kelp/apps/driver/registry/components/nested_solver.hpp"
#include "kelp/apps/driver/registry/components/vectors.hpp"
#include "kelp/apps/driver/registry/components/gauss_seidel.hpp"
#include "kelp/apps/driver/registry/components/additive_schwarz.hpp"

namespace kelp::solvers {

const config::Choices<ScalarKind>& scalar_kinds() {
  static const config::Choices<ScalarKind> choices{{ScalarKind::real_float, "float"},
                                                   {ScalarKind::real_double, "double"},
                                                   {ScalarKind::complex_double, "complex"}};
  return choices;
}

std::string to_string(ScalarKind kind) { return scalar_kinds().name(kind); }

// Each registry is filled on first use, in registration order (the order errors list types in).

GeneratorRegistry& generator_registry() {
  static GeneratorRegistry registry("generator");
  static const bool registered = (components::register_generators(registry), true);
  (void)registered;
  return registry;
}

VectorRegistry& rhs_registry() {
  static VectorRegistry registry("rhs");
  static const bool registered = (components::register_rhs(registry), true);
  (void)registered;
  return registry;
}

VectorRegistry& initial_guess_registry() {
  static VectorRegistry registry("initial_guess");
  static const bool registered = (components::register_initial_guesses(registry), true);
  (void)registered;
  return registry;
}

PreconditionerRegistry& preconditioner_registry() {
  static PreconditionerRegistry registry("preconditioner");
  static const bool registered =
      (components::register_identity(registry), components::register_jacobi(registry),
       components::register_block_jacobi(registry), components::register_chebyshev(registry),
       components::register_nested_solver(registry),
       components::register_gauss_seidel(registry), components::register_additive_schwarz(registry), true);
  (void)registered;
  return registry;
}

SolverRegistry& solver_registry() {
  static SolverRegistry registry("solver");
  static const bool registered =
      (components::register_cg(registry), components::register_krylov(registry), true);
  (void)registered;
  return registry;
}

}  // namespace kelp::solvers
