#pragma once
/// One sweep of classical Gram-Schmidt that does the work of two: y += V(:, 0:k) c and then, on
/// the UPDATED y, the local parts of V(:, 0:d)^H y (d <= k) and of ||y||^2.
///
/// CGS2 needs "w -= V h1" of its first pass and "h2 = V^H w" of its second; done as two kernels
/// they read V twice. Here each block of rows is updated and its dots taken while the block of V
/// is still in cache (a host thread: 64 rows at a time; a GPU thread: its row), so V comes from
/// memory once. With d = 0 the sweep is "y += V c and ||y||^2" (the last pass of CGS2 and CGS, or
/// the first pass of CGS with refinement when needed, which needs ||w|| for its test).
/// The sums are local: the caller sums them over processes (Reduction::sum), one message.

#include <cstddef>

#include <Kokkos_Core.hpp>

#include "kelp/kernels/blas1/gram.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::solvers::impl {

/// value_type: d + 1 sums, sums[t] = V(:, t)^H y (t < d), sums[d] = ||y||^2 (real part).
/// Work item t covers rows [t * rows, (t + 1) * rows) (see kernels::column_sweep_rows).
/// A named functor: Gmres is instantiated in its ETI files and by the distributed run task and
/// tests (docs/conventions.md, section 11).
template <class Basis, class Coefficients, class Y>
struct UpdateAndDots {
  using Scalar = typename Y::non_const_value_type;
  using value_type = Scalar[];
  using size_type = std::size_t;
  using T = ScalarTraits<Scalar>;
  static constexpr size_type chunk = 64;  // rows of V per update-then-dot step on a host thread
  size_type value_count;                  // d + 1
  Basis basis;
  Coefficients c;
  Y y;
  size_type k, rows, n;

  KOKKOS_INLINE_FUNCTION void operator()(const size_type item, value_type sum) const {
    const size_type d = value_count - 1;
    if (rows == 1) {  // one row per thread (GPUs): y(i) stays in a register
      Scalar yi = y(item);
      for (size_type j = 0; j < k; ++j) yi += basis(item, j) * c(j);
      y(item) = yi;
      for (size_type t = 0; t < d; ++t) sum[t] += T::conj(basis(item, t)) * yi;
      sum[d] += T::conj(yi) * yi;
      return;
    }
    const size_type begin = item * rows;
    const size_type end = n - begin < rows ? n : begin + rows;
    for (size_type b = begin; b < end; b += chunk) {
      const size_type e = end - b < chunk ? end : b + chunk;
      update(b, e);
      dots(b, e, d, sum);
    }
  }

  /// y(b:e) += V(b:e, 0:k) c, four columns per sweep (y's chunk stays in L1).
  KOKKOS_INLINE_FUNCTION void update(const size_type b, const size_type e) const {
    size_type j = 0;
    for (; j + 4 <= k; j += 4) {
      const Scalar c0 = c(j), c1 = c(j + 1), c2 = c(j + 2), c3 = c(j + 3);
      for (size_type i = b; i < e; ++i) {
        y(i) = y(i) + basis(i, j) * c0 + basis(i, j + 1) * c1 + basis(i, j + 2) * c2 +
               basis(i, j + 3) * c3;
      }
    }
    for (; j < k; ++j) {
      const Scalar cj = c(j);
      for (size_type i = b; i < e; ++i) y(i) = y(i) + basis(i, j) * cj;
    }
  }

  /// sum[t] += V(b:e, t)^H y(b:e) for t < d, sum[d] += ||y(b:e)||^2: the chunk of V just read.
  KOKKOS_INLINE_FUNCTION void dots(const size_type b, const size_type e, const size_type d,
                                   value_type sum) const {
    size_type t = 0;
    for (; t + 4 <= d; t += 4) {
      Scalar s0(0), s1(0), s2(0), s3(0);
      for (size_type i = b; i < e; ++i) {
        const Scalar yi = y(i);
        s0 += T::conj(basis(i, t)) * yi;
        s1 += T::conj(basis(i, t + 1)) * yi;
        s2 += T::conj(basis(i, t + 2)) * yi;
        s3 += T::conj(basis(i, t + 3)) * yi;
      }
      sum[t] += s0;
      sum[t + 1] += s1;
      sum[t + 2] += s2;
      sum[t + 3] += s3;
    }
    for (; t < d; ++t) {
      Scalar s(0);
      for (size_type i = b; i < e; ++i) s += T::conj(basis(i, t)) * y(i);
      sum[t] += s;
    }
    Scalar squares(0);
    for (size_type i = b; i < e; ++i) squares += T::conj(y(i)) * y(i);
    sum[d] += squares;
  }

  KOKKOS_INLINE_FUNCTION void init(value_type sum) const {
    for (size_type t = 0; t < value_count; ++t) sum[t] = Scalar(0);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type t = 0; t < value_count; ++t) dst[t] += src[t];
  }
};

/// The most dot columns one update_and_dots sweep takes on Exec (the partial sums of a work
/// item live in registers and shared memory on GPUs, as for kernels::gram's tiles).
template <class Exec>
constexpr std::size_t update_and_dots_width() {
  return kernels::gram_tile_width<Exec>();
}

/// y += V(:, 0:k) c; sums[t] = V(:, t)^H y_new for t < d, sums[d] = ||y_new||^2 (local parts;
/// the caller sums them over processes). c: device vector of length >= k; sums: host array of
/// d + 1 entries; d <= min(k, update_and_dots_width<Exec>()). y is not one of the first k columns.
template <class Basis, class Coefficients, class Y>
void update_and_dots(const Basis& basis, const Coefficients& c, std::size_t k, const Y& y,
                     std::size_t d, typename Y::non_const_value_type* sums) {
  using Scalar = typename Y::non_const_value_type;
  using Exec = typename Y::execution_space;
  constexpr std::size_t rows = kernels::column_sweep_rows<Exec>();
  const std::size_t n = y.extent(0);
  Kokkos::View<Scalar*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> result(sums,
                                                                                         d + 1);
  for (std::size_t t = 0; t <= d; ++t) sums[t] = Scalar(0);
  if (n == 0) return;
  Kokkos::parallel_reduce("kelp::solvers::Gmres::update_and_dots",
                          Kokkos::RangePolicy<Exec>(0, (n + rows - 1) / rows),
                          UpdateAndDots<Basis, Coefficients, Y>{d + 1, basis, c, y, k, rows, n},
                          result);
  Exec().fence();  // the sums are read on the host
}

}  // namespace kelp::solvers::impl
