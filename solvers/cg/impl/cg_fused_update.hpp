#pragma once
/// The CG step after q = A p, fused into one pass when the preconditioner is a diagonal D^{-1}
/// (Jacobi): x += alpha p; r -= alpha q; z = D^{-1} r; and the local parts of r^H z and r^H r.
///
/// Unfused, the same step is two axpby, the preconditioner and the fused dots: four kernels that
/// read and write 11 vectors (x, p, r, q twice, D^{-1}, r, z, r and z again). Fused: one kernel
/// that reads x, p, r, q, D^{-1} and writes x, r, z, 8 vectors (8n words instead of 11n), and
/// three launches fewer.

#include <Kokkos_Core.hpp>
#include <utility>

#include "kelp/kernels/blas1/dot.hpp"
#include "kelp/kernels/core/row_block_reduce.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::solvers::impl {

template <class Vector, class ConstVector>
struct FusedCgUpdate {
  using Scalar = typename Vector::non_const_value_type;
  using value_type = kernels::impl::ScalarPair<Scalar>;  // fixed size: shuffle reductions on GPUs
  Scalar alpha;
  ConstVector p, q, inverse_diagonal;
  Vector x, r, z;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type& sums) const {
    x(i) += alpha * p(i);
    const Scalar ri = r(i) - alpha * q(i);
    const Scalar zi = inverse_diagonal(i) * ri;
    r(i) = ri;
    z(i) = zi;
    sums.first += ScalarTraits<Scalar>::conj(ri) * zi;
    sums.second += ScalarTraits<Scalar>::conj(ri) * ri;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& sums) const { sums.first = sums.second = Scalar(0); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    dst.first += src.first;
    dst.second += src.second;
  }
};

/// x += alpha p; r -= alpha q; z = inverse_diagonal .* r; returns this process's (r^H z, r^H r).
template <class Vector, class ConstVector>
std::pair<typename Vector::non_const_value_type, typename Vector::non_const_value_type>
fused_cg_update(typename Vector::non_const_value_type alpha, const ConstVector& p,
                const ConstVector& q, const ConstVector& inverse_diagonal, const Vector& x,
                const Vector& r, const Vector& z) {
  using Scalar = typename Vector::non_const_value_type;
  using Exec = typename Vector::execution_space;
  kernels::impl::ScalarPair<Scalar> sums{Scalar(0), Scalar(0)};
  const Exec exec;
  kernels::impl::reduce_rows("kelp::solvers::Cg::fused_update", exec, x.extent(0),
                             FusedCgUpdate<Vector, ConstVector>{alpha, p, q, inverse_diagonal, x, r, z},
                             sums);
  exec.fence();  // sums are read on the host
  return {sums.first, sums.second};
}

}  // namespace kelp::solvers::impl
