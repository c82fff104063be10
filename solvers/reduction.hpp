#pragma once
/// Reduction policies: every dot product and norm in a solver goes through one of these, so the
/// same solver code runs on one process (LocalReduction) or distributed (dist::MpiReduction, which
/// does the local reduction and then one allreduce).

#include <cmath>
#include <utility>

#include "kelp/kernels/blas1.hpp"

namespace kelp::solvers {

/// Reductions over vectors that live entirely in this process.
struct LocalReduction {
  /// conj(x)^T y
  template <class X, class Y>
  typename Y::non_const_value_type dot(const X& x, const Y& y) const {
    return kernels::dot(x, y);
  }
  /// (conj(x1)^T y1, conj(x2)^T y2) in one pass (one message when distributed).
  template <class X1, class Y1, class X2, class Y2>
  auto dots(const X1& x1, const Y1& y1, const X2& x2, const Y2& y2) const {
    return kernels::dots(x1, y1, x2, y2);
  }
  /// ||x||_2
  template <class X>
  auto norm2(const X& x) const {
    return kernels::nrm2(x);
  }
};

}  // namespace kelp::solvers
