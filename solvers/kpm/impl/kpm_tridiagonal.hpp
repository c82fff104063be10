#pragma once
/// Eigenvalues of a small symmetric tridiagonal matrix (the Lanczos T) by Sturm-sequence
/// bisection, on the host: no LAPACK or Eigen in the library. Zero off-diagonals (a Lanczos
/// restart) are allowed.

#include <algorithm>
#include <cmath>
#include <vector>

namespace kelp::solvers::impl {

/// The number of eigenvalues below x of the symmetric tridiagonal (a, b) (b[j] couples j, j+1).
inline int tridiagonal_count_below(const std::vector<double>& a, const std::vector<double>& b,
                                   double x) {
  int count = 0;
  double d = 1.0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    const double off = j == 0 ? 0.0 : b[j - 1] * b[j - 1];
    d = a[j] - x - (j == 0 ? 0.0 : off / d);
    if (d == 0.0) d = -1e-300;  // a zero pivot counts as negative (x just above an eigenvalue)
    if (d < 0) ++count;
  }
  return count;
}

/// The eigenvalue of the given index (0: the smallest) of the symmetric tridiagonal (a, b).
inline double tridiagonal_eigenvalue(const std::vector<double>& a, const std::vector<double>& b,
                                     int index) {
  double lo = 0, hi = 0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    const double r = (j > 0 ? std::abs(b[j - 1]) : 0.0) + (j + 1 < a.size() ? std::abs(b[j]) : 0.0);
    lo = j == 0 ? a[j] - r : std::min(lo, a[j] - r);
    hi = j == 0 ? a[j] + r : std::max(hi, a[j] + r);
  }
  for (int it = 0; it < 200 && hi - lo > 1e-15 * std::max(std::abs(lo), std::abs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    if (tridiagonal_count_below(a, b, mid) > index) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return 0.5 * (lo + hi);
}

}  // namespace kelp::solvers::impl
