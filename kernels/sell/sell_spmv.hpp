#pragma once
/// SpMV and SpMMV with a SELL-C-sigma matrix (kernels/sell/sell_matrix.hpp):
///
///   y = beta * y + alpha * A * x
///
/// x and y are rank-1 views (SpMV) or rank-2 views with one column per vector (SpMMV,
/// LayoutLeft or LayoutRight); y comes out in the original row order (the sorting is internal).
/// beta = 0 overwrites y without reading it (NaN in y does not propagate); alpha = 0 scales y
/// without reading A or x. x and y must not overlap. op(A) = A only: transposed products of a
/// SELL matrix would scatter, for which CRS (kernels/spmv) is the better format.
///
/// Every overload has an execution-space-instance form (instance first, as kernels::spmv): all
/// work runs on that instance, and the call does not fence it.
///
/// Example:
///   auto S = kernels::to_sell(A, {32, 256});
///   kernels::sell_spmv(1.0, S, x, 0.0, y);                                  // y = S x
///   kernels::sell_spmv(exec, 1.0, S, X, 0.0, Y, kernels::SellAlgorithm::chunks);

#include <string>
#include <type_traits>

#include "kelp/kernels/core/column_access.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/execution_space.hpp"
#include "kelp/kernels/core/profiling_region.hpp"
#include "kelp/kernels/core/standard_views.hpp"
#include "kelp/kernels/sell/impl/sell_spmv_chunks.hpp"
#include "kelp/kernels/sell/impl/sell_spmv_rows.hpp"
#include "kelp/kernels/sell/sell_matrix.hpp"
#include "kelp/kernels/spmv/impl/spmv_transpose.hpp"

namespace kelp::kernels {

/// SELL SpMV/SpMMV kernels.
enum class SellAlgorithm {
  automatic,  ///< see choose_sell_algorithm
  rows,       ///< one sorted row per thread (impl/sell_spmv_rows.hpp)
  chunks,     ///< one chunk per team, vectors across vector lanes (impl/sell_spmv_chunks.hpp)
};

inline std::string to_string(SellAlgorithm algorithm) {
  switch (algorithm) {
    case SellAlgorithm::automatic:
      return "automatic";
    case SellAlgorithm::rows:
      return "rows";
    case SellAlgorithm::chunks:
      return "chunks";
  }
  return "unknown";
}

/// The kernel `automatic` runs for k vectors in the given layout on ExecSpace.
/// GPUs: 'chunks' for row-major blocks of several vectors (the vector lanes read x(col, 0..k)
/// contiguously and share A's loads), 'rows' otherwise (one coalesced thread per row).
/// CPUs: 'rows' (measured on the 2-core development machine: docs/performance.md, issue 7 SELL).
template <class ExecSpace>
SellAlgorithm choose_sell_algorithm(std::size_t num_columns, bool layout_right) {
  constexpr bool host = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;
  if (!host && layout_right && num_columns > 1) return SellAlgorithm::chunks;
  return SellAlgorithm::rows;
}

namespace impl {

template <class Sell, class XView, class YView>
void check_sell_spmv_arguments(const Sell& A, const XView& x, const YView& y) {
  static_assert(static_cast<int>(XView::rank) == static_cast<int>(YView::rank),
                "sell_spmv: x and y must both be vectors or both multi-vectors");
  static_assert(XView::rank == 1 || XView::rank == 2, "sell_spmv: x and y must be rank-1 or rank-2 views");
  static_assert(std::is_same<typename YView::non_const_value_type, typename Sell::scalar_type>::value,
                "sell_spmv: y must have the matrix's scalar type");
  static_assert(std::is_same<typename XView::non_const_value_type, typename Sell::scalar_type>::value,
                "sell_spmv: x must have the matrix's scalar type");
  static_assert(Kokkos::SpaceAccessibility<typename Sell::execution_space, typename XView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<typename Sell::execution_space, typename YView::memory_space>::accessible,
                "sell_spmv: x and y must be accessible from the matrix's execution space");
  KELP_REQUIRE(static_cast<long long>(x.extent(0)) == A.num_cols(), DimensionMismatch,
               "kelp::kernels::sell_spmv: dimension mismatch: A is " << A.num_rows() << " x " << A.num_cols()
                   << ", x has " << x.extent(0) << " rows, expected " << A.num_cols());
  KELP_REQUIRE(static_cast<long long>(y.extent(0)) == A.num_rows(), DimensionMismatch,
               "kelp::kernels::sell_spmv: dimension mismatch: A is " << A.num_rows() << " x " << A.num_cols()
                   << ", y has " << y.extent(0) << " rows, expected " << A.num_rows());
  if constexpr (XView::rank == 2) {
    KELP_REQUIRE(x.extent(1) == y.extent(1), DimensionMismatch,
                 "kelp::kernels::sell_spmv: dimension mismatch: x has " << x.extent(1) << " columns, y has "
                                                                         << y.extent(1));
  }
  KELP_REQUIRE(x.span() == 0 || y.span() == 0 ||
                   static_cast<const void*>(x.data()) != static_cast<const void*>(y.data()),
               InvalidArgument, "kelp::kernels::sell_spmv: x and y are the same array; y must not alias x");
}

/// The SELL SpMV/SpMMV body for one (matrix, x, y) type triple, on exec; arguments checked.
/// Instantiated once per standard type in kernels/sell/eti/.
template <class Sell, class XView, class YView>
void sell_spmv_body(const typename Sell::execution_space& exec, SellAlgorithm algorithm,
                    typename Sell::scalar_type alpha, const Sell& A, const XView& x,
                    typename Sell::scalar_type beta, const YView& y) {
  using Scalar = typename Sell::scalar_type;
  using Exec = typename Sell::execution_space;
  const auto X = kelp::impl::as_columns(x);
  const auto Y = kelp::impl::as_columns(y);
  using XC = decltype(X);
  using YC = decltype(Y);
  if (Y.extent(1) == 0 || A.num_rows() == 0) return;
  if (alpha == Scalar(0)) {  // BLAS semantics: A and x are not read
    Kokkos::parallel_for("kelp::kernels::sell_spmv(scale)", Kokkos::RangePolicy<Exec>(exec, 0, y.extent(0)),
                         ScaleRows<YC, Scalar>{Y, beta, Y.extent(1)});
    return;
  }
  if (algorithm == SellAlgorithm::automatic) {
    constexpr bool right = std::is_same<typename XView::array_layout, Kokkos::LayoutRight>::value &&
                           YView::rank == 2;
    algorithm = choose_sell_algorithm<Exec>(X.extent(1), right);
  }
  if (algorithm == SellAlgorithm::chunks) {
    sell_spmv_chunks<Sell, XC, YC>(exec, alpha, A, X, beta, Y);
  } else {
    sell_spmv_rows<Sell, XC, YC>(exec, alpha, A, X, beta, Y);
  }
}

}  // namespace impl

/// y = beta*y + alpha*A*x on the execution-space instance exec.
/// @param[in] exec       an instance of the matrix's execution space; every kernel runs on it
/// @param[in] A          SELL-C-sigma matrix (to_sell)
/// @param[in] x          rank-1 (SpMV) or rank-2 (SpMMV) view with A.num_cols() rows
/// @param[in,out] y      same rank as x, A.num_rows() rows, as many columns as x
/// @param[in] algorithm  kernel; automatic: choose_sell_algorithm
/// @throws DimensionMismatch when shapes don't conform, InvalidArgument when x aliases y
template <class ExecSpace, class Sell, class XView, class YView, kelp::impl::if_execution_space<ExecSpace> = 0>
void sell_spmv(const ExecSpace& exec, typename Sell::scalar_type alpha, const Sell& A, const XView& x,
               typename Sell::scalar_type beta, const YView& y,
               SellAlgorithm algorithm = SellAlgorithm::automatic) {
  static_assert(std::is_same<ExecSpace, typename Sell::execution_space>::value,
                "sell_spmv: exec must be an instance of the matrix's execution space");
  impl::check_sell_spmv_arguments(A, x, y);
  const ProfilingRegion region("kelp::kernels::sell_spmv");
  using Device = typename Sell::device_type;
  if constexpr (kelp::impl::has_standard_form<XView, Device>::value &&
                kelp::impl::has_standard_form<YView, Device>::value) {
    using XS = typename kelp::impl::has_standard_form<XView, Device>::const_type;
    using YS = typename kelp::impl::has_standard_form<YView, Device>::type;
    impl::sell_spmv_body<Sell, XS, YS>(exec, algorithm, alpha, A, XS(x), beta, YS(y));
  } else {
    impl::sell_spmv_body<Sell, XView, YView>(exec, algorithm, alpha, A, x, beta, y);
  }
}

/// y = beta*y + alpha*A*x on a default instance of the matrix's execution space.
template <class Sell, class XView, class YView>
void sell_spmv(typename Sell::scalar_type alpha, const Sell& A, const XView& x, typename Sell::scalar_type beta,
               const YView& y, SellAlgorithm algorithm = SellAlgorithm::automatic) {
  sell_spmv(typename Sell::execution_space(), alpha, A, x, beta, y, algorithm);
}

// The bodies for Kelp's standard types are compiled once, in kernels/sell/eti/.
#define KELP_SELL_SPMV_ETI(PREFIX, SCALAR)                                                              \
  PREFIX template void impl::sell_spmv_body(const SellMatrix<SCALAR>::execution_space&, SellAlgorithm, \
                                            SCALAR, const SellMatrix<SCALAR>&,                          \
                                            const ConstVectorView<SCALAR>&, SCALAR,                     \
                                            const VectorView<SCALAR>&);                                 \
  PREFIX template void impl::sell_spmv_body(const SellMatrix<SCALAR>::execution_space&, SellAlgorithm, \
                                            SCALAR, const SellMatrix<SCALAR>&,                          \
                                            const eti::ConstLeft<SCALAR>&, SCALAR,                      \
                                            const eti::Left<SCALAR>&);                                  \
  PREFIX template void impl::sell_spmv_body(const SellMatrix<SCALAR>::execution_space&, SellAlgorithm, \
                                            SCALAR, const SellMatrix<SCALAR>&,                          \
                                            const eti::ConstRight<SCALAR>&, SCALAR,                     \
                                            const eti::Right<SCALAR>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_SELL_SPMV_ETI, extern)

}  // namespace kelp::kernels
