#pragma once
/// The scalar checks the CG variants share: rho = r^H M^{-1} r before it divides, and the
/// operator's curvature p^H A p.

#include <cmath>

#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers::impl {

/// True (and reason) when rho = r^H M^{-1} r cannot continue the recurrence: not finite, negative
/// (M is not positive definite) or zero (breakdown).
template <class Scalar>
bool rho_fails(Scalar rho, StopReason& reason) {
  using Traits = ScalarTraits<Scalar>;
  if (!Traits::is_finite(rho)) {
    reason = StopReason::non_finite;
    return true;
  }
  if (Traits::real(rho) < 0) {
    reason = StopReason::indefinite_preconditioner;
    return true;
  }
  if (Traits::real(rho) == 0) {
    reason = StopReason::breakdown;
    return true;
  }
  return false;
}

/// True (and reason) when the curvature p^H A p is not finite, negative (A indefinite) or zero
/// (breakdown: A is singular on p, as a positive semidefinite A can be, or p^H A p underflowed
/// for a problem scaled near 1e-160; neither shows A indefinite).
inline bool curvature_fails(double pq, StopReason& reason) {
  if (!std::isfinite(pq)) {
    reason = StopReason::non_finite;
    return true;
  }
  if (pq < 0) {
    reason = StopReason::indefinite_matrix;
    return true;
  }
  if (pq == 0) {
    reason = StopReason::breakdown;
    return true;
  }
  return false;
}

}  // namespace kelp::solvers::impl
