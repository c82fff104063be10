#include "kelp/apps/driver/registry/components/gauss_seidel.hpp"

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
}

bool asks_for_eisenstat(const ComponentSpec& spec) {
  return spec.type() == "gauss_seidel" &&
         spec.params<precond::GaussSeidelParams>().fused == precond::GaussSeidelFusion::eisenstat;
}

bool is_one_sided_sweep(const ComponentSpec& spec) {
  return spec.type() == "gauss_seidel" &&
         spec.params<precond::GaussSeidelParams>().direction != GaussSeidelDirection::symmetric;
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
