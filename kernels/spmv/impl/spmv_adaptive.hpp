#pragma once
/// Adaptive CRS SpMV/SpMMV (op(A) = A or conj(A)): rows grouped into blocks, each block staged in
/// team scratch (shared memory on GPUs) with coalesced loads, then reduced row by row from there.
///
/// The idea is CSR-Adaptive (Greathouse & Daga, SC'14), in the shape of the Ginkgo paper's
/// "classical" and load-balanced kernels: the analysis (SpmvHandle) cuts the rows into blocks of
/// at most `block_rows` rows and `block_entries` nonzeros; a row longer than `block_entries` is a
/// block of its own. One team works on one block:
///   - a normal block is read with all the team's threads and vector lanes over its nonzero range
///     (consecutive lanes, consecutive nonzeros: fully coalesced, whatever the row lengths), into
///     scratch; for one vector the staged item is value * x(column) (the gather happens here, with
///     every lane busy); for several vectors it is (value, column), and every column of x and y
///     is then done from scratch: A is read from memory once for all k vectors;
///   - the rows are then summed from scratch: one row per team thread (its vector lanes share the
///     row) for one vector; one (row, vector) pair per lane for several, ordered so that
///     neighbouring lanes touch neighbouring addresses of x and y in their layout;
///   - a block of one row (a row longer than scratch holds or than max(32, block_entries / 8),
///     which the analysis cuts out of the blocks of short rows) is reduced straight from memory
///     by the whole team, vector by vector.
/// One kernel for any row-length distribution: no carries, no second pass, no atomics, so
/// results are reproducible. Traffic: nnz (value + index) + (n + 1) offsets + the block list
/// (n / block_rows) + k (n_cols reads of x, at best, + n writes of y, + n reads when beta != 0).

#include <type_traits>

#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/spmv/spmv_handle.hpp"

namespace kelp::kernels::impl {

/// Index order of the (row, column) pairs of one block in the multi-vector phase: lanes walk
/// rows of one column for LayoutLeft (column-major x and y), columns of one row otherwise.
template <class V, class = void>
struct ColumnMajorPairs : std::false_type {};
template <class V>
struct ColumnMajorPairs<V, std::void_t<typename V::array_layout>>
    : std::is_same<typename V::array_layout, Kokkos::LayoutLeft> {};

template <bool Conj, bool BetaZero, bool SingleVector, class Matrix, class X, class Y, class Blocks>
struct AdaptiveSpmv {
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;
  using Exec = typename Matrix::execution_space;
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using scratch_space = typename Exec::scratch_memory_space;
  template <class T>
  using ScratchView = Kokkos::View<T*, scratch_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  typename Matrix::row_map_type row_map;
  typename Matrix::entries_type entries;
  typename Matrix::values_type values;
  Blocks blocks;  ///< first row of each block, then num_rows
  X x;
  Y y;
  Scalar alpha;
  Scalar beta;
  Ordinal num_columns;  ///< k, the number of vectors
  Offset block_entries;
  bool stage = true;    ///< single vector: stage the block in scratch (see AdaptiveShape::stage)

  /// Scratch bytes per team for a block of `entries` nonzeros.
  static std::size_t scratch_bytes(const Offset entries) {
    if (SingleVector) return ScratchView<Scalar>::shmem_size(entries);
    return ScratchView<Scalar>::shmem_size(entries) + ScratchView<Ordinal>::shmem_size(entries);
  }

  KOKKOS_INLINE_FUNCTION Scalar value(const Offset k) const {
    return Conj ? ScalarTraits<Scalar>::conj(values(k)) : values(k);
  }

  KOKKOS_INLINE_FUNCTION void write(const Ordinal i, const Ordinal j, const Scalar sum) const {
    if (BetaZero) {
      y(i, j) = alpha * sum;  // y is not read: NaN in y must not propagate
    } else {
      y(i, j) = beta * y(i, j) + alpha * sum;
    }
  }

  /// Writes y(i, j) and, with Dot (one vector, one lane per row), adds conj(x_i) y_i to dot.
  template <bool Dot>
  KOKKOS_INLINE_FUNCTION void finish(const Ordinal i, const Ordinal j, const Scalar sum,
                                     Scalar& dot) const {
    static_assert(!Dot || BetaZero, "spmv_adaptive_dot: y = alpha A x only");
    write(i, j, sum);
    if (Dot) dot += ScalarTraits<Scalar>::conj(x(i, 0)) * (alpha * sum);
  }

  /// The block of this team; with Dot, also its part of conj(x)^T y (spmv_adaptive_dot).
  template <bool Dot>
  KOKKOS_INLINE_FUNCTION void run(const member_type& team, Scalar& dot) const {
    const Ordinal first = blocks(team.league_rank());
    const Ordinal last = blocks(team.league_rank() + 1);
    const Offset begin = row_map(first);
    const Offset size = row_map(last) - begin;
    if (last - first == 1) {  // one row: all lanes share it
      long_row<Dot>(team, first, begin, size, dot);
    } else if (size > block_entries) {
      // The analysis makes every block over block_entries a single row, so only blocks of
      // another pattern (an unmanaged row_map refilled in place) get here: row by row with the
      // whole team, so that such a block costs speed, never a wrong y.
      for (Ordinal i = first; i < last; ++i) long_row<Dot>(team, i, row_map(i), row_map(i + 1) - row_map(i), dot);
    } else if (SingleVector && !stage) {
      direct_vector<Dot>(team, first, last, dot);
    } else if (SingleVector) {
      staged_vector<Dot>(team, first, last, begin, size, dot);
    } else {
      staged_block(team, first, last, begin, size);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    Scalar unused = Scalar(0);
    run<false>(team, unused);
  }

  /// One vector: stage value * x(column), then one row per team thread.
  /// (On the H100, four nonzeros per lane a quarter block apart, with the first row's bounds
  /// loaded before the staging, ran 25 % slower than this plain form: 74.6 against 60.0 us on
  /// the 7-point 100^3 Laplacian, docs/performance.md.)
  template <bool Dot>
  KOKKOS_INLINE_FUNCTION void staged_vector(const member_type& team, const Ordinal first,
                                            const Ordinal last, const Offset begin,
                                            const Offset size, Scalar& dot) const {
    ScratchView<Scalar> products(team.team_scratch(0), block_entries);
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, size), [&](const Offset t) {
      products(t) = value(begin + t) * x(entries(begin + t), 0);
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, last - first), [&](const Ordinal r) {
      const Ordinal i = first + r;
      const Offset row_begin = row_map(i) - begin;
      const Offset length = row_map(i + 1) - row_map(i);
      Scalar sum = Scalar(0);
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, length),
          [&](const Offset t, Scalar& acc) { acc += products(row_begin + t); }, sum);
      Kokkos::single(Kokkos::PerThread(team), [&]() { finish<Dot>(i, 0, sum, dot); });
    });
  }

  /// One vector without staging: each team thread's lanes read their row straight from memory.
  template <bool Dot>
  KOKKOS_INLINE_FUNCTION void direct_vector(const member_type& team, const Ordinal first,
                                            const Ordinal last, Scalar& dot) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, last - first), [&](const Ordinal r) {
      const Ordinal i = first + r;
      const Offset row_begin = row_map(i);
      const Offset length = row_map(i + 1) - row_begin;
      Scalar sum = Scalar(0);
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, length),
          [&](const Offset t, Scalar& acc) {
            acc += value(row_begin + t) * x(entries(row_begin + t), 0);
          },
          sum);
      Kokkos::single(Kokkos::PerThread(team), [&]() { finish<Dot>(i, 0, sum, dot); });
    });
  }

  /// k vectors: stage (value, column) once, then every (row, vector) pair from scratch.
  KOKKOS_INLINE_FUNCTION void staged_block(const member_type& team, const Ordinal first,
                                           const Ordinal last, const Offset begin,
                                           const Offset size) const {
    ScratchView<Scalar> vals(team.team_scratch(0), block_entries);
    ScratchView<Ordinal> cols(team.team_scratch(0), block_entries);
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, size), [&](const Offset t) {
      vals(t) = value(begin + t);
      cols(t) = entries(begin + t);
    });
    team.team_barrier();
    const Ordinal rows = last - first;
    const Ordinal k = num_columns;
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, rows * k), [&](const Ordinal pair) {
      const Ordinal r = ColumnMajorPairs<Y>::value ? pair % rows : pair / k;
      const Ordinal j = ColumnMajorPairs<Y>::value ? pair / rows : pair % k;
      const Ordinal i = first + r;
      const Offset row_end = row_map(i + 1) - begin;
      Scalar sum = Scalar(0);
      for (Offset t = row_map(i) - begin; t < row_end; ++t) sum += vals(t) * x(cols(t), j);
      write(i, j, sum);
    });
  }

  /// A block of one row (longer than scratch holds, or long enough to be cut out of the blocks
  /// of short rows): the whole team reduces it from memory, vector by vector.
  template <bool Dot>
  KOKKOS_INLINE_FUNCTION void long_row(const member_type& team, const Ordinal i,
                                       const Offset begin, const Offset size, Scalar& dot) const {
    for (Ordinal j = 0; j < num_columns; ++j) {
      Scalar sum = Scalar(0);
      Kokkos::parallel_reduce(
          Kokkos::TeamVectorRange(team, size),
          [&](const Offset t, Scalar& acc) { acc += value(begin + t) * x(entries(begin + t), j); },
          sum);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { finish<Dot>(i, j, sum, dot); });
      team.team_barrier();  // the team's reduction buffer is reused for the next vector
    }
  }
};

/// y = A x for one vector and, in the same pass, this process's conj(x)^T y (A square): the
/// product CG needs with p^H A p. Each team thread adds conj(x_i) y_i of the rows it writes, so
/// the shape must have one lane per row (the reduction value is per thread).
template <class Matrix, class X, class Y, class Blocks>
struct AdaptiveSpmvDot : AdaptiveSpmv<false, true, true, Matrix, X, Y, Blocks> {
  using Base = AdaptiveSpmv<false, true, true, Matrix, X, Y, Blocks>;
  using value_type = typename Base::Scalar;
  KOKKOS_INLINE_FUNCTION void operator()(const typename Base::member_type& team,
                                         value_type& dot) const {
    this->template run<true>(team, dot);
  }
};

/// y = A x and returns this process's conj(x)^T y, fused, when the handle's adaptive shape has
/// one lane per row (result in `dot`, true); otherwise does nothing and returns false.
template <class Matrix, class X, class Y>
bool spmv_adaptive_dot(const typename Matrix::execution_space& exec, SpmvHandle<Matrix>& handle,
                       const Matrix& A, const X& x, const Y& y, typename Matrix::scalar_type& dot) {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  const auto blocks = handle.adaptive_blocks(exec, A);
  const AdaptiveShape shape = handle.adaptive_shape();
  if (shape.vector_length != 1) return false;
  using Blocks = std::decay_t<decltype(blocks)>;
  using F = AdaptiveSpmvDot<Matrix, X, Y, Blocks>;
  const long long league = static_cast<long long>(blocks.extent(0)) - 1;
  Kokkos::TeamPolicy<Exec> policy = shape.team_size > 0
                                        ? Kokkos::TeamPolicy<Exec>(exec, league, shape.team_size, 1)
                                        : Kokkos::TeamPolicy<Exec>(exec, league, Kokkos::AUTO, 1);
  if (shape.stage) policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_bytes(shape.block_entries)));
  F f;
  static_cast<typename F::Base&>(f) = typename F::Base{
      A.row_map(), A.entries(), A.values(), blocks, x, y, Scalar(1), Scalar(0), 1,
      static_cast<typename Matrix::offset_type>(shape.block_entries), shape.stage};
  dot = Scalar(0);
  Kokkos::parallel_reduce("kelp::kernels::spmv_dot(adaptive)", policy, f, dot);
  exec.fence();  // dot is read on the host
  return true;
}

/// y = beta*y + alpha*op(A)*x, op = A (Conj = false) or conj(A) (Conj = true), on exec; x, y n x k.
/// The handle holds the block list and the team shape (SpmvHandle::adaptive_blocks).
template <bool Conj, class Matrix, class X, class Y>
void spmv_adaptive(const typename Matrix::execution_space& exec, SpmvHandle<Matrix>& handle,
                   typename Matrix::scalar_type alpha, const Matrix& A, const X& x,
                   typename Matrix::scalar_type beta, const Y& y) {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  using Ordinal = typename Matrix::ordinal_type;
  if (A.num_rows() == 0 || x.extent(1) == 0) return;
  const auto blocks = handle.adaptive_blocks(exec, A);
  const AdaptiveShape shape = handle.adaptive_shape();
  const Ordinal k = static_cast<Ordinal>(x.extent(1));
  const long long league = static_cast<long long>(blocks.extent(0)) - 1;
  auto launch = [&](auto functor) {
    using F = decltype(functor);
    Kokkos::TeamPolicy<Exec> policy =
        shape.team_size > 0 ? Kokkos::TeamPolicy<Exec>(exec, league, shape.team_size, shape.vector_length)
                            : Kokkos::TeamPolicy<Exec>(exec, league, Kokkos::AUTO, shape.vector_length);
    if (shape.stage || k > 1) {
      policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_bytes(shape.block_entries)));
    }
    Kokkos::parallel_for("kelp::kernels::spmv(adaptive)", policy, functor);
  };
  using Blocks = std::decay_t<decltype(blocks)>;
  const bool beta_zero = beta == Scalar(0);
  const typename Matrix::offset_type cap = shape.block_entries;
  if (k == 1) {
    if (beta_zero) {
      launch(AdaptiveSpmv<Conj, true, true, Matrix, X, Y, Blocks>{A.row_map(), A.entries(), A.values(), blocks, x, y, alpha, beta, k, cap, shape.stage});
    } else {
      launch(AdaptiveSpmv<Conj, false, true, Matrix, X, Y, Blocks>{A.row_map(), A.entries(), A.values(), blocks, x, y, alpha, beta, k, cap, shape.stage});
    }
  } else if (beta_zero) {
    launch(AdaptiveSpmv<Conj, true, false, Matrix, X, Y, Blocks>{A.row_map(), A.entries(), A.values(), blocks, x, y, alpha, beta, k, cap, shape.stage});
  } else {
    launch(AdaptiveSpmv<Conj, false, false, Matrix, X, Y, Blocks>{A.row_map(), A.entries(), A.values(), blocks, x, y, alpha, beta, k, cap, shape.stage});
  }
}

}  // namespace kelp::kernels::impl
