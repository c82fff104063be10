#pragma once
/// Vector norms: nrm2 = sqrt(sum |x_i|^2) and nrminf = max |x_i|, for vectors and, column-wise,
/// multi-vectors. A NaN anywhere makes the norm NaN (so solvers can detect it).

#include <cmath>
#include <limits>

#include "kelp/kernels/blas1/blas1_checks.hpp"
#include "kelp/kernels/core/column_access.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/standard_views.hpp"

namespace kelp::kernels {

namespace impl {
/// Max-modulus reduction that lets NaN win, unlike a plain max.
template <class Mag>
KOKKOS_INLINE_FUNCTION void nan_aware_max(Mag& dst, const Mag src) {
  if (src != src || src > dst) dst = src;
}

template <class XView, bool Inf>
struct ColumnNorms {
  using Scalar = typename XView::non_const_value_type;
  using Mag = typename ScalarTraits<Scalar>::magnitude_type;
  using value_type = Mag[];
  using size_type = std::size_t;
  size_type value_count;
  XView x;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type i, value_type acc) const {
    for (size_type j = 0; j < value_count; ++j) {
      if (Inf) {
        nan_aware_max(acc[j], ScalarTraits<Scalar>::abs(x(i, j)));
      } else {
        acc[j] += ScalarTraits<Scalar>::abs2(x(i, j));
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type acc) const {
    for (size_type j = 0; j < value_count; ++j) acc[j] = Mag(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type j = 0; j < value_count; ++j) {
      if (Inf) {
        if (src[j] != src[j] || src[j] > dst[j]) dst[j] = src[j];
      } else {
        dst[j] += src[j];
      }
    }
  }
};

template <bool Inf, class XView, class RView>
void column_norms(const char* where, const XView& x, const RView& result) {
  static_assert(XView::rank == 2, "multi-vector norms need a rank-2 view");
  using Exec = typename XView::execution_space;
  impl::require_result_per_column(where, x, result);
  auto host = Kokkos::create_mirror_view(result);
  Kokkos::deep_copy(host, 0);
  if (x.extent(1) > 0) {
    Kokkos::parallel_reduce(where, Kokkos::RangePolicy<Exec>(0, x.extent(0)),
                            ColumnNorms<XView, Inf>{x.extent(1), x}, host.data());
  }
  if (!Inf) {
    for (std::size_t j = 0; j < host.extent(0); ++j) host(j) = std::sqrt(host(j));
  }
  Kokkos::deep_copy(result, host);
}
}  // namespace impl

namespace impl {
template <class XView>
typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type nrm2_body(const XView& x) {
  using Scalar = typename XView::non_const_value_type;
  using Mag = typename ScalarTraits<Scalar>::magnitude_type;
  using Exec = typename XView::execution_space;
  Mag sum = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::nrm2", Kokkos::RangePolicy<Exec>(0, x.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i, Mag& acc) { acc += ScalarTraits<Scalar>::abs2(x(i)); },
      sum);
  return std::sqrt(sum);
}
}  // namespace impl

/// Euclidean norm sqrt(sum_i |x_i|^2) of a vector.
template <class XView>
typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type nrm2(const XView& x) {
  static_assert(XView::rank == 1, "nrm2: x must be a rank-1 view (use the result-view overload)");
  using F = kelp::impl::has_standard_form<XView, typename XView::device_type>;
  if constexpr (F::value) {
    using XS = typename F::const_type;
    return impl::nrm2_body<XS>(XS(x));
  } else {
    return impl::nrm2_body<XView>(x);
  }
}

/// Max-modulus norm max_i |x_i| of a vector (0 for an empty vector; NaN if any entry is NaN).
template <class XView>
typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type nrminf(const XView& x) {
  static_assert(XView::rank == 1, "nrminf: x must be a rank-1 view (use the result-view overload)");
  using Mag = typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type;
  Kokkos::View<Mag*, Kokkos::HostSpace> result("kelp::kernels::nrminf", 1);
  impl::column_norms<true>("kelp::kernels::nrminf", kelp::impl::as_columns(x), result);
  return result(0);
}

/// Column-wise Euclidean norms of a multi-vector into result (one entry per column).
template <class XView, class RView>
void nrm2(const XView& x, const RView& result) {
  impl::column_norms<false>("kelp::kernels::nrm2(multivector)", x, result);
}

/// Column-wise max-modulus norms of a multi-vector into result (one entry per column).
template <class XView, class RView>
void nrminf(const XView& x, const RView& result) {
  impl::column_norms<true>("kelp::kernels::nrminf(multivector)", x, result);
}

// Compiled once for the standard types, in kernels/blas1/eti/ (see kernels/core/eti.hpp).
#define KELP_NORMS_ETI(PREFIX, S) \
  PREFIX template ScalarTraits<S>::magnitude_type impl::nrm2_body<ConstVectorView<S>>(const ConstVectorView<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_NORMS_ETI, extern)

}  // namespace kelp::kernels
