#pragma once
// Sequential references for the sparse kernels (SpGEMM, Jacobi-fused SpGEMM, SpAdd, transpose,
// row sorting): row-by-row loops over host CRS copies with an ordered map per row, so they share
// nothing with the kernels (no hashing, no dense accumulators, no sorting networks). Patterns are
// structural: entries that cancel stay, as in the kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "kelp/kernels/core/scalar_traits.hpp"
#include "test/support/reference.hpp"

namespace kelp::test {

template <class Scalar>
HostCrs<Scalar> host_crs_from_rows(int num_rows, int num_cols,
                                   const std::vector<std::map<int, Scalar>>& rows) {
  HostCrs<Scalar> out;
  out.num_rows = num_rows;
  out.num_cols = num_cols;
  out.row_map.push_back(0);
  for (const auto& row : rows) {
    for (const auto& [col, value] : row) {
      out.entries.push_back(col);
      out.values.push_back(value);
    }
    out.row_map.push_back(static_cast<long long>(out.entries.size()));
  }
  return out;
}

/// Rows of A as ordered maps (duplicates summed).
template <class Scalar>
std::vector<std::map<int, Scalar>> rows_of(const HostCrs<Scalar>& A) {
  std::vector<std::map<int, Scalar>> rows(A.num_rows);
  for (int i = 0; i < A.num_rows; ++i) {
    for (long long k = A.row_map[i]; k < A.row_map[i + 1]; ++k) {
      auto it = rows[i].find(A.entries[k]);
      if (it == rows[i].end()) {
        rows[i].emplace(A.entries[k], A.values[k]);
      } else {
        it->second += A.values[k];
      }
    }
  }
  return rows;
}

/// C = gamma_i B_i + delta_i sum_k A(i,k) B_k row by row (the form of both products).
template <class Scalar>
HostCrs<Scalar> reference_row_combination(const HostCrs<Scalar>& A, const HostCrs<Scalar>& B,
                                          bool with_identity, const std::vector<Scalar>& delta) {
  std::vector<std::map<int, Scalar>> rows(A.num_rows);
  for (int i = 0; i < A.num_rows; ++i) {
    auto add_row = [&](int r, Scalar factor) {
      for (long long p = B.row_map[r]; p < B.row_map[r + 1]; ++p) {
        rows[i][B.entries[p]] += factor * B.values[p];  // map's default value is Scalar(0)
      }
    };
    if (with_identity) add_row(i, Scalar(1));
    for (long long k = A.row_map[i]; k < A.row_map[i + 1]; ++k) {
      add_row(A.entries[k], (with_identity ? delta[i] : Scalar(1)) * A.values[k]);
    }
  }
  return host_crs_from_rows(A.num_rows, B.num_cols, rows);
}

template <class Scalar>
HostCrs<Scalar> reference_spgemm(const HostCrs<Scalar>& A, const HostCrs<Scalar>& B) {
  return reference_row_combination(A, B, false, {});
}

/// (I - omega D^{-1} A) P.
template <class Scalar>
HostCrs<Scalar> reference_jacobi_spgemm(Scalar omega, const HostCrs<Scalar>& A,
                                        const HostCrs<Scalar>& P) {
  std::vector<Scalar> delta(A.num_rows);
  const auto rows = rows_of(A);
  for (int i = 0; i < A.num_rows; ++i) {
    const auto it = rows[i].find(i);
    delta[i] = -omega / it->second;
  }
  return reference_row_combination(A, P, true, delta);
}

template <class Scalar>
HostCrs<Scalar> reference_spadd(Scalar alpha, const HostCrs<Scalar>& A, Scalar beta,
                                const HostCrs<Scalar>& B) {
  std::vector<std::map<int, Scalar>> rows(A.num_rows);
  for (int i = 0; i < A.num_rows; ++i) {
    for (long long k = A.row_map[i]; k < A.row_map[i + 1]; ++k) rows[i][A.entries[k]] += alpha * A.values[k];
    for (long long k = B.row_map[i]; k < B.row_map[i + 1]; ++k) rows[i][B.entries[k]] += beta * B.values[k];
  }
  return host_crs_from_rows(A.num_rows, A.num_cols, rows);
}

/// A^T (A^H when conjugate), duplicates summed.
template <class Scalar>
HostCrs<Scalar> reference_transpose(const HostCrs<Scalar>& A, bool conjugate) {
  std::vector<std::map<int, Scalar>> rows(A.num_cols);
  for (int i = 0; i < A.num_rows; ++i) {
    for (long long k = A.row_map[i]; k < A.row_map[i + 1]; ++k) {
      rows[A.entries[k]][i] += conjugate ? ScalarTraits<Scalar>::conj(A.values[k]) : A.values[k];
    }
  }
  return host_crs_from_rows(A.num_cols, A.num_rows, rows);
}

/// Expects the same pattern (row_map and entries exactly) and values within
/// tol * (largest |value| of the row, at least 1).
template <class Matrix>
void expect_crs_near(const Matrix& actual, const HostCrs<typename Matrix::scalar_type>& expected,
                     double tol, const std::string& what) {
  using Scalar = typename Matrix::scalar_type;
  const auto A = to_host_crs(actual);
  ASSERT_EQ(A.num_rows, expected.num_rows) << what;
  ASSERT_EQ(A.num_cols, expected.num_cols) << what;
  ASSERT_EQ(A.row_map, expected.row_map) << what;
  ASSERT_EQ(A.entries, expected.entries) << what;
  for (int i = 0; i < A.num_rows; ++i) {
    double scale = 1;
    for (long long k = expected.row_map[i]; k < expected.row_map[i + 1]; ++k) {
      scale = std::max(scale, static_cast<double>(ScalarTraits<Scalar>::abs(expected.values[k])));
    }
    for (long long k = A.row_map[i]; k < A.row_map[i + 1]; ++k) {
      const double error = static_cast<double>(ScalarTraits<Scalar>::abs(A.values[k] - expected.values[k]));
      ASSERT_LE(error, tol * scale) << what << ": row " << i << " column " << A.entries[k];
    }
  }
}

}  // namespace kelp::test

namespace kelp::test {

/// A CrsMatrix holding exactly the given arrays (unsorted rows and duplicates stay as given),
/// for inputs that crs_from_coo would normalise.
template <class Scalar>
CrsMatrix<Scalar> crs_from_arrays(int num_rows, int num_cols, const std::vector<long long>& row_map,
                                  const std::vector<int>& entries, const std::vector<Scalar>& values) {
  typename CrsMatrix<Scalar>::row_map_type r("kelp::test::row_map", row_map.size());
  typename CrsMatrix<Scalar>::entries_type e("kelp::test::entries", entries.size());
  typename CrsMatrix<Scalar>::values_type v("kelp::test::values", values.size());
  auto hr = Kokkos::create_mirror_view(r);
  auto he = Kokkos::create_mirror_view(e);
  auto hv = Kokkos::create_mirror_view(v);
  for (std::size_t k = 0; k < row_map.size(); ++k) hr(k) = row_map[k];
  for (std::size_t k = 0; k < entries.size(); ++k) he(k) = entries[k];
  for (std::size_t k = 0; k < values.size(); ++k) hv(k) = values[k];
  Kokkos::deep_copy(r, hr);
  Kokkos::deep_copy(e, he);
  Kokkos::deep_copy(v, hv);
  return CrsMatrix<Scalar>(num_rows, num_cols, r, e, v);
}

/// Replaces A's values (same pattern) by f(k, old value), on the host.
template <class Matrix, class F>
void update_values(const Matrix& A, F f) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values());
  for (std::size_t k = 0; k < h.extent(0); ++k) h(k) = f(k, h(k));
  Kokkos::deep_copy(A.values(), h);
}

}  // namespace kelp::test
