#pragma once
/// Vector reductions over rows, run in blocks of rows with interleaved partial sums on host
/// threads.
///
/// A reduction functor adds one term per row into the running sum Kokkos hands it. Compiled
/// without -ffast-math, those adds must happen in order: one chain of dependent adds, one term
/// per add latency (about 4 cycles) on a host core. On one thread that is slower than the vectors
/// stream in. Measured on the 2-core Intel host of docs/performance.md, one thread, vectors of
/// 2^18 doubles (microseconds, one running sum / two / four):
///   dot 185-214 / 144-148 / 195;  BiCGStab's half step 742-768 / 434-448 / 437;
///   BiCGStab's full step 790-898 / 609-610 / 630-654;  two fused dots 236-321 / 223 / 380.
/// Kelp's fused Krylov updates (BiCGStab's, CG's) are such reductions with a few vector updates
/// per row, so the chain decides their speed on one core.
///
/// reduce_rows(label, exec, n, f, result) therefore runs the per-row functor f (f(i, sum),
/// f.init, f.join, f's value_type) as work items of reduction_rows_per_item() consecutive rows
/// on host spaces:
/// two partial sums take even and odd rows and are joined at the end of the block. Four were
/// slower: GCC's vectorizer packs them into SSE registers with shuffles and spills them.
/// On GPUs a work item is one row, as before (coalesced across the warp, no extra registers).
/// Only the summation order changes (as it does with the thread count): results agree to
/// rounding.

#include <cstddef>

#include <Kokkos_Core.hpp>

namespace kelp::kernels {

/// Rows per work item of a row reduction on instances of ExecSpace (see reduce_rows).
template <class ExecSpace>
constexpr std::size_t reduction_rows_per_item() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible ? 256 : 1;
}

namespace impl {

/// Work item t reduces rows [t * Rows, min(n, (t + 1) * Rows)) of the per-row functor F.
template <class F, std::size_t Rows>
struct RowBlockReduce {
  using value_type = typename F::value_type;
  F f;
  std::size_t n;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t item, value_type& sum) const {
    if constexpr (Rows == 1) {
      f(item, sum);
    } else {
      const std::size_t begin = item * Rows;
      const std::size_t end = n - begin < Rows ? n : begin + Rows;
      value_type s0, s1;
      f.init(s0);
      f.init(s1);
      std::size_t i = begin;
      for (; i + 2 <= end; i += 2) {  // two independent chains of adds
        f(i, s0);
        f(i + 1, s1);
      }
      if (i < end) f(i, s0);
      f.join(s0, s1);
      f.join(sum, s0);
    }
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& sum) const { f.init(sum); }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    f.join(dst, src);
  }
};

/// Kokkos::parallel_reduce of the per-row functor f over rows [0, n) on exec into result (a
/// scalar of f's value_type or a view of one), in blocks of rows on host spaces. f needs
/// value_type, operator()(std::size_t row, value_type&), init and join. The caller fences
/// exec before reading a result it passed by reference, as for parallel_reduce.
template <class Exec, class F, class Result>
void reduce_rows(const char* label, const Exec& exec, const std::size_t n, const F& f,
                 Result& result) {
  constexpr std::size_t rows = reduction_rows_per_item<Exec>();
  Kokkos::parallel_reduce(label,
                          Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::size_t>>(
                              exec, 0, (n + rows - 1) / rows),
                          RowBlockReduce<F, rows>{f, n}, result);
}

}  // namespace impl
}  // namespace kelp::kernels
