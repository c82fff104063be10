// BiCGStab: residual history against the sequential reference, the true residual recomputed
// here, nonsymmetric real and complex matrices, honest breakdown reasons, NaN input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/solvers/bicgstab/bicgstab.hpp"
#include "test/solvers/krylov_helpers.hpp"
#include "test/support/expect.hpp"
#include "test/support/paths.hpp"
#include "test/support/poison.hpp"
#include "test/support/reference_krylov.hpp"
#include "test/support/residual.hpp"

namespace kelp::bicgstab_test {
namespace {

using solvers::BicgstabParams;
using solvers::StopReason;

BicgstabParams params_with(double tol, int max_iterations = 2000) {
  BicgstabParams p;
  p.relative_tolerance = tol;
  p.max_iterations = max_iterations;
  return p;
}

/// BiCGStab with Jacobi against the reference: the first `compare` history entries agree (the
/// recurrences drift apart by rounding later), and both converge.
template <class Scalar>
void expect_matches_reference(const CrsMatrix<Scalar>& A, double tol, std::size_t compare) {
  auto b = test::rhs_of_ones(A);
  VectorView<Scalar> x("x", A.num_rows());
  test::poison(x);
  solvers::Bicgstab<Scalar> solver(test::op_of(A), test::jacobi_of(A), params_with(tol));
  const auto result = solver.solve(b, x, InitialGuess::zero);

  const auto host = test::to_host_crs(A);
  const auto ref = test::reference_bicgstab(host, test::to_std(b), test::host_inverse_diagonal(host),
                                            tol, 2000);
  EXPECT_EQ(result.reason, StopReason::converged_relative);
  const double scale = ref.history[0];
  for (std::size_t k = 0; k < std::min({compare, ref.history.size(), result.residual_history.size()}); ++k) {
    EXPECT_NEAR(result.residual_history[k] / scale, ref.history[k] / scale, 1e-8) << "iteration " << k;
  }
  EXPECT_TRUE(test::iterations_within(
      result.iterations, test::reference_bicgstab_iterations(host, test::to_std(b),
                                                             test::host_inverse_diagonal(host), tol, 2000)));
  const double rel = test::reference_relative_residual(A, b, x);
  EXPECT_LE(rel, tol);
  EXPECT_NEAR(result.relative_residual(), rel, 1e-3 * tol);
}

TEST(Bicgstab, HistoryMatchesTheReferenceOnConvectionDiffusion) {
  auto A = generators::convection_diffusion<double>(16, 16, 1, 40, 20, 0);
  expect_matches_reference(A, 1e-10, 15);
}

TEST(Bicgstab, ThreeDimensionalConvectionDiffusion) {
  auto A = generators::convection_diffusion<double>(9, 8, 7, 20, 10, -5);
  expect_matches_reference(A, 1e-10, 10);
}

TEST(Bicgstab, ComplexNonsymmetricMatrix) {
  auto A = io::read_matrix_market<Kokkos::complex<double>>(test::matrix_path("young1c"));
  expect_matches_reference(A, 1e-8, 10);
}

TEST(Bicgstab, RealNonsymmetricSharedMatrix) {
  auto A = io::read_matrix_market<double>(test::matrix_path("olm1000"));
  auto b = test::rhs_of_ones(A);
  VectorView<double> x("x", A.num_rows());
  const auto result = solvers::Bicgstab<double>(test::op_of(A), test::jacobi_of(A), params_with(1e-8, 500)).solve(b, x);
  // Either converged (then the true residual says so) or an honest non-converged reason.
  const double rel = test::reference_relative_residual(A, b, x);
  if (result.converged()) {
    EXPECT_LE(rel, 1e-8);
  }
  EXPECT_NEAR(result.relative_residual(), rel, 1e-6 * std::max(rel, 1e-8));
}

TEST(Bicgstab, ReportsTheRhoBreakdown) {
  // A = [[0, 1], [1, 0]], b = e_1: r_hat^H A r = 0 in the first step.
  auto A = test::crs_from_dense<double>({{0, 1}, {1, 0}});
  auto b = test::vector_from<double>({1, 0});
  VectorView<double> x("x", 2);
  const auto result = solvers::Bicgstab<double>(test::op_of(A), test::identity_of(A), params_with(1e-10)).solve(b, x, InitialGuess::zero);
  EXPECT_EQ(result.reason, StopReason::breakdown);
  EXPECT_NE(result.detail.find("rho"), std::string::npos) << result.detail;
  EXPECT_NEAR(result.residual_norm, 1.0, 1e-14);
}

TEST(Bicgstab, HappyBreakdownOnTheHalfStep) {
  // A = 2 I: s = 0 after the first half step.
  auto A = test::crs_from_dense<double>({{2, 0, 0}, {0, 2, 0}, {0, 0, 2}});
  auto b = test::vector_from<double>({1, 2, 3});
  VectorView<double> x("x", 3);
  const auto result = solvers::Bicgstab<double>(test::op_of(A), test::identity_of(A), params_with(1e-14)).solve(b, x, InitialGuess::zero);
  EXPECT_TRUE(result.converged());
  EXPECT_EQ(result.iterations, 1);
  EXPECT_NEAR(test::to_std(x)[2], 1.5, 1e-15);
}

TEST(Bicgstab, NanRightHandSideStopsAsNonFinite) {
  auto A = generators::laplace2d<double>(5, 5);
  VectorView<double> b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0);
  Kokkos::deep_copy(Kokkos::subview(b, 7), std::numeric_limits<double>::quiet_NaN());
  const auto result = solvers::Bicgstab<double>(test::op_of(A), test::jacobi_of(A), BicgstabParams{}).solve(b, x);
  EXPECT_EQ(result.reason, StopReason::non_finite);
}

TEST(Bicgstab, StopsAtTheIterationLimitWithTheTrueResidual) {
  auto A = generators::convection_diffusion<double>(16, 16, 1, 40, 20, 0);
  auto b = test::rhs_of_ones(A);
  VectorView<double> x("x", A.num_rows());
  const auto result = solvers::Bicgstab<double>(test::op_of(A), test::jacobi_of(A), params_with(1e-12, 4)).solve(b, x, InitialGuess::zero);
  EXPECT_EQ(result.reason, StopReason::max_iterations);
  EXPECT_EQ(result.iterations, 4);
  EXPECT_NEAR(result.relative_residual(), test::reference_relative_residual(A, b, x), 1e-12);
}

TEST(Bicgstab, RejectsAVariablePreconditioner) {
  auto A = generators::laplace1d<double>(4);
  auto inner = std::make_shared<solvers::Bicgstab<double>>(test::op_of(A), test::jacobi_of(A), BicgstabParams{});
  test::expect_throw_containing<InvalidArgument>(
      [&] { solvers::Bicgstab<double>(test::op_of(A), inner, BicgstabParams{}); }, "fgmres");
}

}  // namespace
}  // namespace kelp::bicgstab_test
