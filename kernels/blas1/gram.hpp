#pragma once
/// Gram block of two multi-vectors: G = X^H Y, in one parallel reduction over the rows.
///
///   G(i, j) = sum_r conj(X(r, i)) Y(r, j),   X n x k, Y n x m, G k x m
///
/// This is the reduction a block method needs per step (LOBPCG's Rayleigh-Ritz, block
/// orthogonalisation, s-step and pipelined Krylov methods): one pass over X and Y instead of
/// k * m dots, and, through the reduction policy, one message instead of k * m.
///
/// Each thread keeps a partial k x m block, so the block size is bounded: up to
/// gram_tile_width<ExecSpace>() columns of X and of Y (32 on host spaces, 8 on GPUs, where the
/// partial blocks live in registers and shared memory) G is one reduction. A larger G is computed
/// tile by tile, one reduction per tile, each reading its columns of X and Y again: correct for
/// every size, efficient for small k and m.
/// Cost: n (k + m) words read per tile, n k m multiply-adds.
/// One column of Y (m = 1: h = X^H y, the multi-dot of Krylov orthogonalisation) has its own
/// kernel: on host spaces each work item sweeps a block of rows column by column, so every
/// column of X is a contiguous stream instead of k strided ones per row.
///
/// Example:
///   Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> G("G", k, m);
///   kernels::gram(X, Y, G);          // or kernels::gram(exec, X, Y, G)

#include <algorithm>
#include <type_traits>

#include "kelp/kernels/blas1/blas1_checks.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/execution_space.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/standard_views.hpp"

namespace kelp::kernels {

/// Columns of X and of Y per Gram tile (one parallel reduction each) on instances of ExecSpace.
template <class ExecSpace>
constexpr std::size_t gram_tile_width() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible ? 32 : 8;
}

/// Rows per work item of the kernels that sweep the columns of a tall block (the one-column
/// Gram product below, GMRES's combine_columns) on instances of ExecSpace: a host thread takes a
/// block of rows column by column (each column a contiguous, prefetched stream; the block of the
/// vector stays in L1), a GPU thread one row (coalesced across the warp).
template <class ExecSpace>
constexpr std::size_t column_sweep_rows() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible ? 512 : 1;
}

namespace impl {
/// Partial multi-dot X(:, i0 : i0+bk)^H y(:, j0) (one column of Y, the Krylov case h = V^H w):
/// value_type is a bk array; work item t covers rows [t * rows, (t + 1) * rows). Four columns
/// per sweep over the block: four independent sums in flight, y read once per four columns.
template <class XView, class YView>
struct GramColumnTile {
  using Scalar = typename YView::non_const_value_type;
  using value_type = Scalar[];
  using size_type = std::size_t;
  size_type value_count;
  XView x;
  YView y;
  size_type i0, j0, rows, n;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type item, value_type sum) const {
    using T = ScalarTraits<Scalar>;
    const size_type begin = item * rows;
    const size_type end = n - begin < rows ? n : begin + rows;
    size_type i = 0;
    for (; i + 4 <= value_count; i += 4) {
      Scalar s0(0), s1(0), s2(0), s3(0);
      for (size_type r = begin; r < end; ++r) {
        const Scalar yr = y(r, j0);
        s0 += T::conj(x(r, i0 + i)) * yr;
        s1 += T::conj(x(r, i0 + i + 1)) * yr;
        s2 += T::conj(x(r, i0 + i + 2)) * yr;
        s3 += T::conj(x(r, i0 + i + 3)) * yr;
      }
      sum[i] += s0;
      sum[i + 1] += s1;
      sum[i + 2] += s2;
      sum[i + 3] += s3;
    }
    for (; i < value_count; ++i) {
      Scalar s(0);
      for (size_type r = begin; r < end; ++r) s += T::conj(x(r, i0 + i)) * y(r, j0);
      sum[i] += s;
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sum) const {
    for (size_type t = 0; t < value_count; ++t) sum[t] = Scalar(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type t = 0; t < value_count; ++t) dst[t] += src[t];
  }
};

/// Partial Gram tile X(:, i0 : i0+bk)^H Y(:, j0 : j0+bm); value_type is a bk*bm array, column-major.
template <class XView, class YView>
struct GramTile {
  using Scalar = typename YView::non_const_value_type;
  using value_type = Scalar[];
  using size_type = std::size_t;
  size_type value_count;
  XView x;
  YView y;
  size_type i0, j0, bk, bm;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type r, value_type sum) const {
    for (size_type j = 0; j < bm; ++j) {
      const Scalar yj = y(r, j0 + j);
      for (size_type i = 0; i < bk; ++i) sum[i + bk * j] += ScalarTraits<Scalar>::conj(x(r, i0 + i)) * yj;
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sum) const {
    for (size_type t = 0; t < value_count; ++t) sum[t] = Scalar(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type t = 0; t < value_count; ++t) dst[t] += src[t];
  }
};

/// G = X^H Y on exec into host memory g (column-major, leading dimension ldg >= k); shapes
/// already checked. One parallel reduction per tile (see gram_tile_width).
template <class Exec, class XView, class YView>
void gram_body(const Exec& exec, const XView& x, const YView& y,
               typename YView::non_const_value_type* g, std::size_t ldg) {
  using Scalar = typename YView::non_const_value_type;
  const std::size_t n = x.extent(0), k = x.extent(1), m = y.extent(1);
  for (std::size_t j = 0; j < m; ++j) {
    for (std::size_t i = 0; i < k; ++i) g[i + ldg * j] = Scalar(0);  // the sums of no rows
  }
  if (n == 0 || k == 0 || m == 0) return;
  constexpr std::size_t width = gram_tile_width<Exec>();
  Kokkos::View<Scalar*, Kokkos::HostSpace> tile("kelp::kernels::gram::tile",
                                                std::min(k, width) * std::min(m, width));
  for (std::size_t j0 = 0; j0 < m; j0 += width) {
    for (std::size_t i0 = 0; i0 < k; i0 += width) {
      const std::size_t bk = std::min(width, k - i0), bm = std::min(width, m - j0);
      if (bm == 1) {
        // X^H y, the Krylov orthogonalisation's multi-dot: one sweep of blocks of rows.
        constexpr std::size_t rows = column_sweep_rows<Exec>();
        Kokkos::parallel_reduce("kelp::kernels::gram(column)",
                                Kokkos::RangePolicy<Exec>(exec, 0, (n + rows - 1) / rows),
                                GramColumnTile<XView, YView>{bk, x, y, i0, j0, rows, n}, tile);
      } else {
        Kokkos::parallel_reduce("kelp::kernels::gram", Kokkos::RangePolicy<Exec>(exec, 0, n),
                                GramTile<XView, YView>{bk * bm, x, y, i0, j0, bk, bm}, tile);
      }
      exec.fence();  // the tile is read on the host
      for (std::size_t j = 0; j < bm; ++j) {
        for (std::size_t i = 0; i < bk; ++i) g[(i0 + i) + ldg * (j0 + j)] = tile(i + bk * j);
      }
    }
  }
}
}  // namespace impl

/// G = X^H Y on exec: G(i, j) = sum_r conj(X(r, i)) Y(r, j), one parallel reduction over the
/// rows while k, m <= gram_tile_width<ExecSpace>() (tiled beyond, see the file comment).
/// @param[in] exec  execution-space instance that runs the reduction (and is fenced)
/// @param[in] x     n x k rank-2 view (LayoutLeft or LayoutRight) accessible from exec
/// @param[in] y     n x m rank-2 view, same scalar type
/// @param[out] g    k x m rank-2 view in host or device memory; every entry is overwritten
/// @throws DimensionMismatch when the row counts of X and Y differ or G is not k x m
template <class ExecSpace, class XView, class YView, class GView,
          kelp::impl::if_execution_space<ExecSpace> = 0>
void gram(const ExecSpace& exec, const XView& x, const YView& y, const GView& g) {
  static_assert(XView::rank == 2 && YView::rank == 2 && GView::rank == 2,
                "gram: X, Y and G must be rank-2 views");
  static_assert(kelp::impl::can_access<ExecSpace, XView>() && kelp::impl::can_access<ExecSpace, YView>(),
                "gram: exec must be able to access X and Y");
  using Scalar = typename YView::non_const_value_type;
  static_assert(std::is_same<typename XView::non_const_value_type, Scalar>::value &&
                    std::is_same<typename GView::non_const_value_type, Scalar>::value,
                "gram: X, Y and G must have the same scalar type");
  constexpr const char* where = "kelp::kernels::gram";
  impl::require_same_rows(where, "X", x, "Y", y);
  KELP_REQUIRE(g.extent(0) == x.extent(1) && g.extent(1) == y.extent(1), DimensionMismatch,
               where << ": dimension mismatch: G is " << g.extent(0) << " x " << g.extent(1)
                     << ", expected " << x.extent(1) << " x " << y.extent(1)
                     << " (columns of X x columns of Y)");
  const std::size_t k = x.extent(1), m = y.extent(1);
  using HostG = Kokkos::View<Scalar**, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  // A column-major host G is written in place; anything else through a host buffer.
  constexpr bool direct = std::is_same<typename GView::memory_space, Kokkos::HostSpace>::value &&
                          std::is_same<typename GView::array_layout, Kokkos::LayoutLeft>::value &&
                          std::is_same<typename GView::value_type, Scalar>::value;
  HostG host;
  if constexpr (direct) {
    host = g;
  } else {
    host = HostG("kelp::kernels::gram::host", k, m);
  }
  const std::size_t ldg = k == 0 ? 1 : host.stride(1);
  using D = typename YView::device_type;
  if constexpr (kelp::impl::use_left_forms<ExecSpace, D, XView, YView>()) {
    using V = eti::ConstLeft<Scalar>;
    impl::gram_body<ExecSpace, V, V>(exec, V(x), V(y), host.data(), ldg);
  } else {
    impl::gram_body<ExecSpace, XView, YView>(exec, x, y, host.data(), ldg);
  }
  if constexpr (!direct) impl::store_result(exec, host, g);
}

/// G = X^H Y (see above) on a default instance of Y's execution space.
template <class XView, class YView, class GView, kelp::impl::if_view<XView> = 0>
void gram(const XView& x, const YView& y, const GView& g) {
  gram(typename YView::execution_space(), x, y, g);
}

// Compiled once for the standard scalars and LayoutLeft multi-vectors, in kernels/blas1/eti/.
#define KELP_GRAM_ETI(PREFIX, S)                                                              \
  PREFIX template void impl::gram_body<DefaultExecutionSpace, eti::ConstLeft<S>, eti::ConstLeft<S>>( \
      const DefaultExecutionSpace&, const eti::ConstLeft<S>&, const eti::ConstLeft<S>&, S*,   \
      std::size_t);
KELP_ETI_FOR_EACH_SCALAR(KELP_GRAM_ETI, extern)

}  // namespace kelp::kernels
