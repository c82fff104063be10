#pragma once
// Random vectors, and generated test matrices with the shapes that break kernels: empty rows, very long rows,
// odd sizes, rectangular shapes.
#include <random>
#include <vector>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::test {

template <class Scalar>
Scalar random_scalar(std::mt19937& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  if constexpr (ScalarTraits<Scalar>::is_complex) {
    const double re = dist(rng);
    return Scalar(re, dist(rng));
  } else {
    return static_cast<Scalar>(dist(rng));
  }
}

/// n random scalars (components uniform in [-1, 1]) from the given seed.
template <class Scalar>
std::vector<Scalar> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Scalar> v(n);
  for (auto& x : v) x = random_scalar<Scalar>(rng);
  return v;
}

/// Random num_rows x num_cols matrix: about `mean_row_nnz` entries per row, every `empty_every`-th
/// row empty (0 = none), and `num_long_rows` rows that are dense across all columns.
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> random_crs(int num_rows, int num_cols, int mean_row_nnz,
                                                      int empty_every, int num_long_rows,
                                                      unsigned seed = 12345) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> col_dist(0, num_cols > 0 ? num_cols - 1 : 0);
  std::uniform_int_distribution<int> len_dist(0, 2 * mean_row_nnz);
  std::vector<Ordinal> rows, cols;
  std::vector<Scalar> values;
  for (int i = 0; i < num_rows; ++i) {
    const bool empty = empty_every > 0 && i % empty_every == 0;
    const bool long_row = num_long_rows > 0 && i % (num_rows / num_long_rows + 1) == 1;
    if (empty || num_cols == 0) continue;
    const int length = long_row ? num_cols : len_dist(rng);
    for (int t = 0; t < length; ++t) {
      rows.push_back(i);
      cols.push_back(long_row ? t : col_dist(rng));
      values.push_back(random_scalar<Scalar>(rng));
    }
  }
  return crs_from_coo<Scalar, Ordinal, Offset, Device>(num_rows, num_cols, rows, cols, values);
}

}  // namespace kelp::test
