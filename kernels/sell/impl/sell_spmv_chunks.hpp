#pragma once
/// SELL SpMV/SpMMV, one chunk per team ('chunks').
///
/// GPUs: a team of (up to) C threads per chunk, one lane of the chunk each (coalesced reads of
/// A, as in 'rows'), and the k columns of x and y across the vector lanes of each thread: the
/// lanes share the row's value and index (one load, broadcast) and read x(col, 0..k) side by
/// side, which is contiguous for row-major (LayoutRight) blocks, the layout the KPM paper
/// recommends for SpMMV. A is read once for all k columns.
/// CPUs: one chunk per iteration, its lanes in groups of 8 advanced together entry by entry
/// (the SIMD form of the paper: 8 consecutive values and indices per step), Width columns of a
/// multi-vector per pass.

#include <cstddef>

#include "kelp/kernels/sell/sell_matrix.hpp"
#include "kelp/kernels/spmv/impl/spmv_column_blocks.hpp"

namespace kelp::kernels::impl {

/// GPU: team per chunk, threads over lanes, vector lanes over all k columns.
template <bool BetaZero, class Sell, class X, class Y>
struct SellChunksTeam {
  using Scalar = typename Sell::scalar_type;
  using Ordinal = typename Sell::ordinal_type;
  using Offset = typename Sell::offset_type;
  using member_type = typename Kokkos::TeamPolicy<typename Sell::execution_space>::member_type;

  typename Sell::offsets_type chunk_offsets;
  typename Sell::ordinals_type row_lengths;
  typename Sell::ordinals_type permutation;
  typename Sell::ordinals_type entries;
  typename Sell::values_type values;
  X x;
  Y y;
  Scalar alpha;
  Scalar beta;
  Ordinal num_rows;
  int C;
  int num_columns;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const Ordinal c = static_cast<Ordinal>(team.league_rank());
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, C), [&](const int r) {
      const Ordinal s = c * C + r;
      if (s >= num_rows) return;
      const Offset base = chunk_offsets(c) + r;
      const Ordinal length = row_lengths(s);
      const Ordinal i = permutation(s);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, num_columns), [&](const int w) {
        Scalar sum = Scalar(0);
        for (Ordinal j = 0; j < length; ++j) {
          const Offset k = base + static_cast<Offset>(j) * C;
          sum += values(k) * x(entries(k), w);
        }
        if (BetaZero) {
          y(i, w) = alpha * sum;  // y is not read: NaN in y must not propagate
        } else {
          y(i, w) = beta * y(i, w) + alpha * sum;
        }
      });
    });
  }
};

// Host-only: plain code, launched only on host execution spaces (never compiled for a GPU).

/// CPU: one chunk per iteration, lanes in groups of 8, Width columns.
template <int Width, bool BetaZero, class Sell, class X, class Y>
struct SellChunksHost {
  using Scalar = typename Sell::scalar_type;
  using Ordinal = typename Sell::ordinal_type;
  using Offset = typename Sell::offset_type;
  static constexpr int group = 8;

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
  Ordinal num_rows;
  int C;

  void operator()(const Ordinal c) const {
    const int lanes = C < group ? C : group;
    for (int r0 = 0; r0 < C; r0 += lanes) {
      const Ordinal s0 = c * C + r0;
      if (s0 >= num_rows) return;
      const Offset base = chunk_offsets(c) + r0;
      Ordinal length[group];
      Ordinal width = 0;
      for (int t = 0; t < lanes; ++t) {
        length[t] = row_lengths(s0 + t);  // 0 for lanes past num_rows
        width = length[t] > width ? length[t] : width;
      }
      Scalar sum[group][Width] = {};
      for (Ordinal j = 0; j < width; ++j) {
        const Offset k0 = base + static_cast<Offset>(j) * C;
        for (int t = 0; t < lanes; ++t) {
          if (j < length[t]) {
            const Scalar a = values(k0 + t);
            const Ordinal column = entries(k0 + t);
            for (int w = 0; w < Width; ++w) sum[t][w] += a * x(column, col0 + w);
          }
        }
      }
      for (int t = 0; t < lanes && s0 + t < num_rows; ++t) {
        const Ordinal i = permutation(s0 + t);
        for (int w = 0; w < Width; ++w) {
          if constexpr (BetaZero) {
            y(i, col0 + w) = alpha * sum[t][w];
          } else {
            y(i, col0 + w) = beta * y(i, col0 + w) + alpha * sum[t][w];
          }
        }
      }
    }
  }
};

template <class Sell, class X, class Y>
struct SellChunksHostLaunch {
  using Scalar = typename Sell::scalar_type;
  using Exec = typename Sell::execution_space;
  const Exec& exec;
  const Sell& A;
  const X& x;
  const Y& y;
  Scalar alpha, beta;

  template <int Width, bool BetaZero>
  void run(std::size_t col0) const {
    Kokkos::parallel_for("kelp::kernels::sell_spmv(chunks)", Kokkos::RangePolicy<Exec>(exec, 0, A.num_chunks()),
                         SellChunksHost<Width, BetaZero, Sell, X, Y>{
                             A.chunk_offsets(), A.row_lengths(), A.permutation(), A.entries(), A.values(),
                             x, y, alpha, beta, col0, A.num_rows(), A.shape().C});
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

/// Team shape for the GPU variant: vector lanes ~ k (a power of two <= 32), up to C threads.
struct SellTeamShape {
  int team_size;
  int vector_length;
};
inline SellTeamShape sell_team_shape(int C, std::size_t num_columns, int max_threads) {
  int vector_length = 1;
  while (vector_length < 32 && static_cast<std::size_t>(vector_length) < num_columns) vector_length *= 2;
  int team_size = C;
  while (team_size > 1 && team_size * vector_length > max_threads) team_size /= 2;
  return {team_size, vector_length};
}

/// y = beta*y + alpha*A*x, one chunk per team (GPU) or per iteration (CPU); A non-empty.
template <class Sell, class X, class Y>
void sell_spmv_chunks(const typename Sell::execution_space& exec, typename Sell::scalar_type alpha,
                      const Sell& A, const X& x, typename Sell::scalar_type beta, const Y& y) {
  using Exec = typename Sell::execution_space;
  using Scalar = typename Sell::scalar_type;
  constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
  if constexpr (host) {
    for_each_column_block(x.extent(1), SellChunksHostLaunch<Sell, X, Y>{exec, A, x, y, alpha, beta});
  } else {
    // 256 threads per team at most: 1024 would leave too few registers per thread.
    const SellTeamShape shape = sell_team_shape(A.shape().C, x.extent(1), 256);
    const Kokkos::TeamPolicy<Exec> policy(exec, A.num_chunks(), shape.team_size, shape.vector_length);
    const int k = static_cast<int>(x.extent(1));
    if (beta == Scalar(0)) {
      Kokkos::parallel_for("kelp::kernels::sell_spmv(chunks)", policy,
                           SellChunksTeam<true, Sell, X, Y>{A.chunk_offsets(), A.row_lengths(), A.permutation(),
                                                            A.entries(), A.values(), x, y, alpha, beta,
                                                            A.num_rows(), A.shape().C, k});
    } else {
      Kokkos::parallel_for("kelp::kernels::sell_spmv(chunks)", policy,
                           SellChunksTeam<false, Sell, X, Y>{A.chunk_offsets(), A.row_lengths(), A.permutation(),
                                                             A.entries(), A.values(), x, y, alpha, beta,
                                                             A.num_rows(), A.shape().C, k});
    }
  }
}

}  // namespace kelp::kernels::impl
