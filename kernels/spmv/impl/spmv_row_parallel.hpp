#pragma once
/// Row-parallel CRS SpMV/SpMMV for op(A) = A or conj(A).
///
/// Host spaces: one row per loop iteration, Width accumulators in registers (four partial sums for
/// a single column); large matrices add a software prefetch of A's streams. Row-major
/// (LayoutRight) multi-vectors wider than one column block take all blocks of a row in one pass
/// over A (RowParallelSpmvHostWide); otherwise each block of Width columns is one pass.
/// GPU spaces: a team of threads per group of rows, one row per thread, the row's entries spread
/// over vector lanes (vector length ~ mean row length, a power of two <= 32).
/// Traffic per pass over A: nnz (value + index) + (n + 1) offsets + Width * (n reads of x, at
/// best, + n writes of y, + n reads of y when beta != 0).

#include <type_traits>

#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/spmv/impl/spmv_column_blocks.hpp"
#include "kelp/kernels/spmv/spmv_handle.hpp"

namespace kelp::kernels::impl {

template <int Width, bool Conj, bool BetaZero, class Matrix, class X, class Y>
struct RowParallelSpmv {
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;
  using member_type = typename Kokkos::TeamPolicy<typename Matrix::execution_space>::member_type;

  typename Matrix::row_map_type row_map;
  typename Matrix::entries_type entries;
  typename Matrix::values_type values;
  X x;
  Y y;
  Scalar alpha;
  Scalar beta;
  std::size_t col0;
  Ordinal num_rows;
  int rows_per_team;

  KOKKOS_INLINE_FUNCTION Scalar value(const Offset k) const {
    return Conj ? ScalarTraits<Scalar>::conj(values(k)) : values(k);
  }

  KOKKOS_INLINE_FUNCTION void write(const Ordinal i, const int j, const Scalar sum) const {
    if (BetaZero) {
      y(i, col0 + j) = alpha * sum;  // y is not read: NaN in y must not propagate
    } else {
      y(i, col0 + j) = beta * y(i, col0 + j) + alpha * sum;
    }
  }

  /// GPU: rows_per_team rows, one per thread, entries across vector lanes.
  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const Ordinal first = static_cast<Ordinal>(team.league_rank()) * rows_per_team;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows_per_team), [&](const int r) {
      const Ordinal i = first + r;
      if (i >= num_rows) return;
      const Offset begin = row_map(i);
      const Offset length = row_map(i + 1) - begin;
      for (int j = 0; j < Width; ++j) {
        Scalar sum = Scalar(0);
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(team, length),
            [&](const Offset t, Scalar& acc) {
              acc += value(begin + t) * x(entries(begin + t), col0 + j);
            },
            sum);
        Kokkos::single(Kokkos::PerThread(team), [&]() { write(i, j, sum); });
      }
    });
  }
};

// ---- Host-only variants ------------------------------------------------------------------
// Plain (not KOKKOS_INLINE_FUNCTION) code: launched only on host execution spaces, so GPU builds
// never compile it for the device.

/// Host: software prefetch of A's values and indices when they exceed this many bytes, i.e. when
/// A streams from memory rather than from the last-level cache. One core keeps too few misses in
/// flight with the hardware prefetchers alone (they stop at every 4 KiB page). On the reference
/// machine (docs/performance.md) a matrix of 18 MB ran from cache and gained nothing, those of
/// 39 MB and more gained 34-50%, and small cache-resident ones lost up to 30% with it.
constexpr double host_prefetch_min_bytes = 32.0 * 1024 * 1024;

template <class Matrix>
bool host_prefetch_pays(const Matrix& A) {
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  return static_cast<double>(A.nnz()) * (sizeof(Scalar) + sizeof(Ordinal)) >= host_prefetch_min_bytes;
}

/// Prefetches A's values and indices 256 entries (2 KiB of doubles) ahead of row [begin, end):
/// one request per 64 B line of values. No-op without a GNU-compatible compiler.
template <class Values, class Entries, class Offset>
inline void prefetch_ahead(const Values& values, const Entries& entries, const Offset begin,
                           const Offset end) {
#if defined(__GNUC__)
  constexpr Offset distance = 256;
  const Offset size = static_cast<Offset>(values.extent(0));
  const Offset stop = end + distance < size ? end + distance : size;
  for (Offset q = begin + distance; q < stop; q += 8) {
    __builtin_prefetch(values.data() + q);
    __builtin_prefetch(entries.data() + q);
  }
#else
  (void)values;
  (void)entries;
  (void)begin;
  (void)end;
#endif
}

/// Host: one row per loop iteration, one block of Width columns.
template <int Width, bool Conj, bool BetaZero, bool Prefetch, class Matrix, class X, class Y>
struct RowParallelSpmvHost : RowParallelSpmv<Width, Conj, BetaZero, Matrix, X, Y> {
  using Base = RowParallelSpmv<Width, Conj, BetaZero, Matrix, X, Y>;
  using typename Base::Ordinal;
  using typename Base::Offset;
  using typename Base::Scalar;

  void operator()(const Ordinal i) const {
    const Offset begin = this->row_map(i);
    const Offset end = this->row_map(i + 1);
    if constexpr (Prefetch) prefetch_ahead(this->values, this->entries, begin, end);
    if constexpr (Width == 1) {
      Scalar sum = Scalar(0);
      if (end - begin < 8) {
        for (Offset k = begin; k < end; ++k) sum += this->value(k) * this->x(this->entries(k), this->col0);
      } else {
        // Four partial sums: with a single one, a long row costs (row length) x (add latency)
        // cycles, which dominates once A is cache-resident (docs/performance.md). Short rows
        // keep one sum: there the extra adds and loop tests cost more than they save.
        Scalar s0 = Scalar(0), s1 = Scalar(0), s2 = Scalar(0), s3 = Scalar(0);
        Offset k = begin;
        for (; k + 3 < end; k += 4) {
          s0 += this->value(k) * this->x(this->entries(k), this->col0);
          s1 += this->value(k + 1) * this->x(this->entries(k + 1), this->col0);
          s2 += this->value(k + 2) * this->x(this->entries(k + 2), this->col0);
          s3 += this->value(k + 3) * this->x(this->entries(k + 3), this->col0);
        }
        for (; k < end; ++k) s0 += this->value(k) * this->x(this->entries(k), this->col0);
        sum = (s0 + s1) + (s2 + s3);
      }
      this->write(i, 0, sum);
    } else {
      // Width columns already give Width independent sums.
      Scalar sum[Width] = {};
      for (Offset k = begin; k < end; ++k) {
        const Scalar a = this->value(k);
        const Ordinal c = this->entries(k);
        for (int j = 0; j < Width; ++j) sum[j] += a * this->x(c, this->col0 + j);
      }
      for (int j = 0; j < Width; ++j) this->write(i, j, sum[j]);
    }
  }
};

/// Host, row-major x and y wider than one column block: every block of a row in one pass over A,
/// while the row's entries sit in L1. One launch per block would stream A once per block and,
/// with long rows of x, lose the reuse of x between neighbouring rows in L2.
template <bool Conj, bool BetaZero, bool Prefetch, class Matrix, class X, class Y>
struct RowParallelSpmvHostWide {
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;

  typename Matrix::row_map_type row_map;
  typename Matrix::entries_type entries;
  typename Matrix::values_type values;
  X x;
  Y y;
  Scalar alpha;
  Scalar beta;
  std::size_t num_columns;

  void operator()(const Ordinal i) const {
    const Offset begin = row_map(i);
    const Offset end = row_map(i + 1);
    if constexpr (Prefetch) prefetch_ahead(values, entries, begin, end);
    std::size_t col = 0;
    for (; col + 8 <= num_columns; col += 8) block<8>(i, begin, end, col);
    if (col + 4 <= num_columns) {
      block<4>(i, begin, end, col);
      col += 4;
    }
    if (col + 2 <= num_columns) {
      block<2>(i, begin, end, col);
      col += 2;
    }
    if (col < num_columns) block<1>(i, begin, end, col);
  }

  template <int Width>
  void block(const Ordinal i, const Offset begin, const Offset end, const std::size_t col) const {
    Scalar sum[Width] = {};
    for (Offset k = begin; k < end; ++k) {
      const Scalar a = Conj ? ScalarTraits<Scalar>::conj(values(k)) : values(k);
      const Ordinal c = entries(k);
      for (int j = 0; j < Width; ++j) sum[j] += a * x(c, col + j);
    }
    for (int j = 0; j < Width; ++j) {
      if constexpr (BetaZero) {
        y(i, col + j) = alpha * sum[j];  // y is not read: NaN in y must not propagate
      } else {
        y(i, col + j) = beta * y(i, col + j) + alpha * sum[j];
      }
    }
  }
};

template <class V, class = void>
struct IsLayoutRight : std::false_type {};
template <class V>
struct IsLayoutRight<V, std::void_t<typename V::array_layout>>
    : std::is_same<typename V::array_layout, Kokkos::LayoutRight> {};

// ---- Launch ------------------------------------------------------------------------------

/// Team shape for the GPU variant: vector length ~ mean row length, ~128 threads per team.
struct RowTeamShape {
  int vector_length;
  int team_size;
};
inline RowTeamShape row_team_shape(double mean_row_nnz) {
  int vector_length = 1;
  while (vector_length < 32 && vector_length < mean_row_nnz) vector_length *= 2;
  return {vector_length, std::max(1, 128 / vector_length)};
}

/// Launches RowParallelSpmv for one block of columns (see for_each_column_block).
template <bool Conj, class Matrix, class X, class Y>
struct RowParallelLaunch {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  using Ordinal = typename Matrix::ordinal_type;
  const Exec& exec;
  const Matrix& A;
  const X& x;
  const Y& y;
  Scalar alpha, beta;
  RowTeamShape shape;

  template <int Width, bool BetaZero>
  void run(std::size_t col0) const {
    constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
    const Ordinal n = A.num_rows();
    RowParallelSpmv<Width, Conj, BetaZero, Matrix, X, Y> f{
        A.row_map(), A.entries(), A.values(), x, y, alpha, beta, col0, n, shape.team_size};
    if constexpr (host) {
      const Kokkos::RangePolicy<Exec> rows(exec, 0, n);
      if (host_prefetch_pays(A)) {
        Kokkos::parallel_for("kelp::kernels::spmv(row_parallel)", rows,
                             RowParallelSpmvHost<Width, Conj, BetaZero, true, Matrix, X, Y>{f});
      } else {
        Kokkos::parallel_for("kelp::kernels::spmv(row_parallel)", rows,
                             RowParallelSpmvHost<Width, Conj, BetaZero, false, Matrix, X, Y>{f});
      }
    } else {
      const Ordinal league = (n + shape.team_size - 1) / shape.team_size;
      Kokkos::parallel_for("kelp::kernels::spmv(row_parallel)",
                           Kokkos::TeamPolicy<Exec>(exec, league, shape.team_size, shape.vector_length), f);
    }
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

template <bool Conj, bool BetaZero, class Matrix, class X, class Y>
void launch_host_wide(const typename Matrix::execution_space& exec,
                      typename Matrix::scalar_type alpha, const Matrix& A, const X& x,
                      typename Matrix::scalar_type beta, const Y& y) {
  const Kokkos::RangePolicy<typename Matrix::execution_space> rows(exec, 0, A.num_rows());
  if (host_prefetch_pays(A)) {
    Kokkos::parallel_for("kelp::kernels::spmv(row_parallel)", rows,
                         RowParallelSpmvHostWide<Conj, BetaZero, true, Matrix, X, Y>{
                             A.row_map(), A.entries(), A.values(), x, y, alpha, beta, x.extent(1)});
  } else {
    Kokkos::parallel_for("kelp::kernels::spmv(row_parallel)", rows,
                         RowParallelSpmvHostWide<Conj, BetaZero, false, Matrix, X, Y>{
                             A.row_map(), A.entries(), A.values(), x, y, alpha, beta, x.extent(1)});
  }
}

/// y = beta*y + alpha*op(A)*x, op = A (Conj = false) or conj(A) (Conj = true), on exec; x, y n x k.
template <bool Conj, class Matrix, class X, class Y>
void spmv_row_parallel(const typename Matrix::execution_space& exec, const RowStatistics& stats, typename Matrix::scalar_type alpha,
                       const Matrix& A, const X& x, typename Matrix::scalar_type beta, const Y& y) {
  using Exec = typename Matrix::execution_space;
  if (A.num_rows() == 0) return;
  constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
  if constexpr (host && IsLayoutRight<X>::value && IsLayoutRight<Y>::value) {
    const std::size_t k = x.extent(1);
    if (k != 1 && k != 2 && k != 4 && k != 8) {  // more than one column block
      if (beta == typename Matrix::scalar_type(0)) {
        launch_host_wide<Conj, true>(exec, alpha, A, x, beta, y);
      } else {
        launch_host_wide<Conj, false>(exec, alpha, A, x, beta, y);
      }
      return;
    }
  }
  for_each_column_block(x.extent(1), RowParallelLaunch<Conj, Matrix, X, Y>{
                                         exec, A, x, y, alpha, beta, row_team_shape(stats.mean_row_nnz)});
}

}  // namespace kelp::kernels::impl
