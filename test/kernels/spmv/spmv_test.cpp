// SpMV / SpMMV against the sequential reference under the rigorous error bound: every mode x
// scalar type x algorithm x layout x (vector, multi-vector), beta = 0 with NaN-poisoned outputs
// and beta != 0, on matrices with empty rows, long rows and odd (rectangular) shapes.
#include <gtest/gtest.h>

#include <random>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/reference.hpp"
#include "test/support/scalar_values.hpp"
#include "test/support/spmv_bound.hpp"
#include "test/support/spmv_inputs.hpp"

namespace kelp::spmv_test {
namespace {

using kernels::SpmvAlgorithm;
using kernels::SpmvMode;

const SpmvMode all_modes[] = {SpmvMode::no_transpose, SpmvMode::transpose, SpmvMode::conjugate,
                              SpmvMode::conjugate_transpose};

/// Runs one SpMMV case (k columns, given layout; k = 0 means the rank-1 API) and compares every
/// entry of every column with the sequential double-precision reference under the rigorous
/// bound |y - y_ref|_i <= gamma * (|alpha| sum_j |a_ij||x_j| + |beta||y0_i|) (spmv_bound.hpp).
template <class Scalar, class Layout>
void check_case(const test::HostCoo& ref, const CrsMatrix<Scalar>& A, SpmvMode mode,
                SpmvAlgorithm algorithm, long long chunk, int k, Scalar alpha, Scalar beta,
                const kernels::AdaptiveShape& shape = {}) {
  const bool transposed = mode == SpmvMode::transpose || mode == SpmvMode::conjugate_transpose;
  const int n_in = transposed ? A.num_rows() : A.num_cols();
  const int n_out = transposed ? A.num_cols() : A.num_rows();
  const int columns = k == 0 ? 1 : k;
  const auto in = test::random_spmv_inputs<Scalar, Layout>(n_in, n_out, columns, 7 + k,
                                                           beta == Scalar(0));
  const auto &x = in.x, &y = in.y;
  kernels::SpmvHandle<CrsMatrix<Scalar>> handle(algorithm, chunk);
  handle.set_adaptive_shape(shape);

  if (k == 0) {
    kernels::spmv(handle, mode, alpha, A, Kokkos::subview(x, Kokkos::ALL, 0), beta,
                  Kokkos::subview(y, Kokkos::ALL, 0));
  } else {
    kernels::spmv(handle, mode, alpha, A, x, beta, y);
  }

  auto result = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (int j = 0; j < columns; ++j) {
    const auto xj = test::column(in.x_host, j), yj = test::column(in.y_host, j);
    const auto computed = test::column(result, j);
    ASSERT_TRUE(test::within_spmv_bound(computed, test::reference_product(mode, alpha, ref, xj, beta, yj)))
        << "mode " << kernels::to_string(mode) << ", algorithm " << kernels::to_string(algorithm)
        << ", chunk " << chunk << ", block rows " << shape.block_rows << ", block entries "
        << shape.block_entries << ", k " << k << ", column " << j << ", layout "
        << (std::is_same<Layout, Kokkos::LayoutLeft>::value ? "left" : "right") << ", beta "
        << test::to_complex_double(beta);
  }
}

using test::scalar_of;

template <class Scalar>
void check_matrix(const CrsMatrix<Scalar>& A) {
  const auto ref = test::to_host_coo(test::to_host_crs(A));
  const Scalar alpha = scalar_of<Scalar>(1.25, -0.75), beta = scalar_of<Scalar>(-0.5, 0.25);
  // Adaptive: the default blocking, and tiny blocks (7 rows, 20 entries) so that these small
  // matrices cut into many blocks and rows longer than a block take the long-row path; staged
  // and straight from memory.
  struct Variant {
    SpmvAlgorithm algorithm;
    long long chunk;
    kernels::AdaptiveShape shape;
  };
  const Variant variants[] = {{SpmvAlgorithm::row_parallel, 0, {}},
                              {SpmvAlgorithm::merge_path, 7, {}},
                              {SpmvAlgorithm::merge_path, 0, {}},
                              {SpmvAlgorithm::adaptive, 0, {}},
                              {SpmvAlgorithm::adaptive, 0, {7, 20, 0, 0}},
                              {SpmvAlgorithm::adaptive, 0, {7, 20, 0, 0, false}},
                              {SpmvAlgorithm::automatic, 0, {}}};
  for (SpmvMode mode : all_modes) {
    for (const Variant& v : variants) {
      for (int k : {0, 1, 3, 8, 13}) {
        for (Scalar b : {Scalar(0), beta}) {
          check_case<Scalar, Kokkos::LayoutLeft>(ref, A, mode, v.algorithm, v.chunk, k, alpha, b, v.shape);
          check_case<Scalar, Kokkos::LayoutRight>(ref, A, mode, v.algorithm, v.chunk, k, alpha, b, v.shape);
        }
      }
    }
  }
}

template <class Scalar>
class SpmvTyped : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(SpmvTyped, ScalarTypes);

TYPED_TEST(SpmvTyped, MatchesReferenceWithEmptyAndLongRows) {
  // 300 x 300, every 5th row empty, 3 rows dense across all columns.
  check_matrix(test::random_crs<TypeParam>(300, 300, 6, 5, 3));
}

TYPED_TEST(SpmvTyped, MatchesReferenceOnRectangularMatrices) {
  check_matrix(test::random_crs<TypeParam>(173, 61, 4, 7, 2));
  check_matrix(test::random_crs<TypeParam>(37, 211, 9, 0, 1));
}

TYPED_TEST(SpmvTyped, MatchesReferenceOnVeryLongRows) {
  // 9 x 4099: two rows of 4099 entries (longer than any team, vector length or merge chunk),
  // the others short; transposed, 4099 short outputs.
  check_matrix(test::random_crs<TypeParam>(9, 4099, 5, 4, 2));
}

TYPED_TEST(SpmvTyped, HandlesEmptyMatrices) {
  check_matrix(test::random_crs<TypeParam>(0, 5, 3, 0, 0));
  check_matrix(test::random_crs<TypeParam>(6, 0, 3, 0, 0));
  check_matrix(test::random_crs<TypeParam>(40, 40, 3, 1, 0));  // every row empty
}

TEST(Spmv, ExactSmallProductAndConjugateModes) {
  using C = Kokkos::complex<double>;
  // A = [[1+2i, 0], [3, -1i]]
  auto A = crs_from_coo<C>(2, 2, {0, 1, 1}, {0, 0, 1}, {C(1, 2), C(3, 0), C(0, -1)});
  Kokkos::View<C*> x("x", 2), y("y", 2);
  auto xh = Kokkos::create_mirror_view(x);
  xh(0) = C(1, 0);
  xh(1) = C(0, 1);
  Kokkos::deep_copy(x, xh);

  kernels::spmv(SpmvMode::conjugate_transpose, C(1), A, x, C(0), y);

  // A^H = [[1-2i, 3], [0, +1i]]; A^H x = [1-2i + 3i, i*i] = [1+1i, -1]
  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  EXPECT_EQ(yh(0), C(1, 1));
  EXPECT_EQ(yh(1), C(-1, 0));
}

TEST(Spmv, AlphaZeroDoesNotReadX) {
  auto A = crs_from_coo<double>(2, 2, {0, 1}, {0, 1}, {1.0, 1.0});
  Kokkos::View<double*> x("x", 2), y("y", 2);
  test::poison(x);
  Kokkos::deep_copy(y, 2.0);

  kernels::spmv(0.0, A, x, 3.0, y);

  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  EXPECT_EQ(yh(0), 6.0);
  EXPECT_EQ(yh(1), 6.0);
}

TEST(Spmv, HandleReanalysesWhenThePatternChanges) {
  kernels::SpmvHandle<CrsMatrix<double>> handle;
  auto A = test::random_crs<double>(50, 50, 3, 0, 0);
  auto B = test::random_crs<double>(80, 80, 3, 0, 1);
  Kokkos::View<double*> x("x", 80), y("y", 80);
  Kokkos::deep_copy(x, 1.0);

  kernels::spmv(handle, SpmvMode::no_transpose, 1.0, A, Kokkos::subview(x, std::pair{0, 50}), 0.0,
                Kokkos::subview(y, std::pair{0, 50}));
  const auto max_a = handle.statistics().max_row_nnz;
  kernels::spmv(handle, SpmvMode::no_transpose, 1.0, B, x, 0.0, y);

  EXPECT_LT(max_a, 80);
  EXPECT_EQ(handle.statistics().max_row_nnz, 80);  // B has a dense row
}

// The handle keeps the analysed row_map alive: a freed one's address handed to the next matrix
// (same shape and nnz, other rows) passed for the same pattern and the adaptive kernel summed
// a stale block of 256 rows into its first row.
TEST(Spmv, HandleHoldsTheAnalysedRowMapSoItsAddressCannotComeBack) {
  kernels::SpmvHandle<CrsMatrix<double>> handle(SpmvAlgorithm::adaptive);
  auto A = test::random_crs<double>(60, 60, 3, 0, 0);
  Kokkos::View<double*> x("x", 60), y("y", 60);
  Kokkos::deep_copy(x, 1.0);
  const int before = A.row_map().use_count();

  kernels::spmv(handle, SpmvMode::no_transpose, 1.0, A, x, 0.0, y);

  EXPECT_EQ(A.row_map().use_count(), before + 1);
}

// A pattern rewritten in place (same row_map allocation, same nnz) is invisible to the handle;
// the adaptive kernel still gives the right product from the old blocks (row by row).
TEST(Spmv, AdaptiveKernelIsRightWithBlocksOfAPatternRewrittenInPlace) {
  const int n = 1000, num_cols = 4000;
  CrsMatrix<double>::row_map_type row_map("row_map", n + 1);
  CrsMatrix<double>::entries_type entries("entries", 4 * n);
  CrsMatrix<double>::values_type values("values", 4 * n);
  // Fills the views: four entries a row (short), or ten rows of 300 and one that takes the rest.
  const auto fill = [&](bool long_rows) {
    auto rm = Kokkos::create_mirror_view(row_map);
    auto e = Kokkos::create_mirror_view(entries);
    auto v = Kokkos::create_mirror_view(values);
    long long k = 0;
    for (int i = 0; i < n; ++i) {
      int length = long_rows ? (i < 10 ? 300 : 1) : 4;
      if (long_rows && i == 10) length = 4 * n - (10 * 300 + (n - 11));
      rm(i) = k;
      for (int t = 0; t < length; ++t, ++k) {
        e(k) = (i + 7 * t) % num_cols;
        v(k) = 1.0 + 0.001 * t;
      }
    }
    rm(n) = k;
    ASSERT_EQ(k, 4 * n);
    Kokkos::deep_copy(row_map, rm);
    Kokkos::deep_copy(entries, e);
    Kokkos::deep_copy(values, v);
  };
  kernels::SpmvHandle<CrsMatrix<double>> handle(SpmvAlgorithm::adaptive);
  Kokkos::View<double*> x("x", num_cols), y("y", n);
  const std::vector<double> x_host = test::random_vector<double>(num_cols, 3);
  Kokkos::deep_copy(x, Kokkos::View<const double*, Kokkos::HostSpace>(x_host.data(), x_host.size()));
  fill(false);
  kernels::spmv(handle, SpmvMode::no_transpose, 1.0, CrsMatrix<double>(n, num_cols, row_map, entries, values), x,
                0.0, y);

  fill(true);
  const CrsMatrix<double> B(n, num_cols, row_map, entries, values);
  test::poison(y);
  kernels::spmv(handle, SpmvMode::no_transpose, 1.0, B, x, 0.0, y);

  const auto expected = test::reference_spmv(SpmvMode::no_transpose, 1.0, test::to_host_crs(B), x_host, 0.0,
                                              std::vector<double>(n));
  const auto computed = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (int i = 0; i < n; ++i) EXPECT_NEAR(computed(i), expected[i], 1e-12 * (1 + std::abs(expected[i]))) << "row " << i;
}

TEST(Spmv, AutomaticHandleTimesBothAlgorithmsOnceOnHostMatricesAboveTheThreshold) {
  using Matrix = CrsMatrix<double>;
  Matrix large = generators::laplace3d<double>(20, 20, 20);  // 7.6e4 nnz >= threshold
  Matrix small = generators::laplace2d<double>(10, 10);      // 460 nnz < threshold
  large.detach_stencil();  // with its stencil description automatic takes the stencil kernel
  small.detach_stencil();
  ASSERT_GE(static_cast<long long>(large.nnz()), kernels::SpmvHandle<Matrix>::kTimingMinNnz);
  ASSERT_LT(static_cast<long long>(small.nnz()), kernels::SpmvHandle<Matrix>::kTimingMinNnz);
  kernels::SpmvHandle<Matrix> timed, untimed, pinned(kernels::SpmvAlgorithm::merge_path);
  Kokkos::View<double*> x("x", large.num_cols()), y("y", large.num_rows());
  Kokkos::deep_copy(x, 1.0);
  test::poison(y);

  kernels::spmv(timed, SpmvMode::no_transpose, 1.0, large, x, 0.0, y);
  const auto y_timed = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  kernels::spmv(untimed, SpmvMode::no_transpose, 1.0, small, Kokkos::subview(x, std::pair{0, 100}),
                0.0, Kokkos::subview(y, std::pair{0, 100}));
  kernels::spmv(pinned, SpmvMode::no_transpose, 1.0, large, x, 0.0, y);

  constexpr bool host =
      Kokkos::SpaceAccessibility<Matrix::execution_space, Kokkos::HostSpace>::accessible;
  EXPECT_EQ(timed.choice_was_timed(), host);
  EXPECT_TRUE(timed.algorithm() == kernels::SpmvAlgorithm::row_parallel ||
              timed.algorithm() == kernels::SpmvAlgorithm::merge_path);
  EXPECT_FALSE(untimed.choice_was_timed());
  EXPECT_FALSE(pinned.choice_was_timed());
  EXPECT_EQ(pinned.algorithm(), kernels::SpmvAlgorithm::merge_path);
  // The product after the timing is the true one: corner row 6 - 3 neighbours, interior row 0.
  EXPECT_EQ(y_timed(0), 3.0);
  EXPECT_EQ(y_timed(20 * 20 * 10 + 20 * 10 + 10), 0.0);
}

TEST(Spmv, RejectsWrongInputLength) {
  auto A = crs_from_coo<double>(3, 2, {0, 1, 2, 2}, {0, 1, 0, 1}, {1, 1, 1, 1});  // 3 x 2
  Kokkos::View<double*> x("x", 3), y("y", 3);

  test::expect_throw_containing<DimensionMismatch>([&] { kernels::spmv(1.0, A, x, 0.0, y); },
                                                   "A is 3 x 2 (mode no_transpose), x has 3 rows, expected 2");
}

TEST(Spmv, RejectsWrongOutputLengthAndColumnCounts) {
  auto A = crs_from_coo<double>(3, 2, {0}, {0}, {1.0});
  Kokkos::View<double*> x("x", 3), y("y", 3);
  Kokkos::View<double**> X("X", 2, 2), Y("Y", 3, 3);

  test::expect_throw_containing<DimensionMismatch>(
      [&] { kernels::spmv(kernels::SpmvMode::transpose, 1.0, A, x, 0.0, y); },
      "y has 3 rows, expected 2");
  test::expect_throw_containing<DimensionMismatch>([&] { kernels::spmv(1.0, A, X, 0.0, Y); },
                                                   "x has 2 columns, y has 3");
}

TEST(Spmv, RejectsAliasedInputAndOutput) {
  auto A = crs_from_coo<double>(2, 2, {0}, {0}, {1.0});
  Kokkos::View<double*> x("x", 2);

  test::expect_throw_containing<InvalidArgument>([&] { kernels::spmv(1.0, A, x, 0.0, x); },
                                                 "y must not alias x");
}

}  // namespace
}  // namespace kelp::spmv_test

TEST(Spmv, AdaptiveBlocksRespectRowAndEntryLimits) {
  // Rows of lengths 3, 0, 5, 30, 2, 2, 2, 9 (row_map below); blocks of <= 3 rows, <= 8 entries.
  const std::vector<long long> row_map = {0, 3, 3, 8, 38, 40, 42, 44, 53};
  auto at = [&](long long i) { return row_map[static_cast<std::size_t>(i)]; };

  const auto starts = kelp::kernels::adaptive_row_blocks(at, 8, 3, 8);

  // [0,1,2): 8 entries; [3]: 30 > 8, a long row alone; [4,5,6): 6; [7]: 9 > 8, alone.
  EXPECT_EQ(starts, (std::vector<long long>{0, 3, 4, 7, 8}));
}

TEST(Spmv, AdaptiveShapeRejectsZeroBlocks) {
  kelp::kernels::SpmvHandle<kelp::CrsMatrix<double>> handle(kelp::kernels::SpmvAlgorithm::adaptive);

  kelp::test::expect_throw_containing<kelp::InvalidArgument>(
      [&] { handle.set_adaptive_shape({0, 2048, 0, 0}); }, "block_rows = 0");
}

TEST(Spmv, AdaptiveBlocksGiveLongRowsABlockOfTheirOwn) {
  // Lengths 2, 2, 40, 2, 2 with blocks of <= 8 rows and <= 200 entries: 40 > 32 = max(32,
  // 200 / 8), so row 2 is cut out although the entry limit would let it join.
  const std::vector<long long> row_map = {0, 2, 4, 44, 46, 48};
  auto at = [&](long long i) { return row_map[static_cast<std::size_t>(i)]; };

  const auto starts = kelp::kernels::adaptive_row_blocks(at, 5, 8, 200);

  EXPECT_EQ(starts, (std::vector<long long>{0, 2, 3, 5}));
}

namespace kelp::spmv_test {
namespace {

template <class Scalar>
void check_spmv_dot(const CrsMatrix<Scalar>& A, bool stage) {
  std::mt19937 rng(11);
  const std::size_t n = static_cast<std::size_t>(A.num_rows());
  std::vector<Scalar> xs(n);
  for (auto& v : xs) v = test::random_scalar<Scalar>(rng);
  const auto x = test::vector_from<Scalar>(xs);
  VectorView<Scalar> y("y", n);
  test::poison(y);
  kernels::SpmvHandle<CrsMatrix<Scalar>> handle(kernels::SpmvAlgorithm::adaptive);
  kernels::AdaptiveShape shape;
  shape.stage = stage;
  shape.vector_length = 1;
  handle.set_adaptive_shape(shape);
  Scalar dot = test::random_scalar<Scalar>(rng);

  const bool fused = kernels::spmv_dot(handle, A, x, y, dot);

  ASSERT_TRUE(fused);  // adaptive with one lane per row
  const auto ref = test::reference_product(kernels::SpmvMode::no_transpose, Scalar(1),
                                           test::to_host_coo(test::to_host_crs(A)), xs, Scalar(0),
                                           std::vector<Scalar>(n));
  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  std::vector<Scalar> computed(n);
  for (std::size_t i = 0; i < n; ++i) computed[i] = yh(i);
  ASSERT_TRUE(test::within_spmv_bound(computed, ref));
  Kokkos::complex<double> expected(0, 0);
  double magnitude = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Kokkos::complex<double> xi = test::to_complex_double(xs[i]);
    expected += Kokkos::conj(xi) * ref.value[i];
    magnitude += Kokkos::abs(xi) * Kokkos::abs(ref.value[i]);
  }
  const double tolerance = 1e-5 * magnitude + 1e-12;  // float accumulation over n terms
  EXPECT_NEAR(test::to_complex_double(dot).real(), expected.real(), tolerance);
  EXPECT_NEAR(test::to_complex_double(dot).imag(), expected.imag(), tolerance);
}

TYPED_TEST(SpmvTyped, SpmvDotFusesTheProductAndTheDotOnAdaptiveBlocks) {
  // Square, every 5th row empty, 3 dense rows (blocks of their own); then a 1 x 1 matrix.
  for (bool stage : {true, false}) {
    check_spmv_dot(test::random_crs<TypeParam>(300, 300, 6, 5, 3), stage);
    check_spmv_dot(test::random_crs<TypeParam>(1, 1, 1, 0, 0), stage);
  }
}

TEST(Spmv, SpmvDotDeclinesWithoutTheAdaptiveAlgorithmAndLeavesYAlone) {
  const auto A = test::random_crs<double>(50, 50, 4, 0, 0);
  VectorView<double> x("x", 50), y("y", 50);
  Kokkos::deep_copy(x, 1.0);
  Kokkos::deep_copy(y, 7.0);
  kernels::SpmvHandle<CrsMatrix<double>> handle(kernels::SpmvAlgorithm::row_parallel);
  double dot = 3.0;

  EXPECT_FALSE(kernels::spmv_dot(handle, A, x, y, dot));

  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(yh(i), 7.0);
  EXPECT_EQ(dot, 3.0);
}

TEST(Spmv, SpmvDotRejectsRectangularMatrices) {
  const auto A = test::random_crs<double>(5, 4, 2, 0, 0);
  VectorView<double> x("x", 4), y("y", 5);
  kernels::SpmvHandle<CrsMatrix<double>> handle(kernels::SpmvAlgorithm::adaptive);
  double dot = 0;

  test::expect_throw_containing<DimensionMismatch>(
      [&] { kernels::spmv_dot(handle, A, x, y, dot); }, "A is 5 x 4, expected square");
}

}  // namespace
}  // namespace kelp::spmv_test
