#pragma once
/// What kpm_moments (CrsMatrix, kpm.hpp) and kpm_operator_moments (any operator, e.g.
/// distributed; kpm_operator.hpp) share: the naive recurrence and the growth check.

#include <cmath>
#include <utility>

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/blas1/dot.hpp"

#include "kelp/kernels/core/error.hpp"
#include "kelp/solvers/kpm/kpm.hpp"

namespace kelp::solvers::impl {

/// mu_{2m} = 2 eta_{2m} - mu_0, mu_{2m+1} = 2 eta_{2m+1} - mu_1 (stores only m < num_moments).
inline void store_moment_pair(double* mu, int num_moments, int m, double vv, double wv) {
  if (2 * m < num_moments) mu[2 * m] = 2.0 * vv - mu[0];
  if (2 * m + 1 < num_moments) mu[2 * m + 1] = 2.0 * wv - mu[1];
}

/// The naive recurrence for one vector v (paper Fig. 3): apply(x, y) sets y = H x; then
/// axpy/scal/axpy and the two dots as separate kernels. The dots are those of the caller's rows
/// (on many ranks: partial sums, reduced by the caller; the formulas are linear in them).
template <class Apply, class Vector>
void naive_recurrence(Apply&& apply, const KpmScaling& s, Vector v, Vector w, Vector u, int num_moments,
                      double* mu) {
  using Scalar = typename Vector::non_const_value_type;
  auto real_dot = [](const Vector& x, const Vector& y) { return ScalarTraits<Scalar>::real(kernels::dot(x, y)); };
  const double inv_a = 1.0 / s.half_width;
  // v_1 = H~ v_0 = (H v - b v) / a
  apply(v, u);                                            // u = H v
  kernels::axpby(Scalar(-s.center), v, Scalar(1), u);     // u = u - b v
  kernels::axpby(Scalar(inv_a), u, Scalar(0), w);         // w = u / a
  mu[0] = real_dot(v, v);                                 // mu_0 = <v_0|v_0>
  if (num_moments > 1) mu[1] = real_dot(w, v);            // <v_1|v_0>
  for (int m = 1; 2 * m < num_moments; ++m) {
    std::swap(v, w);                                      // v = v_m, w = v_{m-1}
    apply(v, u);
    kernels::axpby(Scalar(-s.center), v, Scalar(1), u);   // u = (H - b) v_m
    kernels::scal(Scalar(-1), w);                         // w = -v_{m-1}
    kernels::axpby(Scalar(2 * inv_a), u, Scalar(1), w);   // w = v_{m+1} = 2 H~ v_m - v_{m-1}
    store_moment_pair(mu, num_moments, m, real_dot(v, v), real_dot(w, v));
  }
}

/// NumericalError when a moment of vector r is not finite or exceeds |mu_0| (1 + tolerance):
/// |T_m(x)| <= 1 on [-1, 1], so only a spectrum outside the scaled interval lets moments grow.
/// The callers check H for Hermitian-ness first (serial and distributed), so the advice is about
/// the bounds only. Not a guarantee: an eigenvalue just outside the interval, x = 1 + d, grows
/// as cosh(m acosh x) ~ e^{m sqrt(2 d)} / 2 weighted by its share of the start vector (~1/N), so
/// with few moments it stays below mu_0 and the density comes out slightly wrong (negative
/// values near the edge with Jackson) instead of failing.
inline void check_growth(const KpmMoments& moments, const KpmScaling& s, double tolerance) {
  for (int r = 0; r < moments.num_vectors; ++r) {
    const double mu0 = std::abs(moments.at(r, 0));
    for (int m = 0; m < moments.num_moments; ++m) {
      const double mu = moments.at(r, m);
      KELP_REQUIRE(std::isfinite(mu) && std::abs(mu) <= mu0 * (1.0 + tolerance), NumericalError,
                   "kelp::solvers::kpm_moments: moment " << m << " of vector " << r << " is " << mu
                       << ", larger than mu_0 = " << mu0 << " (tolerance " << tolerance
                       << "): the scaling interval [" << s.to_energy(-1.0) << ", "
                       << s.to_energy(1.0)
                       << "] does not enclose the spectrum; use bounds: gershgorin (it encloses the "
                          "spectrum of every Hermitian H), more lanczos_steps or a larger safety_margin");
    }
  }
}


}  // namespace kelp::solvers::impl
