// CG on a block of right-hand sides: each column behaves as its own single-vector solve (same
// iterations, same solution), columns stop independently (converged, zero, NaN), the initial
// guess modes hold, and one iteration costs one block apply of A and M for all columns.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "test/support/dense.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/residual.hpp"

namespace kelp::cg_block_test {
namespace {

using solvers::StopReason;

/// Counts single and block applications of the operator it wraps.
template <class Scalar>
class CountingOperator : public Operator<Scalar> {
 public:
  explicit CountingOperator(std::shared_ptr<const Operator<Scalar>> inner) : inner_(std::move(inner)) {}
  Ordinal num_rows() const override { return inner_->num_rows(); }
  Ordinal num_cols() const override { return inner_->num_cols(); }
  std::string summary() const override { return "counting " + inner_->summary(); }
  mutable int single_applies = 0;
  mutable int block_applies = 0;

 protected:
  void apply_impl(typename Operator<Scalar>::const_vector_type x,
                  typename Operator<Scalar>::vector_type y, Scalar alpha, Scalar beta,
                  OperatorMode mode) const override {
    ++single_applies;
    inner_->apply(x, y, alpha, beta, mode);
  }
  void apply_block_impl(typename Operator<Scalar>::const_multivector_type x,
                        typename Operator<Scalar>::multivector_type y, Scalar alpha, Scalar beta,
                        OperatorMode mode) const override {
    ++block_applies;
    inner_->apply(x, y, alpha, beta, mode);
  }

 private:
  std::shared_ptr<const Operator<Scalar>> inner_;
};

template <class Scalar>
struct BlockCase {
  CrsMatrix<Scalar> A = generators::laplace2d<Scalar>(15, 13);
  std::shared_ptr<CountingOperator<Scalar>> op =
      std::make_shared<CountingOperator<Scalar>>(std::make_shared<MatrixOperator<CrsMatrix<Scalar>>>(A));
  std::shared_ptr<CountingOperator<Scalar>> M;
  solvers::CgParams params;
  BlockCase() {
    auto J = std::make_shared<precond::Jacobi<CrsMatrix<Scalar>>>();
    J->setup(A);
    M = std::make_shared<CountingOperator<Scalar>>(J);
    params.relative_tolerance = 1e-10;
  }
  solvers::Cg<Scalar> cg() const { return solvers::Cg<Scalar>(op, M, params); }
  int n() const { return A.num_rows(); }
};

/// k right-hand sides of different difficulty: ones, random, and a smooth one.
template <class Scalar>
MultiVectorView<Scalar> three_right_hand_sides(int n) {
  std::vector<Scalar> columns(3 * static_cast<std::size_t>(n));
  const auto random = test::random_vector<Scalar>(static_cast<std::size_t>(n), 11);
  for (int i = 0; i < n; ++i) {
    columns[i] = Scalar(1);
    columns[n + i] = random[i];
    columns[2 * n + i] = Scalar(std::sin(0.1 * i));
  }
  return test::multivector_from<Scalar>(columns, n, 3);
}

template <class Scalar>
class CgBlock : public ::testing::Test {};
using Scalars = ::testing::Types<double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(CgBlock, Scalars);

TYPED_TEST(CgBlock, EachColumnMatchesItsSingleVectorSolve) {
  using Scalar = TypeParam;
  BlockCase<Scalar> c;
  const int n = c.n();
  const auto B = three_right_hand_sides<Scalar>(n);
  MultiVectorView<Scalar> X("X", n, 3);
  test::poison(X);
  const auto block = c.cg().solve(B, X, InitialGuess::zero);

  ASSERT_EQ(block.columns.size(), 3u);
  EXPECT_TRUE(block.converged());
  for (int j = 0; j < 3; ++j) {
    VectorView<Scalar> b("b", n), x("x", n);
    Kokkos::deep_copy(b, Kokkos::subview(B, Kokkos::ALL, j));
    const auto single = c.cg().solve(b, x, InitialGuess::zero);
    const auto& col = block.columns[j];
    EXPECT_EQ(col.reason, single.reason) << "column " << j;
    // Same recurrence; only the summation order of the reductions differs.
    EXPECT_LE(std::abs(col.iterations - single.iterations), 1) << "column " << j;
    EXPECT_NEAR(col.residual_norm, single.residual_norm, 1e-6 * single.rhs_norm) << "column " << j;
    const auto xb = test::to_std(VectorView<Scalar>(Kokkos::subview(X, Kokkos::ALL, j)));
    const auto xs = test::to_std(x);
    for (int i = 0; i < n; ++i) {
      EXPECT_LE(ScalarTraits<Scalar>::abs(xb[i] - xs[i]), 1e-6 * (1 + ScalarTraits<Scalar>::abs(xs[i])))
          << "column " << j << " row " << i;
    }
    EXPECT_LE(test::reference_relative_residual(c.A, b, Kokkos::subview(X, Kokkos::ALL, j)), 1e-10);
  }
}

TEST(CgBlock, OneBlockApplyOfAAndMPerIterationForAllColumns) {
  BlockCase<double> c;
  const auto B = three_right_hand_sides<double>(c.n());
  MultiVectorView<double> X("X", c.n(), 3);
  const auto result = c.cg().solve(B, X, InitialGuess::zero);
  ASSERT_TRUE(result.converged());
  EXPECT_EQ(c.op->single_applies, 0);
  EXPECT_EQ(c.M->single_applies, 0);
  // One A per iteration, plus the true residuals (start, confirmations, finish); one M per
  // iteration plus the first.
  EXPECT_GE(c.op->block_applies, result.iterations());
  EXPECT_LE(c.op->block_applies, result.iterations() + 2 + 3);
  EXPECT_EQ(c.M->block_applies, result.iterations() + 1);
}

TEST(CgBlock, ColumnsStopIndependently) {
  BlockCase<double> c;
  const int n = c.n();
  std::vector<double> columns(4 * static_cast<std::size_t>(n), 1.0);
  for (int i = 0; i < n; ++i) {
    columns[n + i] = 0.0;                                              // zero rhs
    columns[2 * n + i] = i == 3 ? std::numeric_limits<double>::quiet_NaN() : 1.0;  // NaN
    columns[3 * n + i] = std::cos(0.37 * i);
  }
  const auto B = test::multivector_from<double>(columns, n, 4);
  MultiVectorView<double> X("X", n, 4);

  const auto result = c.cg().solve(B, X);

  EXPECT_TRUE(result.columns[0].converged());
  EXPECT_EQ(result.columns[1].reason, StopReason::converged_absolute);
  EXPECT_EQ(result.columns[1].iterations, 0);
  EXPECT_EQ(result.columns[2].reason, StopReason::non_finite);
  EXPECT_TRUE(result.columns[3].converged());
  EXPECT_FALSE(result.converged());
  for (int j : {0, 1, 3}) {
    VectorView<double> b("b", n);
    Kokkos::deep_copy(b, Kokkos::subview(B, Kokkos::ALL, j));
    EXPECT_LE(test::reference_relative_residual(c.A, b, Kokkos::subview(X, Kokkos::ALL, j)), 1e-10)
        << "column " << j;
  }
}

TEST(CgBlock, ProvidedGuessOfTheSolutionTakesNoIterationsAndKIsFree) {
  BlockCase<double> c;
  const int n = c.n();
  for (int k : {1, 2, 5}) {
    std::vector<double> columns(static_cast<std::size_t>(k) * n);
    for (std::size_t e = 0; e < columns.size(); ++e) columns[e] = std::sin(0.01 * double(e)) + 1;
    const auto B = test::multivector_from<double>(columns, n, k);
    MultiVectorView<double> X("X", n, k);
    const auto first = c.cg().solve(B, X);
    ASSERT_TRUE(first.converged()) << "k = " << k;
    const auto again = c.cg().solve(B, X, InitialGuess::provided);
    EXPECT_TRUE(again.converged());
    EXPECT_EQ(again.iterations(), 0) << "k = " << k;
  }
  MultiVectorView<double> B0("B0", n, 0), X0("X0", n, 0);
  EXPECT_TRUE(c.cg().solve(B0, X0).columns.empty());
}

TEST(CgBlock, RejectsMismatchedBlocks) {
  BlockCase<double> c;
  MultiVectorView<double> B("B", c.n(), 2), X("X", c.n(), 3), short_X("short_X", c.n() - 1, 2);
  EXPECT_THROW(c.cg().solve(B, X), DimensionMismatch);
  EXPECT_THROW(c.cg().solve(B, short_X), DimensionMismatch);
}

}  // namespace
}  // namespace kelp::cg_block_test
