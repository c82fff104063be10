#pragma once
/// BiCGStab's vector updates fused with the reductions that follow them, and, when the
/// preconditioner is a diagonal D^{-1} (Jacobi, Operator::pointwise_diagonal), with its
/// application:
///
///   half step:  s = r - alpha v; [s_hat = D^{-1} s]; local ||s||^2
///   full step:  x += alpha p_hat + omega s_hat; r = s - omega t; local (r_hat^H r, r^H r)
///   direction:  p = r + beta (p - omega v); [p_hat = D^{-1} p]
///
/// Unfused (update kernels, then dots or norms, then M^{-1}): 3 + 1 + 3, 4 + 3 + 2 and 4 + 3
/// vector reads and writes; fused: 5 (3 without D), 8 and 6 (4): 19 instead of 23 words per
/// row and 5 launches fewer per iteration. The reductions run in blocks of rows on host threads
/// (kernels::impl::reduce_rows: two partial sums instead of one chain of dependent adds).
/// The sums are local: the caller sums them over processes (Reduction::sum), one message each,
/// as before.
/// Named functors: Bicgstab is instantiated in its ETI files and by the distributed run task
/// and tests (docs/conventions.md, section 11).

#include <cstddef>
#include <utility>

#include <Kokkos_Core.hpp>

#include "kelp/kernels/blas1/dot.hpp"
#include "kelp/kernels/core/row_block_reduce.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::solvers::impl {

/// s = r - alpha v; s_hat = d .* s when d is not empty; sum += |s_i|^2.
template <class Vector, class ConstVector>
struct BicgstabHalfStep {
  using Scalar = typename Vector::non_const_value_type;
  using value_type = Scalar;  // ||s||^2 in the real part
  Scalar alpha;
  ConstVector r, v, inverse_diagonal;
  Vector s, s_hat;
  bool precondition;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type& sum) const {
    const Scalar si = r(i) - alpha * v(i);
    s(i) = si;
    if (precondition) s_hat(i) = inverse_diagonal(i) * si;
    sum += ScalarTraits<Scalar>::conj(si) * si;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& sum) const { sum = Scalar(0); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    dst += src;
  }
};

/// x += alpha p_hat + omega s_hat; r = s - omega t; sums += (conj(r_hat_i) r_i, |r_i|^2).
template <class Vector, class ConstVector>
struct BicgstabFullStep {
  using Scalar = typename Vector::non_const_value_type;
  using value_type = kernels::impl::ScalarPair<Scalar>;
  Scalar alpha, omega;
  ConstVector p_hat, s_hat, s, t, r_hat;
  Vector x, r;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type& sums) const {
    x(i) = alpha * p_hat(i) + x(i) + omega * s_hat(i);
    const Scalar ri = s(i) - omega * t(i);
    r(i) = ri;
    sums.first += ScalarTraits<Scalar>::conj(r_hat(i)) * ri;
    sums.second += ScalarTraits<Scalar>::conj(ri) * ri;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& sums) const { sums.first = sums.second = Scalar(0); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    dst.first += src.first;
    dst.second += src.second;
  }
};

/// p = r + beta p - beta omega v; p_hat = d .* p when d is not empty.
template <class Vector, class ConstVector>
struct BicgstabDirection {
  using Scalar = typename Vector::non_const_value_type;
  Scalar beta, beta_omega;
  ConstVector r, v, inverse_diagonal;
  Vector p, p_hat;
  bool precondition;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    const Scalar pi = r(i) + beta * p(i) - beta_omega * v(i);
    p(i) = pi;
    if (precondition) p_hat(i) = inverse_diagonal(i) * pi;
  }
};

template <class Vector>
using BicgstabPolicy =
    Kokkos::RangePolicy<typename Vector::execution_space, Kokkos::IndexType<std::size_t>>;

/// s = r - alpha v and, when inverse_diagonal is not empty, s_hat = inverse_diagonal .* s;
/// returns this process's ||s||^2.
template <class Vector, class ConstVector>
double bicgstab_half_step(typename Vector::non_const_value_type alpha, const ConstVector& r,
                          const ConstVector& v, const ConstVector& inverse_diagonal,
                          const Vector& s, const Vector& s_hat) {
  using Scalar = typename Vector::non_const_value_type;
  Scalar sum(0);
  const bool precondition = inverse_diagonal.extent(0) == s.extent(0);
  const typename Vector::execution_space exec;
  kernels::impl::reduce_rows(
      "kelp::solvers::Bicgstab::half_step", exec, s.extent(0),
      BicgstabHalfStep<Vector, ConstVector>{alpha, r, v, inverse_diagonal, s, s_hat, precondition},
      sum);
  exec.fence();  // the sum is read on the host
  return static_cast<double>(ScalarTraits<Scalar>::real(sum));
}

/// x += alpha p_hat + omega s_hat; r = s - omega t; returns this process's (r_hat^H r, r^H r).
template <class Vector, class ConstVector>
std::pair<typename Vector::non_const_value_type, typename Vector::non_const_value_type>
bicgstab_full_step(typename Vector::non_const_value_type alpha,
                   typename Vector::non_const_value_type omega, const ConstVector& p_hat,
                   const ConstVector& s_hat, const ConstVector& s, const ConstVector& t,
                   const ConstVector& r_hat, const Vector& x, const Vector& r) {
  using Scalar = typename Vector::non_const_value_type;
  kernels::impl::ScalarPair<Scalar> sums{Scalar(0), Scalar(0)};
  const typename Vector::execution_space exec;
  kernels::impl::reduce_rows(
      "kelp::solvers::Bicgstab::full_step", exec, x.extent(0),
      BicgstabFullStep<Vector, ConstVector>{alpha, omega, p_hat, s_hat, s, t, r_hat, x, r}, sums);
  exec.fence();  // the sums are read on the host
  return {sums.first, sums.second};
}

/// p = r + beta (p - omega v) and, when inverse_diagonal is not empty, p_hat = inverse_diagonal .* p.
template <class Vector, class ConstVector>
void bicgstab_direction(typename Vector::non_const_value_type beta,
                        typename Vector::non_const_value_type omega, const ConstVector& r,
                        const ConstVector& v, const ConstVector& inverse_diagonal,
                        const Vector& p, const Vector& p_hat) {
  const bool precondition = inverse_diagonal.extent(0) == p.extent(0);
  Kokkos::parallel_for("kelp::solvers::Bicgstab::direction", BicgstabPolicy<Vector>(0, p.extent(0)),
                       BicgstabDirection<Vector, ConstVector>{beta, beta * omega, r, v,
                                                               inverse_diagonal, p, p_hat,
                                                               precondition});
}

}  // namespace kelp::solvers::impl
