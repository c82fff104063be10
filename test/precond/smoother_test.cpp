// The smoother concept through its generic implementation (residual correction with Jacobi):
// one sweep against a host computation, zero-guess semantics, monotone residual reduction of
// damped Jacobi on a Laplacian, use as a CG preconditioner, and the contract's errors.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/precond/relaxation_smoother.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "test/support/dense.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/reference.hpp"
#include "test/support/residual.hpp"

namespace kelp::smoother_test {
namespace {

using Matrix = CrsMatrix<double>;

std::shared_ptr<precond::RelaxationSmoother<Matrix>> damped_jacobi(const Matrix& A, int sweeps = 1) {
  auto smoother = std::make_shared<precond::RelaxationSmoother<Matrix>>(
      std::make_shared<precond::Jacobi<Matrix>>(precond::JacobiParams{2.0 / 3.0}), sweeps);
  smoother->setup(A);
  return smoother;
}

TEST(RelaxationSmoother, OneSweepIsXPlusDampedInverseDiagonalTimesResidual) {
  const auto A = generators::laplace2d<double>(7, 5);
  const int n = A.num_rows();
  const auto b_host = test::random_vector<double>(n, 3);
  const auto x_host = test::random_vector<double>(n, 4);
  auto b = test::vector_from<double>(b_host);
  auto x = test::vector_from<double>(x_host);

  damped_jacobi(A)->smooth(b, x, 1);

  const auto Ax = test::reference_spmv(kernels::SpmvMode::no_transpose, 1.0, test::to_host_crs(A),
                                       x_host, 0.0, {});
  const auto diag = test::to_dense(A);
  const auto got = test::to_std(x);
  for (int i = 0; i < n; ++i) {
    const double expected = x_host[i] + (2.0 / 3.0) / diag[i][i] * (b_host[i] - Ax[i]);
    EXPECT_NEAR(got[i], expected, 1e-14) << "row " << i;
  }
}

TEST(RelaxationSmoother, ZeroGuessDoesNotReadXAndEqualsSweepsFromZero) {
  const auto A = generators::laplace1d<double>(33);
  auto b = test::vector_from<double>(test::random_vector<double>(33, 5));
  VectorView<double> from_zero("from_zero", 33), poisoned("poisoned", 33), applied("applied", 33);
  auto smoother = damped_jacobi(A, 3);
  test::poison(poisoned);
  test::poison(applied);

  smoother->smooth(b, from_zero, 3, InitialGuess::provided);  // x = 0 given explicitly
  smoother->smooth(b, poisoned, 3, InitialGuess::zero);
  smoother->apply(b, applied);  // as an operator: sweeps() sweeps from zero

  const auto expected = test::to_std(from_zero);
  const auto zero = test::to_std(poisoned);
  const auto op = test::to_std(applied);
  for (int i = 0; i < 33; ++i) {
    EXPECT_NEAR(zero[i], expected[i], 1e-14);
    EXPECT_NEAR(op[i], expected[i], 1e-14);
  }
}

TEST(RelaxationSmoother, DampedJacobiReducesTheResidualEverySweep) {
  const auto A = generators::laplace2d<double>(16, 16);
  const int n = A.num_rows();
  auto b = test::vector_from<double>(test::random_vector<double>(n, 6));
  VectorView<double> x("x", n);
  auto smoother = damped_jacobi(A);
  double previous = test::reference_relative_residual(A, b, x);
  for (int sweep = 0; sweep < 10; ++sweep) {
    smoother->smooth(b, x, 1);
    const double now = test::reference_relative_residual(A, b, x);
    EXPECT_LT(now, previous) << "sweep " << sweep;
    previous = now;
  }
}

TEST(RelaxationSmoother, PreconditionsCgBetterThanOneJacobiStep) {
  const auto A = generators::laplace2d<double>(30, 30);
  const int n = A.num_rows();
  VectorView<double> b("b", n), x("x", n);
  Kokkos::deep_copy(b, 1.0);
  auto op = std::make_shared<MatrixOperator<Matrix>>(A);
  auto jacobi = std::make_shared<precond::Jacobi<Matrix>>();
  jacobi->setup(A);
  const auto plain = solvers::Cg<double>(op, jacobi, {}).solve(b, x, InitialGuess::zero);
  // Two symmetric damped-Jacobi sweeps: a symmetric polynomial preconditioner.
  const auto smoothed = solvers::Cg<double>(op, damped_jacobi(A, 2), {}).solve(b, x, InitialGuess::zero);
  ASSERT_TRUE(plain.converged());
  ASSERT_TRUE(smoothed.converged());
  EXPECT_LT(smoothed.iterations, plain.iterations);
  EXPECT_LE(test::reference_relative_residual(A, b, x), 1e-8);
}

TEST(RelaxationSmoother, FollowsAValuesOnlyChangeAfterSetupNumeric) {
  auto A = generators::laplace1d<double>(9);
  auto smoother = damped_jacobi(A);
  VectorView<double> b("b", 9), x("x", 9);
  Kokkos::deep_copy(b, 1.0);
  smoother->smooth(b, x, 1, InitialGuess::zero);
  EXPECT_NEAR(test::to_std(x)[4], (2.0 / 3.0) / 2.0, 1e-15);  // diagonal 2

  kernels::scal(4.0, A.values());  // diagonal 8, in place
  smoother->setup_numeric(A);
  smoother->smooth(b, x, 1, InitialGuess::zero);
  EXPECT_NEAR(test::to_std(x)[4], (2.0 / 3.0) / 8.0, 1e-15);
}

TEST(RelaxationSmoother, ChecksItsContract) {
  const auto A = generators::laplace1d<double>(5);
  precond::RelaxationSmoother<Matrix> unset(std::make_shared<precond::Jacobi<Matrix>>());
  VectorView<double> b("b", 5), x("x", 5), short_x("short_x", 4);
  EXPECT_THROW(unset.smooth(b, x, 1), InvalidState);
  auto smoother = damped_jacobi(A);
  EXPECT_THROW(smoother->smooth(b, x, -1), InvalidArgument);
  EXPECT_THROW(smoother->smooth(b, short_x, 1), DimensionMismatch);
  EXPECT_THROW(smoother->smooth(b, b, 1), InvalidArgument);
  EXPECT_THROW(precond::RelaxationSmoother<Matrix>(std::make_shared<precond::Jacobi<Matrix>>(), 0),
               InvalidArgument);
  EXPECT_THROW(precond::RelaxationSmoother<Matrix>(nullptr), InvalidArgument);
}

}  // namespace
}  // namespace kelp::smoother_test
