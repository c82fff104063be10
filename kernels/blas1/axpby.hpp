#pragma once
/// Element-wise vector updates for vectors (rank 1) and multi-vectors (rank 2, applied to all
/// columns): fill, scal, axpby and update.
///
/// A zero coefficient on an output operand means "overwrite": y is then never read, so NaN or
/// garbage in it does not propagate (as for beta = 0 in BLAS).

#include "kelp/kernels/blas1/blas1_checks.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/standard_views.hpp"

namespace kelp::kernels {

namespace impl {
/// Runs f(i, j) over every element of a rank-1 (j = 0) or rank-2 view shaped like `shape`.
/// Rows are the parallel dimension; the column loop is innermost (contiguous for LayoutRight).
template <class Shape, class F>
void for_each_element(const char* label, const Shape& shape, const F& f) {
  using Exec = typename Shape::execution_space;
  const std::size_t num_cols = Shape::rank == 2 ? shape.extent(1) : 1;
  Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec>(0, shape.extent(0)),
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

/// x(:) = value.
template <class XView>
void fill(const XView& x, typename XView::const_value_type value) {
  Kokkos::deep_copy(x, value);
}

namespace impl {
template <class XView>
void scal_body(typename XView::const_value_type alpha, const XView& x) {
  using Scalar = typename XView::non_const_value_type;
  if (alpha == Scalar(0)) {
    Kokkos::deep_copy(x, Scalar(0));
    return;
  }
  for_each_element("kelp::kernels::scal", x, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
    at(x, i, j) *= alpha;
  });
}

template <class XView, class YView>
void axpby_body(typename YView::const_value_type alpha, const XView& x,
                typename YView::const_value_type beta, const YView& y) {
  using Scalar = typename YView::non_const_value_type;
  if (beta == Scalar(0)) {
    for_each_element("kelp::kernels::axpby", y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      at(y, i, j) = alpha * at(x, i, j);
    });
  } else {
    for_each_element("kelp::kernels::axpby", y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      at(y, i, j) = alpha * at(x, i, j) + beta * at(y, i, j);
    });
  }
}

template <class XView, class YView, class ZView>
void update_body(typename YView::const_value_type alpha, const XView& x,
                 typename YView::const_value_type beta, const YView& y,
                 typename YView::const_value_type gamma, const ZView& z) {
  using Scalar = typename YView::non_const_value_type;
  if (beta == Scalar(0)) {
    for_each_element("kelp::kernels::update", y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      at(y, i, j) = alpha * at(x, i, j) + gamma * at(z, i, j);
    });
  } else {
    for_each_element("kelp::kernels::update", y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      at(y, i, j) = alpha * at(x, i, j) + beta * at(y, i, j) + gamma * at(z, i, j);
    });
  }
}
}  // namespace impl

/// x = alpha * x.  alpha = 0 writes zeros without reading x.
template <class XView>
void scal(typename XView::const_value_type alpha, const XView& x) {
  using D = typename XView::device_type;
  if constexpr (kelp::impl::has_standard_form<XView, D>::value) {
    using XS = typename kelp::impl::has_standard_form<XView, D>::type;
    impl::scal_body<XS>(alpha, XS(x));
  } else {
    impl::scal_body<XView>(alpha, x);
  }
}

/// y = alpha * x + beta * y.  beta = 0 does not read y.  Traffic: 3 words per entry (2 if beta = 0).
template <class XView, class YView>
void axpby(typename YView::const_value_type alpha, const XView& x,
           typename YView::const_value_type beta, const YView& y) {
  impl::require_same_shape("kelp::kernels::axpby", "x", x, "y", y);
  using D = typename YView::device_type;
  using XF = kelp::impl::has_standard_form<XView, D>;
  using YF = kelp::impl::has_standard_form<YView, D>;
  if constexpr (XF::value && YF::value) {
    using XS = typename XF::const_type;
    using YS = typename YF::type;
    impl::axpby_body<XS, YS>(alpha, XS(x), beta, YS(y));
  } else {
    impl::axpby_body<XView, YView>(alpha, x, beta, y);
  }
}

/// y = alpha * x + beta * y + gamma * z.  beta = 0 does not read y.
/// Traffic: 4 words per entry; saves one pass over y compared with two axpby calls.
template <class XView, class YView, class ZView>
void update(typename YView::const_value_type alpha, const XView& x,
            typename YView::const_value_type beta, const YView& y,
            typename YView::const_value_type gamma, const ZView& z) {
  impl::require_same_shape("kelp::kernels::update", "x", x, "y", y);
  impl::require_same_shape("kelp::kernels::update", "z", z, "y", y);
  using D = typename YView::device_type;
  using XF = kelp::impl::has_standard_form<XView, D>;
  using YF = kelp::impl::has_standard_form<YView, D>;
  using ZF = kelp::impl::has_standard_form<ZView, D>;
  if constexpr (XF::value && YF::value && ZF::value) {
    using XS = typename XF::const_type;
    using YS = typename YF::type;
    using ZS = typename ZF::const_type;
    impl::update_body<XS, YS, ZS>(alpha, XS(x), beta, YS(y), gamma, ZS(z));
  } else {
    impl::update_body<XView, YView, ZView>(alpha, x, beta, y, gamma, z);
  }
}

// Compiled once for the standard types, in kernels/blas1/eti/ (see kernels/core/eti.hpp).
#define KELP_AXPBY_ETI_FORM(PREFIX, S, XS, YS)                                                 \
  PREFIX template void impl::scal_body<YS>(S, const YS&);                                      \
  PREFIX template void impl::axpby_body<XS, YS>(S, const XS&, S, const YS&);                   \
  PREFIX template void impl::update_body<XS, YS, XS>(S, const XS&, S, const YS&, S, const XS&);
#define KELP_AXPBY_ETI(PREFIX, S)                                                               \
  KELP_AXPBY_ETI_FORM(PREFIX, S, ConstVectorView<S>, VectorView<S>)                             \
  KELP_AXPBY_ETI_FORM(PREFIX, S, eti::ConstLeft<S>, eti::Left<S>)                               \
  KELP_AXPBY_ETI_FORM(PREFIX, S, eti::ConstRight<S>, eti::Right<S>)
KELP_ETI_FOR_EACH_SCALAR(KELP_AXPBY_ETI, extern)

}  // namespace kelp::kernels
