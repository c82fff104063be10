// LOBPCG: eigenvalues against Eigen's dense solvers (standard, largest, generalised, complex
// Hermitian) and the analytic Laplacian spectra, residuals recomputed here with dense Eigen,
// preconditioning, soft locking, and honest stop reasons and errors.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/lobpcg/lobpcg.hpp"
#include "test/support/dense.hpp"
#include "test/support/dense_oracles.hpp"
#include "test/support/expect.hpp"

namespace kelp::lobpcg_test {
namespace {

using solvers::Lobpcg;
using solvers::LobpcgParams;
using solvers::LobpcgResult;
using solvers::StopReason;

/// Sparse Hermitian matrix from dense (row-major table of std::complex or double).
template <class Scalar, class DenseMatrix>
CrsMatrix<Scalar> crs_from_eigen(const DenseMatrix& D) {
  std::vector<Ordinal> rows, cols;
  std::vector<Scalar> values;
  for (int i = 0; i < D.rows(); ++i) {
    for (int j = 0; j < D.cols(); ++j) {
      if (D(i, j) != typename DenseMatrix::Scalar(0)) {
        rows.push_back(i);
        cols.push_back(j);
        if constexpr (ScalarTraits<Scalar>::is_complex) {
          values.push_back(Scalar(std::real(D(i, j)), std::imag(D(i, j))));
        } else {
          values.push_back(Scalar(std::real(D(i, j))));
        }
      }
    }
  }
  return crs_from_coo<Scalar>(static_cast<Ordinal>(D.rows()), static_cast<Ordinal>(D.cols()), rows,
                              cols, values);
}

/// Sparse symmetric positive definite test matrix: a 1D Laplacian plus random symmetric
/// couplings and a varying diagonal (well-separated smallest eigenvalues).
Eigen::MatrixXd random_spd(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    D(i, i) = 2.0 + 3.0 * i / n;
    if (i + 1 < n) D(i, i + 1) = D(i + 1, i) = -1.0;
  }
  for (int t = 0; t < n; ++t) {
    const int i = static_cast<int>(u(rng) * n), j = static_cast<int>(u(rng) * n);
    if (i == j) continue;
    const double v = 0.2 * (u(rng) - 0.5);
    D(i, j) += v;
    D(j, i) += v;
  }
  return D;
}

/// Host copy of a device multi-vector as an Eigen matrix of std::complex<double>.
template <class View>
Eigen::MatrixXcd to_eigen(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  Eigen::MatrixXcd m(h.extent(0), h.extent(1));
  for (std::size_t j = 0; j < h.extent(1); ++j) {
    for (std::size_t i = 0; i < h.extent(0); ++i) {
      if constexpr (ScalarTraits<typename View::non_const_value_type>::is_complex) {
        m(i, j) = std::complex<double>(h(i, j).real(), h(i, j).imag());
      } else {
        m(i, j) = h(i, j);
      }
    }
  }
  return m;
}

/// max_j ||A x_j - lambda_j B x_j|| / |lambda_j|, computed with dense Eigen (not the solver).
double worst_relative_residual(const Eigen::MatrixXcd& A, const Eigen::MatrixXcd& B,
                               const Eigen::MatrixXcd& X, const std::vector<double>& lambda) {
  double worst = 0;
  for (int j = 0; j < X.cols(); ++j) {
    const Eigen::VectorXcd r = A * X.col(j) - lambda[j] * (B * X.col(j));
    worst = std::max(worst, r.norm() / std::abs(lambda[j]));
  }
  return worst;
}

template <class Scalar>
LobpcgResult run(const CrsMatrix<Scalar>& A, LobpcgParams params,
                 MultiVectorView<Scalar>& X, std::shared_ptr<const Operator<Scalar>> M = nullptr,
                 std::shared_ptr<const Operator<Scalar>> B = nullptr) {
  Lobpcg<Scalar> lobpcg(std::make_shared<MatrixOperator<CrsMatrix<Scalar>>>(A), M, B, params);
  X = MultiVectorView<Scalar>("X", A.num_rows(), params.num_eigenpairs);
  Kokkos::deep_copy(X, Scalar(std::numeric_limits<double>::quiet_NaN()));  // not read: random start
  return lobpcg.solve(X);
}

TEST(Lobpcg, SmallestMatchEigenOnRandomSpd) {
  const Eigen::MatrixXd D = random_spd(120, 7);
  const auto A = crs_from_eigen<double>(D);
  LobpcgParams params;
  params.num_eigenpairs = 4;
  params.relative_tolerance = 1e-9;
  MultiVectorView<double> X;

  const auto result = run(A, params, X);

  ASSERT_TRUE(result.converged()) << solvers::to_string(result.reason);
  const Eigen::VectorXd dense = test::self_adjoint_eigenvalues(D);
  for (int j = 0; j < 4; ++j) {
    EXPECT_NEAR(result.eigenvalues[j], dense(j), 1e-8 * dense(j)) << j;
    EXPECT_LE(result.residual_norms[j], 1e-9 * result.eigenvalues[j]);
  }
  const Eigen::MatrixXcd Dc = D.cast<std::complex<double>>();
  const Eigen::MatrixXcd I = Eigen::MatrixXcd::Identity(120, 120);
  // Convergence is confirmed on A X applied afresh: the dense residual meets the tolerance too.
  EXPECT_LT(worst_relative_residual(Dc, I, to_eigen(X), result.eigenvalues), 1.001e-9);
  const Eigen::MatrixXcd gram = to_eigen(X).adjoint() * to_eigen(X);
  EXPECT_LT((gram - Eigen::MatrixXcd::Identity(4, 4)).norm(), 1e-10);  // orthonormal
}

TEST(Lobpcg, LargestMatchEigenOnRandomSpd) {
  const Eigen::MatrixXd D = random_spd(90, 3);
  const auto A = crs_from_eigen<double>(D);
  LobpcgParams params;
  params.num_eigenpairs = 3;
  params.which = solvers::EigenWhich::largest;
  params.relative_tolerance = 1e-9;
  MultiVectorView<double> X;

  const auto result = run(A, params, X);

  ASSERT_TRUE(result.converged()) << solvers::to_string(result.reason);
  const Eigen::VectorXd dense = test::self_adjoint_eigenvalues(D);
  for (int j = 0; j < 3; ++j) {
    const double expected = dense(89 - j);
    EXPECT_NEAR(result.eigenvalues[j], expected, 1e-8 * expected) << j;
  }
}

TEST(Lobpcg, Laplace1dMatchesAnalyticEigenvalues) {
  const int n = 100;
  const auto A = generators::laplace1d<double>(n);
  LobpcgParams params;
  params.num_eigenpairs = 3;
  params.relative_tolerance = 1e-8;
  params.max_iterations = 1000;
  MultiVectorView<double> X;

  const auto result = run(A, params, X);

  ASSERT_TRUE(result.converged()) << solvers::to_string(result.reason);
  const double pi = std::acos(-1.0);
  for (int j = 0; j < 3; ++j) {
    const double expected = 2 - 2 * std::cos((j + 1) * pi / (n + 1));
    EXPECT_NEAR(result.eigenvalues[j], expected, 1e-9 * expected) << j;
  }
}

TEST(Lobpcg, Laplace3dMatchesAnalyticEigenvaluesWithMultiplicity) {
  const int n = 10;
  const auto A = generators::laplace3d<double>(n, n, n);
  LobpcgParams params;
  params.num_eigenpairs = 4;  // (1,1,1) and the triple (2,1,1), (1,2,1), (1,1,2)
  params.guard_vectors = 2;
  params.relative_tolerance = 1e-8;
  MultiVectorView<double> X;

  const auto result = run(A, params, X);

  ASSERT_TRUE(result.converged()) << solvers::to_string(result.reason);
  const double pi = std::acos(-1.0);
  const auto mu = [&](int j) { return 2 - 2 * std::cos(j * pi / (n + 1)); };
  const double expected[4] = {3 * mu(1), 2 * mu(1) + mu(2), 2 * mu(1) + mu(2), 2 * mu(1) + mu(2)};
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(result.eigenvalues[j], expected[j], 1e-9 * expected[j]) << j;
}

TEST(Lobpcg, GeneralizedProblemWithDiagonalBMatchesEigen) {
  const int n = 80;
  const Eigen::MatrixXd D = random_spd(n, 11);
  Eigen::MatrixXd Bd = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) Bd(i, i) = 1.0 + (i % 7) * 0.5;
  const auto A = crs_from_eigen<double>(D);
  auto B = std::make_shared<MatrixOperator<CrsMatrix<double>>>(crs_from_eigen<double>(Bd));
  LobpcgParams params;
  params.num_eigenpairs = 3;
  params.relative_tolerance = 1e-9;
  MultiVectorView<double> X;

  const auto result = run<double>(A, params, X, nullptr, B);

  ASSERT_TRUE(result.converged()) << solvers::to_string(result.reason);
  const Eigen::VectorXd dense = test::generalized_self_adjoint_eigenvalues(D, Bd);
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(result.eigenvalues[j], dense(j), 1e-8 * dense(j)) << j;
  }
  const Eigen::MatrixXcd Xe = to_eigen(X), Bc = Bd.cast<std::complex<double>>();
  EXPECT_LT(worst_relative_residual(D.cast<std::complex<double>>(), Bc, Xe, result.eigenvalues), 1e-8);
  EXPECT_LT((Xe.adjoint() * Bc * Xe - Eigen::MatrixXcd::Identity(3, 3)).norm(), 1e-10);  // B-orthonormal
}

TEST(Lobpcg, ComplexHermitianMatchesEigen) {
  const int n = 70;
  using C = std::complex<double>;
  Eigen::MatrixXcd D = Eigen::MatrixXcd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    D(i, i) = 2.5 + std::sin(0.3 * i);
    if (i + 1 < n) {
      D(i, i + 1) = -std::polar(1.0, 0.7);  // a magnetic phase: genuinely complex
      D(i + 1, i) = std::conj(D(i, i + 1));
    }
    if (i + 5 < n) {
      D(i, i + 5) = C(0.0, 0.1);
      D(i + 5, i) = C(0.0, -0.1);
    }
  }
  const auto A = crs_from_eigen<Kokkos::complex<double>>(D);
  LobpcgParams params;
  params.num_eigenpairs = 3;
  params.relative_tolerance = 1e-9;
  MultiVectorView<Kokkos::complex<double>> X;

  const auto result = run(A, params, X);

  ASSERT_TRUE(result.converged()) << solvers::to_string(result.reason);
  const Eigen::VectorXd dense = test::self_adjoint_eigenvalues(D);
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(result.eigenvalues[j], dense(j), 1e-8 * std::abs(dense(j)));
  }
  EXPECT_LT(worst_relative_residual(D, Eigen::MatrixXcd::Identity(n, n), to_eigen(X),
                                    result.eigenvalues),
            1e-8);
}

TEST(Lobpcg, JacobiPreconditioningNeedsFewerIterationsOnBadlyScaledMatrix) {
  // A = S L S with S = diag(1 .. 10): Jacobi undoes most of the scaling.
  const int n = 60;
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    const double si = 1.0 + 9.0 * ((i * 37) % n) / n;
    for (int j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j) {
      const double sj = 1.0 + 9.0 * ((j * 37) % n) / n;
      D(i, j) = (i == j ? 2.0 : -1.0) * si * sj;
    }
  }
  const auto A = crs_from_eigen<double>(D);
  auto M = std::make_shared<precond::Jacobi<CrsMatrix<double>>>();
  M->setup(A);
  LobpcgParams params;
  params.num_eigenpairs = 2;
  params.relative_tolerance = 1e-7;
  params.max_iterations = 3000;
  MultiVectorView<double> X0, X1;

  const auto plain = run<double>(A, params, X0);
  const auto preconditioned = run<double>(A, params, X1, M);

  ASSERT_TRUE(plain.converged()) << solvers::to_string(plain.reason);
  ASSERT_TRUE(preconditioned.converged()) << solvers::to_string(preconditioned.reason);
  EXPECT_LT(preconditioned.iterations, plain.iterations / 2)
      << plain.iterations << " vs " << preconditioned.iterations;
  const Eigen::VectorXd dense = test::self_adjoint_eigenvalues(D);
  for (int j = 0; j < 2; ++j) {
    EXPECT_NEAR(preconditioned.eigenvalues[j], dense(j), 1e-8 * dense(j));
  }
}

TEST(Lobpcg, SingleEigenpairFromProvidedStart) {
  const auto A = generators::laplace1d<double>(30);
  LobpcgParams params;
  params.num_eigenpairs = 1;
  params.relative_tolerance = 1e-10;
  Lobpcg<double> lobpcg(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), nullptr, nullptr,
                        params);
  MultiVectorView<double> X("X", 30, 1);
  Kokkos::deep_copy(X, 1.0);  // not orthogonal to the lowest mode

  const auto result = lobpcg.solve(X, solvers::LobpcgStart::provided);

  ASSERT_TRUE(result.converged());
  const double expected = 2 - 2 * std::cos(std::acos(-1.0) / 31);
  EXPECT_NEAR(result.eigenvalues[0], expected, 1e-12);
  EXPECT_EQ(result.converged_at[0], result.iterations);
  EXPECT_EQ(result.residual_history.size(), static_cast<std::size_t>(result.iterations) + 1);
}

TEST(Lobpcg, StopsAtIterationLimitWithoutClaimingConvergence) {
  const auto A = generators::laplace1d<double>(300);
  LobpcgParams params;
  params.num_eigenpairs = 2;
  params.max_iterations = 3;
  MultiVectorView<double> X;

  const auto result = run(A, params, X);

  EXPECT_EQ(result.reason, StopReason::max_iterations);
  EXPECT_FALSE(result.converged());
  EXPECT_EQ(result.iterations, 3);
}

TEST(Lobpcg, NanInMatrixStopsWithNonFinite) {
  auto D = random_spd(30, 5);
  D(4, 4) = std::numeric_limits<double>::quiet_NaN();
  const auto A = crs_from_eigen<double>(D);
  LobpcgParams params;
  params.num_eigenpairs = 2;
  MultiVectorView<double> X;

  const auto result = run(A, params, X);

  EXPECT_EQ(result.reason, StopReason::non_finite);
  EXPECT_FALSE(result.converged());
}

TEST(Lobpcg, RejectsBlockLargerThanAThirdOfTheRows) {
  const auto A = generators::laplace1d<double>(10);
  LobpcgParams params;
  params.num_eigenpairs = 4;

  test::expect_throw_containing<InvalidArgument>(
      [&] {
        Lobpcg<double> l(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), nullptr, nullptr,
                         params);
      },
      "block size 4 (num_eigenpairs 4 + guard_vectors 0) is too large for 10 rows");
}

TEST(Lobpcg, RejectsWrongShapes) {
  const auto A = generators::laplace1d<double>(30);
  auto B = std::make_shared<MatrixOperator<CrsMatrix<double>>>(generators::laplace1d<double>(20));
  auto Aop = std::make_shared<MatrixOperator<CrsMatrix<double>>>(A);
  LobpcgParams params;
  params.num_eigenpairs = 2;

  test::expect_throw_containing<DimensionMismatch>(
      [&] { Lobpcg<double> l(Aop, nullptr, B, params); }, "B is 20 x 20, A is 30 x 30");
  Lobpcg<double> lobpcg(Aop, nullptr, nullptr, params);
  MultiVectorView<double> X("X", 30, 3);
  test::expect_throw_containing<DimensionMismatch>([&] { lobpcg.solve(X); },
                                                   "X is 30 x 3, expected 30 x 2");
}

}  // namespace
}  // namespace kelp::lobpcg_test
