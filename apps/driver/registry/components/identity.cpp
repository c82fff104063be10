#include "kelp/apps/driver/registry/components/identity.hpp"

#include "kelp/precond/identity.hpp"

namespace kelp::solvers::components {

void register_identity(PreconditionerRegistry& registry) {
  registry.add<NoParams>("identity", "no preconditioning, M^{-1} = I", no_fields,
                         [](const NoParams&, const auto& A) {
                           using Matrix = typename std::decay_t<decltype(A)>::matrix_type;
                           using Scalar = typename Matrix::scalar_type;
                           return PreconditionerPointer<Scalar>(
                               std::make_shared<precond::Identity<Matrix>>());
                         });
}

}  // namespace kelp::solvers::components
