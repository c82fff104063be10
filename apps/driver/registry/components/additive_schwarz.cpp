#include "kelp/apps/driver/registry/components/additive_schwarz.hpp"

namespace kelp::solvers::components {

void additive_schwarz_fields(config::FieldVisitor& v, AdditiveSchwarzConfig& params) {
  static const config::Choices<SchwarzVariantChoice> variants{{SchwarzVariantChoice::automatic, "auto"},
                                                              {SchwarzVariantChoice::restricted, "restricted"},
                                                              {SchwarzVariantChoice::symmetric, "symmetric"}};
  v.field("overlap", params.overlap, config::Bounds::at_least(0));
  v.field("variant", params.variant, variants);
  v.component("local", params.local);
}

bool schwarz_symmetric(SchwarzVariantChoice variant, const std::string& solver_type) {
  if (variant == SchwarzVariantChoice::automatic) return solver_type == "cg";
  return variant == SchwarzVariantChoice::symmetric;
}

void register_additive_schwarz(PreconditionerRegistry& registry) {
  registry.add<AdditiveSchwarzConfig>(
      "additive_schwarz",
      "overlapping additive Schwarz over the MPI ranks (restricted or symmetric), a local "
      "preconditioner on each subdomain",
      additive_schwarz_fields, [](const AdditiveSchwarzConfig& params, const auto& A) {
        // Without MPI: one subdomain, the whole matrix; the method is its local preconditioner.
        using Scalar = typename std::decay_t<decltype(A)>::scalar_type;
        return preconditioner_registry().build<Scalar>(params.local, A);
      });
}

}  // namespace kelp::solvers::components
