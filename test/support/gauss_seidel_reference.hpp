#pragma once
// Sequential Gauss-Seidel / SOR references on host CRS data (no Kokkos): a sweep in a given row
// order, the symmetric-sweep preconditioner from x = 0, and a textbook PCG with any
// preconditioner callable, which counts iterations for the comparisons of the GS tests.
#include <cmath>
#include <functional>
#include <vector>

#include "kelp/kernels/core/scalar_traits.hpp"
#include "test/support/reference.hpp"

namespace kelp::test {

/// One sequential SOR sweep on x, visiting the rows in `order`:
/// x_i += omega (b_i - sum_j a_ij x_j) / a_ii, the newest x_j each time.
template <class Scalar>
void reference_gs_sweep(const HostCrs<Scalar>& A, const std::vector<Scalar>& b,
                        std::vector<Scalar>& x, const std::vector<int>& order, double omega) {
  for (int i : order) {
    Scalar sum = b[i], diagonal(0);
    for (long long p = A.row_map[i]; p < A.row_map[i + 1]; ++p) {
      sum -= A.values[p] * x[A.entries[p]];
      if (A.entries[p] == i) diagonal += A.values[p];
    }
    x[i] += Scalar(omega) * sum / diagonal;
  }
}

/// The natural row order 0 .. n-1.
inline std::vector<int> natural_order(int n) {
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  return order;
}

/// z = M^{-1} r for symmetric GS: `sweeps` times (forward in `order`, then backward), from z = 0.
template <class Scalar>
std::vector<Scalar> reference_symmetric_gs(const HostCrs<Scalar>& A, const std::vector<Scalar>& r,
                                           const std::vector<int>& order, double omega, int sweeps) {
  std::vector<Scalar> z(r.size(), Scalar(0));
  const std::vector<int> reverse(order.rbegin(), order.rend());
  for (int s = 0; s < sweeps; ++s) {
    reference_gs_sweep(A, r, z, order, omega);
    reference_gs_sweep(A, r, z, reverse, omega);
  }
  return z;
}

/// Preconditioned CG from x = 0 to ||r|| <= tol ||b||; returns the iterations (max_iterations + 1
/// when it did not converge).
template <class Scalar>
int reference_pcg_iterations(const HostCrs<Scalar>& A, const std::vector<Scalar>& b,
                             const std::function<std::vector<Scalar>(const std::vector<Scalar>&)>& M,
                             double tol, int max_iterations) {
  using T = ScalarTraits<Scalar>;
  const auto dot = [](const std::vector<Scalar>& u, const std::vector<Scalar>& v) {
    Scalar s(0);
    for (std::size_t i = 0; i < u.size(); ++i) s += T::conj(u[i]) * v[i];
    return s;
  };
  const auto norm = [&](const std::vector<Scalar>& u) { return std::sqrt(std::abs(T::real(dot(u, u)))); };
  const std::size_t n = b.size();
  std::vector<Scalar> x(n, Scalar(0)), r = b, z = M(r), p = z;
  Scalar rz = dot(r, z);
  const double target = tol * norm(b);
  for (int it = 1; it <= max_iterations; ++it) {
    const auto q = reference_spmv(kernels::SpmvMode::no_transpose, Scalar(1), A, p, Scalar(0), {});
    const Scalar alpha = rz / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    if (norm(r) <= target) return it;
    z = M(r);
    const Scalar rz_next = dot(r, z);
    const Scalar beta = rz_next / rz;
    rz = rz_next;
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
  }
  return max_iterations + 1;
}

}  // namespace kelp::test
