// Null-space projection: CG on singular pure-Neumann Laplacians converges for compatible
// right-hand sides to the solution orthogonal to the constants, refuses incompatible ones, and
// the basis is orthonormalised or rejected with a clear message.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/identity.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/null_space.hpp"
#include "test/support/dense.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/residual.hpp"

namespace kelp::null_space_test {
namespace {

using solvers::NullSpace;
using solvers::StopReason;

/// The pure-Neumann 2D Laplacian: the 5-point stencil with each diagonal entry equal to the
/// number of neighbours, so that every row sums to zero and the constants span the null space.
template <class Scalar>
CrsMatrix<Scalar> neumann_laplace2d(int nx, int ny) {
  const auto A = to_host(generators::laplace2d<Scalar>(nx, ny));
  for (int i = 0; i < A.num_rows(); ++i) {
    Scalar off_diagonal_sum(0);
    long long diagonal = -1;
    for (auto k = A.row_map()(i); k < A.row_map()(i + 1); ++k) {
      if (A.entries()(k) == i) {
        diagonal = k;
      } else {
        off_diagonal_sum += A.values()(k);
      }
    }
    A.values()(diagonal) = -off_diagonal_sum;
  }
  return copy_to<DefaultDevice>(A);
}

/// A random vector with zero mean: compatible with the constants' null space.
template <class Scalar>
VectorView<Scalar> zero_mean_vector(int n, unsigned seed) {
  auto values = test::random_vector<Scalar>(static_cast<std::size_t>(n), seed);
  const Scalar mean = std::accumulate(values.begin(), values.end(), Scalar(0)) / Scalar(double(n));
  for (auto& v : values) v -= mean;
  return test::vector_from<Scalar>(values);
}

template <class Scalar>
Scalar sum_of(const VectorView<Scalar>& x) {
  const auto values = test::to_std(x);
  return std::accumulate(values.begin(), values.end(), Scalar(0));
}

template <class Scalar>
struct NeumannCase {
  CrsMatrix<Scalar> A = neumann_laplace2d<Scalar>(17, 13);  // odd sizes
  std::shared_ptr<solvers::Cg<Scalar>> cg;
  explicit NeumannCase(bool jacobi) {
    std::shared_ptr<const Operator<Scalar>> M;
    if (jacobi) {
      auto J = std::make_shared<precond::Jacobi<CrsMatrix<Scalar>>>();
      J->setup(A);
      M = J;
    } else {
      auto I = std::make_shared<precond::Identity<CrsMatrix<Scalar>>>();
      I->setup(A);
      M = I;
    }
    solvers::CgParams params;
    params.relative_tolerance = 1e-10;
    cg = std::make_shared<solvers::Cg<Scalar>>(std::make_shared<MatrixOperator<CrsMatrix<Scalar>>>(A),
                                               M, params);
    cg->set_null_space(
        std::make_shared<NullSpace<Scalar>>(NullSpace<Scalar>::constants(A.num_rows())));
  }
};

template <class Scalar>
class NullSpaceCg : public ::testing::Test {};
using Scalars = ::testing::Types<double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(NullSpaceCg, Scalars);

TYPED_TEST(NullSpaceCg, ConvergesOnACompatibleRightHandSideToTheSolutionOrthogonalToConstants) {
  using Scalar = TypeParam;
  for (const bool jacobi : {false, true}) {
    NeumannCase<Scalar> c(jacobi);
    const int n = c.A.num_rows();
    auto b = zero_mean_vector<Scalar>(n, 7);
    VectorView<Scalar> x("x", n);
    Kokkos::deep_copy(x, Scalar(5));  // an initial guess with a null-space component

    const auto result = c.cg->solve(b, x);

    EXPECT_TRUE(result.converged()) << solvers::to_string(result.reason) << " jacobi " << jacobi;
    EXPECT_LE(test::reference_relative_residual(c.A, b, x), 1e-9);
    EXPECT_LE(ScalarTraits<Scalar>::abs(sum_of(x)), 1e-9 * std::sqrt(double(n)));
  }
}

TYPED_TEST(NullSpaceCg, RefusesARightHandSideWithANullSpaceComponent) {
  using Scalar = TypeParam;
  NeumannCase<Scalar> c(true);
  const int n = c.A.num_rows();
  VectorView<Scalar> b("b", n), x("x", n);
  Kokkos::deep_copy(b, Scalar(1));  // all of b lies in the null space: no solution exists

  const auto result = c.cg->solve(b, x);

  EXPECT_EQ(result.reason, StopReason::incompatible_rhs);
  EXPECT_FALSE(result.converged());
  EXPECT_EQ(result.iterations, 0);
  EXPECT_NEAR(result.residual_norm, std::sqrt(double(n)), 1e-9);  // |b - A 0|, unprojected
}

TEST(NullSpace, WithoutTheNullSpaceTheSameSolveDoesNotConverge) {
  // The control experiment: the incompatible b above, solved without the null space, cannot
  // converge (no solution exists), so the check is what reports it early.
  const auto A = neumann_laplace2d<double>(9, 7);
  solvers::CgParams params;
  params.max_iterations = 200;
  auto M = std::make_shared<precond::Jacobi<CrsMatrix<double>>>();
  M->setup(A);
  solvers::Cg<double> cg(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), M, params);
  VectorView<double> b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0);
  EXPECT_FALSE(cg.solve(b, x).converged());
}

TEST(NullSpace, OrthonormalisesTheBasis) {
  const int n = 11;
  std::vector<double> columns(3 * n);
  for (int i = 0; i < n; ++i) {
    columns[i] = 1;                   // constants
    columns[n + i] = i;               // a linear function
    columns[2 * n + i] = i * i + 3.0; // a quadratic, not orthogonal to the others
  }
  NullSpace<double> Z(test::multivector_from<double, Kokkos::LayoutLeft>(columns, n, 3));
  ASSERT_EQ(Z.dimension(), 3);
  const auto z = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Z.basis());
  for (int a = 0; a < 3; ++a) {
    for (int c = 0; c < 3; ++c) {
      double dot = 0;
      for (int i = 0; i < n; ++i) dot += z(i, a) * z(i, c);
      EXPECT_NEAR(dot, a == c ? 1.0 : 0.0, 1e-13) << a << ", " << c;
    }
  }
  // Projecting a vector of the span leaves (numerically) nothing.
  std::vector<double> in_span(n);
  for (int i = 0; i < n; ++i) in_span[i] = 2.0 - 0.5 * i + 0.25 * i * i;
  auto v = test::vector_from<double>(in_span);
  Z.project(v, solvers::LocalReduction{});
  for (double e : test::to_std(v)) EXPECT_NEAR(e, 0.0, 1e-11);
}

TEST(NullSpace, RejectsZeroDependentAndMismatchedBases) {
  const int n = 6;
  std::vector<double> zero(n, 0.0);
  EXPECT_THROW(NullSpace<double>(test::multivector_from<double, Kokkos::LayoutLeft>(zero, n, 1)),
               InvalidArgument);
  std::vector<double> dependent(2 * n, 1.0);
  for (int i = 0; i < n; ++i) dependent[n + i] = 3.0;  // 3 x the first column
  try {
    NullSpace<double> Z(test::multivector_from<double, Kokkos::LayoutLeft>(dependent, n, 2));
    FAIL() << "a dependent basis was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("column 1"), std::string::npos) << e.what();
  }
  const auto A = neumann_laplace2d<double>(3, 3);
  solvers::Cg<double> cg(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A),
                         std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), {});
  EXPECT_THROW(cg.set_null_space(std::make_shared<NullSpace<double>>(NullSpace<double>::constants(8))),
               DimensionMismatch);
}

}  // namespace
}  // namespace kelp::null_space_test
