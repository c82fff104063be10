#pragma once
/// Analysis state for SpMV/SpMMV: row-length statistics and the algorithm choice.
///
/// Contract: the handle caches, for one matrix pattern, the row statistics, the algorithm it
/// chose and the merge-path chunking. With SpmvAlgorithm::automatic on a host space and a matrix
/// of at least kTimingMinNnz entries, the first product times both algorithms on the matrix and
/// keeps the faster (impl/spmv_timing.hpp); below that size, on GPUs and for one-off handles the
/// choice comes from row statistics (choose()); on GPUs a matrix that carries a stencil
/// description gets the stencil algorithm instead, untimed. The timed choice can differ between runs when
/// both algorithms are about equally fast; results then differ by rounding only. Pin the
/// algorithm for bitwise reproducibility. It re-analyses by itself when it sees a matrix with a
/// different row_map (allocation or size), so a stale handle is never used: it keeps a reference
/// to the row_map it analysed, so that allocation cannot be freed and its address handed to
/// another matrix while the handle lives. Values may change freely between calls; a pattern
/// rewritten in place, in the same row_map, is a new matrix the handle cannot see (build a new
/// handle for it). Not safe for concurrent use from several execution space instances (the
/// merge-path carry workspace is shared). Movable, not copyable.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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
  adaptive,      ///< row blocks staged in team scratch, one kernel for any rows (impl/spmv_adaptive.hpp)
  stencil,       ///< interior rows from the matrix's stencil description, no column indices read
                 ///< (impl/spmv_stencil.hpp); only for matrices with one (CrsMatrix::has_stencil)
};

/// Blocking and team shape of the adaptive algorithm. A block holds at most block_rows rows and
/// block_entries nonzeros (a longer row is a block of its own, reduced by the whole team).
struct AdaptiveShape {
  int block_rows = 256;        ///< rows per block: one per team thread on GPUs (team of 256 lanes)
  long long block_entries = 0;  ///< staged nonzeros per block; 0: 24 KiB of (value, index) pairs
                                ///< (2048 for double): several teams fit in one SM's shared memory
  int team_size = 0;           ///< threads per team; 0 = chosen from the row lengths (AUTO on hosts)
  int vector_length = 0;       ///< lanes per row; 0 = chosen from the row lengths
  /// Stage the blocks of short rows in scratch (true), or let each row's lanes read A and x
  /// straight from memory (false: no shared-memory round trip and no team barrier, the blocks
  /// only balance the work). Single vectors only; SpMMV always stages.
  bool stage = true;
};

/// The first row of each block of at most `block_rows` rows and `block_entries` nonzeros, then
/// num_rows (host; row_map on the host). A row longer than block_entries, or longer than
/// max(32, block_entries / 8), gets a block of its own: the whole team reduces it, where inside
/// a block of short rows one thread would sum it alone while the others wait.
template <class RowMap>
std::vector<long long> adaptive_row_blocks(const RowMap& row_map, long long num_rows,
                                           long long block_rows, long long block_entries) {
  const long long long_row = std::max(32LL, block_entries / 8);
  const auto length = [&](long long i) {
    return static_cast<long long>(row_map(i + 1)) - static_cast<long long>(row_map(i));
  };
  std::vector<long long> starts;
  starts.reserve(static_cast<std::size_t>(num_rows / std::max(1LL, block_rows) + 2));
  long long i = 0;
  while (i < num_rows) {
    starts.push_back(i);
    const long long begin = static_cast<long long>(row_map(i));
    long long end = i + 1;  // a block takes at least one row, however long
    if (length(i) <= long_row) {
      while (end < num_rows && end - i < block_rows && length(end) <= long_row &&
             static_cast<long long>(row_map(end + 1)) - begin <= block_entries) {
        ++end;
      }
    }
    i = end;
  }
  starts.push_back(num_rows);
  return starts;
}

std::string to_string(SpmvMode mode);
std::string to_string(SpmvAlgorithm algorithm);

/// Row-length statistics of a CRS pattern.
struct RowStatistics {
  long long nnz = 0;
  double mean_row_nnz = 0;
  long long max_row_nnz = 0;
  long long empty_rows = 0;
};

namespace impl {
/// The two passes of row_statistics (named functors: row_statistics is instantiated with the same
/// matrix type in many .cpp files, where nvcc's extended lambdas are unsafe; docs/conventions.md).
template <class RowMap, class Ordinal>
struct LongestRow {
  RowMap row_map;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, long long& local_max) const {
    const long long len = static_cast<long long>(row_map(i + 1) - row_map(i));
    if (len > local_max) local_max = len;
  }
};
template <class RowMap, class Ordinal>
struct CountEmptyRows {
  using value_type = long long;
  RowMap row_map;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, long long& count) const {
    if (row_map(i + 1) == row_map(i)) ++count;
  }
};
}  // namespace impl

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
      impl::LongestRow<decltype(row_map), ordinal_type>{row_map}, Kokkos::Max<long long>(max_len));
  Kokkos::parallel_reduce(
      "kelp::kernels::row_statistics", Kokkos::RangePolicy<execution_space>(exec, 0, n),
      impl::CountEmptyRows<decltype(row_map), ordinal_type>{row_map}, empty);
  stats.nnz = static_cast<long long>(A.nnz());
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
    if (analyzed_ && A.row_map().data() == row_map_.data() && A.num_rows() == num_rows_ &&
        A.num_cols() == num_cols_ && A.nnz() == nnz_ && A.has_stencil() == has_stencil_) {
      return;
    }
    KELP_REQUIRE(requested_ != SpmvAlgorithm::stencil || A.has_stencil(), InvalidArgument,
                 "kelp::kernels::SpmvHandle: algorithm stencil requested for a "
                     << A.num_rows() << " x " << A.num_cols()
                     << " matrix that carries no stencil description (build it with a "
                     << "kelp::generators stencil generator or call CrsMatrix::attach_stencil)");
    has_stencil_ = A.has_stencil();
    row_map_ = A.row_map();
    num_rows_ = A.num_rows();
    num_cols_ = A.num_cols();
    nnz_ = A.nnz();
    stats_ = row_statistics(exec, A);
    // On GPUs a stencil description means the stencil kernel: it streams the CRS arrays minus
    // the column indices. On CPUs it was 1.5-1.8x slower than row_parallel on the 7-point 100^3
    // Laplacian (docs/performance.md, issue 8 stencil section), so host spaces keep the CRS choice.
    constexpr bool host = Kokkos::SpaceAccessibility<execution_space, Kokkos::HostSpace>::accessible;
    chosen_ = requested_ != SpmvAlgorithm::automatic ? requested_
              : has_stencil_ && !host                ? SpmvAlgorithm::stencil
                                                     : choose(stats_);
    timed_ = false;
    blocks_ = {};  // the adaptive blocks belong to the old pattern
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
           requested_ == SpmvAlgorithm::automatic && chosen_ != SpmvAlgorithm::stencil &&
           static_cast<long long>(nnz_) >= kTimingMinNnz;
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

  /// Automatic choice from statistics.
  /// GPUs: adaptive, which stages every block with coalesced loads and gives long rows a whole
  /// team, in one kernel; but row-parallel for small matrices (< 2^17 nonzeros) without long rows
  /// (longest <= 8 x mean + 64): there a product takes a few microseconds, launch latency, and
  /// the few blocks of the adaptive kernel occupy few SMs. On the H100 this picked the faster of
  /// the two on all 28 matrices of the repository's set (docs/performance.md).
  /// Hosts: merge path when threads would otherwise wait on long rows, i.e. the execution space
  /// runs more than one thread and the longest row exceeds both 64 entries and ten times the
  /// mean. With one thread there is no imbalance to fix, so rows win (less work).
  static SpmvAlgorithm choose(const RowStatistics& stats) {
    constexpr bool host = Kokkos::SpaceAccessibility<execution_space, Kokkos::HostSpace>::accessible;
    if (!host) {
      const bool small = stats.nnz < (1LL << 17);
      const bool regular = stats.max_row_nnz <= 8 * stats.mean_row_nnz + 64;
      return small && regular ? SpmvAlgorithm::row_parallel : SpmvAlgorithm::adaptive;
    }
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

  /// Sets the adaptive algorithm's blocking and team shape (0 fields: chosen from the rows).
  void set_adaptive_shape(const AdaptiveShape& shape) {
    KELP_REQUIRE(shape.block_rows >= 1 && shape.block_entries >= 0 && shape.team_size >= 0 &&
                     shape.vector_length >= 0,
                 InvalidArgument,
                 "kelp::kernels::SpmvHandle::set_adaptive_shape: block_rows = "
                     << shape.block_rows << ", block_entries = " << shape.block_entries
                     << ", team_size = " << shape.team_size << ", vector_length = "
                     << shape.vector_length << "; expected block_rows >= 1 and "
                     << "block_entries, team_size, vector_length >= 0 (0: automatic)");
    shape_request_ = shape;
    blocks_ = {};
  }
  /// The adaptive shape in use (valid after adaptive_blocks()).
  const AdaptiveShape& adaptive_shape() const { return shape_; }

  /// The adaptive algorithm's block list for A (first row of each block, then num_rows), built
  /// once per pattern on the host from A's row_map and kept on A's device.
  Kokkos::View<ordinal_type*, typename Matrix::device_type> adaptive_blocks(
      const execution_space& exec, const Matrix& A) {
    if (blocks_.extent(0) > 0) return blocks_;
    shape_ = resolve_shape(shape_request_, stats_);
    auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
    const std::vector<long long> starts =
        adaptive_row_blocks(row_map, A.num_rows(), shape_.block_rows, shape_.block_entries);
    Kokkos::View<ordinal_type*, typename Matrix::device_type> blocks(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spmv::adaptive_blocks"),
        starts.size());
    auto host = Kokkos::create_mirror_view(blocks);
    for (std::size_t b = 0; b < starts.size(); ++b) host(b) = static_cast<ordinal_type>(starts[b]);
    Kokkos::deep_copy(exec, blocks, host);
    exec.fence();  // host is a temporary
    blocks_ = blocks;
    return blocks_;
  }

  /// Fills the zero fields of a requested shape from the row lengths. GPUs: 256 lanes per team;
  /// one lane per row while a block's rows fill the team (on the H100 one lane per row summing
  /// 7 staged entries from shared memory beat 2, 4 and 8 lanes with shuffles by 20-30 %), more
  /// lanes per row when the scratch holds fewer rows than the team has threads. Hosts: one lane,
  /// Kokkos' team size.
  static AdaptiveShape resolve_shape(AdaptiveShape shape, const RowStatistics& stats) {
    constexpr bool host = Kokkos::SpaceAccessibility<execution_space, Kokkos::HostSpace>::accessible;
    if (shape.block_entries == 0) {
      shape.block_entries = 24576 / static_cast<long long>(sizeof(scalar_type) + sizeof(ordinal_type));
    }
    if (shape.vector_length == 0) {
      const double rows_per_block = std::min<double>(
          shape.block_rows, static_cast<double>(shape.block_entries) / std::max(1.0, stats.mean_row_nnz));
      int lanes = 1;
      while (!host && lanes < 32 && lanes * rows_per_block < 128) lanes *= 2;
      shape.vector_length = lanes;
    }
    if (shape.team_size == 0 && !host) shape.team_size = std::max(1, 256 / shape.vector_length);
    return shape;
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
  bool has_stencil_ = false;
  // The analysed row_map itself, not its address: held, it cannot be freed and reused by
  // another matrix's allocation (which would pass for the same pattern).
  typename Matrix::row_map_type row_map_;
  ordinal_type num_rows_ = 0;
  ordinal_type num_cols_ = 0;
  offset_type nnz_ = 0;
  RowStatistics stats_;
  SpmvAlgorithm chosen_ = SpmvAlgorithm::row_parallel;
  long long items_per_chunk_ = 1;
  AdaptiveShape shape_request_;
  AdaptiveShape shape_;
  Kokkos::View<ordinal_type*, typename Matrix::device_type> blocks_;
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
    case SpmvAlgorithm::adaptive: return "adaptive";
    case SpmvAlgorithm::stencil: return "stencil";
  }
  return "unknown";
}

}  // namespace kelp::kernels
