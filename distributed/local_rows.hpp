#pragma once
/// The hand-off between distributed input (readers, generators, redistribution) and the
/// distributed matrix: which global rows each rank owns, and this rank's rows with *global*
/// column indices, on the host, before any halo plan exists.
///
/// Ownership is always contiguous in the numbering the matrix is built in: rank r owns global
/// rows [offsets[r], offsets[r+1]). A graph partition (METIS) is applied by renumbering, so that
/// each part becomes a contiguous range; the permutation is kept beside the matrix so the user
/// gets vectors back in the original numbering.
///
/// Example (3 ranks, 10 rows, balanced by rows):
///   auto rows = kelp::dist::RowPartition::balanced(10, 3);   // offsets {0, 4, 7, 10}
///   rows.owner(5) == 1; rows.size(1) == 3

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kelp/kernels/core/error.hpp"

namespace kelp::dist {

/// Global row and column indices: 64 bits, so a distributed matrix may exceed 2^31 rows in all
/// while each rank's local indices stay kelp::Ordinal.
using GlobalOrdinal = std::int64_t;

/// Contiguous ownership of a global index range by the ranks of a communicator. The same object
/// on every rank (offsets.size() == ranks + 1, offsets.front() == 0, nondecreasing; empty ranks
/// are allowed: offsets[r] == offsets[r+1]).
struct RowPartition {
  std::vector<GlobalOrdinal> offsets{0};

  int num_ranks() const { return static_cast<int>(offsets.size()) - 1; }
  GlobalOrdinal global_size() const { return offsets.back(); }
  GlobalOrdinal begin(int rank) const { return offsets[static_cast<std::size_t>(rank)]; }
  GlobalOrdinal end(int rank) const { return offsets[static_cast<std::size_t>(rank) + 1]; }
  GlobalOrdinal size(int rank) const { return end(rank) - begin(rank); }

  /// The rank that owns global index i (0 <= i < global_size()); empty ranks own nothing.
  int owner(GlobalOrdinal i) const {
    KELP_REQUIRE(i >= 0 && i < global_size(), InvalidArgument,
                 "kelp::dist::RowPartition::owner: index " << i << " outside [0, " << global_size() << ")");
    const auto it = std::upper_bound(offsets.begin(), offsets.end(), i);
    return static_cast<int>(it - offsets.begin()) - 1;
  }

  /// n indices over `ranks` ranks, sizes differing by at most one (the first n % ranks get one more).
  static RowPartition balanced(GlobalOrdinal n, int ranks) {
    KELP_REQUIRE(n >= 0 && ranks >= 1, InvalidArgument,
                 "kelp::dist::RowPartition::balanced: need n >= 0 and ranks >= 1, got n = " << n
                                                                                       << ", ranks = " << ranks);
    RowPartition p;
    p.offsets.assign(static_cast<std::size_t>(ranks) + 1, 0);
    for (int r = 0; r < ranks; ++r) {
      p.offsets[static_cast<std::size_t>(r) + 1] =
          p.offsets[static_cast<std::size_t>(r)] + n / ranks + (r < n % ranks ? 1 : 0);
    }
    return p;
  }
};

/// This rank's rows of a global matrix: host CRS with global column indices. `rows` and `cols`
/// are the same on every rank: `rows` says who owns which rows (the range of y = A x), `cols`
/// how x is distributed (the domain; equal to `rows` for a square matrix unless the caller says
/// otherwise). Entries within a row may come in any order; duplicates are not allowed.
template <class Scalar>
struct LocalRows {
  GlobalOrdinal global_rows = 0;
  GlobalOrdinal global_cols = 0;
  RowPartition rows;
  RowPartition cols;
  std::vector<std::int64_t> row_map{0};   ///< size rows.size(rank) + 1
  std::vector<GlobalOrdinal> col_index;   ///< global column of each entry
  std::vector<Scalar> values;

  std::int64_t num_local_rows() const { return static_cast<std::int64_t>(row_map.size()) - 1; }
  std::int64_t num_local_entries() const { return static_cast<std::int64_t>(col_index.size()); }
};

}  // namespace kelp::dist
