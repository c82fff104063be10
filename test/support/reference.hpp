#pragma once
// Sequential reference implementations the kernel tests compare against. Deliberately naive:
// dense-index loops over host CRS data, no Kokkos parallelism.
#include <vector>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/spmv/spmv_handle.hpp"
#include "test/support/spmv_bound.hpp"

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

/// A matrix as host triplets in double precision (complex<double> values), duplicates allowed
/// (they add up): the common input of the COO reference below.
struct HostCoo {
  long long num_rows = 0;
  long long num_cols = 0;
  std::vector<long long> rows;
  std::vector<long long> cols;
  std::vector<Kokkos::complex<double>> values;
};

template <class Scalar>
HostCoo to_host_coo(const HostCrs<Scalar>& A) {
  HostCoo coo;
  coo.num_rows = A.num_rows;
  coo.num_cols = A.num_cols;
  for (int i = 0; i < A.num_rows; ++i) {
    for (long long k = A.row_map[i]; k < A.row_map[i + 1]; ++k) {
      coo.rows.push_back(i);
      coo.cols.push_back(A.entries[k]);
      coo.values.push_back(to_complex_double(A.values[k]));
    }
  }
  return coo;
}

/// y = beta*y0 + alpha*op(A)*x for one column, sequentially over the triplets in double
/// precision, with the magnitudes and term counts of the rigorous bound (see spmv_bound.hpp).
/// y0 is not read when beta == 0 (it may be NaN or empty).
inline ReferenceProduct reference_product(kernels::SpmvMode mode, Kokkos::complex<double> alpha,
                                          const HostCoo& A,
                                          const std::vector<Kokkos::complex<double>>& x,
                                          Kokkos::complex<double> beta,
                                          const std::vector<Kokkos::complex<double>>& y0) {
  const bool transposed = mode == kernels::SpmvMode::transpose ||
                          mode == kernels::SpmvMode::conjugate_transpose;
  const bool conj = mode == kernels::SpmvMode::conjugate ||
                    mode == kernels::SpmvMode::conjugate_transpose;
  const long long n_out = transposed ? A.num_cols : A.num_rows;
  ReferenceProduct ref;
  ref.resize(static_cast<std::size_t>(n_out));
  std::vector<Kokkos::complex<double>> acc(static_cast<std::size_t>(n_out));
  for (std::size_t t = 0; t < A.values.size(); ++t) {
    const auto a = conj ? Kokkos::conj(A.values[t]) : A.values[t];
    const long long out = transposed ? A.cols[t] : A.rows[t];
    const long long in = transposed ? A.rows[t] : A.cols[t];
    acc[out] += a * x[in];
    ref.magnitude[out] += Kokkos::abs(a) * Kokkos::abs(x[in]);
    ++ref.terms[out];
  }
  const bool beta_zero = beta == Kokkos::complex<double>(0, 0);
  for (long long i = 0; i < n_out; ++i) {
    ref.value[i] = alpha * acc[i] + (beta_zero ? Kokkos::complex<double>(0, 0) : beta * y0[i]);
    ref.magnitude[i] = Kokkos::abs(alpha) * ref.magnitude[i] +
                       (beta_zero ? 0.0 : Kokkos::abs(beta) * Kokkos::abs(y0[i]));
  }
  return ref;
}

/// reference_product for Scalar inputs (converted exactly to complex<double>).
template <class Scalar>
ReferenceProduct reference_product(kernels::SpmvMode mode, Scalar alpha, const HostCoo& A,
                                   const std::vector<Scalar>& x, Scalar beta,
                                   const std::vector<Scalar>& y0) {
  std::vector<Kokkos::complex<double>> xd(x.size()), y0d(y0.size());
  for (std::size_t i = 0; i < x.size(); ++i) xd[i] = to_complex_double(x[i]);
  if (beta != Scalar(0)) {
    for (std::size_t i = 0; i < y0.size(); ++i) y0d[i] = to_complex_double(y0[i]);
  }
  return reference_product(mode, to_complex_double(alpha), A, xd, to_complex_double(beta), y0d);
}

}  // namespace kelp::test
