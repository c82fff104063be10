// Chebyshev polynomial preconditioner/smoother: eigenvalue bounds (estimated and given), the
// exact damping of Laplacian eigenmodes, use as a CG preconditioner (real and complex), bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/chebyshev/chebyshev.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"
#include "test/support/residual.hpp"

namespace kelp::chebyshev_test {
namespace {

constexpr double pi = 3.14159265358979323846;

double chebyshev_t(int d, double x) {
  double t0 = 1, t1 = x;
  if (d == 0) return 1;
  for (int k = 1; k < d; ++k) {
    const double t2 = 2 * x * t1 - t0;
    t0 = t1;
    t1 = t2;
  }
  return t1;
}

TEST(Chebyshev, EstimatesLambdaMaxFromBelowAndBoostsIt) {
  const int n = 40;
  auto A = generators::laplace1d<double>(n);
  precond::Chebyshev<CrsMatrix<double>> M;
  M.setup(A);
  const double exact = 1 + std::cos(pi / (n + 1));  // of D^{-1} A = A / 2
  EXPECT_LE(M.estimated_lambda_max(), exact * (1 + 1e-12));
  EXPECT_GE(M.estimated_lambda_max(), 0.8 * exact);
  EXPECT_DOUBLE_EQ(M.lambda_max(), 1.1 * M.estimated_lambda_max());
  EXPECT_DOUBLE_EQ(M.lambda_min(), M.lambda_max() / 30);
}

TEST(Chebyshev, DampsEachEigenmodeByTheChebyshevResidualPolynomial) {
  // Given bounds; smoothing A e = 0 from x = mode k multiplies it by
  // T_d((theta - lambda_k) / delta) / T_d(theta / delta), lambda_k of D^{-1} A.
  const int n = 31, degree = 4;
  auto A = generators::laplace1d<double>(n);
  precond::ChebyshevParams p;
  p.degree = degree;
  p.lambda_max = 2.0;
  p.lambda_min = 0.5;
  precond::Chebyshev<CrsMatrix<double>> M(p);
  M.setup(A);
  const double theta = 1.25, delta = 0.75;
  VectorView<double> zero("b", n);
  for (int k : {1, 8, 20, 31}) {
    std::vector<double> mode(n);
    for (int i = 0; i < n; ++i) mode[i] = std::sin(pi * k * (i + 1) / (n + 1));
    auto x = test::vector_from<double>(mode);
    M.smooth(zero, x, 1);
    const double lambda = 1 - std::cos(pi * k / (n + 1));
    const double factor = chebyshev_t(degree, (theta - lambda) / delta) / chebyshev_t(degree, theta / delta);
    const auto xs = test::to_std(x);
    for (int i = 0; i < n; ++i) EXPECT_NEAR(xs[i], factor * mode[i], 1e-12) << "mode " << k;
    if (lambda >= 0.5) {
      EXPECT_LE(std::abs(factor), 1 / chebyshev_t(degree, theta / delta) + 1e-14);
    }
  }
}

TEST(Chebyshev, ApplyIsTheSmoothFromZero) {
  auto A = generators::laplace2d<double>(7, 5);
  precond::Chebyshev<CrsMatrix<double>> M;
  M.setup(A);
  VectorView<double> b("b", A.num_rows()), y("y", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0);
  test::poison(y);
  test::poison(x);
  M.apply(b, y);
  M.smooth(b, x, 1, InitialGuess::zero);
  const auto ys = test::to_std(y), xs = test::to_std(x);
  for (std::size_t i = 0; i < ys.size(); ++i) EXPECT_DOUBLE_EQ(ys[i], xs[i]);
}

template <class Scalar>
void expect_preconditions_cg_better_than_jacobi() {
  auto A = generators::laplace3d<Scalar>(16, 16, 16);
  VectorView<Scalar> b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, Scalar(1));
  auto op = std::make_shared<MatrixOperator<CrsMatrix<Scalar>>>(A);
  precond::ChebyshevParams p;
  p.degree = 4;
  auto cheb = std::make_shared<precond::Chebyshev<CrsMatrix<Scalar>>>(p);
  cheb->setup(A);
  auto jacobi = std::make_shared<precond::Jacobi<CrsMatrix<Scalar>>>();
  jacobi->setup(A);
  const auto with_cheb = solvers::Cg<Scalar>(op, cheb, solvers::CgParams{}).solve(b, x, InitialGuess::zero);
  EXPECT_EQ(with_cheb.reason, solvers::StopReason::converged_relative);
  EXPECT_LE(test::reference_relative_residual(A, b, x), 1e-8);
  const auto with_jacobi = solvers::Cg<Scalar>(op, jacobi, solvers::CgParams{}).solve(b, x, InitialGuess::zero);
  EXPECT_LT(with_cheb.iterations, with_jacobi.iterations / 2);
}

TEST(Chebyshev, PreconditionsCgReal) { expect_preconditions_cg_better_than_jacobi<double>(); }
TEST(Chebyshev, PreconditionsCgComplex) {
  expect_preconditions_cg_better_than_jacobi<Kokkos::complex<double>>();
}

TEST(Chebyshev, RejectsBadInput) {
  precond::ChebyshevParams p;
  p.degree = 0;
  test::expect_throw_containing<InvalidArgument>(
      [&] { precond::Chebyshev<CrsMatrix<double>> M(p); }, "degree = 0");
  p = precond::ChebyshevParams{};
  p.lambda_max = 1;
  p.lambda_min = 2;
  test::expect_throw_containing<InvalidArgument>(
      [&] { precond::Chebyshev<CrsMatrix<double>> M(p); }, "lambda_min");
  auto A = test::crs_from_dense<double>({{1, 1}, {1, 0}});
  precond::Chebyshev<CrsMatrix<double>> M;
  test::expect_throw_containing<NumericalError>([&] { M.setup(A); }, "row 2");
  // boost x estimate overflows: named at setup, not left to the solve as an "indefinite matrix".
  p = precond::ChebyshevParams{};
  p.boost = 1e308;
  precond::Chebyshev<CrsMatrix<double>> boosted(p);
  test::expect_throw_containing<InvalidArgument>([&] { boosted.setup(generators::laplace1d<double>(10)); },
                                                 "is too large for the smoother's double arithmetic");
  p.boost = 1e308 / 2.5;  // finite, but 1 / lambda_max is subnormal: the same error
  precond::Chebyshev<CrsMatrix<double>> boosted_finite(p);
  test::expect_throw_containing<InvalidArgument>([&] { boosted_finite.setup(generators::laplace1d<double>(10)); },
                                                 "(boost = 4e+307 times the estimate");
  p = precond::ChebyshevParams{};
  p.lambda_max = 1e308;
  precond::Chebyshev<CrsMatrix<double>> given(p);
  test::expect_throw_containing<InvalidArgument>([&] { given.setup(generators::laplace1d<double>(10)); }, "(given)");
}

}  // namespace
}  // namespace kelp::chebyshev_test
