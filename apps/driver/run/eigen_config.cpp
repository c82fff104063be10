#include "kelp/apps/driver/run/eigen_config.hpp"

#include "kelp/apps/driver/registry/components/gauss_seidel.hpp"

namespace kelp::solvers {

using config::Bounds;

const config::Choices<EigenWhich>& eigen_which_choices() {
  static const config::Choices<EigenWhich> choices{{EigenWhich::smallest, "smallest"},
                                                   {EigenWhich::largest, "largest"}};
  return choices;
}

void lobpcg_fields(config::FieldVisitor& v, LobpcgParams& params) {
  v.field("num_eigenpairs", params.num_eigenpairs, Bounds::at_least(1));
  v.field("guard_vectors", params.guard_vectors, Bounds::at_least(0));
  v.field("which", params.which, eigen_which_choices());
  v.field("max_iterations", params.max_iterations, Bounds::at_least(0));
  v.field("relative_tolerance", params.relative_tolerance, Bounds::closed_open(0, 1));  // 1: x = 0 "converges"
  v.field("absolute_tolerance", params.absolute_tolerance, Bounds::at_least(0));
  v.field("restart_condition", params.restart_condition, Bounds::greater_than(1));
  v.field("seed", params.seed, Bounds::at_least(0));
  // Lobpcg's own rule, checked here so that the error has a location.
  v.require(params.relative_tolerance > 0 || params.absolute_tolerance > 0, "relative_tolerance",
            "relative_tolerance and absolute_tolerance are both 0; expected one of them > 0");
}

void eigen_config_fields(config::FieldVisitor& v, EigenConfig& config) {
  lobpcg_fields(v, config.params);
  v.field("hermitian_tolerance", config.hermitian_tolerance, Bounds::at_least(0));
  v.component("preconditioner", config.preconditioner);
  v.require(!components::asks_for_eisenstat(config.preconditioner), "preconditioner",
            components::eisenstat_elsewhere);
}

}  // namespace kelp::solvers
