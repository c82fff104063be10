#pragma once
/// Vector norms: nrm2 = sqrt(sum |x_i|^2) and nrminf = max |x_i|, for vectors and, column-wise,
/// multi-vectors. A NaN anywhere makes the norm NaN (so solvers can detect it).
///
/// nrm2 is safe from underflow and overflow, like LAPACK's: the plain sum of squares is one pass,
/// and only when it leaves the range where it is exact to rounding (0, below min / eps, or inf)
/// is the norm recomputed as s * sqrt(sum |x_i / s|^2) with s the largest |Re x_i| or |Im x_i|. Without that, a
/// vector of entries near 1e-170 (1e-23 in float) had norm 0 and one near 1e160 norm inf, and a
/// solver stopped "converged" or "non_finite" on a well-posed system.
/// Every function also takes an execution-space instance first (kernels/core/execution_space.hpp);
/// a result returned on the host fences that instance only.

#include <cmath>
#include <limits>
#include <vector>

#include "kelp/kernels/blas1/blas1_checks.hpp"
#include "kelp/kernels/core/column_access.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/execution_space.hpp"
#include "kelp/kernels/core/row_block_reduce.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/standard_views.hpp"

namespace kelp::kernels {

namespace impl {
/// Max-modulus reduction that lets NaN win, unlike a plain max.
template <class Mag>
KOKKOS_INLINE_FUNCTION void nan_aware_max(Mag& dst, const Mag src) {
  if (src != src || src > dst) dst = src;
}

/// What a column reduction computes, per column j:
///   sum_of_squares        sum_i |x_ij|^2
///   max_modulus           max_i |x_ij| (NaN wins)
///   max_part              max_i max(|Re x_ij|, |Im x_ij|) (NaN wins): a scale for the scaled
///                         sum that never forms |x|^2, unlike abs() of a complex number
///   scaled_sum_of_squares sum_i |x_ij / scale(j)|^2, real and imaginary parts apart, for the
///                         columns with scale(j) > 0 (the others add nothing)
enum class ColumnReduce { sum_of_squares, max_modulus, max_part, scaled_sum_of_squares };

template <class XView, ColumnReduce Kind>
struct ColumnNorms {
  using Scalar = typename XView::non_const_value_type;
  using Mag = typename ScalarTraits<Scalar>::magnitude_type;
  using value_type = Mag[];
  using size_type = std::size_t;
  static constexpr bool sums =
      Kind == ColumnReduce::sum_of_squares || Kind == ColumnReduce::scaled_sum_of_squares;
  size_type value_count;
  XView x;
  Kokkos::View<const Mag*, typename XView::memory_space> scale;  // scaled_sum_of_squares only
  KOKKOS_INLINE_FUNCTION void operator()(const size_type i, value_type acc) const {
    for (size_type j = 0; j < value_count; ++j) {
      const Scalar v = x(i, j);
      if (Kind == ColumnReduce::sum_of_squares) {
        acc[j] += ScalarTraits<Scalar>::abs2(v);
      } else if (Kind == ColumnReduce::max_modulus) {
        nan_aware_max(acc[j], ScalarTraits<Scalar>::abs(v));
      } else if (Kind == ColumnReduce::max_part) {
        nan_aware_max(acc[j], ScalarTraits<Mag>::abs(ScalarTraits<Scalar>::real(v)));
        nan_aware_max(acc[j], ScalarTraits<Mag>::abs(ScalarTraits<Scalar>::imag(v)));
      } else if (scale(j) > Mag(0)) {
        const Mag re = ScalarTraits<Scalar>::real(v) / scale(j);
        const Mag im = ScalarTraits<Scalar>::imag(v) / scale(j);
        acc[j] += re * re + im * im;
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type acc) const {
    for (size_type j = 0; j < value_count; ++j) acc[j] = Mag(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type j = 0; j < value_count; ++j) {
      if (sums) {
        dst[j] += src[j];
      } else if (src[j] != src[j] || src[j] > dst[j]) {
        dst[j] = src[j];
      }
    }
  }
};

/// True when a sum of squares may not hold the squared norm to rounding: 0 (every square may
/// have underflowed), below min / eps (some squares may have been subnormal) or inf (overflow).
/// NaN is not: it stays NaN.
template <class Mag>
bool outside_exact_range(const Mag sum) {
  return sum < std::numeric_limits<Mag>::min() / std::numeric_limits<Mag>::epsilon() ||
         sum > std::numeric_limits<Mag>::max();
}

/// Turns the column sums of squares in `sums` (host) into norms: sqrt where the sum is in the
/// exact range; elsewhere s * sqrt(sum |x_ij / s|^2) with s the largest |Re| or |Im| of the
/// column (two more passes, taken only when some column needs them).
template <class Exec, class XView, class SumView>
void scaled_sqrt_where_needed(const char* where, const Exec& exec, const XView& x, const SumView& sums) {
  using Mag = typename SumView::non_const_value_type;
  const std::size_t m = sums.extent(0);
  using ScaleView = Kokkos::View<Mag*, typename XView::memory_space>;
  std::vector<char> needs(m, 0);
  bool any = false;
  for (std::size_t j = 0; j < m; ++j) {
    needs[j] = outside_exact_range(sums(j));
    any = any || needs[j];
    sums(j) = std::sqrt(sums(j));
  }
  if (!any) return;
  ScaleView scale("kelp::kernels::column_norms::scale", m);
  auto scale_host = Kokkos::create_mirror_view(scale);
  Kokkos::parallel_reduce(where, Kokkos::RangePolicy<Exec>(exec, 0, x.extent(0)),
                          ColumnNorms<XView, ColumnReduce::max_part>{m, x, {}}, scale_host);
  exec.fence();
  for (std::size_t j = 0; j < m; ++j) {
    const Mag s = scale_host(j);
    const bool finite_positive = s > Mag(0) && s <= std::numeric_limits<Mag>::max();
    if (needs[j] && !finite_positive) sums(j) = s;  // an all-zero column (0) or an inf entry
    if (!needs[j] || !finite_positive) scale_host(j) = Mag(0);  // not rescaled
  }
  Kokkos::deep_copy(exec, scale, scale_host);
  Kokkos::View<Mag*, Kokkos::HostSpace> scaled("kelp::kernels::column_norms::scaled", m);
  Kokkos::parallel_reduce(where, Kokkos::RangePolicy<Exec>(exec, 0, x.extent(0)),
                          ColumnNorms<XView, ColumnReduce::scaled_sum_of_squares>{m, x, scale}, scaled);
  exec.fence();
  for (std::size_t j = 0; j < m; ++j) {
    if (scale_host(j) > Mag(0)) sums(j) = scale_host(j) * std::sqrt(scaled(j));
  }
}

/// Column norms of x (rank 2) on exec into result (host or device, one entry per column).
template <bool Inf, class Exec, class XView, class RView>
void column_norms(const char* where, const Exec& exec, const XView& x, const RView& result) {
  static_assert(XView::rank == 2, "multi-vector norms need a rank-2 view");
  using Mag = typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type;
  impl::require_result_per_column(where, x, result);
  Kokkos::View<Mag*, Kokkos::HostSpace> host("kelp::kernels::column_norms::host", x.extent(1));
  if (x.extent(1) > 0 && x.extent(0) > 0) {
    Kokkos::parallel_reduce(where, Kokkos::RangePolicy<Exec>(exec, 0, x.extent(0)),
                            ColumnNorms<XView, Inf ? ColumnReduce::max_modulus : ColumnReduce::sum_of_squares>{
                                x.extent(1), x, {}},
                            host);
    exec.fence();  // read on the host below
  }
  if (!Inf) scaled_sqrt_where_needed(where, exec, x, host);
  store_result(exec, host, result);
}
}  // namespace impl

namespace impl {
/// |x_i|^2 summed over rows (reduce_rows: blocks of rows on host threads).
template <class XView>
struct SumOfSquares {
  using Scalar = typename XView::non_const_value_type;
  using value_type = typename ScalarTraits<Scalar>::magnitude_type;
  XView x;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, value_type& sum) const {
    sum += ScalarTraits<Scalar>::abs2(x(i));
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& sum) const { sum = value_type(0); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    dst += src;
  }
};

template <class Exec, class XView>
typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type nrm2_body(
    const Exec& exec, const XView& x) {
  using Mag = typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type;
  Mag sum = 0;
  // A scalar result: Kokkos fences exec (only) before returning.
  reduce_rows("kelp::kernels::nrm2", exec, x.extent(0), SumOfSquares<XView>{x}, sum);
  if (!outside_exact_range(sum)) return std::sqrt(sum);
  Kokkos::View<Mag*, Kokkos::HostSpace> norm("kelp::kernels::nrm2::scaled", 1);
  norm(0) = sum;
  scaled_sqrt_where_needed("kelp::kernels::nrm2(scaled)", exec, kelp::impl::as_columns(x), norm);
  return norm(0);
}
}  // namespace impl

/// Euclidean norm sqrt(sum_i |x_i|^2) of a vector, computed on exec.
template <class ExecSpace, class XView, kelp::impl::if_execution_space<ExecSpace> = 0>
typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type nrm2(
    const ExecSpace& exec, const XView& x) {
  static_assert(XView::rank == 1, "nrm2: x must be a rank-1 view (use the result-view overload)");
  static_assert(kelp::impl::can_access<ExecSpace, XView>(), "nrm2: exec must be able to access x");
  using D = typename XView::device_type;
  if constexpr (kelp::impl::use_standard_forms<ExecSpace, D, XView>()) {
    using XS = typename kelp::impl::has_standard_form<XView, D>::const_type;
    return impl::nrm2_body<ExecSpace, XS>(exec, XS(x));
  } else {
    return impl::nrm2_body<ExecSpace, XView>(exec, x);
  }
}

/// Euclidean norm sqrt(sum_i |x_i|^2) of a vector.
template <class XView, kelp::impl::if_view<XView> = 0>
typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type nrm2(const XView& x) {
  return nrm2(typename XView::execution_space(), x);
}

/// Max-modulus norm max_i |x_i| of a vector on exec (0 for an empty vector; NaN if any entry is NaN).
template <class ExecSpace, class XView, kelp::impl::if_execution_space<ExecSpace> = 0>
typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type nrminf(
    const ExecSpace& exec, const XView& x) {
  static_assert(XView::rank == 1, "nrminf: x must be a rank-1 view (use the result-view overload)");
  static_assert(kelp::impl::can_access<ExecSpace, XView>(), "nrminf: exec must be able to access x");
  using Mag = typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type;
  Kokkos::View<Mag*, Kokkos::HostSpace> result("kelp::kernels::nrminf", 1);
  impl::column_norms<true>("kelp::kernels::nrminf", exec, kelp::impl::as_columns(x), result);
  return result(0);
}

/// Max-modulus norm max_i |x_i| of a vector (0 for an empty vector; NaN if any entry is NaN).
template <class XView, kelp::impl::if_view<XView> = 0>
typename ScalarTraits<typename XView::non_const_value_type>::magnitude_type nrminf(const XView& x) {
  return nrminf(typename XView::execution_space(), x);
}

/// Column-wise Euclidean norms of a multi-vector into result (one entry per column), on exec.
template <class ExecSpace, class XView, class RView, kelp::impl::if_execution_space<ExecSpace> = 0>
void nrm2(const ExecSpace& exec, const XView& x, const RView& result) {
  static_assert(kelp::impl::can_access<ExecSpace, XView>(), "nrm2: exec must be able to access X");
  impl::column_norms<false>("kelp::kernels::nrm2(multivector)", exec, x, result);
}

/// Column-wise Euclidean norms of a multi-vector into result (one entry per column).
template <class XView, class RView, kelp::impl::if_view<XView> = 0>
void nrm2(const XView& x, const RView& result) {
  nrm2(typename XView::execution_space(), x, result);
}

/// Column-wise max-modulus norms of a multi-vector into result (one entry per column), on exec.
template <class ExecSpace, class XView, class RView, kelp::impl::if_execution_space<ExecSpace> = 0>
void nrminf(const ExecSpace& exec, const XView& x, const RView& result) {
  static_assert(kelp::impl::can_access<ExecSpace, XView>(), "nrminf: exec must be able to access X");
  impl::column_norms<true>("kelp::kernels::nrminf(multivector)", exec, x, result);
}

/// Column-wise max-modulus norms of a multi-vector into result (one entry per column).
template <class XView, class RView, kelp::impl::if_view<XView> = 0>
void nrminf(const XView& x, const RView& result) {
  nrminf(typename XView::execution_space(), x, result);
}

// Compiled once for the standard types, in kernels/blas1/eti/ (see kernels/core/eti.hpp).
#define KELP_NORMS_ETI(PREFIX, S)                                                             \
  PREFIX template ScalarTraits<S>::magnitude_type                                             \
  impl::nrm2_body<DefaultExecutionSpace, ConstVectorView<S>>(const DefaultExecutionSpace&,    \
                                                             const ConstVectorView<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_NORMS_ETI, extern)

}  // namespace kelp::kernels
