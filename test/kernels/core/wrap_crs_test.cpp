// wrap_crs: a host code's CSR arrays (32-bit row offsets) used in place, without copies, through
// SpMV, MatrixOperator, the pattern fingerprint and the diagonal; validation of bad arrays.
#include <gtest/gtest.h>

#include <vector>

#include "kelp/kernels/core/diagonal.hpp"
#include "kelp/kernels/core/pattern_fingerprint.hpp"
#include "kelp/kernels/core/wrap_crs.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/kernels/spmv/spmv.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/host_code_arrays.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"

namespace kelp::wrap_crs_test {
namespace {

using kernels::SpmvAlgorithm;
using kernels::SpmvMode;

template <class Scalar>
using Matrix32 = CrsMatrix<Scalar, int, int>;

TEST(WrapCrs, SharesTheCallersHostArraysWithoutCopying) {
  std::vector<int> row_map = {0, 2, 2, 3};  // row 1 empty
  std::vector<int> entries = {0, 2, 1};
  std::vector<double> values = {4.0, -1.0, 3.0};

  auto A = wrap_crs<double, int, int, HostDevice>(3, 3, row_map.data(), entries.data(),
                                                  values.data());
  values[2] = 7.0;  // the host code writes in place; Kelp sees it

  EXPECT_EQ(A.num_rows(), 3);
  EXPECT_EQ(A.nnz(), 3);
  EXPECT_EQ(A.row_map().data(), row_map.data());
  EXPECT_EQ(A.entries().data(), entries.data());
  EXPECT_EQ(A.values().data(), values.data());
  EXPECT_EQ(A.values().use_count(), 0);  // unmanaged: Kelp will never free the arrays
  EXPECT_EQ(test::to_dense(A),
            (std::vector<std::vector<double>>{{4, 0, -1}, {0, 0, 0}, {0, 7, 0}}));
}

TEST(WrapCrs, DeductionFromThePointersAndEmptyMatrices) {
  auto arrays = test::host_code_arrays_of<int>(crs_from_coo<double>(2, 5, {}, {}, {}));

  auto A = wrap_crs(arrays.num_rows, arrays.num_cols, arrays.row_map.data(), arrays.entries.data(),
                    arrays.values.data());
  int zero_rows_map[1] = {0};
  auto E = wrap_crs<float, int, int, HostDevice>(0, 0, zero_rows_map, nullptr, nullptr);

  static_assert(std::is_same<decltype(A), Matrix32<double>>::value,
                "deduced: CrsMatrix<double, int, int>");
  EXPECT_EQ(A.nnz(), 0);
  EXPECT_EQ(A.num_cols(), 5);
  EXPECT_EQ(E.num_rows(), 0);
  EXPECT_EQ(E.nnz(), 0);
}

TEST(WrapCrs, ValidatesHostArraysByDefaultNamingTheBadRow) {
  std::vector<int> row_map = {0, 2, 1, 3};  // not monotone at row 1
  std::vector<int> entries = {0, 1, 2};
  std::vector<double> values = {1, 2, 3};
  std::vector<int> good_row_map = {0, 1, 2, 3};
  std::vector<int> bad_entries = {0, 9, 2};
  std::vector<int> unsorted_entries = {0, 1, 2};
  std::vector<int> two_per_row = {0, 2, 2, 3};
  std::vector<int> descending = {1, 0, 2};
  using Host = HostDevice;

  test::expect_throw_containing<InvalidArgument>(
      [&] {
        wrap_crs<double, int, int, Host>(3, 3, row_map.data(), entries.data(), values.data());
      },
      "row_map is not monotone at row 1");
  test::expect_throw_containing<InvalidArgument>(
      [&] {
        wrap_crs<double, int, int, Host>(3, 3, good_row_map.data(), bad_entries.data(),
                                         values.data());
      },
      "row 1 has column index 9 outside [0, 3)");
  test::expect_throw_containing<InvalidArgument>(
      [&] {
        wrap_crs<double, int, int, Host>(3, 3, two_per_row.data(), descending.data(), values.data(),
                                         WrapCheck::sorted_unique);
      },
      "row 0 is not sorted with unique columns");
  test::expect_throw_containing<InvalidArgument>(
      [&] {
        wrap_crs<double, int, int, Host>(-1, 3, row_map.data(), entries.data(), values.data());
      },
      "negative dimensions -1 x 3");
  test::expect_throw_containing<InvalidArgument>(
      [&] { wrap_crs<double, int, int, Host>(3, 3, nullptr, entries.data(), values.data()); },
      "row_map is null");
  // Unchecked on request: the caller vouches for the arrays (descending columns are legal CRS).
  EXPECT_NO_THROW((wrap_crs<double, int, int, Host>(3, 3, two_per_row.data(), descending.data(),
                                                    values.data(), WrapCheck::none)));
  EXPECT_NO_THROW((wrap_crs<double, int, int, Host>(3, 3, two_per_row.data(), descending.data(),
                                                    values.data())));
}

template <class Scalar>
class WrapCrsTyped : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(WrapCrsTyped, ScalarTypes);

/// y = op(A) x for both the int64 reference matrix and its 32-bit-offset wrap, same algorithm.
template <class Scalar, class Layout>
void expect_same_products(const CrsMatrix<Scalar>& A, const Matrix32<Scalar>& W, SpmvMode mode,
                          SpmvAlgorithm algorithm, int k) {
  const bool transposed = mode == SpmvMode::transpose || mode == SpmvMode::conjugate_transpose;
  const int n_in = transposed ? A.num_rows() : A.num_cols();
  const int n_out = transposed ? A.num_cols() : A.num_rows();
  const auto x_values = test::random_vector<Scalar>(static_cast<std::size_t>(n_in) * k, 3);
  auto x = test::multivector_from<Scalar, Layout>(x_values, n_in, k);
  MultiVectorView<Scalar, Layout> y_ref("y_ref", n_out, k), y("y", n_out, k);
  test::poison(y);
  kernels::SpmvHandle<CrsMatrix<Scalar>> handle_ref(algorithm, 64);
  kernels::SpmvHandle<Matrix32<Scalar>> handle(algorithm, 64);  // small chunks: many carries

  kernels::spmv(handle_ref, mode, Scalar(2), A, x, Scalar(0), y_ref);
  kernels::spmv(handle, mode, Scalar(2), W, x, Scalar(0), y);

  using Mag = typename ScalarTraits<Scalar>::magnitude_type;
  const double tol = std::is_same<Mag, float>::value ? 1e-4 : 1e-12;
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y_ref);
  auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (int i = 0; i < n_out; ++i)
    for (int j = 0; j < k; ++j)
      EXPECT_LE(ScalarTraits<Scalar>::abs(r(i, j) - c(i, j)),
                tol * (1 + ScalarTraits<Scalar>::abs(r(i, j))))
          << "row " << i << " column " << j << " mode " << kernels::to_string(mode)
          << " algorithm " << kernels::to_string(algorithm);
}

TYPED_TEST(WrapCrsTyped, ThirtyTwoBitOffsetsGiveTheSameProductsAsTheStandardMatrix) {
  using Scalar = TypeParam;
  // Empty rows (every 7th), long rows, rectangular, odd sizes.
  const auto A = test::random_crs<Scalar>(301, 257, 5, 7, 3);
  auto arrays = test::host_code_arrays_of<int>(A);
  const auto W = wrap_crs(arrays.num_rows, arrays.num_cols, arrays.row_map.data(),
                          arrays.entries.data(), arrays.values.data());

  for (auto mode : {SpmvMode::no_transpose, SpmvMode::transpose, SpmvMode::conjugate,
                    SpmvMode::conjugate_transpose}) {
    for (auto algorithm : {SpmvAlgorithm::row_parallel, SpmvAlgorithm::merge_path}) {
      expect_same_products<Scalar, Kokkos::LayoutLeft>(A, W, mode, algorithm, 1);
      expect_same_products<Scalar, Kokkos::LayoutRight>(A, W, mode, algorithm, 3);
    }
  }
}

TYPED_TEST(WrapCrsTyped, MatrixOperatorFingerprintAndDiagonalWorkOnTheWrap) {
  using Scalar = TypeParam;
  const auto A = test::random_crs<Scalar>(97, 97, 4, 5, 1);
  auto arrays = test::host_code_arrays_of<int>(A);
  const auto W = wrap_crs(arrays.num_rows, arrays.num_cols, arrays.row_map.data(),
                          arrays.entries.data(), arrays.values.data());
  const auto x = test::vector_from(test::random_vector<Scalar>(97, 11));
  VectorView<Scalar> y_ref("y_ref", 97), y("y", 97), d_ref("d_ref", 97), d("d", 97);
  test::poison(y);
  test::poison(d);
  MatrixOperator<Matrix32<Scalar>> op(W);

  op.apply(x, y);
  kernels::spmv(Scalar(1), A, x, Scalar(0), y_ref);
  kernels::extract_diagonal(W, d);
  kernels::extract_diagonal(A, d_ref);

  EXPECT_EQ(op.num_rows(), 97);
  const auto yr = test::to_std(y_ref), yc = test::to_std(y);
  for (int i = 0; i < 97; ++i) {
    using T = ScalarTraits<Scalar>;
    EXPECT_LE(T::abs(yr[i] - yc[i]), 1e-4 * (1 + T::abs(yr[i])));
  }
  EXPECT_EQ(test::to_std(d), test::to_std(d_ref));
  EXPECT_EQ(pattern_fingerprint(W), pattern_fingerprint(A));  // same pattern, other offset type
}

TEST(WrapCrs, FingerprintSeesTheRowMapOfThirtyTwoBitOffsets) {
  // [[a,0],[0,b]] and [[0,0],[a,b]]: same entries {0, 1}, different row_map.
  std::vector<int> diagonal_rows = {0, 1, 2}, last_row = {0, 0, 2}, entries = {0, 1};
  std::vector<double> values = {1, 2};

  auto D = wrap_crs<double, int, int, HostDevice>(2, 2, diagonal_rows.data(), entries.data(),
                                                  values.data());
  auto L = wrap_crs<double, int, int, HostDevice>(2, 2, last_row.data(), entries.data(),
                                                  values.data());

  EXPECT_NE(pattern_fingerprint(D), pattern_fingerprint(L));
}

}  // namespace
}  // namespace kelp::wrap_crs_test
