#pragma once
/// Analysis state for SpMV/SpMMV: row-length statistics and the algorithm choice.
///
/// Contract: the handle caches, for one matrix pattern, the row statistics, the algorithm it
/// chose and the merge-path chunking. With SpmvAlgorithm::automatic on a host space and a matrix
/// of at least kTimingMinNnz entries, the first product times both algorithms on the matrix and
/// keeps the faster (impl/spmv_timing.hpp); below that size, on GPUs and for one-off handles the
/// choice comes from row statistics (choose()). The timed choice can differ between runs when
/// both algorithms are about equally fast; results then differ by rounding only. Pin the
/// algorithm for bitwise reproducibility. It re-analyses by itself when it sees a matrix with a
/// different row_map (pointer or size), so a stale handle is never used; values may change freely
/// between calls. Not safe for concurrent use from several execution space instances (the
/// merge-path carry workspace is shared). Movable, not copyable.

#include <algorithm>
#include <cmath>
#include <string>

#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp::kernels {

/// y = beta*y + alpha*op(A)*x with op one of these.
enum class SpmvMode {
  no_transpose,         ///< op(A) = A
  transpose,            ///< op(A) = A^T
  conjugate,            ///< op(A) = conj(A)  (element-wise; same as A for real scalars)
  conjugate_transpose,  ///< op(A) = A^H
};

/// SpMV algorithms for op in {no_transpose, conjugate}; the transposed modes always scatter.
enum class SpmvAlgorithm {
  automatic,     ///< time both on host spaces, else row statistics (see SpmvHandle)
  row_parallel,  ///< one row per thread (host) or per vector lane group (GPU)
  merge_path,    ///< equal shares of rows + nonzeros per thread (Merrill & Garland, SC'16)
};

std::string to_string(SpmvMode mode);
std::string to_string(SpmvAlgorithm algorithm);

/// Row-length statistics of a CRS pattern.
struct RowStatistics {
  double mean_row_nnz = 0;
  long long max_row_nnz = 0;
  long long empty_rows = 0;
};

/// Row-length statistics of A's pattern (two passes over row_map, on exec; fences exec).
/// Free function, not a member: CUDA extended lambdas cannot live in private member functions.
template <class Matrix>
RowStatistics row_statistics(const typename Matrix::execution_space& exec, const Matrix& A) {
  using ordinal_type = typename Matrix::ordinal_type;
  using execution_space = typename Matrix::execution_space;
  RowStatistics stats;
  const ordinal_type n = A.num_rows();
  if (n == 0) return stats;
  auto row_map = A.row_map();
  long long max_len = 0, empty = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::row_statistics", Kokkos::RangePolicy<execution_space>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i, long long& local_max) {
        const long long len = static_cast<long long>(row_map(i + 1) - row_map(i));
        if (len > local_max) local_max = len;
      },
      Kokkos::Max<long long>(max_len));
  Kokkos::parallel_reduce(
      "kelp::kernels::row_statistics", Kokkos::RangePolicy<execution_space>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i, long long& count) {
        if (row_map(i + 1) == row_map(i)) ++count;
      },
      empty);
  stats.max_row_nnz = max_len;
  stats.empty_rows = empty;
  stats.mean_row_nnz = static_cast<double>(A.nnz()) / static_cast<double>(n);
  return stats;
}

/// Row-length statistics of A's pattern, on a default instance.
template <class Matrix>
RowStatistics row_statistics(const Matrix& A) {
  return row_statistics(typename Matrix::execution_space(), A);
}

template <class Matrix>
class SpmvHandle {
 public:
  using ordinal_type = typename Matrix::ordinal_type;
  using offset_type = typename Matrix::offset_type;
  using execution_space = typename Matrix::execution_space;
  using scalar_type = typename Matrix::scalar_type;

  /// @param[in] algorithm          requested algorithm (automatic by default)
  /// @param[in] items_per_chunk    merge-path work per thread in rows + nonzeros; 0 = automatic
  explicit SpmvHandle(SpmvAlgorithm algorithm = SpmvAlgorithm::automatic,
                      long long items_per_chunk = 0)
      : requested_(algorithm), items_per_chunk_request_(items_per_chunk) {
    KELP_REQUIRE(items_per_chunk >= 0, InvalidArgument,
                 "kelp::kernels::SpmvHandle: items_per_chunk = " << items_per_chunk << " < 0");
  }
  SpmvHandle(const SpmvHandle&) = delete;
  SpmvHandle& operator=(const SpmvHandle&) = delete;
  SpmvHandle(SpmvHandle&&) = default;
  SpmvHandle& operator=(SpmvHandle&&) = default;

  /// Analyses A's pattern unless this handle already did (same row_map, same shape).
  void analyze(const Matrix& A) { analyze(execution_space(), A); }
  /// As analyze(A), running the analysis kernels on exec.
  void analyze(const execution_space& exec, const Matrix& A) {
    if (analyzed_ && A.row_map().data() == row_map_data_ && A.num_rows() == num_rows_ &&
        A.num_cols() == num_cols_ && A.nnz() == nnz_) {
      return;
    }
    row_map_data_ = A.row_map().data();
    num_rows_ = A.num_rows();
    num_cols_ = A.num_cols();
    nnz_ = A.nnz();
    stats_ = row_statistics(exec, A);
    chosen_ = requested_ == SpmvAlgorithm::automatic ? choose(stats_) : requested_;
    timed_ = false;
    items_per_chunk_ = items_per_chunk_request_ > 0 ? items_per_chunk_request_
                                                    : default_items_per_chunk();
    analyzed_ = true;
  }

  /// Matrices with fewer entries take the statistics rule: their products cost microseconds,
  /// where timing noise decides more than the algorithm.
  static constexpr long long kTimingMinNnz = 4096;

  /// True when the next product should time both algorithms first (see the class comment).
  bool needs_timing() const {
    constexpr bool host = Kokkos::SpaceAccessibility<execution_space, Kokkos::HostSpace>::accessible;
    return host && timing_allowed_ && analyzed_ && !timed_ &&
           requested_ == SpmvAlgorithm::automatic && static_cast<long long>(nnz_) >= kTimingMinNnz;
  }
  /// Records the outcome of the timing (impl::time_algorithms).
  void set_timed_choice(SpmvAlgorithm algorithm) {
    chosen_ = algorithm;
    timed_ = true;
  }
  /// Keeps the statistics rule: for handles that live for one product only.
  void disable_timing() { timing_allowed_ = false; }
  /// Whether the current choice was timed (true) or taken from statistics.
  bool choice_was_timed() const { return timed_; }

  SpmvAlgorithm requested_algorithm() const { return requested_; }
  /// The algorithm used for non-transposed modes (valid after analyze()).
  SpmvAlgorithm algorithm() const { return chosen_; }
  const RowStatistics& statistics() const { return stats_; }
  long long items_per_chunk() const { return items_per_chunk_; }

  /// Automatic choice: merge path when threads would otherwise wait on long rows, i.e. the
  /// execution space runs more than one thread and the longest row exceeds both 64 entries and
  /// ten times the mean. With one thread there is no imbalance to fix, so rows win (less work).
  static SpmvAlgorithm choose(const RowStatistics& stats) {
    const bool parallel = execution_space().concurrency() > 1;
    const bool imbalanced = stats.max_row_nnz > 64 && stats.max_row_nnz > 10 * stats.mean_row_nnz;
    return parallel && imbalanced ? SpmvAlgorithm::merge_path : SpmvAlgorithm::row_parallel;
  }

  /// Merge-path carry workspace with room for `width` columns (grown on demand, then reused).
  Kokkos::View<scalar_type**, Kokkos::LayoutRight, typename Matrix::device_type> carry_values(
      long long num_chunks, int width) {
    if (carry_values_.extent(0) < static_cast<std::size_t>(num_chunks) ||
        carry_values_.extent(1) < static_cast<std::size_t>(width)) {
      carry_values_ = decltype(carry_values_)(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spmv::carry_values"),
          std::max<std::size_t>(num_chunks, carry_values_.extent(0)),
          std::max<std::size_t>(width, carry_values_.extent(1)));
      carry_rows_ = decltype(carry_rows_)(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spmv::carry_rows"),
          carry_values_.extent(0));
    }
    return carry_values_;
  }
  Kokkos::View<ordinal_type*, typename Matrix::device_type> carry_rows() const {
    return carry_rows_;
  }

 private:
  /// GPU: a few items per thread keeps all lanes busy; host: a few chunks per thread.
  long long default_items_per_chunk() const {
    const long long total = static_cast<long long>(num_rows_) + static_cast<long long>(nnz_);
    constexpr bool host = Kokkos::SpaceAccessibility<execution_space, Kokkos::HostSpace>::accessible;
    if (!host) return 16;
    const long long chunks = 8LL * execution_space().concurrency();
    return std::max<long long>(1024, (total + chunks - 1) / chunks);
  }

  SpmvAlgorithm requested_;
  long long items_per_chunk_request_;
  bool analyzed_ = false;
  bool timed_ = false;
  bool timing_allowed_ = true;
  const offset_type* row_map_data_ = nullptr;
  ordinal_type num_rows_ = 0;
  ordinal_type num_cols_ = 0;
  offset_type nnz_ = 0;
  RowStatistics stats_;
  SpmvAlgorithm chosen_ = SpmvAlgorithm::row_parallel;
  long long items_per_chunk_ = 1;
  Kokkos::View<scalar_type**, Kokkos::LayoutRight, typename Matrix::device_type> carry_values_;
  Kokkos::View<ordinal_type*, typename Matrix::device_type> carry_rows_;
};

inline std::string to_string(SpmvMode mode) {
  switch (mode) {
    case SpmvMode::no_transpose: return "no_transpose";
    case SpmvMode::transpose: return "transpose";
    case SpmvMode::conjugate: return "conjugate";
    case SpmvMode::conjugate_transpose: return "conjugate_transpose";
  }
  return "unknown";
}

inline std::string to_string(SpmvAlgorithm algorithm) {
  switch (algorithm) {
    case SpmvAlgorithm::automatic: return "automatic";
    case SpmvAlgorithm::row_parallel: return "row_parallel";
    case SpmvAlgorithm::merge_path: return "merge_path";
  }
  return "unknown";
}

}  // namespace kelp::kernels
