#include "kelp/apps/driver/run/dos_config.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace kelp::solvers {

using config::Bounds;
using config::Choices;

namespace {
const Choices<KpmImplementation>& implementation_choices() {
  static const Choices<KpmImplementation> c{{KpmImplementation::naive, "naive"},
                                            {KpmImplementation::augmented, "augmented"},
                                            {KpmImplementation::blocked, "blocked"}};
  return c;
}
const Choices<KpmRowOrder>& row_order_choices() {
  static const Choices<KpmRowOrder> c{{KpmRowOrder::natural, "natural"}, {KpmRowOrder::locality, "locality"}};
  return c;
}
const Choices<KpmRandomVector>& random_vector_choices() {
  static const Choices<KpmRandomVector> c{{KpmRandomVector::rademacher, "rademacher"},
                                          {KpmRandomVector::random_phase, "random_phase"}};
  return c;
}
const Choices<KpmTrace>& trace_choices() {
  static const Choices<KpmTrace> c{{KpmTrace::stochastic, "stochastic"}, {KpmTrace::exact, "exact"}};
  return c;
}
const Choices<KpmDampingKernel>& kernel_choices() {
  static const Choices<KpmDampingKernel> c{{KpmDampingKernel::jackson, "jackson"},
                                           {KpmDampingKernel::lorentz, "lorentz"}};
  return c;
}
const Choices<KpmBoundsMethod>& bounds_choices() {
  static const Choices<KpmBoundsMethod> c{{KpmBoundsMethod::lanczos, "lanczos"},
                                          {KpmBoundsMethod::gershgorin, "gershgorin"}};
  return c;
}
/// The rules of the energy grid across its keys, checked in the YAML with a location (they were
/// found only after the problem was built, or not at all: equal ends silently became the bounds).
void energy_grid_rules(config::FieldVisitor& v, const DosConfig& config) {
  const auto& lo = config.energy_min;
  const auto& hi = config.energy_max;
  v.require(lo.has_value() == hi.has_value(), lo ? "energy_min" : "energy_max",
            "give energy_min and energy_max together, or neither (the grid then spans the spectral bounds)");
  if (!lo || !hi) return;
  v.require(*lo != *hi || config.num_energies == 1, "energy_max",
            "energy_min = energy_max = " + config::format_double(*hi) + " is one energy, but num_energies is " +
                std::to_string(config.num_energies) + "; set num_energies: 1 or two different ends");
  // The grid forms (hi - lo) * k: each end finite is not enough (-1e308 to 1e308; 0 to 1e308
  // with 101 points gave inf and NaN energies).
  v.require(std::isfinite((*hi - *lo) * std::max(1, config.num_energies - 1)), "energy_max",
            "energy_min = " + config::format_double(*lo) + ", energy_max = " + config::format_double(*hi) +
                ", num_energies = " + std::to_string(config.num_energies) +
                ": the grid's width overflows a double; choose a narrower range");
}
}  // namespace

void dos_config_fields(config::FieldVisitor& v, DosConfig& config) {
  KpmParams& p = config.params;
  v.field("num_moments", p.num_moments, Bounds::at_least(2));
  v.field("num_vectors", p.num_vectors, Bounds::at_least(1));
  v.field("seed", config.seed, Bounds::at_least(0));
  v.field("random_vector", p.random_vector, random_vector_choices());
  v.field("trace", p.trace, trace_choices());
  v.field("implementation", p.implementation, implementation_choices());
  v.field("block_size", p.block_size, Bounds::at_least(1));
  v.field("row_order", p.row_order, row_order_choices());
  v.field("locality_part_rows", p.locality_part_rows, Bounds::at_least(0));
  v.field("kernel", p.kernel, kernel_choices());
  v.field("lorentz_lambda", p.lorentz_lambda, Bounds::greater_than(0));
  v.field("bounds", p.bounds, bounds_choices());
  v.field("lanczos_steps", p.lanczos_steps, Bounds::at_least(1));
  v.field("safety_margin", p.safety_margin, Bounds::closed_open(0, 1));  // KpmParams: [0, 1)
  v.field("growth_tolerance", p.growth_tolerance, Bounds::at_least(0));
  v.field("hermitian_tolerance", p.hermitian_tolerance, Bounds::at_least(0));
  v.field("energy_min", config.energy_min);
  v.field("energy_max", config.energy_max);
  v.field("num_energies", config.num_energies, Bounds::at_least(1));
  energy_grid_rules(v, config);
  v.field("csv", config.csv);
  p.seed = static_cast<std::uint64_t>(config.seed);
}

}  // namespace kelp::solvers
