#pragma once
/// Preconditioner `additive_schwarz`: overlapping additive Schwarz over the MPI ranks, any
/// preconditioner of this registry on each rank's subdomain (distributed/additive_schwarz.hpp):
///
///   preconditioner:
///     type: additive_schwarz
///     overlap: 1                  # layers of neighbouring rows (0: block Jacobi over ranks)
///     variant: auto               # restricted (RAS) | symmetric (AS) | auto: symmetric for cg
///     local: {type: gauss_seidel, direction: symmetric}
///
/// Under mpirun (a `distribution` section) the run driver builds the distributed method. Without
/// MPI there is one subdomain, the whole matrix, and the method is its local preconditioner.

#include "kelp/apps/driver/registry/registries.hpp"

namespace kelp::solvers::components {

enum class SchwarzVariantChoice { automatic, restricted, symmetric };

struct AdditiveSchwarzConfig {
  int overlap = 1;
  SchwarzVariantChoice variant = SchwarzVariantChoice::automatic;
  /// The preconditioner on each subdomain; default jacobi.
  ComponentSpec local = preconditioner_registry().make("jacobi");
};

/// Keys: overlap (>= 0), variant (auto | restricted | symmetric), local (a preconditioner).
void additive_schwarz_fields(config::FieldVisitor& v, AdditiveSchwarzConfig& params);
void register_additive_schwarz(PreconditionerRegistry& registry);

/// The variant a run uses: `auto` is symmetric for cg (it needs a symmetric preconditioner),
/// restricted for the others (fewer messages, faster convergence).
/// @return true for symmetric
bool schwarz_symmetric(SchwarzVariantChoice variant, const std::string& solver_type);

}  // namespace kelp::solvers::components
