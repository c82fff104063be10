#include "kelp/apps/driver/registry/components/block_jacobi.hpp"

namespace kelp::solvers::components {

void block_jacobi_fields(config::FieldVisitor& v, precond::BlockJacobiParams& params) {
  v.field("block_size", params.block_size,
          config::Bounds::closed(1, precond::BlockJacobi<CrsMatrix<double>>::max_block_size));
}

void register_block_jacobi(PreconditionerRegistry& registry) {
  registry.add<precond::BlockJacobiParams>(
      "block_jacobi", "block Jacobi, diagonal blocks of block_size rows factored by batched LU",
      block_jacobi_fields, [](const precond::BlockJacobiParams& params, const auto& A) {
        using Matrix = typename std::decay_t<decltype(A)>::matrix_type;
        using Scalar = typename Matrix::scalar_type;
        // The matrix's name makes a singular-block error say which matrix it was.
        return PreconditionerPointer<Scalar>(
            std::make_shared<precond::BlockJacobi<Matrix>>(params, A.name));
      });
}

}  // namespace kelp::solvers::components
