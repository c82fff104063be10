#pragma once
/// Inner products: dot, a fused pair of dots, and column-wise multi-vector dots.
///
/// dot(x, y) = sum_i conj(x_i) y_i (conjugating the first argument, as BLAS zdotc).
/// Memory traffic: 2n words per dot; dots() reads 4n words in one pass instead of two.
/// Every function also takes an execution-space instance first (kernels/core/execution_space.hpp);
/// a result returned on the host fences that instance only.
///
/// Example:
///   const double xy = kernels::dot(x, y);
///   const auto [rz, rr] = kernels::dots(exec, r, z, r, r);   // one pass, on exec

#include <utility>

#include "kelp/kernels/blas1/blas1_checks.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/execution_space.hpp"
#include "kelp/kernels/core/row_block_reduce.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/standard_views.hpp"

namespace kelp::kernels {

namespace impl {
/// conj(x_i) y_i summed over rows (reduce_rows: blocks of rows on host threads).
template <class XView, class YView>
struct Dot {
  using Scalar = typename YView::non_const_value_type;
  using value_type = Scalar;
  XView x;
  YView y;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type& sum) const {
    sum += ScalarTraits<Scalar>::conj(x(i)) * y(i);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& sum) const { sum = Scalar(0); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    dst += src;
  }
};

template <class Exec, class XView, class YView>
typename YView::non_const_value_type dot_body(const Exec& exec, const XView& x, const YView& y) {
  using Scalar = typename YView::non_const_value_type;
  Scalar result = Scalar(0);
  // A scalar result: Kokkos fences exec (only) before returning.
  reduce_rows("kelp::kernels::dot", exec, x.extent(0), Dot<XView, YView>{x, y}, result);
  return result;
}
}  // namespace impl

/// Inner product conj(x)^T y of two vectors of equal length, computed on exec.
template <class ExecSpace, class XView, class YView, kelp::impl::if_execution_space<ExecSpace> = 0>
typename YView::non_const_value_type dot(const ExecSpace& exec, const XView& x, const YView& y) {
  static_assert(XView::rank == 1 && YView::rank == 1, "dot: x and y must be rank-1 views");
  static_assert(kelp::impl::can_access<ExecSpace, XView>() && kelp::impl::can_access<ExecSpace, YView>(),
                "dot: exec must be able to access x and y");
  impl::require_same_shape("kelp::kernels::dot", "x", x, "y", y);
  using D = typename YView::device_type;
  if constexpr (kelp::impl::use_standard_forms<ExecSpace, D, XView, YView>()) {
    using XS = typename kelp::impl::has_standard_form<XView, D>::const_type;
    using YS = typename kelp::impl::has_standard_form<YView, D>::const_type;
    return impl::dot_body<ExecSpace, XS, YS>(exec, XS(x), YS(y));
  } else {
    return impl::dot_body<ExecSpace, XView, YView>(exec, x, y);
  }
}

/// Inner product conj(x)^T y of two vectors of equal length.
template <class XView, class YView, kelp::impl::if_view<XView> = 0>
typename YView::non_const_value_type dot(const XView& x, const YView& y) {
  return dot(typename YView::execution_space(), x, y);
}

namespace impl {
/// Two sums reduced together. A struct of fixed size, not a runtime-length array: Kokkos reduces
/// fixed-size types with warp shuffles on GPUs, arrays through shared memory (on the H100 the
/// array form ran the fused dots at 590 GB/s, a quarter of the triad).
template <class Scalar>
struct ScalarPair {
  Scalar first, second;
};

/// Sum of two inner products in one pass.
template <class X1, class Y1, class X2, class Y2>
struct FusedDots {
  using Scalar = typename Y1::non_const_value_type;
  using value_type = ScalarPair<Scalar>;
  X1 x1;
  Y1 y1;
  X2 x2;
  Y2 y2;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type& sum) const {
    sum.first += ScalarTraits<Scalar>::conj(x1(i)) * y1(i);
    sum.second += ScalarTraits<Scalar>::conj(x2(i)) * y2(i);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& sum) const { sum.first = sum.second = Scalar(0); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    dst.first += src.first;
    dst.second += src.second;
  }
};

template <class Exec, class X1, class Y1, class X2, class Y2>
std::pair<typename Y1::non_const_value_type, typename Y1::non_const_value_type> dots_body(
    const Exec& exec, const X1& x1, const Y1& y1, const X2& x2, const Y2& y2) {
  using Scalar = typename Y1::non_const_value_type;
  ScalarPair<Scalar> result{Scalar(0), Scalar(0)};
  reduce_rows("kelp::kernels::dots", exec, x1.extent(0), FusedDots<X1, Y1, X2, Y2>{x1, y1, x2, y2},
              result);
  exec.fence();  // result is read on the host
  return {result.first, result.second};
}
}  // namespace impl

/// Fused pair (conj(x1)^T y1, conj(x2)^T y2) in one pass over the four vectors, on exec.
template <class ExecSpace, class X1, class Y1, class X2, class Y2,
          kelp::impl::if_execution_space<ExecSpace> = 0>
std::pair<typename Y1::non_const_value_type, typename Y1::non_const_value_type> dots(
    const ExecSpace& exec, const X1& x1, const Y1& y1, const X2& x2, const Y2& y2) {
  static_assert(kelp::impl::can_access<ExecSpace, X1>() && kelp::impl::can_access<ExecSpace, Y1>() &&
                    kelp::impl::can_access<ExecSpace, X2>() && kelp::impl::can_access<ExecSpace, Y2>(),
                "dots: exec must be able to access x1, y1, x2 and y2");
  impl::require_same_shape("kelp::kernels::dots", "x1", x1, "y1", y1);
  impl::require_same_shape("kelp::kernels::dots", "x1", x1, "x2", x2);
  impl::require_same_shape("kelp::kernels::dots", "x2", x2, "y2", y2);
  using D = typename Y1::device_type;
  if constexpr (kelp::impl::use_standard_forms<ExecSpace, D, X1, Y1, X2, Y2>() && X1::rank == 1) {
    using V = typename kelp::impl::has_standard_form<X1, D>::const_type;
    return impl::dots_body<ExecSpace, V, V, V, V>(exec, V(x1), V(y1), V(x2), V(y2));
  } else {
    return impl::dots_body<ExecSpace, X1, Y1, X2, Y2>(exec, x1, y1, x2, y2);
  }
}

/// Fused pair (conj(x1)^T y1, conj(x2)^T y2) in one pass over the four vectors.
template <class X1, class Y1, class X2, class Y2>
std::pair<typename Y1::non_const_value_type, typename Y1::non_const_value_type> dots(
    const X1& x1, const Y1& y1, const X2& x2, const Y2& y2) {
  return dots(typename Y1::execution_space(), x1, y1, x2, y2);
}

namespace impl {
/// Column-wise conj(X1_j)^T Y1_j (j < k1) and conj(X2_j)^T Y2_j (j < k2) in one pass;
/// value_type is a (k1 + k2)-array. k2 = 0 gives the plain column-wise dot.
template <class X1, class Y1, class X2, class Y2>
struct ColumnDots {
  using Scalar = typename Y1::non_const_value_type;
  using value_type = Scalar[];
  using size_type = std::size_t;
  size_type value_count;
  size_type k1;
  X1 x1;
  Y1 y1;
  X2 x2;
  Y2 y2;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type i, value_type sum) const {
    for (size_type j = 0; j < k1; ++j) sum[j] += ScalarTraits<Scalar>::conj(x1(i, j)) * y1(i, j);
    for (size_type j = k1; j < value_count; ++j) {
      sum[j] += ScalarTraits<Scalar>::conj(x2(i, j - k1)) * y2(i, j - k1);
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sum) const {
    for (size_type j = 0; j < value_count; ++j) sum[j] = Scalar(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type j = 0; j < value_count; ++j) dst[j] += src[j];
  }
};

/// result[0, k1) = column dots of (x1, y1), result[k1, k1 + k2) those of (x2, y2): one
/// parallel reduction on exec; `result` is host memory of k1 + k2 entries. Shapes checked.
template <class Exec, class X1, class Y1, class X2, class Y2>
void column_dots_body(const Exec& exec, const X1& x1, const Y1& y1, const X2& x2, const Y2& y2,
                      typename Y1::non_const_value_type* result) {
  using Scalar = typename Y1::non_const_value_type;
  const std::size_t k1 = x1.extent(1), k2 = x2.extent(1);
  for (std::size_t j = 0; j < k1 + k2; ++j) result[j] = Scalar(0);  // the sums of no rows
  if (k1 + k2 == 0 || x1.extent(0) == 0) return;
  Kokkos::View<Scalar*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(result, k1 + k2);
  Kokkos::parallel_reduce("kelp::kernels::column_dots",
                          Kokkos::RangePolicy<Exec>(exec, 0, x1.extent(0)),
                          ColumnDots<X1, Y1, X2, Y2>{k1 + k2, k1, x1, y1, x2, y2}, host);
  exec.fence();  // result is read on the host
}

}  // namespace impl

/// Column-wise dots on exec: result(j) = conj(X(:, j))^T Y(:, j), one parallel reduction.
/// result is a rank-1 host or device view with one entry per column.
template <class ExecSpace, class XView, class YView, class RView,
          kelp::impl::if_execution_space<ExecSpace> = 0>
void dot(const ExecSpace& exec, const XView& x, const YView& y, const RView& result) {
  static_assert(XView::rank == 2 && YView::rank == 2, "dot: X and Y must be rank-2 views");
  static_assert(kelp::impl::can_access<ExecSpace, XView>() && kelp::impl::can_access<ExecSpace, YView>(),
                "dot: exec must be able to access X and Y");
  using Scalar = typename YView::non_const_value_type;
  impl::require_same_shape("kelp::kernels::dot", "X", x, "Y", y);
  impl::require_result_per_column("kelp::kernels::dot", x, result);
  Kokkos::View<Scalar*, Kokkos::HostSpace> host("kelp::kernels::dot::host", x.extent(1));
  using D = typename YView::device_type;
  if constexpr (kelp::impl::use_left_forms<ExecSpace, D, XView, YView>()) {
    using V = eti::ConstLeft<Scalar>;
    impl::column_dots_body<ExecSpace, V, V, V, V>(exec, V(x), V(y), V(), V(), host.data());
  } else {
    impl::column_dots_body<ExecSpace, XView, YView, XView, YView>(exec, x, y, XView(), YView(),
                                                                  host.data());
  }
  impl::store_result(exec, host, result);
}

/// Column-wise dots: result(j) = conj(X(:, j))^T Y(:, j). result is a rank-1 host or device view.
template <class XView, class YView, class RView, kelp::impl::if_view<XView> = 0>
void dot(const XView& x, const YView& y, const RView& result) {
  dot(typename YView::execution_space(), x, y, result);
}

/// Fused column-wise dots on exec, in one pass over the rows (one parallel reduction):
///   r1(j) = conj(X1(:, j))^T Y1(:, j),  r2(j) = conj(X2(:, j))^T Y2(:, j).
/// @param[in] x1, y1  n x k1 multi-vectors;  x2, y2: n x k2 (k2 may differ from k1)
/// @param[out] r1, r2 rank-1 host or device views of k1 and k2 entries
/// @throws DimensionMismatch when the shapes don't conform
template <class ExecSpace, class X1, class Y1, class X2, class Y2, class R1, class R2,
          kelp::impl::if_execution_space<ExecSpace> = 0>
void column_dots(const ExecSpace& exec, const X1& x1, const Y1& y1, const X2& x2, const Y2& y2,
                 const R1& r1, const R2& r2) {
  static_assert(X1::rank == 2 && Y1::rank == 2 && X2::rank == 2 && Y2::rank == 2,
                "column_dots: X1, Y1, X2 and Y2 must be rank-2 views");
  static_assert(kelp::impl::can_access<ExecSpace, X1>() && kelp::impl::can_access<ExecSpace, Y1>() &&
                    kelp::impl::can_access<ExecSpace, X2>() && kelp::impl::can_access<ExecSpace, Y2>(),
                "column_dots: exec must be able to access X1, Y1, X2 and Y2");
  using Scalar = typename Y1::non_const_value_type;
  constexpr const char* where = "kelp::kernels::column_dots";
  impl::require_same_shape(where, "X1", x1, "Y1", y1);
  impl::require_same_shape(where, "X2", x2, "Y2", y2);
  impl::require_same_rows(where, "X1", x1, "X2", x2);
  KELP_REQUIRE(r1.extent(0) == x1.extent(1) && r2.extent(0) == x2.extent(1), DimensionMismatch,
               where << ": dimension mismatch: r1 has " << r1.extent(0) << " entries, r2 has "
                     << r2.extent(0) << "; expected " << x1.extent(1) << " and " << x2.extent(1)
                     << " (the columns of X1 and X2)");
  const std::size_t k1 = x1.extent(1), k2 = x2.extent(1);
  Kokkos::View<Scalar*, Kokkos::HostSpace> host("kelp::kernels::column_dots::host", k1 + k2);
  using D = typename Y1::device_type;
  if constexpr (kelp::impl::use_left_forms<ExecSpace, D, X1, Y1, X2, Y2>()) {
    using V = eti::ConstLeft<Scalar>;
    impl::column_dots_body<ExecSpace, V, V, V, V>(exec, V(x1), V(y1), V(x2), V(y2), host.data());
  } else {
    impl::column_dots_body<ExecSpace, X1, Y1, X2, Y2>(exec, x1, y1, x2, y2, host.data());
  }
  impl::store_result(exec, Kokkos::subview(host, std::make_pair(std::size_t(0), k1)), r1);
  impl::store_result(exec, Kokkos::subview(host, std::make_pair(k1, k1 + k2)), r2);
}

/// Fused column-wise dots (see above) on a default instance.
template <class X1, class Y1, class X2, class Y2, class R1, class R2, kelp::impl::if_view<X1> = 0>
void column_dots(const X1& x1, const Y1& y1, const X2& x2, const Y2& y2, const R1& r1,
                 const R2& r2) {
  column_dots(typename Y1::execution_space(), x1, y1, x2, y2, r1, r2);
}

// Compiled once for the standard types, in kernels/blas1/eti/ (see kernels/core/eti.hpp), for
// instances of the default execution space; column dots for LayoutLeft multi-vectors.
#define KELP_DOT_ETI(PREFIX, S)                                                                  \
  PREFIX template S impl::dot_body<DefaultExecutionSpace, ConstVectorView<S>, ConstVectorView<S>>( \
      const DefaultExecutionSpace&, const ConstVectorView<S>&, const ConstVectorView<S>&);       \
  PREFIX template std::pair<S, S>                                                                \
  impl::dots_body<DefaultExecutionSpace, ConstVectorView<S>, ConstVectorView<S>,                 \
                  ConstVectorView<S>, ConstVectorView<S>>(                                       \
      const DefaultExecutionSpace&, const ConstVectorView<S>&, const ConstVectorView<S>&,        \
      const ConstVectorView<S>&, const ConstVectorView<S>&);                                     \
  PREFIX template void impl::column_dots_body<DefaultExecutionSpace, eti::ConstLeft<S>,          \
                                              eti::ConstLeft<S>, eti::ConstLeft<S>,              \
                                              eti::ConstLeft<S>>(                                \
      const DefaultExecutionSpace&, const eti::ConstLeft<S>&, const eti::ConstLeft<S>&,          \
      const eti::ConstLeft<S>&, const eti::ConstLeft<S>&, S*);
KELP_ETI_FOR_EACH_SCALAR(KELP_DOT_ETI, extern)

}  // namespace kelp::kernels
