#pragma once
/// The kernels of EisenstatCg (solvers/cg/eisenstat_cg.hpp): one color of the backward and of
/// the forward triangular solve, the fused vector update, and the permutations into and out of
/// the sweep order. Free functions: CUDA extended lambdas cannot live in private member
/// functions. Every vector here is indexed in sweep order (position k = row order(k) of A), and
/// the triangles hold positions, so the rows of a color are one contiguous block.

#include <Kokkos_Core.hpp>
#include <utility>

#include "kelp/kernels/blas1/dot.hpp"
#include "kelp/kernels/core/row_block_reduce.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp::solvers::impl {

/// A strict triangle of the permuted matrix (positions), rows in sweep order.
template <class Scalar, class Device>
struct EisenstatTriangle {
  Kokkos::View<Offset*, Device> row_map;
  Kokkos::View<Ordinal*, Device> entries;
  Kokkos::View<Scalar*, Device> values;
};

/// Backward solve, the rows [begin, end) of one color (they read only later colors' t):
/// p(k) = z(k) + beta p(k) (the CG direction update, fused; p(k) = z(k) when `restart`, p not
/// read), then t(k) = inv(k) (p(k) - sum_j U_kj t(j)), inv = omega / a_kk.
template <class Triangle, class Inv, class Z, class P, class T, class Scalar>
void eisenstat_backward(const Triangle& U, Ordinal begin, Ordinal end, const Inv& inv, const Z& z,
                        Scalar beta, bool restart, const P& p, const T& t) {
  if (end <= begin) return;
  using Exec = typename T::execution_space;
  const auto row_map = U.row_map;
  const auto entries = U.entries;
  const auto values = U.values;
  Kokkos::parallel_for(
      "kelp::solvers::EisenstatCg::backward", Kokkos::RangePolicy<Exec>(begin, end),
      KOKKOS_LAMBDA(const Ordinal k) {
        const Scalar pk = restart ? Scalar(z(k)) : Scalar(z(k) + beta * p(k));
        p(k) = pk;
        Scalar sum = pk;
        for (Offset e = row_map(k); e < row_map(k + 1); ++e) sum -= values(e) * t(entries(e));
        t(k) = inv(k) * sum;
      });
}

/// Forward solve fused with the product q = A t, the rows [begin, end) of one color (they read
/// only earlier colors' w and t): with the same row of L,
///   w(k) = inv(k) (p(k) + e(k) t(k) - sum_j L_kj w(j)),   e = a_kk (1 - 2 / omega),
///   q(k) = sum_j L_kj t(j) + dq(k) t(k) + p(k),            dq = a_kk (1 - 1 / omega),
/// (A t = L t + (D - D/omega) t + (D/omega + U) t and (D/omega + U) t = p by the backward solve).
/// Returns this color's part of t^H q.
template <class Triangle, class Diag, class P, class T, class W, class Q>
typename W::non_const_value_type eisenstat_forward(const Triangle& L, Ordinal begin, Ordinal end,
                                                   const Diag& inv, const Diag& e, const Diag& dq,
                                                   const P& p, const T& t, const W& w, const Q& q) {
  using Scalar = typename W::non_const_value_type;
  Scalar tq(0);
  if (end <= begin) return tq;
  using Exec = typename W::execution_space;
  const auto row_map = L.row_map;
  const auto entries = L.entries;
  const auto values = L.values;
  Kokkos::parallel_reduce(
      "kelp::solvers::EisenstatCg::forward", Kokkos::RangePolicy<Exec>(begin, end),
      KOKKOS_LAMBDA(const Ordinal k, Scalar& partial) {
        Scalar lw(0), lt(0);
        for (Offset x = row_map(k); x < row_map(k + 1); ++x) {
          const Ordinal j = entries(x);
          lw += values(x) * w(j);
          lt += values(x) * t(j);
        }
        const Scalar tk = t(k), pk = p(k);
        w(k) = inv(k) * (pk + e(k) * tk - lw);
        const Scalar qk = lt + dq(k) * tk + pk;
        q(k) = qk;
        partial += ScalarTraits<Scalar>::conj(tk) * qk;
      },
      tq);
  return tq;
}

/// Plain forward solve (restarts): w(k) = inv(k) (rhs(k) - sum_j L_kj w(j)), one color.
template <class Triangle, class Inv, class R, class W>
void eisenstat_forward_plain(const Triangle& L, Ordinal begin, Ordinal end, const Inv& inv,
                             const R& rhs, const W& w) {
  if (end <= begin) return;
  using Scalar = typename W::non_const_value_type;
  using Exec = typename W::execution_space;
  const auto row_map = L.row_map;
  const auto entries = L.entries;
  const auto values = L.values;
  Kokkos::parallel_for(
      "kelp::solvers::EisenstatCg::forward_plain", Kokkos::RangePolicy<Exec>(begin, end),
      KOKKOS_LAMBDA(const Ordinal k) {
        Scalar sum = rhs(k);
        for (Offset x = row_map(k); x < row_map(k + 1); ++x) sum -= values(x) * w(entries(x));
        w(k) = inv(k) * sum;
      });
}

/// The step after the solves, one pass: x += alpha t; r -= alpha q; rh -= alpha (t + w);
/// z = zs .* rh; sums (rh^H z, r^H r). r is the residual of the system (permuted), rh the
/// split-preconditioned one K^{-1} r. A functor with init/join: a pair of sums, reduced like
/// FusedCgUpdate's.
template <class Vector, class Diag>
struct EisenstatUpdate {
  using Scalar = typename Vector::non_const_value_type;
  using value_type = kernels::impl::ScalarPair<Scalar>;
  Scalar alpha;
  Vector t, w, q;
  Diag zs;
  Vector x, r, rh, z;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t k, value_type& s) const {
    const Scalar tk = t(k);
    x(k) += alpha * tk;
    const Scalar rk = r(k) - alpha * q(k);
    r(k) = rk;
    const Scalar hk = rh(k) - alpha * (tk + w(k));
    rh(k) = hk;
    const Scalar zk = zs(k) * hk;
    z(k) = zk;
    s.first += ScalarTraits<Scalar>::conj(hk) * zk;
    s.second += ScalarTraits<Scalar>::conj(rk) * rk;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& s) const { s.first = s.second = Scalar(0); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    dst.first += src.first;
    dst.second += src.second;
  }
};

template <class Vector, class Diag>
std::pair<typename Vector::non_const_value_type, typename Vector::non_const_value_type>
eisenstat_update(typename Vector::non_const_value_type alpha, const Vector& t, const Vector& w,
                 const Vector& q, const Diag& zs, const Vector& x, const Vector& r, const Vector& rh,
                 const Vector& z) {
  using Scalar = typename Vector::non_const_value_type;
  using Exec = typename Vector::execution_space;
  kernels::impl::ScalarPair<Scalar> sums{Scalar(0), Scalar(0)};
  const Exec exec;
  kernels::impl::reduce_rows("kelp::solvers::EisenstatCg::update", exec, x.extent(0),
                             EisenstatUpdate<Vector, Diag>{alpha, t, w, q, zs, x, r, rh, z}, sums);
  exec.fence();  // sums are read on the host
  return {sums.first, sums.second};
}

/// z = zs .* rh; returns rh^H z (restarts).
template <class Vector, class Diag>
typename Vector::non_const_value_type eisenstat_scale(const Diag& zs, const Vector& rh,
                                                      const Vector& z) {
  using Scalar = typename Vector::non_const_value_type;
  using Exec = typename Vector::execution_space;
  Scalar rz(0);
  Kokkos::parallel_reduce(
      "kelp::solvers::EisenstatCg::scale", Kokkos::RangePolicy<Exec>(0, static_cast<Ordinal>(z.extent(0))),
      KOKKOS_LAMBDA(const Ordinal k, Scalar& partial) {
        const Scalar zk = zs(k) * rh(k);
        z(k) = zk;
        partial += ScalarTraits<Scalar>::conj(rh(k)) * zk;
      },
      rz);
  return rz;
}

/// out(k) = in(order(k)) (into sweep order), or out(order(k)) = in(k) (`back`: out of it).
template <class Order, class In, class Out>
void eisenstat_permute(const Order& order, const In& in, const Out& out, bool back) {
  using Exec = typename Out::execution_space;
  Kokkos::parallel_for(
      "kelp::solvers::EisenstatCg::permute", Kokkos::RangePolicy<Exec>(0, static_cast<Ordinal>(order.extent(0))),
      KOKKOS_LAMBDA(const Ordinal k) {
        if (back) {
          out(order(k)) = in(k);
        } else {
          out(k) = in(order(k));
        }
      });
}

}  // namespace kelp::solvers::impl
