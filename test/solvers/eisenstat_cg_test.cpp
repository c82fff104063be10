// EisenstatCg: the iterates, residual histories and iteration counts of Cg preconditioned by one
// symmetric multicolor Gauss-Seidel sweep (omega 1 and 1.3), on the 3D Laplacian, bcsstk14 and
// the complex Hermitian mhd1280b; the true residual of the returned x checked independently;
// given initial guesses, new values, trivial sizes and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/cg/eisenstat_cg.hpp"
#include "test/support/dense.hpp"
#include "test/support/paths.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/reference.hpp"
#include "test/support/sparse_reference.hpp"

namespace kelp::eisenstat_cg_test {
namespace {

using precond::GaussSeidelParams;
using precond::GaussSeidelVariant;
template <class S>
using Gs = precond::GaussSeidel<CrsMatrix<S>>;

template <class S>
std::shared_ptr<Gs<S>> make_gs(const CrsMatrix<S>& A, double omega) {
  GaussSeidelParams p;
  p.omega = omega;
  auto M = std::make_shared<Gs<S>>(p);
  M->setup(A);
  return M;
}

template <class S>
double max_abs(const std::vector<S>& v) {
  double m = 0;
  for (const auto& x : v) m = std::max(m, double(ScalarTraits<S>::abs(x)));
  return m;
}

template <class S>
double max_difference(const std::vector<S>& a, const std::vector<S>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, double(ScalarTraits<S>::abs(a[i] - b[i])));
  return m;
}

/// ||b - A x|| by the host reference product.
template <class S>
double reference_residual(const CrsMatrix<S>& A, const std::vector<S>& b, const std::vector<S>& x) {
  const auto Ax = test::reference_spmv(kernels::SpmvMode::no_transpose, S(1), test::to_host_crs(A), x, S(0), {});
  double sum = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const double d = double(ScalarTraits<S>::abs(b[i] - Ax[i]));
    sum += d * d;
  }
  return std::sqrt(sum);
}

/// Solves with Cg(A, M) and EisenstatCg(A, M) from the same start; `fixed` iterations (tolerance
/// 0) and then to 1e-8; the iterates, histories, counts and the true residual compared.
template <class S>
void expect_same_as_unfused(const CrsMatrix<S>& A, double omega, const std::vector<S>& x0) {
  const int n = A.num_rows();
  const auto M = make_gs(A, omega);
  const auto b = test::random_vector<S>(n, 5);
  const InitialGuess guess = x0.empty() ? InitialGuess::zero : InitialGuess::provided;
  const auto start = [&] {
    VectorView<S> x("x", n);
    if (x0.empty()) {
      test::poison(x);  // a zero guess does not read x
    } else {
      Kokkos::deep_copy(x, test::vector_from<S>(x0));
    }
    return x;
  };
  for (int fixed : {12, 0}) {
    solvers::CgParams params;
    params.max_iterations = fixed > 0 ? fixed : 3000;
    params.relative_tolerance = fixed > 0 ? 0 : 1e-8;
    solvers::Cg<S> cg(std::make_shared<MatrixOperator<CrsMatrix<S>>>(A), M, params);
    solvers::EisenstatCg<S> fused(A, M, params);
    auto x_cg = start(), x_fused = start();
    const auto r_cg = cg.solve(test::vector_from<S>(b), x_cg, guess);
    const auto r_fused = fused.solve(test::vector_from<S>(b), x_fused, guess);
    SCOPED_TRACE(fused.summary() + (fixed > 0 ? ", fixed iterations" : ", to 1e-8"));
    const auto xc = test::to_std(x_cg), xf = test::to_std(x_fused);
    if (fixed > 0) {
      EXPECT_EQ(r_fused.iterations, fixed);
      EXPECT_LE(max_difference(xc, xf), 1e-9 * max_abs(xc));
      ASSERT_EQ(r_cg.residual_history.size(), r_fused.residual_history.size());
      for (std::size_t k = 0; k < r_cg.residual_history.size(); ++k) {
        EXPECT_NEAR(r_fused.residual_history[k], r_cg.residual_history[k], 1e-8 * r_cg.residual_history[k]);
      }
    } else {
      EXPECT_TRUE(r_cg.converged());
      EXPECT_TRUE(r_fused.converged()) << solvers::to_string(r_fused.reason);
      EXPECT_NEAR(r_fused.iterations, r_cg.iterations, 1) << "cg " << r_cg.iterations;
      std::printf("[ EISENSTAT ] n %d omega %.1f: cg %d iterations, eisenstat %d\n", n, omega,
                  r_cg.iterations, r_fused.iterations);
    }
    // The reported residual is the true one of the returned x (original order).
    const double true_norm = reference_residual(A, b, xf);
    EXPECT_NEAR(r_fused.residual_norm, true_norm, 1e-6 * true_norm + 1e-14);
    if (fixed == 0) {
      EXPECT_LE(true_norm, 1e-8 * r_fused.rhs_norm * (1 + 1e-6));
    }
  }
}

TEST(EisenstatCg, SameIteratesAsSymmetricGaussSeidelPcgOnTheLaplacian) {
  const auto A = generators::laplace3d<double>(11, 9, 8);
  for (double omega : {1.0, 1.3}) {
    expect_same_as_unfused<double>(A, omega, {});
    expect_same_as_unfused<double>(A, omega, test::random_vector<double>(A.num_rows(), 9));
  }
}

TEST(EisenstatCg, SameIteratesAsSymmetricGaussSeidelPcgOnBcsstk14) {
  const auto A = io::read_matrix_market<double>(test::matrix_path("bcsstk14"));
  for (double omega : {1.0, 1.3}) expect_same_as_unfused<double>(A, omega, {});
}

TEST(EisenstatCg, SameIteratesOnAComplexHermitianMatrix) {
  using C = Kokkos::complex<double>;
  const auto H = io::read_matrix_market<C>(test::matrix_path("mhd1280b"));
  for (double omega : {1.0, 1.3}) expect_same_as_unfused<C>(H, omega, {});
}

TEST(EisenstatCg, FollowsNewValuesAfterSetup) {
  auto A = generators::laplace2d<double>(9, 7);
  auto M = make_gs(A, 1.2);
  solvers::CgParams params;
  params.relative_tolerance = 1e-10;
  solvers::EisenstatCg<double> fused(A, M, params);
  test::update_values(A, [](std::size_t, double v) { return v > 0 ? 2 * v : v; });  // still SPD
  M->setup_numeric(A);
  fused.setup(A);
  const int n = A.num_rows();
  const auto b = test::random_vector<double>(n, 2);
  VectorView<double> x("x", n);
  const auto result = fused.solve(test::vector_from<double>(b), x, InitialGuess::zero);
  EXPECT_TRUE(result.converged());
  EXPECT_LE(reference_residual(A, b, test::to_std(x)), 1e-10 * result.rhs_norm * (1 + 1e-6));
}

TEST(EisenstatCg, TrivialSizes) {
  for (int n : {0, 1}) {
    const auto A = n == 0 ? test::crs_from_arrays<double>(0, 0, {0}, {}, {}) : generators::laplace1d<double>(n);
    auto M = make_gs(A, 1.0);
    solvers::EisenstatCg<double> fused(A, M, {});
    VectorView<double> b("b", n), x("x", n);
    Kokkos::deep_copy(b, 3.0);
    test::poison(x);
    const auto result = fused.solve(b, x, InitialGuess::zero);
    EXPECT_TRUE(result.converged()) << n;
    if (n == 1) {
      EXPECT_NEAR(test::to_std(x)[0], 1.5, 1e-14);  // laplace1d(1) = [2]
    }
  }
}

TEST(EisenstatCg, RejectsBadInput) {
  const auto A = generators::laplace2d<double>(5, 4);
  solvers::CgParams params;
  EXPECT_THROW(solvers::EisenstatCg<double>(A, nullptr, params), InvalidArgument);
  auto unset = std::make_shared<Gs<double>>(GaussSeidelParams{});
  EXPECT_THROW(solvers::EisenstatCg<double>(A, unset, params), InvalidArgument);
  for (int which = 0; which < 3; ++which) {
    GaussSeidelParams p;
    if (which == 0) p.direction = precond::GaussSeidelDirection::forward;
    if (which == 1) p.variant = GaussSeidelVariant::cluster;
    if (which == 2) p.sweeps = 2;
    auto M = std::make_shared<Gs<double>>(p);
    M->setup(A);
    EXPECT_THROW(solvers::EisenstatCg<double>(A, M, params), InvalidArgument) << which;
  }
  const auto other = generators::laplace2d<double>(4, 4);
  EXPECT_THROW(solvers::EisenstatCg<double>(other, make_gs(A, 1.0), params), DimensionMismatch);
  solvers::EisenstatCg<double> fused(A, make_gs(A, 1.0), params);
  VectorView<double> b("b", A.num_rows()), x("x", A.num_rows() + 1);
  EXPECT_THROW(fused.solve(b, x), DimensionMismatch);
  solvers::CgParams bad;
  bad.relative_tolerance = -1;
  EXPECT_THROW(solvers::EisenstatCg<double>(A, make_gs(A, 1.0), bad), InvalidArgument);
}

}  // namespace
}  // namespace kelp::eisenstat_cg_test
