#pragma once
/// Column-wise axpby of multi-vectors with one pair of coefficients per column:
///
///   Y(:, j) = a(j) X(:, j) + b(j) Y(:, j),   j < k
///
/// as block methods need it (a block CG or LOBPCG step scales each column by its own step
/// length). a and b are rank-1 host views of length k, copied to the device inside (no copy on
/// host spaces). b(j) = 0 overwrites column j without reading it, so NaN in Y(:, j) does not
/// propagate (as beta = 0 in BLAS); likewise a(j) = 0 does not read X(:, j), so a block solver
/// can freeze a stopped column whatever its work vectors hold. Traffic: 3 words per entry.
///
/// Example:
///   Kokkos::View<double*, Kokkos::HostSpace> a("a", k), b("b", k);
///   ...
///   kernels::axpby_columns(a, X, b, Y);   // or kernels::axpby_columns(exec, a, X, b, Y)

#include <type_traits>

#include "kelp/kernels/blas1/blas1_checks.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/execution_space.hpp"
#include "kelp/kernels/core/standard_views.hpp"

namespace kelp::kernels {

namespace impl {
/// Y(:, j) = a(j) X(:, j) + b(j) Y(:, j) on exec; a and b already in memory exec can read.
template <class Exec, class Coefficients, class XView, class YView>
void axpby_columns_body(const Exec& exec, const Coefficients& a, const XView& x,
                        const Coefficients& b, const YView& y) {
  using Scalar = typename YView::non_const_value_type;
  const std::size_t num_cols = y.extent(1);
  Kokkos::parallel_for(
      "kelp::kernels::axpby_columns", Kokkos::RangePolicy<Exec>(exec, 0, y.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        for (std::size_t j = 0; j < num_cols; ++j) {
          // A zero coefficient does not read its operand: NaN there must not propagate.
          const Scalar ax = a(j) == Scalar(0) ? Scalar(0) : a(j) * x(i, j);
          y(i, j) = b(j) == Scalar(0) ? ax : ax + b(j) * y(i, j);
        }
      });
}

/// The coefficients `host` in memory that instances of Exec can read: `host` itself on host
/// spaces, else a device copy made on exec.
template <class Exec, class Device, class HostView>
ConstVectorView<typename HostView::non_const_value_type, Device> coefficients_for(
    const Exec& exec, const HostView& host) {
  using Scalar = typename HostView::non_const_value_type;
  if constexpr (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible &&
                std::is_same<typename Device::memory_space, Kokkos::HostSpace>::value) {
    (void)exec;
    return ConstVectorView<Scalar, Device>(host);
  } else {
    VectorView<Scalar, Device> copy(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::axpby_columns::coefficients"),
        host.extent(0));
    Kokkos::deep_copy(exec, copy, host);
    return copy;
  }
}
}  // namespace impl

/// Y(:, j) = a(j) X(:, j) + b(j) Y(:, j) for every column j, on exec.
/// @param[in] a, b   rank-1 host views (e.g. Kokkos::View<Scalar*, Kokkos::HostSpace>) of length k
/// @param[in] x      n x k rank-2 view
/// @param[in,out] y  n x k rank-2 view; column j is not read where b(j) = 0
/// @throws DimensionMismatch when X and Y differ in shape or a, b do not have k entries
template <class ExecSpace, class AView, class XView, class BView, class YView,
          kelp::impl::if_execution_space<ExecSpace> = 0>
void axpby_columns(const ExecSpace& exec, const AView& a, const XView& x, const BView& b,
                   const YView& y) {
  static_assert(XView::rank == 2 && YView::rank == 2, "axpby_columns: X and Y must be rank-2 views");
  static_assert(AView::rank == 1 && BView::rank == 1, "axpby_columns: a and b must be rank-1 views");
  static_assert(Kokkos::SpaceAccessibility<Kokkos::DefaultHostExecutionSpace, typename AView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<Kokkos::DefaultHostExecutionSpace, typename BView::memory_space>::accessible,
                "axpby_columns: a and b must be host views");
  static_assert(kelp::impl::can_access<ExecSpace, XView>() && kelp::impl::can_access<ExecSpace, YView>(),
                "axpby_columns: exec must be able to access X and Y");
  using Scalar = typename YView::non_const_value_type;
  static_assert(std::is_same<typename AView::non_const_value_type, Scalar>::value &&
                    std::is_same<typename BView::non_const_value_type, Scalar>::value,
                "axpby_columns: a and b must have Y's scalar type");
  constexpr const char* where = "kelp::kernels::axpby_columns";
  impl::require_same_shape(where, "X", x, "Y", y);
  KELP_REQUIRE(a.extent(0) == y.extent(1) && b.extent(0) == y.extent(1), DimensionMismatch,
               where << ": dimension mismatch: a has " << a.extent(0) << " entries, b has "
                     << b.extent(0) << ", expected " << y.extent(1) << " (the columns of Y)");
  if (y.extent(0) == 0 || y.extent(1) == 0) return;
  using D = typename YView::device_type;
  const auto a_dev = impl::coefficients_for<ExecSpace, D>(exec, a);
  const auto b_dev = impl::coefficients_for<ExecSpace, D>(exec, b);
  using C = std::remove_const_t<decltype(a_dev)>;
  if constexpr (kelp::impl::use_left_forms<ExecSpace, D, XView, YView>()) {
    impl::axpby_columns_body<ExecSpace, C, eti::ConstLeft<Scalar>, eti::Left<Scalar>>(
        exec, a_dev, eti::ConstLeft<Scalar>(x), b_dev, eti::Left<Scalar>(y));
  } else {
    impl::axpby_columns_body<ExecSpace, C, XView, YView>(exec, a_dev, x, b_dev, y);
  }
}

/// Y(:, j) = a(j) X(:, j) + b(j) Y(:, j) (see above) on a default instance of Y's space.
template <class AView, class XView, class BView, class YView, kelp::impl::if_view<AView> = 0>
void axpby_columns(const AView& a, const XView& x, const BView& b, const YView& y) {
  axpby_columns(typename YView::execution_space(), a, x, b, y);
}

// Compiled once for the standard scalars and LayoutLeft multi-vectors, in kernels/blas1/eti/.
#define KELP_AXPBY_COLUMNS_ETI(PREFIX, S)                                                      \
  PREFIX template void impl::axpby_columns_body<DefaultExecutionSpace, ConstVectorView<S>,     \
                                                eti::ConstLeft<S>, eti::Left<S>>(              \
      const DefaultExecutionSpace&, const ConstVectorView<S>&, const eti::ConstLeft<S>&,       \
      const ConstVectorView<S>&, const eti::Left<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_AXPBY_COLUMNS_ETI, extern)

}  // namespace kelp::kernels
