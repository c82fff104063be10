#pragma once
/// SELL-C-sigma: sliced ELLPACK with local row sorting (Kreutzer, Hager, Wellein, Fehske and
/// Bishop, "A unified sparse matrix data format for efficient general sparse matrix-vector
/// multiplication on modern processors with wide SIMD units", SIAM J. Sci. Comput. 36(5), 2014;
/// the format of the KPM paper in /work/shared/papers/).
///
/// The rows are sorted by decreasing length inside windows of sigma rows (the permutation is
/// kept), then cut into chunks of C consecutive sorted rows. Chunk c is stored column-major as
/// a C x chunk_lengths(c) block padded to its longest row:
///
///   sorted row s = c*C + r (lane r of chunk c), its j-th entry:  k = chunk_offsets(c) + j*C + r
///
///   chunk c (C = 4)        storage from chunk_offsets(c):
///     lane 0: a b c d       a e h k  b f i l  c g * m  d * * *      (* = padding)
///     lane 1: e f g          \_ j=0 _/ \_ j=1 _/ \_ j=2 _/ \_ j=3 _/
///     lane 2: h i
///     lane 3: k l m
///
/// so the C lanes of a chunk read C consecutive entries at each step j (SIMD lanes on CPUs,
/// coalesced warps on GPUs). Padding entries have value 0 and the column of their row's last
/// entry (column 0 for an empty row), so reading them never leaves x and touches no new cache
/// line; the kernels skip them all the same (row_lengths), so results equal CRS exactly in
/// exact arithmetic, also for infinite x. The last chunk is padded with empty lanes when
/// num_rows is not a multiple of C.
///
/// Sorting inside windows of sigma rows lowers the padding (rows of similar length share a
/// chunk) while keeping x accesses local: sigma = 1 keeps the row order, sigma = num_rows sorts
/// globally (ELLPACK-R / JDS-like), with the least padding and the most scattered y.
/// Chunk occupancy beta = nnz / stored entries (1 = no padding) measures the overhead.

#include <string>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp::kernels {

/// The two parameters of SELL-C-sigma.
struct SellShape {
  /// Chunk height: rows per chunk; a power of two from 1 to 1024. 32 = one warp of an NVIDIA GPU
  /// and a multiple of every CPU SIMD width (SELL-32 is the paper's choice for both).
  int C = 32;
  /// Sorting window in rows: 1 (no sorting) or a multiple of C. 1 by default: regular matrices
  /// (stencils) gain nothing from sorting and keep their row order (and x locality).
  int sigma = 1;
};

/// The shape as text, "SELL-C-sigma" (e.g. "SELL-32-256").
inline std::string to_string(const SellShape& shape) {
  return "SELL-" + std::to_string(shape.C) + "-" + std::to_string(shape.sigma);
}

/// Throws InvalidArgument naming `where` unless C is a power of two in [1, 1024] and sigma is 1
/// or a positive multiple of C.
inline void check_sell_shape(const SellShape& shape, const char* where) {
  const bool power_of_two = shape.C >= 1 && shape.C <= 1024 && (shape.C & (shape.C - 1)) == 0;
  KELP_REQUIRE(power_of_two, InvalidArgument,
               where << ": bad SELL shape " << to_string(shape) << ": C = " << shape.C
                     << "; expected a power of two from 1 to 1024");
  KELP_REQUIRE(shape.sigma == 1 || (shape.sigma > 0 && shape.sigma % shape.C == 0), InvalidArgument,
               where << ": bad SELL shape " << to_string(shape) << ": sigma = " << shape.sigma
                     << "; expected 1 or a positive multiple of C = " << shape.C);
}

/// A sparse matrix in SELL-C-sigma storage (see the file comment). Built by to_sell from a
/// CrsMatrix (kernels/sell/to_sell.hpp); copies are shallow, as for Kokkos views.
template <class ScalarT, class OrdinalT = Ordinal, class OffsetT = Offset, class DeviceT = DefaultDevice>
class SellMatrix {
 public:
  using scalar_type = ScalarT;
  using ordinal_type = OrdinalT;
  using offset_type = OffsetT;
  using device_type = DeviceT;
  using execution_space = typename DeviceT::execution_space;
  using memory_space = typename DeviceT::memory_space;
  using offsets_type = Kokkos::View<OffsetT*, DeviceT>;
  using ordinals_type = Kokkos::View<OrdinalT*, DeviceT>;
  using values_type = Kokkos::View<ScalarT*, DeviceT>;

  SellMatrix() = default;

  /// Assembles the parts (no copy, no check of their contents: to_sell builds them).
  SellMatrix(OrdinalT num_rows, OrdinalT num_cols, OffsetT nnz, SellShape shape,
             offsets_type chunk_offsets, ordinals_type chunk_lengths, ordinals_type row_lengths,
             ordinals_type permutation, ordinals_type entries, values_type values)
      : num_rows_(num_rows), num_cols_(num_cols), nnz_(nnz), shape_(shape),
        chunk_offsets_(chunk_offsets), chunk_lengths_(chunk_lengths), row_lengths_(row_lengths),
        permutation_(permutation), entries_(entries), values_(values) {}

  OrdinalT num_rows() const { return num_rows_; }
  OrdinalT num_cols() const { return num_cols_; }
  /// Entries of the CRS matrix it was built from (padding not counted).
  OffsetT nnz() const { return nnz_; }
  SellShape shape() const { return shape_; }
  /// ceil(num_rows / C).
  OrdinalT num_chunks() const { return static_cast<OrdinalT>(chunk_lengths_.extent(0)); }
  /// Stored entries, padding included: sum over chunks of C * chunk_lengths(c).
  OffsetT stored_entries() const { return static_cast<OffsetT>(entries_.extent(0)); }
  /// beta of Kreutzer et al.: nnz / stored entries, in (0, 1]; 1 for a matrix without padding
  /// (and for one without entries).
  double chunk_occupancy() const {
    return stored_entries() == 0 ? 1.0 : static_cast<double>(nnz_) / static_cast<double>(stored_entries());
  }
  /// Stored entries / nnz = 1 / beta: the factor by which padding enlarges A's traffic.
  double fill_in_ratio() const { return 1.0 / chunk_occupancy(); }

  /// num_chunks + 1 offsets into entries/values: chunk c starts at chunk_offsets(c).
  const offsets_type& chunk_offsets() const { return chunk_offsets_; }
  /// Longest row of each chunk (the chunk's width).
  const ordinals_type& chunk_lengths() const { return chunk_lengths_; }
  /// Length of each sorted row, num_chunks * C entries (lanes past num_rows: 0).
  const ordinals_type& row_lengths() const { return row_lengths_; }
  /// permutation(s) = the original row of sorted row s (num_rows entries).
  const ordinals_type& permutation() const { return permutation_; }
  const ordinals_type& entries() const { return entries_; }
  const values_type& values() const { return values_; }

 private:
  OrdinalT num_rows_ = 0;
  OrdinalT num_cols_ = 0;
  OffsetT nnz_ = 0;
  SellShape shape_;
  offsets_type chunk_offsets_ = offsets_type("kelp::SellMatrix::chunk_offsets", 1);
  ordinals_type chunk_lengths_;
  ordinals_type row_lengths_;
  ordinals_type permutation_;
  ordinals_type entries_;
  values_type values_;
};

}  // namespace kelp::kernels
