#pragma once
// Small dense helpers: CRS from a dense table, device (multi-)vectors from host values and back,
// dense copies of small CRS matrices.
#include <initializer_list>
#include <vector>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "test/support/reference.hpp"

namespace kelp::test {

/// CRS matrix holding the nonzeros of a dense row-major table.
template <class Scalar>
CrsMatrix<Scalar> crs_from_dense(std::initializer_list<std::initializer_list<double>> rows_in) {
  std::vector<Ordinal> rows, cols;
  std::vector<Scalar> values;
  int i = 0, num_cols = 0;
  for (const auto& row : rows_in) {
    int j = 0;
    for (double v : row) {
      if (v != 0) {
        rows.push_back(i);
        cols.push_back(j);
        values.push_back(Scalar(v));
      }
      ++j;
    }
    num_cols = std::max(num_cols, j);
    ++i;
  }
  return crs_from_coo<Scalar>(i, num_cols, rows, cols, values);
}

/// Device vector with the given entries.
template <class Scalar>
VectorView<Scalar> vector_from(const std::vector<Scalar>& entries) {
  VectorView<Scalar> v("kelp::test::vector", entries.size());
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < entries.size(); ++i) h(i) = entries[i];
  Kokkos::deep_copy(v, h);
  return v;
}

/// Device multi-vector (n x k, in Layout) with the given entries, stored column-major:
/// entry (i, j) is column_major[i + j * n].
template <class Scalar, class Layout = Kokkos::LayoutLeft>
MultiVectorView<Scalar, Layout> multivector_from(const std::vector<Scalar>& column_major,
                                                 std::size_t n, std::size_t k) {
  MultiVectorView<Scalar, Layout> v("kelp::test::multivector", n, k);
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t j = 0; j < k; ++j)
    for (std::size_t i = 0; i < n; ++i) h(i, j) = column_major[i + j * n];
  Kokkos::deep_copy(v, h);
  return v;
}

/// Host copy of a device vector as std::vector.
template <class View>
std::vector<typename View::non_const_value_type> to_std(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

/// Dense copy of a (small) CRS matrix, row-major.
template <class Matrix>
std::vector<std::vector<typename Matrix::scalar_type>> to_dense(const Matrix& A) {
  const auto h = to_host_crs(A);
  std::vector<std::vector<typename Matrix::scalar_type>> d(h.num_rows,
      std::vector<typename Matrix::scalar_type>(h.num_cols));
  for (int i = 0; i < h.num_rows; ++i)
    for (long long k = h.row_map[i]; k < h.row_map[i + 1]; ++k) d[i][h.entries[k]] += h.values[k];
  return d;
}

}  // namespace kelp::test
