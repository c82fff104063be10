// CG on matrix-free operators: a RowOperator Laplacian (1D, 2D) takes the same iterations, the
// same residual history and reaches the same solution as the CRS matrix it describes; a
// FunctionOperator and a RowOperator serve as the preconditioner M. True residuals are
// recomputed here from the CRS matrix, independently of the solver.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "kelp/kernels/core/function_operator.hpp"
#include "kelp/kernels/core/row_operator.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/identity.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "test/support/dense.hpp"
#include "test/support/laplace_rows.hpp"
#include "test/support/operator_check.hpp"
#include "test/support/residual.hpp"

namespace kelp::matrix_free_cg_test {
namespace {

using solvers::StopReason;

template <class Scalar>
struct Solved {
  solvers::SolveResult result;
  std::vector<Scalar> x;
};

template <class Scalar>
Solved<Scalar> cg_solve(std::shared_ptr<const Operator<Scalar>> A,
                        std::shared_ptr<const Operator<Scalar>> M, const VectorView<Scalar>& b) {
  VectorView<Scalar> x("x", b.extent(0));
  solvers::Cg<Scalar> cg(std::move(A), std::move(M), solvers::CgParams{});
  Solved<Scalar> out;
  out.result = cg.solve(b, x);
  out.x = test::to_std(x);
  return out;
}

/// The same solve within rounding: same iteration count and stop reason, residual histories and
/// solutions equal to tol (relative).
template <class Scalar>
void expect_same_solve(const Solved<Scalar>& a, const Solved<Scalar>& b, double tol) {
  EXPECT_EQ(a.result.reason, b.result.reason);
  EXPECT_EQ(a.result.iterations, b.result.iterations);
  ASSERT_EQ(a.result.residual_history.size(), b.result.residual_history.size());
  for (std::size_t i = 0; i < a.result.residual_history.size(); ++i) {
    EXPECT_NEAR(a.result.residual_history[i], b.result.residual_history[i],
                tol * b.result.residual_history[0])
        << "iteration " << i;
  }
  EXPECT_TRUE(test::all_close(a.x, b.x, tol));
}

template <class Scalar>
VectorView<Scalar> random_rhs(Ordinal n) {
  return test::vector_from<Scalar>(test::random_vector<Scalar>(static_cast<std::size_t>(n), 4242u));
}

template <class Scalar>
class MatrixFreeCg : public ::testing::Test {};
using Scalars = ::testing::Types<double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(MatrixFreeCg, Scalars);

TYPED_TEST(MatrixFreeCg, RowOperator1dLaplacianSolvesLikeTheCrsMatrix) {
  using Scalar = TypeParam;
  const Ordinal n = 60;
  const auto A = generators::laplace1d<Scalar>(n);
  auto jacobi = std::make_shared<precond::Jacobi<CrsMatrix<Scalar>>>();
  jacobi->setup(A);
  const auto b = random_rhs<Scalar>(n);

  const auto crs = cg_solve<Scalar>(std::make_shared<MatrixOperator<CrsMatrix<Scalar>>>(A), jacobi, b);
  const auto free = cg_solve<Scalar>(
      make_row_operator<Scalar>(n, n, test::Laplace1dRows<Scalar>{n}, "laplace1d"), jacobi, b);

  EXPECT_EQ(free.result.reason, StopReason::converged_relative);
  EXPECT_LE(test::reference_relative_residual(A, b, test::vector_from<Scalar>(free.x)), 1e-8);
  expect_same_solve(free, crs, 1e-10);
}

TEST(MatrixFreeCg, RowOperator2dLaplacianSolvesLikeTheCrsMatrix) {
  const Ordinal nx = 13, ny = 9;  // odd, not square
  const auto A = generators::laplace2d<double>(nx, ny);
  auto identity = std::make_shared<precond::Identity<CrsMatrix<double>>>();
  identity->setup(A);
  const auto b = random_rhs<double>(nx * ny);

  const auto crs = cg_solve<double>(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), identity, b);
  const auto free = cg_solve<double>(
      make_row_operator<double>(nx * ny, nx * ny, test::Laplace2dRows<double>{nx, ny}, "laplace2d"),
      identity, b);

  EXPECT_EQ(free.result.reason, StopReason::converged_relative);
  EXPECT_GT(free.result.iterations, 10);
  EXPECT_LE(test::reference_relative_residual(A, b, test::vector_from<double>(free.x)), 1e-8);
  expect_same_solve(free, crs, 1e-10);
}

/// Row functor of M^{-1} = D^{-1} for the 2D Laplacian: x(i) / 4.
struct QuarterRows {
  KOKKOS_INLINE_FUNCTION double operator()(const Ordinal i, const ConstVectorView<double>& x) const {
    return 0.25 * x(i);
  }
};

// A matrix-free code with no preconditioner passes identity_operator(n): the same solve as
// Identity set up from the CRS matrix.
TEST(MatrixFreeCg, IdentityOperatorIsThePlainSolve) {
  const Ordinal nx = 11, ny = 10, n = nx * ny;
  const auto A = generators::laplace2d<double>(nx, ny);
  auto identity = std::make_shared<precond::Identity<CrsMatrix<double>>>();
  identity->setup(A);
  const auto free_A = make_row_operator<double>(n, n, test::Laplace2dRows<double>{nx, ny}, "laplace2d");
  const auto b = random_rhs<double>(n);

  const auto reference = cg_solve<double>(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), identity, b);
  const auto free = cg_solve<double>(free_A, precond::identity_operator<double>(n), b);

  EXPECT_EQ(reference.result.reason, StopReason::converged_relative);
  expect_same_solve(free, reference, 1e-10);
}

TEST(MatrixFreeCg, FunctionAndRowOperatorsServeAsPreconditioners) {
  const Ordinal nx = 11, ny = 10;
  const Ordinal n = nx * ny;
  const auto A = generators::laplace2d<double>(nx, ny);
  auto jacobi = std::make_shared<precond::Jacobi<CrsMatrix<double>>>();
  jacobi->setup(A);
  int m_calls = 0;
  auto function_m = make_function_operator<double>(
      n, n,
      [jacobi, &m_calls](ConstVectorView<double> x, VectorView<double> y) {
        ++m_calls;
        jacobi->apply(x, y);  // any host code: here the Jacobi preconditioner itself
      },
      "jacobi through a function");
  auto row_m = make_row_operator<double>(n, n, QuarterRows{}, "D^{-1}");
  auto A_op = std::make_shared<MatrixOperator<CrsMatrix<double>>>(A);
  const auto b = random_rhs<double>(n);

  const auto reference = cg_solve<double>(A_op, jacobi, b);
  const auto with_function = cg_solve<double>(A_op, function_m, b);
  const auto with_rows = cg_solve<double>(A_op, row_m, b);
  const auto all_free = cg_solve<double>(
      make_row_operator<double>(n, n, test::Laplace2dRows<double>{nx, ny}, "laplace2d"), function_m,
      b);

  EXPECT_EQ(reference.result.reason, StopReason::converged_relative);
  EXPECT_GE(m_calls, 2 * reference.result.iterations);  // M applied in both solves that use it
  expect_same_solve(with_function, reference, 1e-12);
  expect_same_solve(with_rows, reference, 1e-12);  // the diagonal of laplace2d is 4
  expect_same_solve(all_free, reference, 1e-10);
  EXPECT_LE(test::reference_relative_residual(A, b, test::vector_from<double>(all_free.x)), 1e-8);
}

}  // namespace
}  // namespace kelp::matrix_free_cg_test
