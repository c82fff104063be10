#pragma once
/// Element-wise vector updates for vectors (rank 1) and multi-vectors (rank 2, applied to all
/// columns): fill, scal, axpby and update.
///
/// A zero coefficient on an output operand means "overwrite": y is then never read, so NaN or
/// garbage in it does not propagate (as for beta = 0 in BLAS).
///
/// Each kernel also takes an execution-space instance first (kernels/core/execution_space.hpp):
///   kernels::axpby(exec, alpha, x, beta, y);   // launched on exec, not fenced
/// Without one, a default instance of the views' execution space is used.

#include <type_traits>

#include "kelp/kernels/blas1/blas1_checks.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/execution_space.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/standard_views.hpp"

namespace kelp::kernels {

namespace impl {
/// Runs f(i, j) on `exec` over every element of a rank-1 (j = 0) or rank-2 view shaped like
/// `shape`. Rows are the parallel dimension; the column loop is innermost (contiguous for
/// LayoutRight).
template <class Exec, class Shape, class F>
void for_each_element(const char* label, const Exec& exec, const Shape& shape, const F& f) {
  const std::size_t num_cols = Shape::rank == 2 ? shape.extent(1) : 1;
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(exec, 0, shape.extent(0)),
                       KOKKOS_LAMBDA(const std::size_t i) {
                         for (std::size_t j = 0; j < num_cols; ++j) f(i, j);
                       });
}

/// Element access that treats a rank-1 view as one column.
template <class V>
KOKKOS_INLINE_FUNCTION typename V::reference_type at(const V& v, std::size_t i, std::size_t j) {
  if constexpr (V::rank == 1) {
    (void)j;
    return v(i);
  } else {
    return v(i, j);
  }
}

}  // namespace impl

/// x(:) = value, on exec.
template <class ExecSpace, class XView, kelp::impl::if_execution_space<ExecSpace> = 0>
void fill(const ExecSpace& exec, const XView& x, typename XView::const_value_type value) {
  static_assert(kelp::impl::can_access<ExecSpace, XView>(), "fill: exec must be able to access x");
  Kokkos::deep_copy(exec, x, value);
}

/// x(:) = value.
template <class XView>
void fill(const XView& x, typename XView::const_value_type value) {
  fill(typename XView::execution_space(), x, value);
}

namespace impl {
template <class Exec, class XView>
void scal_body(const Exec& exec, typename XView::const_value_type alpha, const XView& x) {
  using Scalar = typename XView::non_const_value_type;
  if (alpha == Scalar(0)) {
    Kokkos::deep_copy(exec, x, Scalar(0));
    return;
  }
  for_each_element("kelp::kernels::scal", exec, x, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
    at(x, i, j) *= alpha;
  });
}

template <class Exec, class XView, class YView>
void axpby_body(const Exec& exec, typename YView::const_value_type alpha, const XView& x,
                typename YView::const_value_type beta, const YView& y) {
  using Scalar = typename YView::non_const_value_type;
  if (beta == Scalar(0)) {
    for_each_element("kelp::kernels::axpby", exec, y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      at(y, i, j) = alpha * at(x, i, j);
    });
  } else {
    for_each_element("kelp::kernels::axpby", exec, y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      at(y, i, j) = alpha * at(x, i, j) + beta * at(y, i, j);
    });
  }
}

template <class Exec, class XView, class YView, class ZView>
void update_body(const Exec& exec, typename YView::const_value_type alpha, const XView& x,
                 typename YView::const_value_type beta, const YView& y,
                 typename YView::const_value_type gamma, const ZView& z) {
  using Scalar = typename YView::non_const_value_type;
  if (beta == Scalar(0)) {
    for_each_element("kelp::kernels::update", exec, y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      at(y, i, j) = alpha * at(x, i, j) + gamma * at(z, i, j);
    });
  } else {
    for_each_element("kelp::kernels::update", exec, y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      at(y, i, j) = alpha * at(x, i, j) + beta * at(y, i, j) + gamma * at(z, i, j);
    });
  }
}
}  // namespace impl

/// x = alpha * x on exec.  alpha = 0 writes zeros without reading x.
template <class ExecSpace, class XView, kelp::impl::if_execution_space<ExecSpace> = 0>
void scal(const ExecSpace& exec, typename XView::const_value_type alpha, const XView& x) {
  static_assert(kelp::impl::can_access<ExecSpace, XView>(), "scal: exec must be able to access x");
  using D = typename XView::device_type;
  if constexpr (kelp::impl::use_standard_forms<ExecSpace, D, XView>()) {
    using XS = typename kelp::impl::has_standard_form<XView, D>::type;
    impl::scal_body<ExecSpace, XS>(exec, alpha, XS(x));
  } else {
    impl::scal_body<ExecSpace, XView>(exec, alpha, x);
  }
}

/// x = alpha * x.  alpha = 0 writes zeros without reading x.
template <class XView>
void scal(typename XView::const_value_type alpha, const XView& x) {
  scal(typename XView::execution_space(), alpha, x);
}

/// y = alpha * x + beta * y on exec.  beta = 0 does not read y.
/// Traffic: 3 words per entry (2 if beta = 0).
template <class ExecSpace, class XView, class YView, kelp::impl::if_execution_space<ExecSpace> = 0>
void axpby(const ExecSpace& exec, typename YView::const_value_type alpha, const XView& x,
           typename YView::const_value_type beta, const YView& y) {
  static_assert(kelp::impl::can_access<ExecSpace, XView>() && kelp::impl::can_access<ExecSpace, YView>(),
                "axpby: exec must be able to access x and y");
  impl::require_same_shape("kelp::kernels::axpby", "x", x, "y", y);
  using D = typename YView::device_type;
  if constexpr (kelp::impl::use_standard_forms<ExecSpace, D, XView, YView>()) {
    using XS = typename kelp::impl::has_standard_form<XView, D>::const_type;
    using YS = typename kelp::impl::has_standard_form<YView, D>::type;
    impl::axpby_body<ExecSpace, XS, YS>(exec, alpha, XS(x), beta, YS(y));
  } else {
    impl::axpby_body<ExecSpace, XView, YView>(exec, alpha, x, beta, y);
  }
}

/// y = alpha * x + beta * y.  beta = 0 does not read y.  Traffic: 3 words per entry (2 if beta = 0).
template <class XView, class YView>
void axpby(typename YView::const_value_type alpha, const XView& x,
           typename YView::const_value_type beta, const YView& y) {
  axpby(typename YView::execution_space(), alpha, x, beta, y);
}

/// y = alpha * x + beta * y + gamma * z on exec.  beta = 0 does not read y.
/// Traffic: 4 words per entry; saves one pass over y compared with two axpby calls.
template <class ExecSpace, class XView, class YView, class ZView,
          kelp::impl::if_execution_space<ExecSpace> = 0>
void update(const ExecSpace& exec, typename YView::const_value_type alpha, const XView& x,
            typename YView::const_value_type beta, const YView& y,
            typename YView::const_value_type gamma, const ZView& z) {
  static_assert(kelp::impl::can_access<ExecSpace, XView>() && kelp::impl::can_access<ExecSpace, YView>() &&
                    kelp::impl::can_access<ExecSpace, ZView>(),
                "update: exec must be able to access x, y and z");
  impl::require_same_shape("kelp::kernels::update", "x", x, "y", y);
  impl::require_same_shape("kelp::kernels::update", "z", z, "y", y);
  using D = typename YView::device_type;
  if constexpr (kelp::impl::use_standard_forms<ExecSpace, D, XView, YView, ZView>()) {
    using XS = typename kelp::impl::has_standard_form<XView, D>::const_type;
    using YS = typename kelp::impl::has_standard_form<YView, D>::type;
    using ZS = typename kelp::impl::has_standard_form<ZView, D>::const_type;
    impl::update_body<ExecSpace, XS, YS, ZS>(exec, alpha, XS(x), beta, YS(y), gamma, ZS(z));
  } else {
    impl::update_body<ExecSpace, XView, YView, ZView>(exec, alpha, x, beta, y, gamma, z);
  }
}

/// y = alpha * x + beta * y + gamma * z.  beta = 0 does not read y.
/// Traffic: 4 words per entry; saves one pass over y compared with two axpby calls.
template <class XView, class YView, class ZView>
void update(typename YView::const_value_type alpha, const XView& x,
            typename YView::const_value_type beta, const YView& y,
            typename YView::const_value_type gamma, const ZView& z) {
  update(typename YView::execution_space(), alpha, x, beta, y, gamma, z);
}

// Compiled once for the standard types, in kernels/blas1/eti/ (see kernels/core/eti.hpp), for
// instances of the default execution space.
#define KELP_AXPBY_ETI_FORM(PREFIX, S, XS, YS)                                                  \
  PREFIX template void impl::scal_body<DefaultExecutionSpace, YS>(const DefaultExecutionSpace&, \
                                                                  S, const YS&);                \
  PREFIX template void impl::axpby_body<DefaultExecutionSpace, XS, YS>(                         \
      const DefaultExecutionSpace&, S, const XS&, S, const YS&);                                \
  PREFIX template void impl::update_body<DefaultExecutionSpace, XS, YS, XS>(                    \
      const DefaultExecutionSpace&, S, const XS&, S, const YS&, S, const XS&);
#define KELP_AXPBY_ETI(PREFIX, S)                                                               \
  KELP_AXPBY_ETI_FORM(PREFIX, S, ConstVectorView<S>, VectorView<S>)                             \
  KELP_AXPBY_ETI_FORM(PREFIX, S, eti::ConstLeft<S>, eti::Left<S>)                               \
  KELP_AXPBY_ETI_FORM(PREFIX, S, eti::ConstRight<S>, eti::Right<S>)
KELP_ETI_FOR_EACH_SCALAR(KELP_AXPBY_ETI, extern)

}  // namespace kelp::kernels
