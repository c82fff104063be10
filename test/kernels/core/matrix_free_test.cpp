// Matrix-free operators: RowOperator (device row functor) and FunctionOperator (host callable)
// against the CRS matrices they describe and a dense reference, block = k single applies,
// alpha/beta handling (beta = 0 with NaN-poisoned outputs, alpha = 0 without calling f, the
// kept work vector), and their errors.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/core/function_operator.hpp"
#include "kelp/kernels/core/row_operator.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/laplace_rows.hpp"
#include "test/support/operator_check.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"

namespace kelp::matrix_free_test {
namespace {

template <class Scalar>
class MatrixFree : public ::testing::Test {};
using Scalars = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(MatrixFree, Scalars);

/// (alpha, beta) pairs: identity scaling, beta = 0 (NaN-poisoned y), general complex ones.
template <class Scalar>
std::vector<std::pair<Scalar, Scalar>> coefficient_cases() {
  return {{Scalar(1), Scalar(0)},
          {test::coefficient<Scalar>(-1.5, 0.5), Scalar(0)},
          {test::coefficient<Scalar>(0.75, -0.25), test::coefficient<Scalar>(-0.5, 1.0)},
          {Scalar(0), test::coefficient<Scalar>(2.0, 0.5)}};
}

TYPED_TEST(MatrixFree, RowOperatorMatchesTheCrsLaplacianForVectorsAndBlocks) {
  using Scalar = TypeParam;
  const Ordinal n = 37;
  const auto A = generators::laplace1d<Scalar>(n);
  const auto rows = make_row_operator<Scalar>(n, n, test::Laplace1dRows<Scalar>{n}, "laplace1d");
  const auto dense = test::to_dense(A);
  const double tol = test::operator_tolerance<Scalar>();

  for (const int k : {1, 3, 0}) {
    for (const auto& [alpha, beta] : coefficient_cases<Scalar>()) {
      SCOPED_TRACE("k = " + std::to_string(k));

      const auto run = test::run_block_and_singles(*rows, OperatorMode::no_transpose, k, alpha,
                                                   beta, 3u + k);

      EXPECT_TRUE(test::all_close(run.block, run.singles, 0.0));  // same kernel per column
      EXPECT_TRUE(test::all_close(
          run.block,
          test::dense_apply(dense, OperatorMode::no_transpose, alpha, run.x, k, beta, run.y0),
          tol));
    }
  }
}

TYPED_TEST(MatrixFree, RowOperator2dMatchesTheCrsLaplacian) {
  using Scalar = TypeParam;
  const Ordinal nx = 7, ny = 5;
  const auto A = generators::laplace2d<Scalar>(nx, ny);
  const auto rows =
      make_row_operator<Scalar>(nx * ny, nx * ny, test::Laplace2dRows<Scalar>{nx, ny}, "laplace2d");

  const auto run = test::run_block_and_singles(*rows, OperatorMode::no_transpose, 3, Scalar(1),
                                               Scalar(0), 17u);

  EXPECT_TRUE(test::all_close(
      run.block,
      test::dense_apply(test::to_dense(A), OperatorMode::no_transpose, Scalar(1), run.x, 3,
                        Scalar(0), run.y0),
      test::operator_tolerance<Scalar>()));
}

TYPED_TEST(MatrixFree, FunctionOperatorWrapsAnyHostCodeIncludingRectangularOperators) {
  using Scalar = TypeParam;
  const auto A = test::random_crs<Scalar>(37, 23, 4, 5, 1);  // empty rows, one dense row
  const auto matrix = std::make_shared<const MatrixOperator<CrsMatrix<Scalar>>>(A);
  const auto function = make_function_operator<Scalar>(
      37, 23, [matrix](ConstVectorView<Scalar> x, VectorView<Scalar> y) { matrix->apply(x, y); },
      "random 37 x 23");
  const auto dense = test::to_dense(A);
  const double tol = test::operator_tolerance<Scalar>();

  for (const int k : {1, 3, 0}) {
    for (const auto& [alpha, beta] : coefficient_cases<Scalar>()) {
      SCOPED_TRACE("k = " + std::to_string(k));

      const auto run = test::run_block_and_singles(*function, OperatorMode::no_transpose, k,
                                                   alpha, beta, 23u + k);

      EXPECT_TRUE(test::all_close(run.block, run.singles, tol));
      EXPECT_TRUE(test::all_close(
          run.block,
          test::dense_apply(dense, OperatorMode::no_transpose, alpha, run.x, k, beta, run.y0),
          tol));
    }
  }
}

/// What the FunctionOperator passed to f, call by call.
struct Calls {
  int count = 0;
  std::vector<const void*> outputs;
};

TEST(FunctionOperator, BetaZeroWritesYDirectlyAndBetaNonzeroReusesOneWorkVector) {
  auto calls = std::make_shared<Calls>();
  const auto op = make_function_operator<double>(
      4, 4,
      [calls](ConstVectorView<double> x, VectorView<double> y) {
        ++calls->count;
        calls->outputs.push_back(y.data());
        kernels::axpby(3.0, x, 0.0, y);  // A = 3 I
      },
      "3 I");
  auto x = test::vector_from<double>({1, 2, 3, 4});
  VectorView<double> y("y", 4);
  test::poison(y);

  op->apply(x, y, 2.0, 0.0);  // y = 6 x, NaN in y not read
  const auto first = test::to_std(y);
  op->apply(x, y, 1.0, -1.0);  // y = 3 x - y = -3 x
  op->apply(x, y, 1.0, 1.0);   // y = 3 x + y = 0
  const auto last = test::to_std(y);
  op->apply(x, y, 0.0, 2.0);  // y = 2 y, f not called

  EXPECT_EQ(first, (std::vector<double>{6, 12, 18, 24}));
  EXPECT_EQ(last, (std::vector<double>{0, 0, 0, 0}));
  ASSERT_EQ(calls->count, 3);
  EXPECT_EQ(calls->outputs[0], static_cast<const void*>(y.data()));  // no work vector for beta = 0
  EXPECT_NE(calls->outputs[1], static_cast<const void*>(y.data()));
  EXPECT_EQ(calls->outputs[1], calls->outputs[2]);  // the work vector is kept between applies
}

TEST(FunctionOperator, AlphaZeroScalesYWithoutApplyingTheOperator) {
  int calls = 0;
  const auto op = make_function_operator<double>(
      3, 3, [&calls](ConstVectorView<double>, VectorView<double>) { ++calls; }, "never");
  auto x = test::vector_from<double>({1, 2, 3});
  auto y = test::vector_from<double>({1, -1, 2});
  VectorView<double> z("z", 3);
  test::poison(z);

  op->apply(x, y, 0.0, -2.0);
  op->apply(x, z, 0.0, 0.0);  // y = 0, NaN not read

  EXPECT_EQ(calls, 0);
  EXPECT_EQ(test::to_std(y), (std::vector<double>{-2, 2, -4}));
  EXPECT_EQ(test::to_std(z), (std::vector<double>{0, 0, 0}));
}

TEST(MatrixFreeErrors, OnlyNoTransposeIsSupported) {
  const auto rows = make_row_operator<double>(5, 5, test::Laplace1dRows<double>{5}, "laplace1d");
  const auto function = make_function_operator<double>(
      5, 5, [](ConstVectorView<double>, VectorView<double>) {}, "nothing");
  VectorView<double> x("x", 5), y("y", 5);

  test::expect_throw_containing<InvalidArgument>(
      [&] { rows->apply(x, y, 1.0, 0.0, OperatorMode::transpose); },
      "row operator 'laplace1d' 5 x 5 does not support mode transpose");
  test::expect_throw_containing<InvalidArgument>(
      [&] { function->apply(x, y, 1.0, 0.0, OperatorMode::conjugate_transpose); },
      "function operator 'nothing' 5 x 5 does not support mode conjugate_transpose");
}

TEST(MatrixFreeErrors, NegativeSizesAndWrongShapesAreRejected) {
  const auto rows = make_row_operator<double>(5, 5, test::Laplace1dRows<double>{5}, "laplace1d");
  VectorView<double> x("x", 4), y("y", 5);

  test::expect_throw_containing<InvalidArgument>(
      [] { make_row_operator<double>(-1, 5, test::Laplace1dRows<double>{5}, "bad"); },
      "kelp::RowOperator: 'bad' is -1 x 5; expected sizes >= 0");
  test::expect_throw_containing<InvalidArgument>(
      [] {
        make_function_operator<double>(3, -2, [](ConstVectorView<double>, VectorView<double>) {},
                                       "bad");
      },
      "kelp::FunctionOperator: 'bad' is 3 x -2; expected sizes >= 0");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { rows->apply(x, y); }, "row operator 'laplace1d' 5 x 5 is 5 x 5 (mode no_transpose), x has 4 rows, expected 5");
}

}  // namespace
}  // namespace kelp::matrix_free_test
