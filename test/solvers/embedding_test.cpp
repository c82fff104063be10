// Kelp embedded in a PDE code: the code's own CSR arrays (32-bit row offsets) wrapped without a
// copy, Jacobi-preconditioned CG on them, then a values-only update written by the code into its
// own array followed by setup_numeric: Jacobi and CG see the new values, nothing is copied.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "kelp/kernels/core/wrap_crs.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/host_code_arrays.hpp"
#include "test/support/residual.hpp"

namespace kelp::embedding_test {
namespace {

template <class Scalar>
using Matrix32 = CrsMatrix<Scalar, int, int>;

template <class Scalar>
class EmbeddingTyped : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(EmbeddingTyped, ScalarTypes);

/// What the PDE code does between time steps: new values written into its own array, in place
/// (here: diagonal entry of row i += 1 + i % 5, which keeps the matrix SPD and changes D).
template <class Scalar>
std::vector<Scalar> shift_diagonal_in_place(test::HostCodeArrays<Scalar, int>& arrays) {
  auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), arrays.row_map);
  auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), arrays.entries);
  auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), arrays.values);
  std::vector<Scalar> diagonal(arrays.num_rows);
  for (int i = 0; i < arrays.num_rows; ++i)
    for (int k = row_map(i); k < row_map(i + 1); ++k)
      if (entries(k) == i) {
        values(k) += Scalar(1 + i % 5);
        diagonal[i] = values(k);
      }
  Kokkos::deep_copy(arrays.values, values);  // same allocation: the code's pointer is unchanged
  return diagonal;
}

/// M applied to a vector of ones: the diagonal of M^{-1}.
template <class Matrix>
std::vector<typename Matrix::scalar_type> jacobi_diagonal(const precond::Jacobi<Matrix>& M,
                                                          int n) {
  using Scalar = typename Matrix::scalar_type;
  VectorView<Scalar> ones("ones", n), y("y", n);
  Kokkos::deep_copy(ones, Scalar(1));
  M.apply(ones, y);
  return test::to_std(y);
}

TYPED_TEST(EmbeddingTyped, ValuesUpdatedInPlaceReachJacobiAndCgWithoutCopies) {
  using Scalar = TypeParam;
  using Matrix = Matrix32<Scalar>;
  using Mag = typename ScalarTraits<Scalar>::magnitude_type;
  const bool single = std::is_same<Mag, float>::value;
  const double tolerance = single ? 1e-4 : 1e-8;
  auto arrays = test::host_code_arrays_of<int>(generators::laplace2d<Scalar>(21, 17));
  Scalar* const user_values = arrays.values.data();
  const int n = arrays.num_rows;
  const Matrix A = wrap_crs(n, n, arrays.row_map.data(), arrays.entries.data(), user_values);
  auto op = std::make_shared<MatrixOperator<Matrix>>(A);
  auto jacobi = std::make_shared<precond::Jacobi<Matrix>>();
  jacobi->setup(A);
  solvers::CgParams params;
  params.relative_tolerance = tolerance;
  solvers::Cg<Scalar> cg(op, jacobi, params);
  VectorView<Scalar> b("b", n), x("x", n);
  Kokkos::deep_copy(b, Scalar(1));
  const auto first = cg.solve(b, x);
  ASSERT_TRUE(first.converged());
  const auto old_inverse_diagonal = jacobi_diagonal(*jacobi, n);

  const auto new_diagonal = shift_diagonal_in_place(arrays);
  const auto stale = jacobi_diagonal(*jacobi, n);  // setup_numeric not called yet
  jacobi->setup_numeric(A);                        // values only: same pattern
  Kokkos::deep_copy(x, Scalar(0));
  const auto second = cg.solve(b, x);

  // No copies anywhere: the wrap, the operator and the arrays share the code's allocation.
  EXPECT_EQ(A.values().data(), user_values);
  EXPECT_EQ(op->matrix().values().data(), user_values);
  EXPECT_EQ(op->matrix().row_map().data(), arrays.row_map.data());
  EXPECT_EQ(op->matrix().entries().data(), arrays.entries.data());
  // Jacobi kept its old values until setup_numeric, and has the new diagonal after it.
  EXPECT_EQ(stale, old_inverse_diagonal);
  const auto updated = jacobi_diagonal(*jacobi, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_LE(ScalarTraits<Scalar>::abs(updated[i] - Scalar(1) / new_diagonal[i]),
              1e-6 * ScalarTraits<Scalar>::abs(updated[i]))
        << i;
  }
  // CG solved the updated system (true residual against the code's current arrays).
  EXPECT_TRUE(second.converged()) << solvers::to_string(second.reason);
  EXPECT_LE(test::reference_relative_residual(A, b, x), 10 * tolerance);
  EXPECT_LT(second.iterations, first.iterations);  // a stronger diagonal: better conditioned
}

TEST(Embedding, JacobiOnWrappedHostArraysMatchesHandComputation) {
  // [[4, -1, 0], [-1, 2, 0], [0, 0, 5]] as a C code stores it, row offsets in int.
  std::vector<int> row_map = {0, 2, 4, 5};
  std::vector<int> entries = {0, 1, 0, 1, 2};
  std::vector<double> values = {4, -1, -1, 2, 5};
  auto A = wrap_crs<double, int, int, HostDevice>(3, 3, row_map.data(), entries.data(),
                                                  values.data());
  using Matrix = decltype(A);
  precond::Jacobi<Matrix> M;
  M.setup(A);
  Kokkos::View<double*, Kokkos::LayoutLeft, HostDevice> x("x", 3), y("y", 3);
  Kokkos::deep_copy(x, 1.0);

  M.apply(x, y);
  const std::vector<double> before(y.data(), y.data() + 3);
  values[0] = 8;  // the code updates its matrix in place ...
  values[4] = 10;
  M.setup_numeric(A);  // ... and tells the preconditioner
  M.apply(x, y);
  const std::vector<double> after(y.data(), y.data() + 3);

  EXPECT_EQ(before, (std::vector<double>{0.25, 0.5, 0.2}));
  EXPECT_EQ(after, (std::vector<double>{0.125, 0.5, 0.1}));
}

TEST(Embedding, SetupNumericRefusesAPatternChangedBehindItsBack) {
  std::vector<int> row_map = {0, 1, 2};
  std::vector<int> entries = {0, 1};
  std::vector<double> values = {2, 3};
  auto A = wrap_crs<double, int, int, HostDevice>(2, 2, row_map.data(), entries.data(),
                                                  values.data());
  precond::Jacobi<decltype(A)> M;
  M.setup(A);

  entries[1] = 0;  // [[2, 0], [3, 0]]: a pattern change the code should not have made

  test::expect_throw_containing<InvalidState>([&] { M.setup_numeric(A); },
                                              "call setup_symbolic again");
}

}  // namespace
}  // namespace kelp::embedding_test
