// GMRES's classical Gram-Schmidt options: cgs (one pass), cgs_refine_if_needed (a second pass
// when the first cancelled, DGKS test) and the fused CGS2 sweep; the kernel that fuses the
// first pass's update with the second pass's dots against a sequential reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/solvers/gmres/gmres.hpp"
#include "test/solvers/krylov_helpers.hpp"
#include "test/support/expect.hpp"
#include "test/support/gmres_params.hpp"
#include "test/support/paths.hpp"
#include "test/support/poison.hpp"
#include "test/support/reference_krylov.hpp"
#include "test/support/residual.hpp"

namespace kelp::gmres_orthogonalization_test {
namespace {

using solvers::GmresParams;
using solvers::Orthogonalization;
using solvers::PreconditionerSide;
using solvers::StopReason;

/// Jacobi-GMRES with `o` against the sequential reference (modified Gram-Schmidt):
/// the history agrees to `eps`, the iteration counts agree, and the true residual of x,
/// recomputed by the sequential reference, meets the tolerance.
template <class Scalar>
solvers::SolveResult expect_matches_reference(const CrsMatrix<Scalar>& A, GmresParams params,
                                              bool converges, double eps) {
  auto b = test::rhs_of_ones(A);
  VectorView<Scalar> x("x", A.num_rows());
  test::poison(x);
  solvers::Gmres<Scalar> gmres(test::op_of(A), test::jacobi_of(A), params);
  const auto result = gmres.solve(b, x, InitialGuess::zero);
  const auto host = test::to_host_crs(A);
  const auto ref = test::reference_gmres(host, test::to_std(b), test::host_inverse_diagonal(host),
                                         params.restart, params.relative_tolerance,
                                         params.max_iterations);
  EXPECT_EQ(result.reason, converges ? StopReason::converged_relative : StopReason::max_iterations)
      << to_string(result.reason);
  EXPECT_EQ(result.iterations, ref.iterations);
  const double scale = ref.history[0];
  for (std::size_t k = 0; k < std::min(ref.history.size(), result.residual_history.size()); ++k) {
    EXPECT_NEAR(result.residual_history[k] / scale, ref.history[k] / scale, eps) << "iteration " << k;
  }
  const double rel = test::reference_relative_residual(A, b, x);
  if (converges) {
    EXPECT_LE(rel, params.relative_tolerance);
  }
  EXPECT_NEAR(result.relative_residual(), rel, 1e-3 * std::max(rel, params.relative_tolerance));
  return result;
}

TEST(GmresOrthogonalization, CgsAndRefineIfNeededMatchTheReferenceWithRestarts) {
  auto A = generators::convection_diffusion<double>(16, 16, 1, 40, 20, 0);
  for (auto o : {Orthogonalization::cgs, Orthogonalization::cgs_refine_if_needed}) {
    SCOPED_TRACE(solvers::to_string(o));
    expect_matches_reference(A, test::gmres_params(10, o, 1e-10), true, 1e-9);
  }
}

TEST(GmresOrthogonalization, OddSizedThreeDimensionalProblemLongerThanOneRowBlock) {
  // n = 1386 rows: several 512-row work items and 64-row chunks, the last ones partial;
  // restart 33 > 32 dot columns per fused sweep (the tail of the dots through gram).
  auto A = generators::convection_diffusion<double>(11, 14, 9, 30, -10, 5);
  for (auto o : {Orthogonalization::cgs2, Orthogonalization::cgs,
                 Orthogonalization::cgs_refine_if_needed}) {
    SCOPED_TRACE(solvers::to_string(o));
    expect_matches_reference(A, test::gmres_params(33, o, 1e-10), true, 1e-9);
  }
}

TEST(GmresOrthogonalization, ComplexMatchesTheReference) {
  auto A = io::read_matrix_market<Kokkos::complex<double>>(test::matrix_path("young1c"));
  for (auto o : {Orthogonalization::cgs, Orthogonalization::cgs_refine_if_needed}) {
    SCOPED_TRACE(solvers::to_string(o));
    expect_matches_reference(A, test::gmres_params(30, o, 1e-8, 60), false, 1e-7);
  }
}

TEST(GmresOrthogonalization, LeftAndRightPreconditioningConvergeToTheSameSolution) {
  auto A = generators::convection_diffusion<double>(12, 10, 3, 20, 10, -5);
  auto b = test::rhs_of_ones(A);
  for (auto o : {Orthogonalization::cgs, Orthogonalization::cgs_refine_if_needed}) {
    SCOPED_TRACE(solvers::to_string(o));
    std::vector<std::vector<double>> solutions;
    for (auto side : {PreconditionerSide::right, PreconditionerSide::left}) {
      VectorView<double> x("x", A.num_rows());
      test::poison(x);
      auto p = test::gmres_params(15, o, 1e-11);
      p.side = side;
      const auto result =
          solvers::Gmres<double>(test::op_of(A), test::jacobi_of(A), p).solve(b, x, InitialGuess::zero);
      EXPECT_TRUE(result.converged()) << to_string(result.reason);
      const double rel = test::reference_relative_residual(A, b, x);  // independent of the solver
      EXPECT_LE(rel, 1e-8);
      EXPECT_NEAR(result.relative_residual(), rel, 1e-3 * std::max(rel, 1e-11));
      solutions.push_back(test::to_std(x));
    }
    for (std::size_t i = 0; i < solutions[0].size(); ++i) {
      EXPECT_NEAR(solutions[0][i], 1.0, 1e-7);  // b = A * ones
      EXPECT_NEAR(solutions[1][i], 1.0, 1e-7);
    }
  }
}

TEST(GmresOrthogonalization, RefinesWhenTheKrylovSpaceClosesAndReportsTheHappyBreakdown) {
  // diag(1, 2, 3, 1, 2, 3): at step 3 the new vector lies in span(V), the first pass cancels it
  // entirely and the DGKS test asks for the second pass.
  auto A = test::crs_from_dense<double>({{1, 0, 0, 0, 0, 0},
                                         {0, 2, 0, 0, 0, 0},
                                         {0, 0, 3, 0, 0, 0},
                                         {0, 0, 0, 1, 0, 0},
                                         {0, 0, 0, 0, 2, 0},
                                         {0, 0, 0, 0, 0, 3}});
  auto b = test::vector_from<double>({1, 1, 1, 1, 1, 1});
  VectorView<double> x("x", 6);
  solvers::Gmres<double> gmres(test::op_of(A), test::identity_of(A),
                               test::gmres_params(6, Orthogonalization::cgs_refine_if_needed, 1e-15));
  const auto result = gmres.solve(b, x, InitialGuess::zero);
  EXPECT_TRUE(result.converged()) << to_string(result.reason);
  EXPECT_TRUE(result.happy_breakdown);
  EXPECT_EQ(result.iterations, 3);
  EXPECT_GE(gmres.last_refinements(), 1);
  EXPECT_LE(test::reference_relative_residual(A, b, x), 1e-14);
}

TEST(GmresOrthogonalization, RestartAtLeastNConvergesInAtMostNSteps) {
  auto A = test::crs_from_dense<double>({{4, 1, 0, 2, 0},
                                         {-1, 3, 1, 0, 0},
                                         {0, 2, 5, -1, 1},
                                         {1, 0, 0, 2, -1},
                                         {0, 1, -2, 0, 6}});
  auto b = test::vector_from<double>({1, 2, 3, 4, 5});
  for (auto o : {Orthogonalization::cgs, Orthogonalization::cgs_refine_if_needed}) {
    VectorView<double> x("x", 5);
    const auto result = solvers::Gmres<double>(test::op_of(A), test::identity_of(A), test::gmres_params(5, o, 1e-12))
                            .solve(b, x, InitialGuess::zero);
    EXPECT_TRUE(result.converged()) << to_string(result.reason);
    EXPECT_LE(result.iterations, 5);
    EXPECT_LE(test::reference_relative_residual(A, b, x), 1e-12);
  }
}

TEST(GmresOrthogonalization, NamesAndSummary) {
  EXPECT_EQ(solvers::to_string(Orthogonalization::cgs), "cgs");
  EXPECT_EQ(solvers::to_string(Orthogonalization::cgs_refine_if_needed), "cgs_refine_if_needed");
  auto A = generators::laplace1d<double>(4);
  solvers::Gmres<double> gmres(test::op_of(A), test::identity_of(A),
                               test::gmres_params(3, Orthogonalization::cgs_refine_if_needed, 1e-8));
  EXPECT_NE(gmres.summary().find("cgs_refine_if_needed"), std::string::npos) << gmres.summary();
}

/// update_and_dots against a sequential computation: y += V c, then V(:, 0:d)^H y and ||y||^2.
void check_update_and_dots(std::size_t n, std::size_t k, std::size_t d) {
  using Scalar = Kokkos::complex<double>;
  Kokkos::View<Scalar**, Kokkos::LayoutLeft> V("V", n, k + 1);
  VectorView<Scalar> c("c", k);
  auto hV = Kokkos::create_mirror_view(V);
  auto hc = Kokkos::create_mirror_view(c);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= k; ++j)
      hV(i, j) = Scalar(std::sin(0.37 * i + 1.3 * j), std::cos(0.11 * i * (j + 1)));
  for (std::size_t j = 0; j < k; ++j) hc(j) = Scalar(0.5 - 0.1 * j, 0.2 * j);
  Kokkos::deep_copy(V, hV);
  Kokkos::deep_copy(c, hc);
  // the reference on the host copy
  std::vector<Scalar> y(n), dots(d, Scalar(0));
  double squares = 0;
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = hV(i, k);
    for (std::size_t j = 0; j < k; ++j) y[i] += hV(i, j) * hc(j);
    for (std::size_t t = 0; t < d; ++t) dots[t] += Kokkos::conj(hV(i, t)) * y[i];
    squares += Kokkos::abs(y[i]) * Kokkos::abs(y[i]);
  }
  const auto w = Kokkos::subview(V, Kokkos::ALL, k);
  std::vector<Scalar> sums(d + 1, Scalar(std::nan(""), 0));
  solvers::impl::update_and_dots(V, c, k, w, d, sums.data());
  Kokkos::deep_copy(hV, V);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(Kokkos::abs(hV(i, k) - y[i]), 0.0, 1e-12 * (1 + Kokkos::abs(y[i]))) << "row " << i;
  }
  for (std::size_t t = 0; t < d; ++t) {
    EXPECT_NEAR(Kokkos::abs(sums[t] - dots[t]), 0.0, 1e-11 * (1 + n)) << "dot " << t;
  }
  EXPECT_NEAR(sums[d].real(), squares, 1e-11 * (1 + squares));
  EXPECT_EQ(sums[d].imag(), 0.0);
}

TEST(GmresOrthogonalization, UpdateAndDotsKernelMatchesASequentialReference) {
  check_update_and_dots(0, 3, 2);
  check_update_and_dots(1, 1, 1);
  check_update_and_dots(63, 5, 5);     // less than one chunk, not a multiple of four columns
  check_update_and_dots(1100, 9, 7);   // partial 512-row work item and 64-row chunk
  check_update_and_dots(1100, 9, 0);   // update and norm only
}

}  // namespace
}  // namespace kelp::gmres_orthogonalization_test
