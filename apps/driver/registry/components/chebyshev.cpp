#include "kelp/apps/driver/registry/components/chebyshev.hpp"

namespace kelp::solvers::components {

using config::Bounds;

void chebyshev_fields(config::FieldVisitor& v, precond::ChebyshevParams& p) {
  v.field("degree", p.degree, Bounds::at_least(1));
  v.field("eigenvalue_ratio", p.eigenvalue_ratio, Bounds::greater_than(1));
  v.field("lambda_max", p.lambda_max, Bounds::at_least(0));
  v.field("lambda_min", p.lambda_min, Bounds::at_least(0));
  v.field("power_iterations", p.power_iterations, Bounds::at_least(1));
  v.field("boost", p.boost, Bounds::at_least(1));
  v.field("sweeps", p.sweeps, Bounds::at_least(1));
  // Chebyshev's own rule (precond::Chebyshev), checked here so that the error has a location.
  v.require(p.lambda_max == 0 || p.lambda_min < p.lambda_max, "lambda_min",
            "lambda_min = " + config::format_double(p.lambda_min) + " >= lambda_max = " +
                config::format_double(p.lambda_max) +
                "; expected lambda_min < lambda_max (or lambda_max: 0 to estimate it)");
}

void register_chebyshev(PreconditionerRegistry& registry) {
  registry.add<precond::ChebyshevParams>(
      "chebyshev", "Chebyshev polynomial in D^{-1} A (eigenvalue bound estimated or given)",
      chebyshev_fields, [](const precond::ChebyshevParams& params, const auto& A) {
        using Matrix = typename std::decay_t<decltype(A)>::matrix_type;
        using Scalar = typename Matrix::scalar_type;
        return PreconditionerPointer<Scalar>(
            std::make_shared<precond::Chebyshev<Matrix>>(params, A.name));
      });
}

}  // namespace kelp::solvers::components
