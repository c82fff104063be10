#pragma once
/// Reduction policies: every dot product and norm in a solver goes through one of these, so the
/// same solver code runs on one process (LocalReduction) or distributed (dist::MpiReduction, which
/// does the local reduction and then one allreduce).
///
/// Block calls (gram, column_dots, column_norms) return their results in host views: they feed
/// small dense host computations (Rayleigh-Ritz, per-column step lengths, convergence checks),
/// and each one is a single reduction, a single message when distributed.
///
/// Example:
///   Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> G("G", k, m);
///   Kokkos::View<double*, Kokkos::HostSpace> norms("norms", k);
///   reduce.gram(X, Y, G);            // G = X^H Y
///   reduce.column_norms(R, norms);   // norms(j) = ||R(:, j)||_2

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
  /// Sums values[0..count) over all processes in place (here: one process, nothing to do), for
  /// local sums that a fused kernel computed itself.
  template <class T>
  void sum(T* values, std::size_t count) const {
    (void)values;
    (void)count;
  }

  /// G = X^H Y (k x m) for X n x k, Y n x m: one reduction.
  template <class X, class Y>
  void gram(const X& x, const Y& y,
            Kokkos::View<typename Y::non_const_value_type**, Kokkos::LayoutLeft, Kokkos::HostSpace> g) const {
    kernels::gram(x, y, g);
  }
  /// r(j) = conj(X(:, j))^T Y(:, j): one reduction.
  template <class X, class Y>
  void column_dots(const X& x, const Y& y,
                   Kokkos::View<typename Y::non_const_value_type*, Kokkos::HostSpace> r) const {
    kernels::dot(x, y, r);
  }
  /// r1(j) = conj(X1(:, j))^T Y1(:, j) and r2(j) = conj(X2(:, j))^T Y2(:, j): one reduction.
  template <class X1, class Y1, class X2, class Y2>
  void column_dots(const X1& x1, const Y1& y1, const X2& x2, const Y2& y2,
                   Kokkos::View<typename Y1::non_const_value_type*, Kokkos::HostSpace> r1,
                   Kokkos::View<typename Y1::non_const_value_type*, Kokkos::HostSpace> r2) const {
    kernels::column_dots(x1, y1, x2, y2, r1, r2);
  }
  /// r(j) = ||X(:, j)||_2: one reduction.
  template <class X>
  void column_norms(
      const X& x,
      Kokkos::View<typename ScalarTraits<typename X::non_const_value_type>::magnitude_type*, Kokkos::HostSpace> r)
      const {
    kernels::nrm2(x, r);
  }
};

}  // namespace kelp::solvers
