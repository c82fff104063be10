#pragma once
// Shared set-up of the GMRES and BiCGStab tests: operators, Jacobi, inverse diagonals for the
// sequential references, b = A * ones.
#include <memory>
#include <vector>

#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/identity.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "test/support/dense.hpp"
#include "test/support/reference.hpp"

namespace kelp::test {

template <class Matrix>
std::shared_ptr<const Operator<typename Matrix::scalar_type>> op_of(const Matrix& A) {
  return std::make_shared<MatrixOperator<Matrix>>(A);
}

template <class Matrix>
std::shared_ptr<precond::Preconditioner<Matrix>> jacobi_of(const Matrix& A) {
  auto M = std::make_shared<precond::Jacobi<Matrix>>();
  M->setup(A);
  return M;
}

template <class Matrix>
std::shared_ptr<precond::Preconditioner<Matrix>> identity_of(const Matrix& A) {
  auto M = std::make_shared<precond::Identity<Matrix>>();
  M->setup(A);
  return M;
}

/// 1 / a_ii from the host copy (the reference's Jacobi).
template <class Scalar>
std::vector<Scalar> host_inverse_diagonal(const HostCrs<Scalar>& A) {
  std::vector<Scalar> d(A.num_rows, Scalar(0));
  for (int i = 0; i < A.num_rows; ++i)
    for (long long k = A.row_map[i]; k < A.row_map[i + 1]; ++k)
      if (A.entries[k] == i) d[i] += A.values[k];
  for (auto& v : d) v = Scalar(1) / v;
  return d;
}

/// b = A * ones by the sequential reference.
template <class Matrix>
VectorView<typename Matrix::scalar_type> rhs_of_ones(const Matrix& A) {
  using Scalar = typename Matrix::scalar_type;
  const std::vector<Scalar> ones(static_cast<std::size_t>(A.num_cols()), Scalar(1));
  return vector_from<Scalar>(reference_spmv(kernels::SpmvMode::no_transpose, Scalar(1),
                                            to_host_crs(A), ones, Scalar(0), {}));
}

}  // namespace kelp::test
