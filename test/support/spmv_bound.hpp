#pragma once
// The rigorous forward error bound of a sparse matrix-vector product, and one comparison helper
// that checks a computed product against a reference with it.
//
// A product entry y_i = beta*y0_i + alpha * sum_{j in row i of op(A)} a_ij x_j evaluated in
// floating point, in any summation order (row-parallel partial sums, merge-path carries,
// scattered atomic adds, FMA or not), satisfies (Higham, "Accuracy and Stability of Numerical
// Algorithms", 2nd ed., §3.1 and Lemma 3.5 for complex):
//
//   |fl(y_i) - y_i| <= gamma_{m_i + 3} * (|alpha| sum_j |a_ij| |x_j| + |beta| |y0_i|),
//   gamma_m = m u / (1 - m u),  u = eps / 2,  m_i = number of products in the row,
//
// (with a factor sqrt(2) more for complex arithmetic). The reference is evaluated in double, so
// it carries an error of the same form in double's precision. The comparison therefore allows
//
//   |computed_i - reference_i| <= c * (m_i + 4) * eps * magnitude_i,
//
// with eps the machine epsilon of the computed Scalar, c = 1 for real and c = 2 for complex
// Scalars: the kernel's and the reference's error together, rounded up. An empty row with
// beta = 0 must therefore be exactly zero, and a NaN anywhere fails.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::test {

/// A reference product with what its error bound needs, entry by entry.
struct ReferenceProduct {
  /// The product in double precision (imaginary part 0 for real Scalars).
  std::vector<Kokkos::complex<double>> value;
  /// |alpha| sum_j |a_ij| |x_j| + |beta| |y0_i| (the beta term only when beta != 0).
  std::vector<double> magnitude;
  /// Number of products summed into entry i: the row length of op(A) (duplicates counted).
  std::vector<long long> terms;

  std::size_t size() const { return value.size(); }
  void resize(std::size_t n) {
    value.assign(n, Kokkos::complex<double>(0, 0));
    magnitude.assign(n, 0.0);
    terms.assign(n, 0);
  }
};

/// Scalar as complex<double> (exact: every Scalar's components are doubles or floats).
template <class Scalar>
Kokkos::complex<double> to_complex_double(const Scalar& v) {
  using T = ScalarTraits<Scalar>;
  return Kokkos::complex<double>(static_cast<double>(T::real(v)), static_cast<double>(T::imag(v)));
}

/// gamma of the comparison for a product entry of `terms` products computed in Scalar.
template <class Scalar>
double spmv_gamma(long long terms) {
  using Mag = typename ScalarTraits<Scalar>::magnitude_type;
  const double eps = static_cast<double>(std::numeric_limits<Mag>::epsilon());
  const double c = ScalarTraits<Scalar>::is_complex ? 2.0 : 1.0;
  return c * (static_cast<double>(terms) + 4.0) * eps;
}

/// Checks |computed_i - reference_i| <= spmv_gamma<Scalar>(terms_i) * magnitude_i for every i
/// (NaN fails). On failure, the message gives the number of violations and the first few.
/// Use as EXPECT_TRUE(test::within_spmv_bound(y, ref)) << "what was computed";
template <class Scalar>
::testing::AssertionResult within_spmv_bound(const std::vector<Scalar>& computed,
                                             const ReferenceProduct& reference) {
  if (computed.size() != reference.size()) {
    return ::testing::AssertionFailure() << "computed has " << computed.size()
                                         << " entries, the reference " << reference.size();
  }
  std::ostringstream first;
  first.precision(17);
  std::size_t violations = 0;
  for (std::size_t i = 0; i < computed.size(); ++i) {
    const double error = Kokkos::abs(to_complex_double(computed[i]) - reference.value[i]);
    const double bound = spmv_gamma<Scalar>(reference.terms[i]) * reference.magnitude[i];
    if (!(error <= bound)) {  // NaN compares false
      if (++violations <= 5) {
        first << "\n  entry " << i << ": computed " << to_complex_double(computed[i])
              << ", reference " << reference.value[i] << ", |difference| " << error
              << " > bound " << bound << " (" << reference.terms[i] << " terms, magnitude "
              << reference.magnitude[i] << ")";
      }
    }
  }
  if (violations == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << violations << " of " << computed.size()
                                       << " entries outside the rigorous SpMV bound:" << first.str();
}

}  // namespace kelp::test
