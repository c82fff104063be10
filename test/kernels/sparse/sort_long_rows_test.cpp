// The device-wide sort of rows longer than a team sorts (impl/sort_long_rows.hpp), through
// sort_rows (automatic choice) and with each algorithm forced (the GPU's global bitonic network
// runs on the host too), and the plain-array sort_keys_values; against std::sort per row.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <utility>

#include "kelp/kernels/sparse/sort_keys_values.hpp"
#include "kelp/kernels/sparse/sort_rows.hpp"
#include "test/support/sparse_reference.hpp"

namespace kelp::sort_long_rows_test {
namespace {

using Complex = Kokkos::complex<double>;
using kernels::impl::LongRowSort;

enum class Order { random, reversed, equal, sorted };

/// Rows of `lengths` (empty, short, team-sized and long mixed) with keys in the given order and
/// value(k) = k (the entry's original position; imaginary part -k for complex), so that after
/// the sort value(k) names the original entry that moved to k.
template <class Scalar>
CrsMatrix<Scalar> rows_in_order(const std::vector<int>& lengths, int num_cols, Order order, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> col(0, num_cols - 1);
  std::vector<long long> row_map{0};
  std::vector<int> entries;
  std::vector<Scalar> values;
  for (int length : lengths) {
    for (int t = 0; t < length; ++t) {
      int key = 0;
      switch (order) {
        case Order::random: key = col(rng); break;  // repeats included
        case Order::reversed: key = (length - 1 - t) % num_cols; break;
        case Order::equal: key = 7; break;
        case Order::sorted: key = t % num_cols; break;
      }
      const double k = static_cast<double>(entries.size());
      entries.push_back(key);
      values.push_back(Scalar(k));
    }
    row_map.push_back(static_cast<long long>(entries.size()));
  }
  if constexpr (ScalarTraits<Scalar>::is_complex) {
    for (std::size_t k = 0; k < values.size(); ++k) values[k] = Scalar(double(k), -double(k));
  }
  return test::crs_from_arrays<Scalar>(static_cast<int>(lengths.size()), num_cols, row_map, entries, values);
}

/// Each row's keys equal std::sort of its original keys, and the values are a permutation of
/// the row's original positions that carries each key along.
template <class Scalar>
void expect_rows_sorted_with_values(const CrsMatrix<Scalar>& A, const test::HostCrs<Scalar>& original,
                                    const std::string& what) {
  const auto h = test::to_host_crs(A);
  ASSERT_EQ(h.row_map, original.row_map) << what;
  for (int i = 0; i < h.num_rows; ++i) {
    const long long begin = original.row_map[i];
    const long long end = original.row_map[i + 1];
    std::vector<int> expected(original.entries.begin() + begin, original.entries.begin() + end);
    std::sort(expected.begin(), expected.end());
    std::vector<char> seen(static_cast<std::size_t>(end - begin), 0);
    for (long long k = begin; k < end; ++k) {
      ASSERT_EQ(h.entries[k], expected[k - begin]) << what << ": row " << i << " position " << k;
      const long long from = static_cast<long long>(ScalarTraits<Scalar>::real(h.values[k]));
      ASSERT_TRUE(from >= begin && from < end) << what << ": row " << i << " value from " << from;
      ASSERT_EQ(h.values[k], original.values[from]) << what << ": row " << i;
      ASSERT_EQ(h.entries[k], original.entries[from]) << what << ": row " << i << " value moved apart";
      ASSERT_FALSE(seen[from - begin]) << what << ": row " << i << " value duplicated";
      seen[from - begin] = 1;
    }
  }
}

// Empty, short, team-sized and long rows mixed; the 10^5-entry row only where `huge` (time).
std::vector<int> row_lengths(bool huge) {
  std::vector<int> lengths{0, 3, 1025, 0, 17, 5000, 1, 1024, 0, 1500};
  if (huge) lengths.insert(lengths.begin() + 8, 100000);
  return lengths;
}

template <class Scalar>
void check_all_methods(Order order, const char* order_name, bool huge = false) {
  for (LongRowSort method :
       {LongRowSort::automatic, LongRowSort::bitonic, LongRowSort::merge, LongRowSort::heap}) {
    const std::string what = std::string(order_name) + " method " + std::to_string(static_cast<int>(method));
    auto A = rows_in_order<Scalar>(row_lengths(huge), 200000, order, 11);
    const auto original = test::to_host_crs(A);
    const Kokkos::DefaultExecutionSpace exec;
    if (method == LongRowSort::automatic) {
      kernels::sort_rows(exec, A);
    } else {
      kernels::impl::sort_crs_rows(exec, A.num_rows(), A.row_map(), A.entries(), A.values(), true, method);
    }
    expect_rows_sorted_with_values(A, original, what);
    // Only the sorted and reversed keys are distinct per row (for rows shorter than num_cols).
    EXPECT_EQ(kernels::rows_sorted_unique(A), order == Order::sorted || order == Order::reversed) << what;
  }
}

TEST(SortLongRows, RandomKeysWithRepeatsDouble) { check_all_methods<double>(Order::random, "random", true); }
TEST(SortLongRows, ReversedKeysDouble) { check_all_methods<double>(Order::reversed, "reversed"); }
TEST(SortLongRows, AllEqualKeysDouble) { check_all_methods<double>(Order::equal, "equal"); }
TEST(SortLongRows, AlreadySortedDouble) { check_all_methods<double>(Order::sorted, "sorted"); }
TEST(SortLongRows, RandomKeysComplex) { check_all_methods<Complex>(Order::random, "random complex"); }
TEST(SortLongRows, ReversedKeysComplex) { check_all_methods<Complex>(Order::reversed, "reversed complex", true); }

TEST(SortLongRows, OnlyShortRowsAndEmptyMatrix) {
  auto A = rows_in_order<double>({0, 5, 1024, 0}, 50, Order::random, 3);
  const auto original = test::to_host_crs(A);
  kernels::sort_rows(A);
  expect_rows_sorted_with_values(A, original, "short rows");
  CrsMatrix<double> empty;
  kernels::sort_rows(empty);
  EXPECT_TRUE(kernels::rows_sorted_unique(empty));
}

TEST(SortKeysValues, MatchesStdSortForEachMethod) {
  for (int n : {0, 1, 2, 3, 1000, 1025, 100003}) {
    for (LongRowSort method : {LongRowSort::automatic, LongRowSort::bitonic, LongRowSort::merge}) {
      std::mt19937 rng(static_cast<unsigned>(n));
      std::uniform_int_distribution<long long> dist(-1000, 1000);
      Kokkos::View<long long*> keys("keys", n);
      Kokkos::View<Complex*> values("values", n);
      auto hk = Kokkos::create_mirror_view(keys);
      auto hv = Kokkos::create_mirror_view(values);
      for (int k = 0; k < n; ++k) {
        hk(k) = dist(rng);
        hv(k) = Complex(k, hk(k));
      }
      std::vector<long long> expected(hk.data(), hk.data() + n);
      std::sort(expected.begin(), expected.end());
      Kokkos::deep_copy(keys, hk);
      Kokkos::deep_copy(values, hv);

      kernels::sort_keys_values(Kokkos::DefaultExecutionSpace(), keys, values, method);

      Kokkos::deep_copy(hk, keys);
      Kokkos::deep_copy(hv, values);
      std::vector<char> seen(static_cast<std::size_t>(n), 0);
      for (int k = 0; k < n; ++k) {
        ASSERT_EQ(hk(k), expected[k]) << "n " << n << " position " << k;
        ASSERT_EQ(static_cast<long long>(hv(k).imag()), hk(k)) << "n " << n << " value moved apart";
        const auto from = static_cast<std::size_t>(hv(k).real());
        ASSERT_FALSE(seen[from]) << "n " << n;
        seen[from] = 1;
      }
    }
  }
}

TEST(SortKeysValues, KeysOnlyAndLengthMismatch) {
  Kokkos::View<int*> keys("keys", 3000);
  auto hk = Kokkos::create_mirror_view(keys);
  for (int k = 0; k < 3000; ++k) hk(k) = (k * 7919) % 3001;
  Kokkos::deep_copy(keys, hk);
  kernels::sort_keys(Kokkos::DefaultExecutionSpace(), keys);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys);
  EXPECT_TRUE(std::is_sorted(h.data(), h.data() + 3000));
  Kokkos::View<double*> values("values", 2999);
  EXPECT_THROW(kernels::sort_keys_values(Kokkos::DefaultExecutionSpace(), keys, values), DimensionMismatch);
}

}  // namespace
}  // namespace kelp::sort_long_rows_test
