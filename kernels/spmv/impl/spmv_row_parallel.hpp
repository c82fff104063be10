#pragma once
/// Row-parallel CRS SpMV/SpMMV for op(A) = A or conj(A).
///
/// Host spaces: one row per loop iteration, Width accumulators in registers (four partial sums for
/// a single column), and a software prefetch of the matrix streams (RowParallelSpmvHost).
/// GPU spaces: a team of threads per group of rows, one row per thread, the row's entries spread
/// over vector lanes (vector length ~ mean row length, a power of two <= 32).
/// Traffic per block of Width columns: nnz (value + index) + (n + 1) offsets + Width * (n reads of
/// x, at best, + n writes of y, + n reads of y when beta != 0).

#include "kernels/core/scalar_traits.hpp"
#include "kernels/spmv/impl/spmv_column_blocks.hpp"
#include "kernels/spmv/spmv_handle.hpp"

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

/// Host variant: one row per loop iteration. A separate functor because it uses host-only code
/// (a compiler prefetch builtin); GPU execution spaces never instantiate it.
///
/// Prefetch = true adds a software prefetch of the two matrix streams, prefetch_distance entries
/// ahead of the current row (2 KiB of values, 1 KiB of indices for double/int). One core keeps
/// too few cache misses in flight with the hardware prefetchers alone (they stop at every 4 KiB
/// page); the prefetch pays once A streams from memory and costs a few percent while A is
/// cache-resident, hence the size switch in RowParallelLaunch (measurements in
/// docs/performance.md).
template <int Width, bool Conj, bool BetaZero, bool Prefetch, class Matrix, class X, class Y>
struct RowParallelSpmvHost : RowParallelSpmv<Width, Conj, BetaZero, Matrix, X, Y> {
  using Base = RowParallelSpmv<Width, Conj, BetaZero, Matrix, X, Y>;
  using typename Base::Ordinal;
  using typename Base::Offset;
  using typename Base::Scalar;

  static constexpr Offset prefetch_distance = 256;

  void operator()(const Ordinal i) const {
    const Offset begin = this->row_map(i);
    const Offset end = this->row_map(i + 1);
#if defined(__GNUC__)
    if constexpr (Prefetch) {
      const Offset nnz = static_cast<Offset>(this->values.extent(0));
      const Offset stop = end + prefetch_distance < nnz ? end + prefetch_distance : nnz;
      for (Offset q = begin + prefetch_distance; q < stop; q += 8) {  // 8 doubles: one 64 B line
        __builtin_prefetch(this->values.data() + q);
        __builtin_prefetch(this->entries.data() + q);
      }
    }
#endif
    if constexpr (Width == 1) {
      // Four partial sums: with a single one, a row costs (row length) x (add latency) cycles,
      // which dominates once A is cache-resident and rows are long (docs/performance.md).
      Scalar s0 = Scalar(0), s1 = Scalar(0), s2 = Scalar(0), s3 = Scalar(0);
      Offset k = begin;
      for (; k + 3 < end; k += 4) {
        s0 += this->value(k) * this->x(this->entries(k), this->col0);
        s1 += this->value(k + 1) * this->x(this->entries(k + 1), this->col0);
        s2 += this->value(k + 2) * this->x(this->entries(k + 2), this->col0);
        s3 += this->value(k + 3) * this->x(this->entries(k + 3), this->col0);
      }
      for (; k < end; ++k) s0 += this->value(k) * this->x(this->entries(k), this->col0);
      this->write(i, 0, (s0 + s1) + (s2 + s3));
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
  const Matrix& A;
  const X& x;
  const Y& y;
  Scalar alpha, beta;
  RowTeamShape shape;

  /// Host: prefetch the matrix streams (see RowParallelSpmvHost) when values + indices exceed
  /// this many bytes, i.e. when A streams from memory rather than from the last-level cache. On
  /// the reference machine (docs/performance.md) 18 MB matrices ran from cache and gained
  /// nothing, 40 MB and larger ones gained 25-45%; tiny matrices lost up to ~25% with it.
  static constexpr double host_prefetch_min_bytes = 32.0 * 1024 * 1024;

  template <int Width, bool BetaZero>
  void run(std::size_t col0) const {
    constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
    const Ordinal n = A.num_rows();
    RowParallelSpmv<Width, Conj, BetaZero, Matrix, X, Y> f{
        A.row_map(), A.entries(), A.values(), x, y, alpha, beta, col0, n, shape.team_size};
    if constexpr (host) {
      const double matrix_bytes = static_cast<double>(A.nnz()) * (sizeof(Scalar) + sizeof(Ordinal));
      const Kokkos::RangePolicy<Exec> rows(0, n);
      if (matrix_bytes >= host_prefetch_min_bytes) {
        Kokkos::parallel_for("kelp::kernels::spmv(row_parallel)", rows,
                             RowParallelSpmvHost<Width, Conj, BetaZero, true, Matrix, X, Y>{f});
      } else {
        Kokkos::parallel_for("kelp::kernels::spmv(row_parallel)", rows,
                             RowParallelSpmvHost<Width, Conj, BetaZero, false, Matrix, X, Y>{f});
      }
    } else {
      const Ordinal league = (n + shape.team_size - 1) / shape.team_size;
      Kokkos::parallel_for("kelp::kernels::spmv(row_parallel)",
                           Kokkos::TeamPolicy<Exec>(league, shape.team_size, shape.vector_length), f);
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

/// y = beta*y + alpha*op(A)*x, op = A (Conj = false) or conj(A) (Conj = true); x, y n x k.
template <bool Conj, class Matrix, class X, class Y>
void spmv_row_parallel(const RowStatistics& stats, typename Matrix::scalar_type alpha,
                       const Matrix& A, const X& x, typename Matrix::scalar_type beta, const Y& y) {
  if (A.num_rows() == 0) return;
  for_each_column_block(x.extent(1), RowParallelLaunch<Conj, Matrix, X, Y>{
                                         A, x, y, alpha, beta, row_team_shape(stats.mean_row_nnz)});
}

}  // namespace kelp::kernels::impl
