#include "kelp/apps/driver/registry/components/gauss_seidel.hpp"

#include "kelp/apps/driver/registry/components/additive_schwarz.hpp"

namespace kelp::solvers::components {

using config::Bounds;
using precond::GaussSeidelDirection;
using precond::GaussSeidelVariant;
using precond::TwoStageForm;

void gauss_seidel_fields(config::FieldVisitor& v, precond::GaussSeidelParams& p) {
  static const config::Choices<GaussSeidelVariant> variants{
      {GaussSeidelVariant::multicolor, "multicolor"},
      {GaussSeidelVariant::cluster, "cluster"},
      {GaussSeidelVariant::two_stage, "two_stage"}};
  static const config::Choices<GaussSeidelDirection> directions{
      {GaussSeidelDirection::forward, "forward"},
      {GaussSeidelDirection::backward, "backward"},
      {GaussSeidelDirection::symmetric, "symmetric"}};
  static const config::Choices<precond::GaussSeidelColoring> colorings{
      {precond::GaussSeidelColoring::speculative, "speculative"},
      {precond::GaussSeidelColoring::deterministic, "deterministic"},
      {precond::GaussSeidelColoring::sequential_greedy, "sequential_greedy"}};
  static const config::Choices<TwoStageForm> forms{{TwoStageForm::classic, "classic"},
                                                   {TwoStageForm::compact, "compact"}};
  v.field("variant", p.variant, variants);
  v.field("direction", p.direction, directions);
  v.field("sweeps", p.sweeps, Bounds::at_least(1));
  v.field("omega", p.omega, Bounds{0, 2, true, true});
  v.field("coloring", p.coloring, colorings);
  v.field("long_row_threshold", p.long_row_threshold, Bounds::at_least(0));
  v.field("cluster_size", p.cluster_size, Bounds::at_least(0));
  v.field("inner_sweeps", p.inner_sweeps, Bounds::at_least(0));
  v.field("form", p.form, forms);
  static const config::Choices<precond::GaussSeidelFusion> fusions{
      {precond::GaussSeidelFusion::none, "none"}, {precond::GaussSeidelFusion::eisenstat, "eisenstat"}};
  v.field("fused", p.fused, fusions);
  // Eisenstat's trick splits one symmetric multicolor sweep into its two triangular halves
  // (EisenstatCg checks it again for C++ callers, without a YAML location).
  const bool eisenstat = p.fused == precond::GaussSeidelFusion::eisenstat;
  v.require(!eisenstat || p.variant == GaussSeidelVariant::multicolor, "variant",
            std::string("fused: eisenstat needs variant multicolor; got ") + variants.name(p.variant));
  v.require(!eisenstat || p.direction == GaussSeidelDirection::symmetric, "direction",
            std::string("fused: eisenstat needs direction symmetric; got ") + directions.name(p.direction));
  v.require(!eisenstat || p.sweeps == 1, "sweeps",
            "fused: eisenstat needs sweeps: 1; got " + std::to_string(p.sweeps));
}

namespace {
/// The preconditioner that acts on each subdomain: `spec` itself, or the local one of (nested)
/// additive_schwarz, so that the rules below also see a gauss_seidel wrapped in it.
const ComponentSpec& acting(const ComponentSpec& spec) {
  const ComponentSpec* s = &spec;
  while (s->type() == "additive_schwarz") s = &s->params<AdditiveSchwarzConfig>().local;
  return *s;
}
}  // namespace

bool asks_for_eisenstat(const ComponentSpec& spec) {
  const ComponentSpec& gs = acting(spec);
  return gs.type() == "gauss_seidel" &&
         gs.params<precond::GaussSeidelParams>().fused == precond::GaussSeidelFusion::eisenstat;
}

bool is_one_sided_sweep(const ComponentSpec& spec) {
  const ComponentSpec& gs = acting(spec);
  return gs.type() == "gauss_seidel" &&
         gs.params<precond::GaussSeidelParams>().direction != GaussSeidelDirection::symmetric;
}

void register_gauss_seidel(PreconditionerRegistry& registry) {
  registry.add<precond::GaussSeidelParams>(
      "gauss_seidel", "Gauss-Seidel / SOR sweeps (multicolor, cluster or two-stage)",
      gauss_seidel_fields, [](const precond::GaussSeidelParams& params, const auto& A) {
        using Matrix = typename std::decay_t<decltype(A)>::matrix_type;
        using Scalar = typename Matrix::scalar_type;
        return PreconditionerPointer<Scalar>(
            std::make_shared<precond::GaussSeidel<Matrix>>(params, A.name));
      });
}

}  // namespace kelp::solvers::components
