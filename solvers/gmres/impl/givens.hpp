#pragma once
/// Complex Givens rotations for the GMRES least-squares problem (host arithmetic).
///
///   [ c        s ] [a]   [r]
///   [ -conj(s) c ] [b] = [0],   c real, |c|^2 + |s|^2 = 1.

#include <cmath>

#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::solvers::impl {

template <class Scalar>
struct Givens {
  using Real = typename ScalarTraits<Scalar>::magnitude_type;
  Real c = 1;
  Scalar s = Scalar(0);

  /// The rotation that zeroes b below a.
  static Givens make(const Scalar& a, const Scalar& b) {
    using T = ScalarTraits<Scalar>;
    Givens g;
    const Real abs_a = T::abs(a), abs_b = T::abs(b);
    if (abs_b == Real(0)) return g;  // nothing to zero
    if (abs_a == Real(0)) {
      g.c = 0;
      g.s = T::conj(b) / Scalar(abs_b);
      return g;
    }
    const Real t = std::hypot(abs_a, abs_b);
    g.c = abs_a / t;
    g.s = (a / Scalar(abs_a)) * T::conj(b) / Scalar(t);
    return g;
  }
  /// (x, y) <- (c x + s y, -conj(s) x + c y).
  void apply(Scalar& x, Scalar& y) const {
    const Scalar new_x = Scalar(c) * x + s * y;
    y = -ScalarTraits<Scalar>::conj(s) * x + Scalar(c) * y;
    x = new_x;
  }
};

}  // namespace kelp::solvers::impl
