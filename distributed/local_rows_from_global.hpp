#pragma once
/// This rank's rows of a matrix that every rank (or the caller) holds whole: the simplest way
/// to a DistCrsMatrix for moderate sizes and for tests (at scale, read or generate only the
/// local rows instead).
///
/// Example:
///   auto A = kelp::io::read_matrix_market<double>(path);        // whole matrix, every rank
///   auto rows = dist::RowPartition::balanced(A.num_rows(), size);
///   auto cols = dist::RowPartition::balanced(A.num_cols(), size);
///   dist::DistCrsMatrix<double> Ad(comm, dist::local_rows_from_global(A, rows, cols, rank));

#include "kelp/distributed/local_rows.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"

namespace kelp::dist {

/// Rows [rows.begin(rank), rows.end(rank)) of A with global column indices (host copy).
/// @throws DimensionMismatch when the partitions do not cover A's rows and columns,
///         InvalidArgument for a rank outside the partition
template <class Scalar, class OrdinalT, class OffsetT, class Device>
LocalRows<Scalar> local_rows_from_global(const CrsMatrix<Scalar, OrdinalT, OffsetT, Device>& A,
                                         const RowPartition& rows, const RowPartition& cols, int rank) {
  constexpr const char* where = "kelp::dist::local_rows_from_global";
  KELP_REQUIRE(rows.global_size() == A.num_rows() && cols.global_size() == A.num_cols(), DimensionMismatch,
               where << ": the partitions cover " << rows.global_size() << " x " << cols.global_size()
                     << ", the matrix is " << A.num_rows() << " x " << A.num_cols());
  KELP_REQUIRE(rank >= 0 && rank < rows.num_ranks(), InvalidArgument,
               where << ": rank " << rank << " outside [0, " << rows.num_ranks() << ")");
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.entries());
  const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values());
  LocalRows<Scalar> out;
  out.global_rows = A.num_rows();
  out.global_cols = A.num_cols();
  out.rows = rows;
  out.cols = cols;
  out.row_map.assign(1, 0);
  for (GlobalOrdinal i = rows.begin(rank); i < rows.end(rank); ++i) {
    for (auto e = row_map(static_cast<std::size_t>(i)); e < row_map(static_cast<std::size_t>(i) + 1); ++e) {
      out.col_index.push_back(static_cast<GlobalOrdinal>(entries(static_cast<std::size_t>(e))));
      out.values.push_back(values(static_cast<std::size_t>(e)));
    }
    out.row_map.push_back(static_cast<std::int64_t>(out.col_index.size()));
  }
  return out;
}

}  // namespace kelp::dist
