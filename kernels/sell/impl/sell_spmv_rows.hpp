#pragma once
/// SELL SpMV/SpMMV, one sorted row per thread ('rows').
///
/// Thread s handles lane s % C of chunk s / C: on a GPU the threads of a warp are the lanes of a
/// chunk, so each step j of the row loop reads C consecutive values and indices (coalesced); on
/// a CPU a thread's contiguous share of rows covers whole chunks, whose lines it reuses from L1.
/// Width columns of a multi-vector per pass, one accumulator each (A read once per block).
/// Traffic per pass: stored entries (value + index) + 4 bytes of row length and of permutation
/// per row + Width * (x reads + y writes, + y reads when beta != 0).

#include <cstddef>

#include "kelp/kernels/sell/sell_matrix.hpp"
#include "kelp/kernels/spmv/impl/spmv_column_blocks.hpp"

namespace kelp::kernels::impl {

template <int Width, bool BetaZero, class Sell, class X, class Y>
struct SellRows {
  using Scalar = typename Sell::scalar_type;
  using Ordinal = typename Sell::ordinal_type;
  using Offset = typename Sell::offset_type;

  typename Sell::offsets_type chunk_offsets;
  typename Sell::ordinals_type row_lengths;
  typename Sell::ordinals_type permutation;
  typename Sell::ordinals_type entries;
  typename Sell::values_type values;
  X x;
  Y y;
  Scalar alpha;
  Scalar beta;
  std::size_t col0;
  int C;
  int log2_C;

  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal s) const {
    const Offset base = chunk_offsets(s >> log2_C) + (s & (C - 1));
    const Ordinal length = row_lengths(s);
    Scalar sum[Width];
    for (int w = 0; w < Width; ++w) sum[w] = Scalar(0);
    for (Ordinal j = 0; j < length; ++j) {
      const Offset k = base + static_cast<Offset>(j) * C;
      const Scalar a = values(k);
      const Ordinal column = entries(k);
      for (int w = 0; w < Width; ++w) sum[w] += a * x(column, col0 + w);
    }
    const Ordinal i = permutation(s);
    for (int w = 0; w < Width; ++w) {
      if (BetaZero) {
        y(i, col0 + w) = alpha * sum[w];  // y is not read: NaN in y must not propagate
      } else {
        y(i, col0 + w) = beta * y(i, col0 + w) + alpha * sum[w];
      }
    }
  }
};

inline int log2_of(int power_of_two) {
  int log2 = 0;
  while ((1 << log2) < power_of_two) ++log2;
  return log2;
}

/// Launches SellRows for one block of columns (see for_each_column_block).
template <class Sell, class X, class Y>
struct SellRowsLaunch {
  using Scalar = typename Sell::scalar_type;
  using Exec = typename Sell::execution_space;
  const Exec& exec;
  const Sell& A;
  const X& x;
  const Y& y;
  Scalar alpha, beta;

  template <int Width, bool BetaZero>
  void run(std::size_t col0) const {
    const int C = A.shape().C;
    Kokkos::parallel_for("kelp::kernels::sell_spmv(rows)", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows()),
                         SellRows<Width, BetaZero, Sell, X, Y>{A.chunk_offsets(), A.row_lengths(),
                                                               A.permutation(), A.entries(), A.values(),
                                                               x, y, alpha, beta, col0, C, log2_of(C)});
  }

  template <int Width>
  void operator()(std::size_t col0) const {
    if (beta == Scalar(0)) {
      run<Width, true>(col0);
    } else {
      run<Width, false>(col0);
    }
  }
};

/// y = beta*y + alpha*A*x, one sorted row per thread; x, y n x k (k >= 1), A non-empty.
template <class Sell, class X, class Y>
void sell_spmv_rows(const typename Sell::execution_space& exec, typename Sell::scalar_type alpha,
                    const Sell& A, const X& x, typename Sell::scalar_type beta, const Y& y) {
  for_each_column_block(x.extent(1), SellRowsLaunch<Sell, X, Y>{exec, A, x, y, alpha, beta});
}

}  // namespace kelp::kernels::impl
