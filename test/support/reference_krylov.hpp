#pragma once
// Plain sequential Krylov references the solver tests compare against: restarted GMRES (MGS,
// Givens rotations, right preconditioning by a diagonal) and BiCGStab, on host CRS data with
// std::vector, no Kokkos parallelism. Deliberately textbook (Saad, Alg. 6.9 and 7.7); they return
// the residual norm after every iteration (index 0 = ||r_0||), which is what the tests compare.
#include <cmath>
#include <vector>

#include "kelp/kernels/core/scalar_traits.hpp"
#include "test/support/reference.hpp"

namespace kelp::test {

template <class Scalar>
struct ReferenceKrylovResult {
  std::vector<Scalar> x;
  std::vector<double> history;  ///< residual norm per iteration, [0] = ||b - A x0||
  int iterations = 0;
};

namespace krylov_detail {
/// Sums of the references' inner products and norms: `partial_sums` interleaved running sums
/// (row i goes to sum i mod partial_sums), added in order at the end. 1 is the textbook loop;
/// other counts give the same values to rounding, in another order, as a parallel or blocked
/// reduction does: a test can see how far rounding alone moves a rounding-sensitive solver.
template <class Scalar, class Term>
Scalar sum_terms(std::size_t n, int partial_sums, const Term& term) {
  std::vector<Scalar> sums(static_cast<std::size_t>(partial_sums), Scalar(0));
  for (std::size_t i = 0; i < n; ++i) sums[i % sums.size()] += term(i);
  Scalar total(0);
  for (const auto& s : sums) total += s;
  return total;
}
template <class Scalar>
Scalar dot(const std::vector<Scalar>& x, const std::vector<Scalar>& y, int partial_sums = 1) {
  return sum_terms<Scalar>(x.size(), partial_sums,
                           [&](std::size_t i) { return ScalarTraits<Scalar>::conj(x[i]) * y[i]; });
}
template <class Scalar>
double norm(const std::vector<Scalar>& x, int partial_sums = 1) {
  return std::sqrt(sum_terms<double>(x.size(), partial_sums, [&](std::size_t i) {
    return static_cast<double>(ScalarTraits<Scalar>::abs2(x[i]));
  }));
}
template <class Scalar>
std::vector<Scalar> matvec(const HostCrs<Scalar>& A, const std::vector<Scalar>& x) {
  return reference_spmv(kernels::SpmvMode::no_transpose, Scalar(1), A, x, Scalar(0), {});
}
template <class Scalar>
std::vector<Scalar> residual(const HostCrs<Scalar>& A, const std::vector<Scalar>& b,
                             const std::vector<Scalar>& x) {
  auto r = matvec(A, x);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
  return r;
}
/// z = d .* v (d empty: z = v).
template <class Scalar>
std::vector<Scalar> precondition(const std::vector<Scalar>& d, const std::vector<Scalar>& v) {
  if (d.empty()) return v;
  std::vector<Scalar> z(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) z[i] = d[i] * v[i];
  return z;
}
}  // namespace krylov_detail

/// Right-preconditioned GMRES(m) with M^{-1} = diag(inv_diag) (empty: identity), x0 = 0, to
/// ||r|| <= tol * ||b|| or max_iterations; the history holds the least-squares estimates.
template <class Scalar>
ReferenceKrylovResult<Scalar> reference_gmres(const HostCrs<Scalar>& A, const std::vector<Scalar>& b,
                                              const std::vector<Scalar>& inv_diag, int m,
                                              double tol, int max_iterations) {
  using namespace krylov_detail;
  using T = ScalarTraits<Scalar>;
  const std::size_t n = b.size();
  ReferenceKrylovResult<Scalar> out;
  out.x.assign(n, Scalar(0));
  const double b_norm = norm(b);
  auto r = residual(A, b, out.x);
  double beta = norm(r);
  out.history.push_back(beta);
  int it = 0;
  while (beta > tol * b_norm && it < max_iterations) {
    std::vector<std::vector<Scalar>> V(1, r);
    for (auto& v : V[0]) v /= Scalar(beta);
    std::vector<std::vector<Scalar>> H(m + 1, std::vector<Scalar>(m, Scalar(0)));
    std::vector<double> c(m);
    std::vector<Scalar> s(m), g(m + 1, Scalar(0));
    g[0] = Scalar(beta);
    int k = 0;
    for (int j = 0; j < m && it < max_iterations; ++j) {
      auto w = matvec(A, precondition(inv_diag, V[j]));
      for (int i = 0; i <= j; ++i) {  // modified Gram-Schmidt
        H[i][j] = dot(V[i], w);
        for (std::size_t l = 0; l < n; ++l) w[l] -= H[i][j] * V[i][l];
      }
      const double h_next = norm(w);
      H[j + 1][j] = Scalar(h_next);
      for (int i = 0; i < j; ++i) {
        const Scalar a = H[i][j], bb = H[i + 1][j];
        H[i][j] = Scalar(c[i]) * a + s[i] * bb;
        H[i + 1][j] = -T::conj(s[i]) * a + Scalar(c[i]) * bb;
      }
      const double abs_a = T::abs(H[j][j]);
      const double t = std::hypot(abs_a, h_next);
      c[j] = abs_a == 0 ? 0.0 : abs_a / t;
      s[j] = abs_a == 0 ? Scalar(1) : (H[j][j] / Scalar(abs_a)) * Scalar(h_next / t);
      H[j][j] = Scalar(c[j]) * H[j][j] + s[j] * H[j + 1][j];
      H[j + 1][j] = Scalar(0);
      g[j + 1] = -T::conj(s[j]) * g[j];
      g[j] = Scalar(c[j]) * g[j];
      ++it;
      k = j + 1;
      out.history.push_back(T::abs(g[j + 1]));
      if (T::abs(g[j + 1]) <= tol * b_norm || h_next == 0) break;
      for (auto& v : w) v /= Scalar(h_next);
      V.push_back(w);
    }
    std::vector<Scalar> y(k);
    for (int i = k - 1; i >= 0; --i) {
      Scalar sum = g[i];
      for (int l = i + 1; l < k; ++l) sum -= H[i][l] * y[l];
      y[i] = sum / H[i][i];
    }
    std::vector<Scalar> t(n, Scalar(0));
    for (int i = 0; i < k; ++i)
      for (std::size_t l = 0; l < n; ++l) t[l] += V[i][l] * y[i];
    const auto z = precondition(inv_diag, t);
    for (std::size_t l = 0; l < n; ++l) out.x[l] += z[l];
    r = residual(A, b, out.x);
    beta = norm(r);
  }
  out.iterations = it;
  return out;
}

/// Right-preconditioned BiCGStab with M^{-1} = diag(inv_diag), x0 = 0, shadow r_hat = r_0;
/// history: ||r|| after each full iteration (||s|| when the half step converged). partial_sums:
/// the summation order of every inner product and norm (krylov_detail::sum_terms).
template <class Scalar>
ReferenceKrylovResult<Scalar> reference_bicgstab(const HostCrs<Scalar>& A,
                                                 const std::vector<Scalar>& b,
                                                 const std::vector<Scalar>& inv_diag, double tol,
                                                 int max_iterations, int partial_sums = 1) {
  using namespace krylov_detail;
  const std::size_t n = b.size();
  ReferenceKrylovResult<Scalar> out;
  out.x.assign(n, Scalar(0));
  const double b_norm = norm(b, partial_sums);
  auto r = residual(A, b, out.x);
  const auto r_hat = r;
  auto p = r;
  std::vector<Scalar> v(n, Scalar(0));
  Scalar rho = dot(r_hat, r, partial_sums);
  out.history.push_back(norm(r, partial_sums));
  for (int it = 1; it <= max_iterations && out.history.back() > tol * b_norm; ++it) {
    const auto p_hat = precondition(inv_diag, p);
    v = matvec(A, p_hat);
    const Scalar alpha = rho / dot(r_hat, v, partial_sums);
    std::vector<Scalar> s(n);
    for (std::size_t i = 0; i < n; ++i) s[i] = r[i] - alpha * v[i];
    out.iterations = it;
    if (norm(s, partial_sums) <= tol * b_norm) {
      for (std::size_t i = 0; i < n; ++i) out.x[i] += alpha * p_hat[i];
      out.history.push_back(norm(s, partial_sums));
      break;
    }
    const auto s_hat = precondition(inv_diag, s);
    const auto t = matvec(A, s_hat);
    const Scalar omega = dot(t, s, partial_sums) / dot(t, t, partial_sums);
    for (std::size_t i = 0; i < n; ++i) {
      out.x[i] += alpha * p_hat[i] + omega * s_hat[i];
      r[i] = s[i] - omega * t[i];
    }
    out.history.push_back(norm(r, partial_sums));
    const Scalar rho_new = dot(r_hat, r, partial_sums);
    const Scalar beta = (rho_new / rho) * (alpha / omega);
    rho = rho_new;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
  }
  return out;
}

/// Iterations of reference_bicgstab with 1 to 16 interleaved partial sums: the spread that
/// rounding alone gives on this problem (for test::iterations_within).
template <class Scalar>
std::vector<int> reference_bicgstab_iterations(const HostCrs<Scalar>& A,
                                               const std::vector<Scalar>& b,
                                               const std::vector<Scalar>& inv_diag, double tol,
                                               int max_iterations) {
  std::vector<int> counts;
  for (int partial_sums = 1; partial_sums <= 16; ++partial_sums) {
    counts.push_back(
        reference_bicgstab(A, b, inv_diag, tol, max_iterations, partial_sums).iterations);
  }
  return counts;
}

}  // namespace kelp::test
