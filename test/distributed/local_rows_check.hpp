#pragma once
// Checks for the distributed input tests (issue 14): this rank's LocalRows against the same rows
// of a serial host matrix, exactly (indices and bitwise values), and small MPI helpers.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "kelp/distributed/local_rows.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "test/distributed/mpi_world.hpp"

namespace kelp::test {


/// Rows first .. first + L.num_local_rows() of the host matrix H equal L's rows: same columns
/// in the same (sorted) order and exactly the same values. `global_first` maps a local row.
template <class Scalar, class HostMatrix>
void expect_rows_equal(const HostMatrix& H, const dist::LocalRows<Scalar>& L, dist::GlobalOrdinal first,
                       const std::string& what) {
  ASSERT_EQ(L.global_rows, H.num_rows()) << what;
  ASSERT_EQ(L.global_cols, H.num_cols()) << what;
  ASSERT_EQ(static_cast<std::int64_t>(L.row_map.size()), L.num_local_rows() + 1) << what;
  ASSERT_EQ(static_cast<std::size_t>(L.row_map.back()), L.col_index.size()) << what;
  ASSERT_EQ(L.col_index.size(), L.values.size()) << what;
  const auto& row_map = H.row_map();
  const auto& entries = H.entries();
  const auto& values = H.values();
  int mismatches = 0;
  for (std::int64_t i = 0; i < L.num_local_rows() && mismatches < 5; ++i) {
    const auto g = first + i;
    const auto length = row_map(g + 1) - row_map(g);
    const auto local_length = L.row_map[i + 1] - L.row_map[i];
    if (length != local_length) {
      ADD_FAILURE() << what << ": row " << g << " has " << local_length << " entries, serial " << length;
      ++mismatches;
      continue;
    }
    for (std::int64_t k = 0; k < length; ++k) {
      const auto serial_col = entries(row_map(g) + k);
      const Scalar serial_value = values(row_map(g) + k);
      const auto col = L.col_index[L.row_map[i] + k];
      const Scalar value = L.values[L.row_map[i] + k];
      const bool same = col == serial_col && ScalarTraits<Scalar>::real(value) == ScalarTraits<Scalar>::real(serial_value) &&
                        ScalarTraits<Scalar>::imag(value) == ScalarTraits<Scalar>::imag(serial_value);
      if (!same) {
        ADD_FAILURE() << what << ": row " << g << " entry " << k << ": (" << col << ", " << value << "), serial ("
                      << serial_col << ", " << serial_value << ")";
        ++mismatches;
        break;
      }
    }
  }
}

/// This rank's rows of the host matrix H under `rows` (columns distributed like the rows when H
/// is square, balanced otherwise), as the distributed input would produce them.
template <class HostMatrix>
dist::LocalRows<typename HostMatrix::scalar_type> local_rows_of(const HostMatrix& H, const dist::RowPartition& rows,
                                                                 int rank) {
  dist::LocalRows<typename HostMatrix::scalar_type> L;
  L.global_rows = H.num_rows();
  L.global_cols = H.num_cols();
  L.rows = rows;
  L.cols = H.num_rows() == H.num_cols() ? rows : dist::RowPartition::balanced(H.num_cols(), rows.num_ranks());
  L.row_map.assign(1, 0);
  for (auto g = rows.begin(rank); g < rows.end(rank); ++g) {
    for (auto k = H.row_map()(g); k < H.row_map()(g + 1); ++k) {
      L.col_index.push_back(H.entries()(k));
      L.values.push_back(H.values()(k));
    }
    L.row_map.push_back(static_cast<std::int64_t>(L.col_index.size()));
  }
  return L;
}

/// Every rank's rows together are all rows once: local counts add up, offsets are consistent.
template <class Scalar>
void expect_partition_consistent(const dist::LocalRows<Scalar>& L, const std::string& what) {
  EXPECT_EQ(L.rows.num_ranks(), mpi_size()) << what;
  EXPECT_EQ(L.num_local_rows(), L.rows.size(mpi_rank())) << what;
  long long local = L.num_local_rows(), total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, L.global_rows) << what;
}

}  // namespace kelp::test
