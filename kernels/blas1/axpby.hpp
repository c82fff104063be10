#pragma once
/// Element-wise vector updates for vectors (rank 1) and multi-vectors (rank 2, applied to all
/// columns): fill, scal, axpby and update.
///
/// A zero coefficient on an output operand means "overwrite": y is then never read, so NaN or
/// garbage in it does not propagate (as for beta = 0 in BLAS).

#include "kelp/kernels/blas1/blas1_checks.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

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

/// x = alpha * x.  alpha = 0 writes zeros without reading x.
template <class XView>
void scal(typename XView::const_value_type alpha, const XView& x) {
  using Scalar = typename XView::non_const_value_type;
  if (alpha == Scalar(0)) {
    Kokkos::deep_copy(x, Scalar(0));
    return;
  }
  impl::for_each_element("kelp::kernels::scal", x, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
    impl::at(x, i, j) *= alpha;
  });
}

/// y = alpha * x + beta * y.  beta = 0 does not read y.  Traffic: 3 words per entry (2 if beta = 0).
template <class XView, class YView>
void axpby(typename YView::const_value_type alpha, const XView& x,
           typename YView::const_value_type beta, const YView& y) {
  using Scalar = typename YView::non_const_value_type;
  impl::require_same_shape("kelp::kernels::axpby", "x", x, "y", y);
  if (beta == Scalar(0)) {
    impl::for_each_element("kelp::kernels::axpby", y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      impl::at(y, i, j) = alpha * impl::at(x, i, j);
    });
  } else {
    impl::for_each_element("kelp::kernels::axpby", y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      impl::at(y, i, j) = alpha * impl::at(x, i, j) + beta * impl::at(y, i, j);
    });
  }
}

/// y = alpha * x + beta * y + gamma * z.  beta = 0 does not read y.
/// Traffic: 4 words per entry; saves one pass over y compared with two axpby calls.
template <class XView, class YView, class ZView>
void update(typename YView::const_value_type alpha, const XView& x,
            typename YView::const_value_type beta, const YView& y,
            typename YView::const_value_type gamma, const ZView& z) {
  using Scalar = typename YView::non_const_value_type;
  impl::require_same_shape("kelp::kernels::update", "x", x, "y", y);
  impl::require_same_shape("kelp::kernels::update", "z", z, "y", y);
  if (beta == Scalar(0)) {
    impl::for_each_element("kelp::kernels::update", y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      impl::at(y, i, j) = alpha * impl::at(x, i, j) + gamma * impl::at(z, i, j);
    });
  } else {
    impl::for_each_element("kelp::kernels::update", y, KOKKOS_LAMBDA(std::size_t i, std::size_t j) {
      impl::at(y, i, j) = alpha * impl::at(x, i, j) + beta * impl::at(y, i, j) + gamma * impl::at(z, i, j);
    });
  }
}

}  // namespace kelp::kernels
