// sort_rows (insertion, bitonic and heapsort paths) and transpose / conjugate transpose against
// the sequential references of test/support/sparse_reference.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "kelp/kernels/sparse/sort_rows.hpp"
#include "kelp/kernels/sparse/transpose.hpp"
#include "test/support/expect.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/sparse_reference.hpp"

namespace kelp::sort_rows_test {
namespace {

using Complex = Kokkos::complex<double>;

/// Rows of the given lengths with shuffled distinct columns and value = column + 0.5 (so the
/// sort's value permutation can be checked), in a matrix of `num_cols` columns.
template <class Scalar>
CrsMatrix<Scalar> shuffled_rows(const std::vector<int>& lengths, int num_cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<long long> row_map{0};
  std::vector<int> entries;
  std::vector<Scalar> values;
  std::vector<int> columns(num_cols);
  for (int length : lengths) {
    std::iota(columns.begin(), columns.end(), 0);
    std::shuffle(columns.begin(), columns.end(), rng);
    for (int t = 0; t < length; ++t) {
      entries.push_back(columns[t]);
      values.push_back(Scalar(columns[t] + 0.5));
    }
    row_map.push_back(static_cast<long long>(entries.size()));
  }
  return test::crs_from_arrays<Scalar>(static_cast<int>(lengths.size()), num_cols, row_map, entries, values);
}

template <class Scalar>
void check_sorted(const CrsMatrix<Scalar>& A, const CrsMatrix<Scalar>& original) {
  const auto h = test::to_host_crs(A);
  const auto o = test::to_host_crs(original);
  ASSERT_EQ(h.row_map, o.row_map);
  for (int i = 0; i < h.num_rows; ++i) {
    std::vector<int> expected(o.entries.begin() + o.row_map[i], o.entries.begin() + o.row_map[i + 1]);
    std::sort(expected.begin(), expected.end());
    for (long long k = h.row_map[i]; k < h.row_map[i + 1]; ++k) {
      ASSERT_EQ(h.entries[k], expected[k - h.row_map[i]]) << "row " << i;
      ASSERT_EQ(h.values[k], Scalar(h.entries[k] + 0.5)) << "row " << i;
    }
  }
}

TEST(SortRows, SortsShortBitonicAndLongRowsWithValues) {
  // 0 and 1 entries, insertion (<= 16), bitonic (17..1024, odd and power-of-two), heapsort (> 1024).
  const std::vector<int> lengths{0, 1, 2, 16, 17, 100, 512, 1000, 1024, 1025, 3000, 0, 5};
  for (unsigned seed : {1u, 2u}) {
    auto A = shuffled_rows<double>(lengths, 3001, seed);
    auto original = shuffled_rows<double>(lengths, 3001, seed);

    kernels::sort_rows(A);

    check_sorted(A, original);
    EXPECT_TRUE(kernels::rows_sorted_unique(A));
  }
}

TEST(SortRows, SortsComplexValuesAndKeepsDuplicatesAdjacent) {
  auto A = test::crs_from_arrays<Complex>(2, 5, {0, 5, 5}, {4, 1, 3, 1, 0},
                                          {Complex(4, 1), Complex(1, 1), Complex(3, 1), Complex(1, 1), Complex(0, 1)});

  kernels::sort_rows(A);

  const auto h = test::to_host_crs(A);
  EXPECT_EQ(h.entries, (std::vector<int>{0, 1, 1, 3, 4}));
  for (int k = 0; k < 5; ++k) EXPECT_EQ(h.values[k], Complex(h.entries[k], 1));
  EXPECT_FALSE(kernels::rows_sorted_unique(A));
}

TEST(SortRows, EmptyMatrices) {
  auto A = test::crs_from_arrays<double>(0, 0, {0}, {}, {});
  auto B = test::crs_from_arrays<double>(3, 0, {0, 0, 0, 0}, {}, {});

  kernels::sort_rows(A);
  kernels::sort_rows(B);

  EXPECT_TRUE(kernels::rows_sorted_unique(B));
}

template <class Scalar>
void check_transpose(const CrsMatrix<Scalar>& A, const std::string& what) {
  for (bool conjugate : {false, true}) {
    auto T = kernels::transpose(A, conjugate);
    test::expect_crs_near(T, test::reference_transpose(test::to_host_crs(A), conjugate), 0.0,
                          what + (conjugate ? " conjugate" : ""));
  }
}

TEST(Transpose, MatchesReferenceOnRectangularMatricesWithEmptyAndLongRows) {
  check_transpose(test::random_crs<double>(157, 1100, 4, 7, 3, 11), "double 157 x 1100");
  check_transpose(test::random_crs<Complex>(1100, 157, 4, 5, 2, 12), "complex 1100 x 157");
  check_transpose(test::random_crs<float>(33, 2, 1, 3, 1, 13), "float 33 x 2");
}

TEST(Transpose, EmptyAndOneByOne) {
  check_transpose(test::crs_from_arrays<double>(0, 0, {0}, {}, {}), "0 x 0");
  check_transpose(test::crs_from_arrays<double>(0, 4, {0}, {}, {}), "0 x 4");
  check_transpose(test::crs_from_arrays<double>(3, 0, {0, 0, 0, 0}, {}, {}), "3 x 0");
  check_transpose(test::crs_from_arrays<Complex>(1, 1, {0, 1}, {0}, {Complex(2, -3)}), "1 x 1");
}

TEST(Transpose, ConjugatesComplexValues) {
  auto A = test::crs_from_arrays<Complex>(1, 2, {0, 2}, {1, 0}, {Complex(1, 2), Complex(3, -4)});

  auto T = kernels::transpose(A, true);

  const auto h = test::to_host_crs(T);
  EXPECT_EQ(h.row_map, (std::vector<long long>{0, 1, 2}));
  EXPECT_EQ(h.values, (std::vector<Complex>{Complex(3, 4), Complex(1, -2)}));
}

}  // namespace
}  // namespace kelp::sort_rows_test
