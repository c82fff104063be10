// The Operator interface: block applies equal k single applies, the modes against a dense
// reference (MatrixOperator, every scalar, rectangular odd shapes with empty and long rows),
// the default column-by-column block hook, overload resolution for the view types callers have,
// and the errors for unsupported modes, wrong shapes and aliasing.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/operator_check.hpp"
#include "test/support/random_matrices.hpp"

namespace kelp::operator_test {
namespace {

const OperatorMode all_modes[] = {OperatorMode::no_transpose, OperatorMode::transpose,
                                  OperatorMode::conjugate_transpose};

template <class Scalar>
class OperatorBlock : public ::testing::Test {};
using Scalars = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(OperatorBlock, Scalars);

TYPED_TEST(OperatorBlock, MatrixOperatorBlockEqualsSingleAppliesAndDenseReferenceInEveryMode) {
  using Scalar = TypeParam;
  // 37 x 23: odd, rectangular (the transposed modes swap the lengths), every 5th row empty, one
  // dense row.
  const auto A = test::random_crs<Scalar>(37, 23, 4, 5, 1);
  const MatrixOperator<CrsMatrix<Scalar>> op(A);
  const auto dense = test::to_dense(A);
  const Scalar coefficients[][2] = {{Scalar(1), Scalar(0)},
                                    {test::coefficient<Scalar>(-1.5, 0.5), Scalar(0)},
                                    {test::coefficient<Scalar>(0.75, -0.25),
                                     test::coefficient<Scalar>(-0.5, 1.0)}};
  const double tol = test::operator_tolerance<Scalar>();

  for (const OperatorMode mode : all_modes) {
    for (const int k : {1, 3, 0}) {
      for (const auto& ab : coefficients) {
        SCOPED_TRACE(to_string(mode) + ", k = " + std::to_string(k) +
                     ", beta = 0: " + std::to_string(ab[1] == Scalar(0)));

        const auto run = test::run_block_and_singles(op, mode, k, ab[0], ab[1], 11u + k);

        EXPECT_TRUE(test::all_close(run.block, run.singles, tol));
        EXPECT_TRUE(test::all_close(
            run.block, test::dense_apply(dense, mode, ab[0], run.x, k, ab[1], run.y0), tol));
      }
    }
  }
}

TEST(OperatorMode, MatrixOperatorTransposesAndConjugatesByHand) {
  // A = [[1, 2i, 0], [0, 3, -i]] (2 x 3)
  using C = Kokkos::complex<double>;
  const auto A = crs_from_coo<C>(2, 3, {0, 0, 1, 1}, {0, 1, 1, 2},
                                 {C(1, 0), C(0, 2), C(3, 0), C(0, -1)});
  const MatrixOperator<CrsMatrix<C>> op(A);
  auto x = test::vector_from<C>({C(1, 0), C(0, 1)});
  VectorView<C> y("y", 3);

  op.apply(x, y, C(1), C(0), OperatorMode::transpose);
  const auto t = test::to_std(y);
  op.apply(x, y, C(1), C(0), OperatorMode::conjugate_transpose);
  const auto h = test::to_std(y);

  // A^T x = [1, 2i + 3i, -i * i] = [1, 5i, 1];  A^H x = [1, -2i + 3i, i * i] = [1, i, -1]
  EXPECT_EQ(t, (std::vector<C>{C(1, 0), C(0, 5), C(1, 0)}));
  EXPECT_EQ(h, (std::vector<C>{C(1, 0), C(0, 1), C(-1, 0)}));
}

/// y = scale * x through apply_impl only: exercises the default block hook; counts the calls.
class CountingScale : public Operator<double> {
 public:
  CountingScale(Ordinal n, double scale) : n_(n), scale_(scale) {}
  Ordinal num_rows() const override { return n_; }
  Ordinal num_cols() const override { return n_; }
  std::string summary() const override { return "counting scale"; }
  mutable int calls = 0;

 protected:
  void apply_impl(const_vector_type x, vector_type y, double alpha, double beta,
                  OperatorMode) const override {
    ++calls;
    kernels::axpby(alpha * scale_, x, beta, y);
  }

 private:
  Ordinal n_;
  double scale_;
};

TEST(OperatorBlock, DefaultBlockHookAppliesColumnByColumn) {
  const CountingScale op(9, 3.0);

  const auto three = test::run_block_and_singles(op, OperatorMode::no_transpose, 3, 2.0, -1.0, 5u);
  const int calls_after_three = op.calls;  // 3 block columns + 3 singles
  const auto none = test::run_block_and_singles(op, OperatorMode::no_transpose, 0, 2.0, 0.0, 5u);

  EXPECT_EQ(calls_after_three, 6);
  EXPECT_EQ(op.calls, 6);  // k = 0: nothing
  EXPECT_TRUE(test::all_close(three.block, three.singles, 0.0));
  std::vector<double> expected(three.x.size());
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = 6.0 * three.x[i] - three.y0[i];
  EXPECT_TRUE(test::all_close(three.block, expected, 1e-15));
  EXPECT_TRUE(none.block.empty());
}

TEST(OperatorBlock, AcceptsEveryViewTypeCallersHold) {
  // 1, 2, 3 on the diagonal
  const auto A = test::crs_from_dense<double>({{1, 0, 0}, {0, 2, 0}, {0, 0, 3}});
  const MatrixOperator<CrsMatrix<double>> op(A);
  const Operator<double>& base = op;
  MultiVectorView<double> M("M", 3, 4);
  Kokkos::deep_copy(M, 1.0);
  VectorView<double> x("x", 3), y("y", 3);
  Kokkos::deep_copy(x, 1.0);
  const ConstVectorView<double> cx = x;
  const ConstMultiVectorView<double> cM = M;
  MultiVectorView<double> Y("Y", 3, 2);

  base.apply(x, y);                                                          // non-const x
  base.apply(cx, y, 2.0, 1.0);                                               // const x
  base.apply(Kokkos::subview(M, Kokkos::ALL, 0), Kokkos::subview(M, Kokkos::ALL, 3));  // columns
  base.apply(Kokkos::subview(M, Kokkos::ALL, std::make_pair(0, 2)),
             Kokkos::subview(M, Kokkos::ALL, std::make_pair(2, 4)), 1.0, 1.0);  // column blocks
  base.apply(Kokkos::subview(cM, Kokkos::ALL, std::make_pair(0, 2)), Y);  // const block
  base.apply(M, MultiVectorView<double>("Z", 3, 4), 1.0, 0.0, OperatorMode::transpose);

  EXPECT_EQ(test::to_std(y), (std::vector<double>{3, 6, 9}));  // y = 2 A 1 + A 1
  const auto m = test::block_to_std(M);
  // column 3 = A col 0 = (1, 2, 3), then += A col 1; column 2 = 1 + A col 0
  EXPECT_EQ(m, (std::vector<double>{1, 1, 1, 1, 1, 1, 2, 3, 4, 2, 4, 6}));
  EXPECT_EQ(test::block_to_std(Y), (std::vector<double>{1, 2, 3, 1, 2, 3}));
}

TEST(OperatorErrors, UnsupportedModeNamesTheOperatorAndTheMode) {
  const CountingScale op(4, 1.0);
  VectorView<double> x("x", 4), y("y", 4);
  MultiVectorView<double> X("X", 4, 2), Y("Y", 4, 2);

  test::expect_throw_containing<InvalidArgument>(
      [&] { op.apply(x, y, 1.0, 0.0, OperatorMode::transpose); },
      "kelp::Operator::apply: counting scale does not support mode transpose; it supports "
      "no_transpose");
  test::expect_throw_containing<InvalidArgument>(
      [&] { op.apply(X, Y, 1.0, 0.0, OperatorMode::conjugate_transpose); },
      "does not support mode conjugate_transpose");
  EXPECT_TRUE(op.supports(OperatorMode::no_transpose));
  EXPECT_FALSE(op.supports(OperatorMode::transpose));
  EXPECT_EQ(op.calls, 0);
}

TEST(OperatorErrors, WrongShapesAreDimensionMismatches) {
  const auto A = test::crs_from_dense<double>({{1, 0}, {0, 1}, {1, 1}});  // 3 x 2
  const MatrixOperator<CrsMatrix<double>> op(A);
  VectorView<double> x2("x2", 2), x3("x3", 3), y2("y2", 2), y3("y3", 3);
  MultiVectorView<double> X2("X2", 2, 3), Y2("Y2", 2, 3), Y3("Y3", 3, 3), Y3k2("Y3k2", 3, 2);

  test::expect_throw_containing<DimensionMismatch>(
      [&] { op.apply(x3, y3); }, "is 3 x 2 (mode no_transpose), x has 3 rows, expected 2");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { op.apply(x2, y3, 1.0, 0.0, OperatorMode::transpose); },
      "(mode transpose), x has 2 rows, expected 3");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { op.apply(x3, y3, 1.0, 0.0, OperatorMode::conjugate_transpose); },
      "(mode conjugate_transpose), y has 3 rows, expected 2");
  test::expect_throw_containing<DimensionMismatch>([&] { op.apply(X2, Y2); },
                                                   "Y has 2 rows, expected 3");
  test::expect_throw_containing<DimensionMismatch>([&] { op.apply(X2, Y3k2); },
                                                   "X has 3 columns, Y has 2");
  op.apply(X2, Y3);  // the right shapes pass
  op.apply(x3, y2, 1.0, 0.0, OperatorMode::transpose);
}

TEST(OperatorErrors, OverlappingOutputIsRejectedButDisjointPartsOfOneArrayAreNot) {
  const auto A = test::crs_from_dense<double>({{2, 0}, {0, 2}});
  const MatrixOperator<CrsMatrix<double>> op(A);
  VectorView<double> x("x", 2);
  MultiVectorView<double> M("M", 4, 4);  // rows 0-1 and 2-3 are interleaved in memory
  Kokkos::deep_copy(M, 1.0);
  const auto cols = [&](int a, int b) {
    return Kokkos::subview(M, std::make_pair(0, 2), std::make_pair(a, b));
  };

  test::expect_throw_containing<InvalidArgument>([&] { op.apply(x, x); },
                                                 "x and y overlap in memory");
  test::expect_throw_containing<InvalidArgument>([&] { op.apply(cols(0, 2), cols(1, 3)); },
                                                 "X and Y overlap in memory; Y must not alias X");
  op.apply(cols(0, 2), cols(2, 4));  // disjoint columns
  op.apply(Kokkos::subview(M, std::make_pair(0, 2), Kokkos::ALL),
           Kokkos::subview(M, std::make_pair(2, 4), Kokkos::ALL));  // disjoint rows

  const auto m = test::block_to_std(M);
  EXPECT_EQ(m, (std::vector<double>{1, 1, 2, 2, 1, 1, 2, 2, 2, 2, 4, 4, 2, 2, 4, 4}));
}

}  // namespace
}  // namespace kelp::operator_test
