// SELL-C-sigma: the shape checks, the layout of a small matrix by hand, the round trip to CRS,
// and SpMV/SpMMV ('rows', 'chunks', automatic; both layouts; vectors) against the sequential
// reference under the rigorous bound, with NaN-poisoned outputs, on matrices with empty rows,
// long rows, sizes that are not multiples of C, 0 x 0 and 1 x 1, complex values and the real
// matrices of test/data/matrices; then the SellOperator, also inside CG.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/sell/sell_operator.hpp"
#include "kelp/kernels/sell/sell_spmv.hpp"
#include "kelp/kernels/sell/to_sell.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/paths.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/reference.hpp"
#include "test/support/residual.hpp"
#include "test/support/scalar_values.hpp"
#include "test/support/spmv_bound.hpp"
#include "test/support/spmv_inputs.hpp"

namespace kelp::sell_test {
namespace {

using kernels::SellAlgorithm;
using kernels::SellShape;

// automatic runs one of these two; it is checked on the shared matrices.
const SellAlgorithm both_kernels[] = {SellAlgorithm::rows, SellAlgorithm::chunks};

/// One product y = alpha S x + beta y with k columns in Layout (k = 0: the rank-1 API), compared
/// column by column with the sequential reference of the CRS matrix under the rigorous bound.
template <class Scalar, class Layout>
void check_case(const test::HostCoo& ref, const kernels::SellMatrix<Scalar>& S, SellAlgorithm algorithm, int k,
                Scalar alpha, Scalar beta) {
  const int n_in = S.num_cols(), n_out = S.num_rows();
  const int columns = k == 0 ? 1 : k;
  const auto in = test::random_spmv_inputs<Scalar, Layout>(n_in, n_out, columns, 11 + k,
                                                           beta == Scalar(0));
  const auto &x = in.x, &y = in.y;

  if (k == 0) {
    kernels::sell_spmv(alpha, S, Kokkos::subview(x, Kokkos::ALL, 0), beta, Kokkos::subview(y, Kokkos::ALL, 0),
                       algorithm);
  } else {
    kernels::sell_spmv(alpha, S, x, beta, y, algorithm);
  }

  auto result = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (int j = 0; j < columns; ++j) {
    const auto xj = test::column(in.x_host, j), yj = test::column(in.y_host, j);
    const auto computed = test::column(result, j);
    ASSERT_TRUE(test::within_spmv_bound(
        computed, test::reference_product(kernels::SpmvMode::no_transpose, alpha, ref, xj, beta, yj)))
        << kernels::to_string(S.shape()) << ", algorithm " << kernels::to_string(algorithm) << ", k " << k
        << ", column " << j << ", layout " << (std::is_same<Layout, Kokkos::LayoutLeft>::value ? "left" : "right")
        << ", beta " << test::to_complex_double(beta);
  }
}

using test::scalar_of;

/// Both kernels, k in {vector, 3, 13} (13 = column blocks of 8, 4 and 1), both layouts, beta = 0
/// and beta != 0, for each shape.
template <class Scalar>
void check_matrix(const CrsMatrix<Scalar>& A, std::initializer_list<SellShape> shapes) {
  const auto ref = test::to_host_coo(test::to_host_crs(A));
  const Scalar alpha = scalar_of<Scalar>(1.25, -0.75), beta = scalar_of<Scalar>(-0.5, 0.25);
  for (const SellShape& shape : shapes) {
    const auto S = kernels::to_sell(A, shape);
    for (SellAlgorithm algorithm : both_kernels) {
      for (int k : {0, 3, 13}) {
        for (Scalar b : {Scalar(0), beta}) {
          check_case<Scalar, Kokkos::LayoutLeft>(ref, S, algorithm, k, alpha, b);
          check_case<Scalar, Kokkos::LayoutRight>(ref, S, algorithm, k, alpha, b);
        }
      }
    }
  }
}

// ---- Shapes ---------------------------------------------------------------------------------

TEST(SellShape, AcceptsPowersOfTwoAndMultiplesOfC) {
  for (SellShape shape : {SellShape{1, 1}, SellShape{1, 7}, SellShape{4, 1}, SellShape{32, 32},
                          SellShape{32, 4096}, SellShape{1024, 2048}}) {
    EXPECT_NO_THROW(kernels::check_sell_shape(shape, "test")) << kernels::to_string(shape);
  }
}

TEST(SellShape, RejectsBadChunkHeight) {
  const auto A = test::crs_from_dense<double>({{1, 0}, {0, 1}});

  test::expect_throw_containing<InvalidArgument>([&] { kernels::to_sell(A, {3, 1}); },
                                                 "kelp::kernels::to_sell: bad SELL shape SELL-3-1: C = 3; expected a power of two from 1 to 1024");
  test::expect_throw_containing<InvalidArgument>([&] { kernels::to_sell(A, {0, 1}); }, "C = 0");
  test::expect_throw_containing<InvalidArgument>([&] { kernels::to_sell(A, {2048, 2048}); }, "C = 2048");
}

TEST(SellShape, RejectsSigmaThatIsNotAMultipleOfC) {
  const auto A = test::crs_from_dense<double>({{1, 0}, {0, 1}});

  test::expect_throw_containing<InvalidArgument>(
      [&] { kernels::to_sell(A, {32, 48}); },
      "bad SELL shape SELL-32-48: sigma = 48; expected 1 or a positive multiple of C = 32");
  test::expect_throw_containing<InvalidArgument>([&] { kernels::to_sell(A, {4, 0}); }, "sigma = 0");
  test::expect_throw_containing<InvalidArgument>([&] { kernels::to_sell(A, {4, -8}); }, "sigma = -8");
}

// ---- Layout and conversion ----------------------------------------------------------------

TEST(ToSell, StoresChunksColumnMajorWithSortedRowsAndPadding) {
  // Row lengths 1, 3, 0, 2, 2; C = 2, sigma = 4: window {0..3} sorts to rows 1, 3, 0, 2
  // (stable), window {4} keeps row 4; chunks {1, 3}, {0, 2}, {4, pad}.
  const auto A = test::crs_from_dense<double>({{0, 0, 5, 0},    // row 0: (2) 5
                                               {1, 2, 0, 3},    // row 1: (0) 1, (1) 2, (3) 3
                                               {0, 0, 0, 0},    // row 2: empty
                                               {0, 4, 0, 6},    // row 3: (1) 4, (3) 6
                                               {7, 0, 8, 0}});  // row 4: (0) 7, (2) 8

  const auto S = kernels::to_sell(A, {2, 4});

  EXPECT_EQ(test::to_std(S.permutation()), (std::vector<int>{1, 3, 0, 2, 4}));
  EXPECT_EQ(test::to_std(S.chunk_lengths()), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(test::to_std(S.chunk_offsets()), (std::vector<Offset>{0, 6, 8, 12}));
  EXPECT_EQ(test::to_std(S.row_lengths()), (std::vector<int>{3, 2, 1, 0, 2, 0}));
  // Chunk 0: j = 0: (1: col 0, 3: col 1), j = 1: (col 1, col 3), j = 2: (col 3, pad = col 3).
  // Chunk 1: (0: col 2, 2: empty -> col 0). Chunk 2: (4: col 0, lane past n: col 0), (col 2, 0).
  EXPECT_EQ(test::to_std(S.entries()), (std::vector<int>{0, 1, 1, 3, 3, 3, 2, 0, 0, 0, 2, 0}));
  EXPECT_EQ(test::to_std(S.values()), (std::vector<double>{1, 4, 2, 6, 3, 0, 5, 0, 7, 0, 8, 0}));
  EXPECT_EQ(S.nnz(), 8);
  EXPECT_EQ(S.stored_entries(), 12);
  EXPECT_DOUBLE_EQ(S.chunk_occupancy(), 8.0 / 12.0);
  EXPECT_DOUBLE_EQ(S.fill_in_ratio(), 12.0 / 8.0);
}

TEST(ToSell, RoundTripsToTheSameCrsMatrix) {
  const auto A = test::random_crs<double>(301, 250, 6, 5, 3);
  const auto a = test::to_host_crs(A);

  for (SellShape shape : {SellShape{1, 1}, SellShape{4, 1}, SellShape{32, 1}, SellShape{32, 64},
                          SellShape{8, 512}, SellShape{16, 1024}}) {
    const auto b = test::to_host_crs(kernels::to_crs(kernels::to_sell(A, shape)));

    EXPECT_EQ(b.num_rows, a.num_rows);
    EXPECT_EQ(b.num_cols, a.num_cols);
    EXPECT_EQ(b.row_map, a.row_map) << kernels::to_string(shape);
    EXPECT_EQ(b.entries, a.entries) << kernels::to_string(shape);
    EXPECT_EQ(b.values, a.values) << kernels::to_string(shape);
  }
}

TEST(ToSell, SortingRaisesTheChunkOccupancy) {
  // Random row lengths 0..12: unsorted chunks pad to their longest row, sorting packs them.
  const auto A = test::random_crs<double>(4096, 4096, 6, 0, 0);

  const auto unsorted = kernels::to_sell(A, {32, 1});
  const auto windowed = kernels::to_sell(A, {32, 256});
  const auto global = kernels::to_sell(A, {32, 4096});
  const auto crs_like = kernels::to_sell(A, {1, 1});

  EXPECT_LT(unsorted.chunk_occupancy(), 0.7);
  EXPECT_GT(windowed.chunk_occupancy(), unsorted.chunk_occupancy());
  EXPECT_GE(global.chunk_occupancy(), windowed.chunk_occupancy());
  EXPECT_DOUBLE_EQ(crs_like.chunk_occupancy(), 1.0);  // SELL-1-1 is CRS
  EXPECT_EQ(unsorted.nnz(), A.nnz());
  EXPECT_DOUBLE_EQ(unsorted.fill_in_ratio() * unsorted.chunk_occupancy(), 1.0);
}

TEST(ToSell, HandlesEmptyMatrices) {
  const auto empty = kernels::to_sell(test::random_crs<double>(0, 0, 3, 0, 0), {32, 64});
  const auto no_columns = kernels::to_sell(test::random_crs<double>(6, 0, 3, 0, 0), {4, 8});

  EXPECT_EQ(empty.num_chunks(), 0);
  EXPECT_EQ(empty.stored_entries(), 0);
  EXPECT_DOUBLE_EQ(empty.chunk_occupancy(), 1.0);
  EXPECT_EQ(no_columns.num_chunks(), 2);
  EXPECT_EQ(no_columns.stored_entries(), 0);
  EXPECT_EQ(test::to_host_crs(kernels::to_crs(no_columns)).row_map, std::vector<long long>(7, 0));
}

// ---- SpMV / SpMMV -----------------------------------------------------------------------

template <class Scalar>
class SellSpmvTyped : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(SellSpmvTyped, ScalarTypes);

TYPED_TEST(SellSpmvTyped, MatchesReferenceWithEmptyAndLongRows) {
  // 300 x 300, every 5th row empty, 3 rows dense across all columns (longer than any chunk).
  check_matrix(test::random_crs<TypeParam>(300, 300, 6, 5, 3),
               {SellShape{1, 1}, SellShape{32, 1}, SellShape{8, 1024}});
}

TYPED_TEST(SellSpmvTyped, MatchesReferenceOnOddSizesNotMultiplesOfC) {
  check_matrix(test::random_crs<TypeParam>(173, 61, 4, 7, 2), {SellShape{32, 64}});
  check_matrix(test::random_crs<TypeParam>(37, 211, 9, 0, 1), {SellShape{8, 16}, SellShape{64, 64}});
}

TYPED_TEST(SellSpmvTyped, MatchesReferenceWithOneVeryLongRow) {
  // 9 x 4099: two rows of 4099 entries, the others short: chunks of 4099 columns, mostly padding.
  check_matrix(test::random_crs<TypeParam>(9, 4099, 5, 4, 2), {SellShape{4, 8}, SellShape{32, 32}});
}

TYPED_TEST(SellSpmvTyped, HandlesEmptyAndOneByOneMatrices) {
  check_matrix(test::random_crs<TypeParam>(0, 0, 3, 0, 0), {SellShape{32, 32}});
  check_matrix(test::random_crs<TypeParam>(0, 5, 3, 0, 0), {SellShape{4, 1}});
  check_matrix(test::random_crs<TypeParam>(6, 0, 3, 0, 0), {SellShape{4, 8}});
  check_matrix(test::random_crs<TypeParam>(40, 40, 3, 1, 0), {SellShape{8, 16}});  // every row empty
  check_matrix(test::crs_from_dense<TypeParam>({{3}}), {SellShape{1, 1}, SellShape{32, 32}});
}

TEST(SellSpmv, MatchesTheReferenceOnTheSharedMatrices) {
  // Real files as double, complex ones as complex<double>, as SELL-32-256: SpMV (automatic) and
  // a 4-column SpMMV per layout (chunks: right, rows: left).
  for (const std::string& name : test::shared_matrix_names()) {
    const std::string path = test::matrix_path(name);
    const Kokkos::complex<double> one(1, 0);
    if (io::read_matrix_market_info(path).field == io::MatrixMarketField::complex) {
      const auto A = io::read_matrix_market<Kokkos::complex<double>>(path);
      const auto ref = test::to_host_coo(test::to_host_crs(A));
      const auto S = kernels::to_sell(A, {32, 256});
      const Kokkos::complex<double> zero(0, 0);
      check_case<Kokkos::complex<double>, Kokkos::LayoutRight>(ref, S, SellAlgorithm::automatic, 0, one, zero);
      check_case<Kokkos::complex<double>, Kokkos::LayoutRight>(ref, S, SellAlgorithm::chunks, 4, one, zero);
      check_case<Kokkos::complex<double>, Kokkos::LayoutLeft>(ref, S, SellAlgorithm::rows, 4, one, zero);
    } else {
      const auto A = io::read_matrix_market<double>(path);
      const auto ref = test::to_host_coo(test::to_host_crs(A));
      const auto S = kernels::to_sell(A, {32, 256});
      check_case<double, Kokkos::LayoutRight>(ref, S, SellAlgorithm::automatic, 0, 1.0, 0.0);
      check_case<double, Kokkos::LayoutRight>(ref, S, SellAlgorithm::chunks, 4, 1.0, 0.0);
      check_case<double, Kokkos::LayoutLeft>(ref, S, SellAlgorithm::rows, 4, 1.0, 0.5);
    }
    if (HasFatalFailure()) FAIL() << "matrix " << name;
  }
}

TEST(SellSpmv, MatchesCrsSpmvOnTheLaplacian) {
  // Stencil rows (4..7 entries) in their natural order: sigma = 1 keeps them, C = 32.
  const auto A = generators::laplace3d<double>(13, 11, 9);
  const auto S = kernels::to_sell(A, {32, 1});
  const auto x = test::vector_from(test::random_vector<double>(A.num_cols(), 3));
  VectorView<double> y_crs("y_crs", A.num_rows()), y_sell("y_sell", A.num_rows());
  test::poison(y_sell);

  kernels::spmv(1.0, A, x, 0.0, y_crs);
  kernels::sell_spmv(1.0, S, x, 0.0, y_sell);

  const auto crs = test::to_std(y_crs), sell = test::to_std(y_sell);
  for (int i = 0; i < A.num_rows(); ++i) EXPECT_NEAR(sell[i], crs[i], 1e-13 * (1 + std::abs(crs[i]))) << i;
}

TEST(SellSpmv, AlphaZeroScalesYWithoutReadingAOrX) {
  const auto S = kernels::to_sell(test::random_crs<double>(50, 40, 4, 3, 1), {8, 16});
  VectorView<double> x("x", 40), y("y", 50), z("z", 50);
  test::poison(x);
  Kokkos::deep_copy(y, 2.0);
  test::poison(z);

  kernels::sell_spmv(0.0, S, x, 1.5, y);
  kernels::sell_spmv(0.0, S, x, 0.0, z);  // beta = 0: z is overwritten, NaN does not survive

  for (double v : test::to_std(y)) EXPECT_EQ(v, 3.0);
  for (double v : test::to_std(z)) EXPECT_EQ(v, 0.0);
}

TEST(SellSpmv, RejectsWrongShapesAndAliasing) {
  const auto S = kernels::to_sell(test::crs_from_dense<double>({{1, 0}, {0, 1}, {1, 1}}), {4, 1});  // 3 x 2
  VectorView<double> x2("x", 2), x3("x", 3), y3("y", 3), y2("y", 2);
  MultiVectorView<double> X("X", 2, 2), Y("Y", 3, 3);
  VectorView<double> square("square", 3);

  test::expect_throw_containing<DimensionMismatch>([&] { kernels::sell_spmv(1.0, S, x3, 0.0, y3); },
                                                   "kelp::kernels::sell_spmv: dimension mismatch: A is 3 x 2, x has 3 rows, expected 2");
  test::expect_throw_containing<DimensionMismatch>([&] { kernels::sell_spmv(1.0, S, x2, 0.0, y2); },
                                                   "y has 2 rows, expected 3");
  test::expect_throw_containing<DimensionMismatch>([&] { kernels::sell_spmv(1.0, S, X, 0.0, Y); },
                                                   "x has 2 columns, y has 3");
  const auto T = kernels::to_sell(test::crs_from_dense<double>({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}), {4, 1});
  test::expect_throw_containing<InvalidArgument>([&] { kernels::sell_spmv(1.0, T, square, 0.0, square); },
                                                 "y must not alias x");
}

TEST(SellSpmv, ExecutionSpaceInstanceGivesTheDefaultResult) {
  const auto S = kernels::to_sell(test::random_crs<double>(200, 200, 5, 6, 2), {16, 64});
  const auto x = test::vector_from(test::random_vector<double>(200, 5));
  VectorView<double> y_default("y", 200), y_instance("y", 200);
  const DefaultExecutionSpace exec;

  kernels::sell_spmv(2.0, S, x, 0.0, y_default, SellAlgorithm::chunks);
  kernels::sell_spmv(exec, 2.0, S, x, 0.0, y_instance, SellAlgorithm::chunks);
  exec.fence();

  EXPECT_EQ(test::to_std(y_instance), test::to_std(y_default));
}

// ---- Operator ---------------------------------------------------------------------------

TEST(SellOperator, AppliesVectorsAndBlocksAsTheCrsOperator) {
  const auto A = test::random_crs<double>(120, 120, 5, 7, 1);
  SellOperator<kernels::SellMatrix<double>> S_op(kernels::to_sell(A, {32, 64}));
  MatrixOperator<CrsMatrix<double>> A_op(A);
  MultiVectorView<double> X("X", 120, 3), Y_sell("Y", 120, 3), Y_crs("Y", 120, 3);
  Kokkos::deep_copy(Y_sell, 1.0);
  Kokkos::deep_copy(Y_crs, 1.0);
  auto Xh = Kokkos::create_mirror_view(X);
  for (int i = 0; i < 120; ++i)
    for (int j = 0; j < 3; ++j) Xh(i, j) = std::sin(0.1 * i + j);
  Kokkos::deep_copy(X, Xh);

  S_op.apply(X, Y_sell, 2.0, -1.0);
  A_op.apply(X, Y_crs, 2.0, -1.0);

  auto s = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y_sell);
  auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y_crs);
  for (int i = 0; i < 120; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(s(i, j), c(i, j), 1e-13 * (1 + std::abs(c(i, j))));
  EXPECT_NE(S_op.summary().find("SELL-32-64 matrix 120 x 120"), std::string::npos) << S_op.summary();
}

TEST(SellOperator, RejectsTransposedModes) {
  SellOperator<kernels::SellMatrix<double>> S_op(kernels::to_sell(test::crs_from_dense<double>({{1, 2}, {3, 4}})));
  VectorView<double> x("x", 2), y("y", 2);

  test::expect_throw_containing<InvalidArgument>(
      [&] { S_op.apply(x, y, 1.0, 0.0, OperatorMode::transpose); }, "does not support mode transpose");
}

TEST(SellOperator, SolvesALaplacianWithCg) {
  const auto A = generators::laplace2d<double>(30, 30);
  auto S_op = std::make_shared<SellOperator<kernels::SellMatrix<double>>>(kernels::to_sell(A, {32, 128}));
  auto M = std::make_shared<precond::Jacobi<CrsMatrix<double>>>();
  M->setup(A);
  solvers::CgParams params;
  params.relative_tolerance = 1e-10;
  solvers::Cg<double> cg(S_op, M, params);
  VectorView<double> b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0);

  const auto result = cg.solve(b, x, InitialGuess::zero);

  EXPECT_TRUE(result.converged()) << solvers::to_string(result.reason);
  EXPECT_LT(test::reference_relative_residual(A, b, x), 1e-9);
}

}  // namespace
}  // namespace kelp::sell_test
