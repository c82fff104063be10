#pragma once
// Sequential reference implementations the kernel tests compare against. Deliberately naive:
// dense-index loops over host CRS data, no Kokkos parallelism.
#include <vector>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/spmv/spmv_handle.hpp"

namespace kelp::test {

/// Host CRS copy as plain vectors.
template <class Scalar>
struct HostCrs {
  int num_rows = 0;
  int num_cols = 0;
  std::vector<long long> row_map;
  std::vector<int> entries;
  std::vector<Scalar> values;
};

template <class Matrix>
HostCrs<typename Matrix::scalar_type> to_host_crs(const Matrix& A) {
  auto h = kelp::to_host(A);
  HostCrs<typename Matrix::scalar_type> out;
  out.num_rows = h.num_rows();
  out.num_cols = h.num_cols();
  out.row_map.assign(h.row_map().data(), h.row_map().data() + h.num_rows() + 1);
  out.entries.assign(h.entries().data(), h.entries().data() + h.nnz());
  out.values.assign(h.values().data(), h.values().data() + h.nnz());
  return out;
}

/// y = beta*y + alpha*op(A)*x for one column, sequentially. y with beta == 0 is overwritten.
template <class Scalar>
std::vector<Scalar> reference_spmv(kernels::SpmvMode mode, Scalar alpha, const HostCrs<Scalar>& A,
                                   const std::vector<Scalar>& x, Scalar beta,
                                   const std::vector<Scalar>& y_in) {
  using T = ScalarTraits<Scalar>;
  const bool transposed = mode == kernels::SpmvMode::transpose ||
                          mode == kernels::SpmvMode::conjugate_transpose;
  const bool conj = mode == kernels::SpmvMode::conjugate ||
                    mode == kernels::SpmvMode::conjugate_transpose;
  std::vector<Scalar> acc(transposed ? A.num_cols : A.num_rows, Scalar(0));
  for (int i = 0; i < A.num_rows; ++i) {
    for (long long k = A.row_map[i]; k < A.row_map[i + 1]; ++k) {
      const Scalar a = conj ? T::conj(A.values[k]) : A.values[k];
      if (transposed) {
        acc[A.entries[k]] += a * x[i];
      } else {
        acc[i] += a * x[A.entries[k]];
      }
    }
  }
  std::vector<Scalar> y(acc.size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    y[i] = (beta == Scalar(0) ? Scalar(0) : beta * y_in[i]) + alpha * acc[i];
  }
  return y;
}

}  // namespace kelp::test
