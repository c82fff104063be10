#pragma once
/// Fused vector kernels of the CG variants (CgSingleReduction, FlexibleCg): three inner products
/// in one pass, so that a variant pays one reduction (one message when distributed) for them, and
/// the four vector updates of a Chronopoulos-Gear step in one pass.

#include <Kokkos_Core.hpp>

#include "kelp/kernels/core/row_block_reduce.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::solvers::impl {

/// Three sums of a fused reduction; fixed size, so that GPUs reduce it with shuffles.
template <class Scalar>
struct ScalarTriple {
  Scalar value[3];
};

template <class X1, class Y1, class X2, class Y2, class X3, class Y3>
struct ThreeDots {
  using Scalar = typename Y1::non_const_value_type;
  using value_type = ScalarTriple<Scalar>;
  X1 x1;
  Y1 y1;
  X2 x2;
  Y2 y2;
  X3 x3;
  Y3 y3;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type& sums) const {
    sums.value[0] += ScalarTraits<Scalar>::conj(x1(i)) * y1(i);
    sums.value[1] += ScalarTraits<Scalar>::conj(x2(i)) * y2(i);
    sums.value[2] += ScalarTraits<Scalar>::conj(x3(i)) * y3(i);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& sums) const {
    sums.value[0] = sums.value[1] = sums.value[2] = Scalar(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    dst.value[0] += src.value[0];
    dst.value[1] += src.value[1];
    dst.value[2] += src.value[2];
  }
};

/// values[k] = this process's conj(x_k)^T y_k for k = 0, 1, 2, in one pass (6n words read).
template <class X1, class Y1, class X2, class Y2, class X3, class Y3>
void three_dots(const X1& x1, const Y1& y1, const X2& x2, const Y2& y2, const X3& x3, const Y3& y3,
                typename Y1::non_const_value_type values[3]) {
  using Scalar = typename Y1::non_const_value_type;
  using Exec = typename Y1::execution_space;
  ScalarTriple<Scalar> sums{{Scalar(0), Scalar(0), Scalar(0)}};
  const Exec exec;
  kernels::impl::reduce_rows("kelp::solvers::cg::three_dots", exec, x1.extent(0),
                             ThreeDots<X1, Y1, X2, Y2, X3, Y3>{x1, y1, x2, y2, x3, y3}, sums);
  exec.fence();  // sums are read on the host
  for (int k = 0; k < 3; ++k) values[k] = sums.value[k];
}

/// The Chronopoulos-Gear step: p = u + beta p; s = w + beta s; x += alpha p; r -= alpha s, and
/// with a diagonal preconditioner (inverse_diagonal not empty) also u = D^{-1} r.
/// first = true starts the directions (p = u, s = w) without reading p and s, which may hold
/// garbage (0 * NaN is NaN). One pass: reads u, w, p, s, x, r (+ D^{-1}), writes p, s, x, r (+ u).
/// A named functor, not a lambda: the update is instantiated identically in the CG-variant ETI
/// files and in every file that builds a CgSingleReduction with another reduction policy (the
/// distributed run task), and nvcc's extended lambdas must not be (docs/conventions.md, 11).
template <class Vector, class ConstVector>
struct SingleReductionUpdate {
  using Scalar = typename Vector::non_const_value_type;
  bool first;
  bool fuse_diagonal;
  Scalar alpha, beta;
  Vector u;
  ConstVector w, inverse_diagonal;
  Vector p, s, x, r;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    const Scalar pi = first ? u(i) : u(i) + beta * p(i);
    const Scalar si = first ? w(i) : w(i) + beta * s(i);
    p(i) = pi;
    s(i) = si;
    x(i) += alpha * pi;
    const Scalar ri = r(i) - alpha * si;
    r(i) = ri;
    if (fuse_diagonal) u(i) = inverse_diagonal(i) * ri;
  }
};

template <class Vector, class ConstVector>
void single_reduction_update(bool first, typename Vector::non_const_value_type alpha,
                             typename Vector::non_const_value_type beta, const Vector& u,
                             const ConstVector& w, const ConstVector& inverse_diagonal,
                             const Vector& p, const Vector& s, const Vector& x, const Vector& r) {
  using Exec = typename Vector::execution_space;
  const bool fuse_diagonal = inverse_diagonal.extent(0) == r.extent(0);
  Kokkos::parallel_for("kelp::solvers::CgSingleReduction::update",
                       Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::size_t>>(0, x.extent(0)),
                       SingleReductionUpdate<Vector, ConstVector>{first, fuse_diagonal, alpha, beta, u, w,
                                                                  inverse_diagonal, p, s, x, r});
}

}  // namespace kelp::solvers::impl
