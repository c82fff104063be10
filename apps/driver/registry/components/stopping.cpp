#include "kelp/apps/driver/registry/components/stopping.hpp"

namespace kelp::solvers::components {

using config::Bounds;

const config::Choices<ToleranceReference>& tolerance_references() {
  static const config::Choices<ToleranceReference> choices{
      {ToleranceReference::rhs, "rhs"}, {ToleranceReference::initial_residual, "initial_residual"}};
  return choices;
}

void stopping_fields(config::FieldVisitor& v, StoppingRules& rules) {
  v.field("max_iterations", rules.max_iterations, Bounds::at_least(0));
  v.field("relative_tolerance", rules.relative_tolerance, Bounds::closed_open(0, 1));  // 1: x = 0 "converges"
  v.field("absolute_tolerance", rules.absolute_tolerance, Bounds::at_least(0));
  v.field("relative_to", rules.relative_to, tolerance_references());
  v.field("divergence_tolerance", rules.divergence_tolerance, Bounds::zero_or_at_least(1));
  v.field("stagnation_window", rules.stagnation_window, Bounds::at_least(0));
  v.field("stagnation_reduction", rules.stagnation_reduction, Bounds{0, 1, true, true});
  v.field("time_limit_seconds", rules.time_limit_seconds, Bounds::at_least(0));
}

}  // namespace kelp::solvers::components
