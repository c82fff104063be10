#pragma once
// Checks for any kelp::Operator: a block apply against k single applies from the same inputs,
// and a dense sequential reference of y = alpha op(A) x + beta y in complex<double>.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "kelp/kernels/core/operator.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/spmv_bound.hpp"

namespace kelp::test {

/// Tolerance for comparing results of a few dozen products computed in Scalar.
template <class Scalar>
double operator_tolerance() {
  return std::is_same<typename ScalarTraits<Scalar>::magnitude_type, float>::value ? 1e-4 : 1e-12;
}

/// Real Scalar: re; complex Scalar: re + i im (so that a conjugation that should not happen shows).
template <class Scalar>
Scalar coefficient(double re, double im) {
  if constexpr (ScalarTraits<Scalar>::is_complex) {
    return Scalar(re, im);
  } else {
    return static_cast<Scalar>(re);
  }
}

/// Column-major host copy of a device block.
template <class View>
std::vector<typename View::non_const_value_type> block_to_std(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  std::vector<typename View::non_const_value_type> out(v.extent(0) * v.extent(1));
  for (std::size_t j = 0; j < v.extent(1); ++j)
    for (std::size_t i = 0; i < v.extent(0); ++i) out[i + j * v.extent(0)] = h(i, j);
  return out;
}

/// Inputs and results of one block apply and of the k single applies of its columns.
template <class Scalar>
struct BlockApplyRun {
  int n_in = 0, n_out = 0, k = 0;
  std::vector<Scalar> x, y0;      // column-major inputs (y0 is NaN when beta = 0)
  std::vector<Scalar> block;      // Y after op.apply(X, Y, alpha, beta, mode)
  std::vector<Scalar> singles;    // column j: op.apply(x_j, y_j, alpha, beta, mode)
};

/// Runs op on a random n_in x k block X (Y random, or NaN-poisoned when beta = 0) and on each of
/// its columns as a separate vector, from the same inputs.
template <class Scalar, class Device>
BlockApplyRun<Scalar> run_block_and_singles(const Operator<Scalar, Device>& op, OperatorMode mode,
                                            int k, Scalar alpha, Scalar beta, unsigned seed) {
  BlockApplyRun<Scalar> run;
  run.k = k;
  run.n_in = is_transposed(mode) ? op.num_rows() : op.num_cols();
  run.n_out = is_transposed(mode) ? op.num_cols() : op.num_rows();
  run.x = random_vector<Scalar>(static_cast<std::size_t>(run.n_in) * k, seed);
  run.y0 = random_vector<Scalar>(static_cast<std::size_t>(run.n_out) * k, seed + 1);
  if (beta == Scalar(0)) run.y0.assign(run.y0.size(), nan_scalar<Scalar>());  // must not be read
  MultiVectorView<Scalar, Kokkos::LayoutLeft, Device> X("X", run.n_in, k), Y("Y", run.n_out, k);
  // create_mirror, not create_mirror_view: the host inputs must survive the block apply.
  auto Xh = Kokkos::create_mirror(X);
  auto Yh = Kokkos::create_mirror(Y);
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < run.n_in; ++i) Xh(i, j) = run.x[i + j * run.n_in];
    for (int i = 0; i < run.n_out; ++i) Yh(i, j) = run.y0[i + j * run.n_out];
  }
  Kokkos::deep_copy(X, Xh);
  Kokkos::deep_copy(Y, Yh);

  op.apply(X, Y, alpha, beta, mode);
  run.block = block_to_std(Y);

  run.singles.resize(run.y0.size());
  for (int j = 0; j < k; ++j) {
    VectorView<Scalar, Device> x("x", run.n_in), y("y", run.n_out);
    Kokkos::deep_copy(x, Kokkos::subview(Xh, Kokkos::ALL, j));
    Kokkos::deep_copy(y, Kokkos::subview(Yh, Kokkos::ALL, j));
    op.apply(x, y, alpha, beta, mode);
    auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    for (int i = 0; i < run.n_out; ++i) run.singles[i + j * run.n_out] = yh(i);
  }
  return run;
}

/// alpha op(D) X + beta Y0 for a dense row-major D, column-major X (n_in x k) and Y0, in
/// complex<double>, sequentially; Y0 is not read when beta = 0.
template <class Scalar>
std::vector<Scalar> dense_apply(const std::vector<std::vector<Scalar>>& D, OperatorMode mode,
                                Scalar alpha, const std::vector<Scalar>& x, int k, Scalar beta,
                                const std::vector<Scalar>& y0) {
  const int rows = static_cast<int>(D.size());
  const int cols = rows == 0 ? 0 : static_cast<int>(D[0].size());
  const bool transposed = is_transposed(mode);
  const bool conj = mode == OperatorMode::conjugate_transpose;
  const int n_in = transposed ? rows : cols, n_out = transposed ? cols : rows;
  std::vector<Scalar> y(static_cast<std::size_t>(n_out) * k);
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < n_out; ++i) {
      Kokkos::complex<double> sum(0, 0);
      for (int l = 0; l < n_in; ++l) {
        Kokkos::complex<double> a = to_complex_double(transposed ? D[l][i] : D[i][l]);
        if (conj) a = Kokkos::conj(a);
        sum += a * to_complex_double(x[l + j * n_in]);
      }
      Kokkos::complex<double> value = to_complex_double(alpha) * sum;
      if (beta != Scalar(0)) value += to_complex_double(beta) * to_complex_double(y0[i + j * n_out]);
      if constexpr (ScalarTraits<Scalar>::is_complex) {
        y[i + j * n_out] = Scalar(value.real(), value.imag());
      } else {
        y[i + j * n_out] = static_cast<Scalar>(value.real());
      }
    }
  }
  return y;
}

/// Every entry finite and |actual - expected| <= tol (1 + |expected|).
template <class Scalar>
::testing::AssertionResult all_close(const std::vector<Scalar>& actual,
                                     const std::vector<Scalar>& expected, double tol) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << actual.size() << " entries, expected " << expected.size();
  std::ostringstream first;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const auto a = to_complex_double(actual[i]), e = to_complex_double(expected[i]);
    if (!(Kokkos::abs(a - e) <= tol * (1 + Kokkos::abs(e)))) {  // NaN compares false
      if (++bad <= 5) first << "\n  entry " << i << ": " << a << ", expected " << e;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << actual.size() << " entries differ"
                                       << first.str();
}

}  // namespace kelp::test
