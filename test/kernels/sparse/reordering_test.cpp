// kernels::symmetric_permute (P A P^T) against a dense reference, and kernels::locality_order:
// a permutation, and on a randomly renumbered chain it puts neighbours close again.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/graph/locality_order.hpp"
#include "kelp/kernels/sparse/symmetric_permute.hpp"
#include "test/support/expect.hpp"

namespace kelp::reordering_test {
namespace {

using Complex = Kokkos::complex<double>;

/// n x n with random entries (about `per_row` a row), some rows empty, one long row.
CrsMatrix<Complex> random_matrix(int n, int per_row, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> col(0, n - 1);
  std::uniform_real_distribution<double> val(-1, 1);
  std::vector<Ordinal> rows, cols;
  std::vector<Complex> vals;
  for (int i = 0; i < n; ++i) {
    if (i % 5 == 3) continue;  // empty rows
    const int count = i == 1 ? n : per_row;  // row 1 is full
    for (int k = 0; k < count; ++k) {
      rows.push_back(i);
      cols.push_back(i == 1 ? k : col(g));
      vals.push_back(Complex(val(g), val(g)));
    }
  }
  return crs_from_coo<Complex>(n, n, rows, cols, vals);
}

std::vector<std::vector<Complex>> dense_of(const CrsMatrix<Complex>& A) {
  const auto h = to_host(A);
  std::vector<std::vector<Complex>> d(h.num_rows(), std::vector<Complex>(h.num_cols(), Complex(0)));
  for (Ordinal i = 0; i < h.num_rows(); ++i) {
    for (auto k = h.row_map()(i); k < h.row_map()(i + 1); ++k) d[i][h.entries()(k)] += h.values()(k);
  }
  return d;
}

std::vector<std::int64_t> random_permutation(std::int64_t n, unsigned seed) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), std::mt19937(seed));
  return p;
}

void expect_permutation(const std::vector<std::int64_t>& p, std::int64_t n) {
  ASSERT_EQ(static_cast<std::int64_t>(p.size()), n);
  std::vector<std::int64_t> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(sorted[static_cast<std::size_t>(i)], i);
}

TEST(SymmetricPermute, MatchesTheDensePermutedMatrixWithSortedRows) {
  for (int n : {1, 7, 64}) {
    const auto A = random_matrix(n, 4, 11u + n);
    const auto old_of_new = random_permutation(n, 5u + n);
    const auto B = kernels::symmetric_permute(A, old_of_new);
    ASSERT_EQ(B.num_rows(), n);
    ASSERT_EQ(B.nnz(), A.nnz());
    const auto a = dense_of(A), b = dense_of(B);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        EXPECT_EQ(b[i][j], a[old_of_new[i]][old_of_new[j]]) << "n " << n << " (" << i << ", " << j << ")";
      }
    }
    const auto h = to_host(B);
    for (Ordinal i = 0; i < n; ++i) {
      for (auto k = h.row_map()(i) + 1; k < h.row_map()(i + 1); ++k) {
        EXPECT_LE(h.entries()(k - 1), h.entries()(k)) << "row " << i << " not sorted";
      }
    }
  }
}

TEST(SymmetricPermute, RejectsWhatIsNotAPermutationOrNotSquare) {
  const auto A = random_matrix(6, 2, 3);
  test::expect_throw_containing<DimensionMismatch>(
      [&] { kernels::symmetric_permute(A, std::vector<std::int64_t>{0, 1, 2}); }, "the permutation has 3 entries");
  test::expect_throw_containing<InvalidArgument>(
      [&] { kernels::symmetric_permute(A, std::vector<std::int64_t>{0, 1, 2, 3, 4, 4}); }, "entry 5 of the permutation is 4");
  test::expect_throw_containing<InvalidArgument>(
      [&] { kernels::symmetric_permute(A, std::vector<std::int64_t>{0, 1, 2, 3, 4, 6}); }, "outside [0, n)");
  const auto R = crs_from_coo<Complex>(2, 3, {0}, {2}, {Complex(1)});
  test::expect_throw_containing<DimensionMismatch>(
      [&] { kernels::symmetric_permute(R, std::vector<std::int64_t>{0, 1}); }, "expected square");
}

/// A chain 0 - 1 - ... - n-1 renumbered at random: its neighbours lie anywhere. The locality order
/// grows parts along the chain, so most neighbours end up in one part (< part_rows apart).
TEST(LocalityOrder, PutsTheNeighboursOfAShuffledChainClose) {
  const int n = 1000;
  const std::int64_t part_rows = 20;
  const auto label = random_permutation(n, 17);  // chain vertex v is row label[v]
  std::vector<Ordinal> rows, cols;
  std::vector<Complex> vals;
  for (int v = 0; v + 1 < n; ++v) {
    rows.push_back(static_cast<Ordinal>(label[v]));
    cols.push_back(static_cast<Ordinal>(label[v + 1]));
    vals.push_back(Complex(1));
  }
  rows.push_back(0), cols.push_back(0), vals.push_back(Complex(2));  // a diagonal entry is ignored
  const auto A = to_host(crs_from_coo<Complex>(n, n, rows, cols, vals));  // one direction only
  const auto old_of_new = kernels::locality_order(n, A.row_map(), A.entries(), part_rows);
  expect_permutation(old_of_new, n);
  std::vector<std::int64_t> new_of_old(n);
  for (int i = 0; i < n; ++i) new_of_old[old_of_new[i]] = i;
  int close_before = 0, close_after = 0;
  for (int v = 0; v + 1 < n; ++v) {
    close_before += std::abs(label[v] - label[v + 1]) < part_rows;
    close_after += std::abs(new_of_old[label[v]] - new_of_old[label[v + 1]]) < part_rows;
  }
  EXPECT_LT(close_before, n / 10);
  EXPECT_GT(close_after, 9 * n / 10) << "of " << n - 1 << " chain edges";
}

TEST(LocalityOrder, IsAPermutationWithIsolatedRowsEmptyRowsAndAnyPartSize) {
  const auto A = to_host(random_matrix(97, 3, 23));
  for (std::int64_t part_rows : {1, 2, 10, 97, 1000}) {
    const auto order = kernels::locality_order(97, A.row_map(), A.entries(), part_rows);
    expect_permutation(order, 97);
    if (part_rows == 1) {  // every part is its seed, the lowest row not yet placed
      for (int i = 0; i < 97; ++i) EXPECT_EQ(order[i], i);
    }
  }
  const auto none = kernels::locality_order(0, A.row_map(), A.entries(), 4);
  EXPECT_TRUE(none.empty());
  test::expect_throw_containing<InvalidArgument>(
      [&] { kernels::locality_order(97, A.row_map(), A.entries(), 0); }, "part_rows = 0");
  test::expect_throw_containing<InvalidArgument>(
      [&] { kernels::locality_order(50, A.row_map(), A.entries(), 4); }, "outside [0, 50)");
}

}  // namespace
}  // namespace kelp::reordering_test
