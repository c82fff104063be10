#include "kelp/apps/driver/registry/components/jacobi.hpp"

namespace kelp::solvers::components {

void jacobi_fields(config::FieldVisitor& v, precond::JacobiParams& params) {
  v.field("damping", params.damping, config::Bounds::open_closed(0, 2));
}

void register_jacobi(PreconditionerRegistry& registry) {
  registry.add<precond::JacobiParams>(
      "jacobi", "point Jacobi, M^{-1} = damping * D^{-1}", jacobi_fields,
      [](const precond::JacobiParams& params, const auto& A) {
        using Matrix = typename std::decay_t<decltype(A)>::matrix_type;
        using Scalar = typename Matrix::scalar_type;
        // The matrix's name makes a zero-diagonal error say which matrix it was.
        return PreconditionerPointer<Scalar>(
            std::make_shared<precond::Jacobi<Matrix>>(params, A.name));
      });
}

}  // namespace kelp::solvers::components
