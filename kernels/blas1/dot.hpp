#pragma once
/// Inner products: dot, a fused pair of dots, and column-wise multi-vector dots.
///
/// dot(x, y) = sum_i conj(x_i) y_i (conjugating the first argument, as BLAS zdotc).
/// Memory traffic: 2n words per dot; dots() reads 4n words in one pass instead of two.

#include <utility>

#include "kelp/kernels/blas1/blas1_checks.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/standard_views.hpp"

namespace kelp::kernels {

namespace impl {
template <class XView, class YView>
typename YView::non_const_value_type dot_body(const XView& x, const YView& y) {
  using Scalar = typename YView::non_const_value_type;
  using Exec = typename YView::execution_space;
  Scalar result = Scalar(0);
  Kokkos::parallel_reduce(
      "kelp::kernels::dot", Kokkos::RangePolicy<Exec>(0, x.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i, Scalar& sum) {
        sum += ScalarTraits<Scalar>::conj(x(i)) * y(i);
      },
      result);
  return result;
}
}  // namespace impl

/// Inner product conj(x)^T y of two vectors of equal length.
template <class XView, class YView>
typename YView::non_const_value_type dot(const XView& x, const YView& y) {
  static_assert(XView::rank == 1 && YView::rank == 1, "dot: x and y must be rank-1 views");
  impl::require_same_shape("kelp::kernels::dot", "x", x, "y", y);
  using D = typename YView::device_type;
  using XF = kelp::impl::has_standard_form<XView, D>;
  using YF = kelp::impl::has_standard_form<YView, D>;
  if constexpr (XF::value && YF::value) {
    using XS = typename XF::const_type;
    using YS = typename YF::const_type;
    return impl::dot_body<XS, YS>(XS(x), YS(y));
  } else {
    return impl::dot_body<XView, YView>(x, y);
  }
}

namespace impl {
/// Sum of two inner products in one pass; value_type is a 2-array.
template <class X1, class Y1, class X2, class Y2>
struct FusedDots {
  using Scalar = typename Y1::non_const_value_type;
  using value_type = Scalar[];
  using size_type = std::size_t;
  size_type value_count = 2;
  X1 x1;
  Y1 y1;
  X2 x2;
  Y2 y2;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type i, value_type sum) const {
    sum[0] += ScalarTraits<Scalar>::conj(x1(i)) * y1(i);
    sum[1] += ScalarTraits<Scalar>::conj(x2(i)) * y2(i);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sum) const { sum[0] = sum[1] = Scalar(0); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    dst[0] += src[0];
    dst[1] += src[1];
  }
};
}  // namespace impl

namespace impl {
template <class X1, class Y1, class X2, class Y2>
std::pair<typename Y1::non_const_value_type, typename Y1::non_const_value_type> dots_body(
    const X1& x1, const Y1& y1, const X2& x2, const Y2& y2) {
  using Scalar = typename Y1::non_const_value_type;
  using Exec = typename Y1::execution_space;
  Scalar result[2] = {Scalar(0), Scalar(0)};
  Kokkos::parallel_reduce("kelp::kernels::dots", Kokkos::RangePolicy<Exec>(0, x1.extent(0)),
                          FusedDots<X1, Y1, X2, Y2>{2, x1, y1, x2, y2}, result);
  return {result[0], result[1]};
}
}  // namespace impl

/// Fused pair (conj(x1)^T y1, conj(x2)^T y2) in one pass over the four vectors.
template <class X1, class Y1, class X2, class Y2>
std::pair<typename Y1::non_const_value_type, typename Y1::non_const_value_type> dots(
    const X1& x1, const Y1& y1, const X2& x2, const Y2& y2) {
  impl::require_same_shape("kelp::kernels::dots", "x1", x1, "y1", y1);
  impl::require_same_shape("kelp::kernels::dots", "x1", x1, "x2", x2);
  impl::require_same_shape("kelp::kernels::dots", "x2", x2, "y2", y2);
  using D = typename Y1::device_type;
  using F1 = kelp::impl::has_standard_form<X1, D>;
  using F2 = kelp::impl::has_standard_form<Y1, D>;
  using F3 = kelp::impl::has_standard_form<X2, D>;
  using F4 = kelp::impl::has_standard_form<Y2, D>;
  if constexpr (F1::value && F2::value && F3::value && F4::value && X1::rank == 1) {
    using V = typename F1::const_type;
    return impl::dots_body<V, V, V, V>(V(x1), V(y1), V(x2), V(y2));
  } else {
    return impl::dots_body<X1, Y1, X2, Y2>(x1, y1, x2, y2);
  }
}

namespace impl {
/// Column-wise conj(X_j)^T Y_j for all columns j in one pass; value_type is a k-array.
template <class XView, class YView>
struct ColumnDots {
  using Scalar = typename YView::non_const_value_type;
  using value_type = Scalar[];
  using size_type = std::size_t;
  size_type value_count;
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type i, value_type sum) const {
    for (size_type j = 0; j < value_count; ++j) sum[j] += ScalarTraits<Scalar>::conj(x(i, j)) * y(i, j);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sum) const {
    for (size_type j = 0; j < value_count; ++j) sum[j] = Scalar(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type j = 0; j < value_count; ++j) dst[j] += src[j];
  }
};
}  // namespace impl

/// Column-wise dots: result(j) = conj(X(:, j))^T Y(:, j). result is a rank-1 host or device view.
template <class XView, class YView, class RView>
void dot(const XView& x, const YView& y, const RView& result) {
  static_assert(XView::rank == 2 && YView::rank == 2, "dot: X and Y must be rank-2 views");
  using Exec = typename YView::execution_space;
  impl::require_same_shape("kelp::kernels::dot", "X", x, "Y", y);
  impl::require_result_per_column("kelp::kernels::dot", x, result);
  auto host = Kokkos::create_mirror_view(result);
  if (x.extent(1) > 0) {
    Kokkos::parallel_reduce("kelp::kernels::dot(multivector)",
                            Kokkos::RangePolicy<Exec>(0, x.extent(0)),
                            impl::ColumnDots<XView, YView>{x.extent(1), x, y}, host.data());
  }
  Kokkos::deep_copy(result, host);
}

// Compiled once for the standard types, in kernels/blas1/eti/ (see kernels/core/eti.hpp).
#define KELP_DOT_ETI(PREFIX, S)                                                                  \
  PREFIX template S impl::dot_body<ConstVectorView<S>, ConstVectorView<S>>(                      \
      const ConstVectorView<S>&, const ConstVectorView<S>&);                                     \
  PREFIX template std::pair<S, S>                                                                \
  impl::dots_body<ConstVectorView<S>, ConstVectorView<S>, ConstVectorView<S>, ConstVectorView<S>>( \
      const ConstVectorView<S>&, const ConstVectorView<S>&, const ConstVectorView<S>&,           \
      const ConstVectorView<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_DOT_ETI, extern)

}  // namespace kelp::kernels
