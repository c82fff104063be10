#pragma once
/// The multi-vector kernels of LOBPCG: the fused Gram pair, the basis combination and the
/// residuals with their norms. Host spaces process rows in chunks (the innermost loop runs over
/// the rows of a chunk, contiguous in LayoutLeft, so it vectorises and the chunk stays in L1);
/// GPUs take one row per thread (coalesced across threads).

#include <cstddef>

#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp::solvers::impl {

/// Rows per work item of the LOBPCG kernels on instances of ExecSpace (called in device code,
/// hence KOKKOS_INLINE_FUNCTION: nvcc does not relax constexpr host functions by default).
template <class ExecSpace>
KOKKOS_INLINE_FUNCTION constexpr std::size_t lobpcg_chunk() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible ? 64 : 1;
}

/// Number of (i, j) pairs with i <= j < m and j >= k0: the upper triangle of an m x m Gram
/// matrix without its leading k0 x k0 block.
inline std::size_t gram_pair_count(std::size_t m, std::size_t k0) {
  return m * (m + 1) / 2 - k0 * (k0 + 1) / 2;
}

/// Upper triangles (without the leading k0 x k0 block) of GA = V^H AV and GB = V^H BV in one
/// reduction; value i of the first half is pair number i in the order j = k0..m-1, i = 0..j.
/// Per row: 3m words read, m (m + 1) multiply-adds.
template <class Scalar, class View, class ExecSpace>
struct GramPair {
  using value_type = Scalar[];
  using size_type = std::size_t;
  size_type value_count;
  View v, av, bv;
  size_type n, m, k0, pairs;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type c, value_type sum) const {
    constexpr size_type chunk = lobpcg_chunk<ExecSpace>();
    const size_type r0 = c * chunk, r1 = r0 + chunk < n ? r0 + chunk : n;
    size_type idx = 0;
    for (size_type j = k0; j < m; ++j) {
      for (size_type i = 0; i <= j; ++i, ++idx) {
        Scalar sa(0), sb(0);
        for (size_type r = r0; r < r1; ++r) {
          const Scalar t = ScalarTraits<Scalar>::conj(v(r, i));
          sa += t * av(r, j);
          sb += t * bv(r, j);
        }
        sum[idx] += sa;
        sum[pairs + idx] += sb;
      }
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sum) const {
    for (size_type t = 0; t < value_count; ++t) sum[t] = Scalar(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type t = 0; t < value_count; ++t) dst[t] += src[t];
  }
};

/// Y = beta Y + V C (V n x m, C m x q on the device, Y n x q; Y's columns are not V's).
/// Per row: (m + q) words read, q written (q more when beta != 0).
template <class Scalar, class View, class ConstView, class CView, class ExecSpace>
struct Combine {
  ConstView v;
  CView c;
  View y;
  Scalar beta;
  std::size_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t chunk_index) const {
    constexpr std::size_t chunk = lobpcg_chunk<ExecSpace>();
    const std::size_t r0 = chunk_index * chunk, len = r0 + chunk < n ? chunk : n - r0;
    const std::size_t m = v.extent(1), q = y.extent(1);
    Scalar acc[chunk];
    for (std::size_t j = 0; j < q; ++j) {
      for (std::size_t r = 0; r < len; ++r) acc[r] = beta == Scalar(0) ? Scalar(0) : beta * y(r0 + r, j);
      for (std::size_t i = 0; i < m; ++i) {
        const Scalar cij = c(i, j);
        for (std::size_t r = 0; r < len; ++r) acc[r] += v(r0 + r, i) * cij;
      }
      for (std::size_t r = 0; r < len; ++r) y(r0 + r, j) = acc[r];
    }
  }
};

/// R(:, j) = AX(:, j) - lambda_j BX(:, j) and the squared norms of R's columns, in one pass.
template <class Scalar, class View, class ConstView, class LambdaView>
struct ResidualNorms {
  using Magnitude = typename ScalarTraits<Scalar>::magnitude_type;
  using value_type = Magnitude[];
  using size_type = std::size_t;
  size_type value_count;
  ConstView ax, bx;
  LambdaView lambda;
  View r;
  KOKKOS_INLINE_FUNCTION void operator()(const size_type row, value_type sum) const {
    for (size_type j = 0; j < value_count; ++j) {
      const Scalar rj = ax(row, j) - Scalar(lambda(j)) * bx(row, j);
      r(row, j) = rj;
      sum[j] += ScalarTraits<Scalar>::abs2(rj);
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type sum) const {
    for (size_type t = 0; t < value_count; ++t) sum[t] = Magnitude(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type t = 0; t < value_count; ++t) dst[t] += src[t];
  }
};

}  // namespace kelp::solvers::impl
