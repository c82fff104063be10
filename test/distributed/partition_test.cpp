// Partitioning (issue 14) on 1-4 ranks: contiguous rows balanced by nonzeros (every rank within
// one row's length of nnz / p, rows moved there intact), and METIS k-way with its renumbering
// (a bijection, contiguous parts, every row once, the result equal to P A P^T, a smaller edge cut
// than the contiguous split of a randomly permuted 2D Laplacian, vectors there and back).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "kelp/distributed/partition.hpp"
#include "kelp/distributed/read_matrix_market.hpp"
#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "test/distributed/local_rows_check.hpp"
#include "test/support/paths.hpp"

namespace kelp::partition_test {
namespace {

using test::mpi_rank;
using test::mpi_size;
using Host = CrsMatrix<double, Ordinal, Offset, HostDevice>;

/// Q A Q^T for the permutation new_of_old (row i of A becomes row new_of_old[i]).
Host permuted(const Host& A, const std::vector<dist::GlobalOrdinal>& new_of_old) {
  std::vector<Ordinal> rows, cols;
  std::vector<double> values;
  for (Ordinal i = 0; i < A.num_rows(); ++i) {
    for (auto k = A.row_map()(i); k < A.row_map()(i + 1); ++k) {
      rows.push_back(static_cast<Ordinal>(new_of_old[i]));
      cols.push_back(static_cast<Ordinal>(new_of_old[A.entries()(k)]));
      values.push_back(A.values()(k));
    }
  }
  return crs_from_coo<double, Ordinal, Offset, HostDevice>(A.num_rows(), A.num_cols(), rows, cols, values);
}

/// Entries (i, j) with i and j on different ranks, over all ranks.
long long global_cut(const dist::LocalRows<double>& A) {
  long long cut = 0;
  const auto first = A.rows.begin(mpi_rank()), last = A.rows.end(mpi_rank());
  for (auto c : A.col_index) cut += (c < first || c >= last) ? 1 : 0;
  long long total = 0;
  MPI_Allreduce(&cut, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

TEST(DistPartition, BalancedByNonzerosWithinOneRowOfTheMean) {
  for (const char* name : {"Erdos971", "bcsstk14", "lp_e226"}) {
    const auto serial = io::read_matrix_market<double, Ordinal, Offset, HostDevice>(test::matrix_path(name));
    const auto A = dist::read_matrix_market<double>(test::matrix_path(name), MPI_COMM_WORLD);
    long long max_row = 0;
    for (Ordinal i = 0; i < serial.num_rows(); ++i) {
      max_row = std::max<long long>(max_row, serial.row_map()(i + 1) - serial.row_map()(i));
    }

    const auto rows = dist::balanced_by_nonzeros(MPI_COMM_WORLD, A);
    const auto B = dist::redistribute(MPI_COMM_WORLD, A, rows, A.cols);

    EXPECT_EQ(rows.global_size(), serial.num_rows());
    test::expect_partition_consistent(B, name);
    test::expect_rows_equal(serial, B, rows.begin(mpi_rank()), name);
    const double mean = static_cast<double>(serial.nnz()) / mpi_size();
    EXPECT_LE(std::abs(static_cast<double>(B.num_local_entries()) - mean), static_cast<double>(max_row))
        << name << " on rank " << mpi_rank();
  }
}

TEST(DistPartition, BalancedByNonzerosFromAnUnevenStart) {
  const auto serial = generators::laplace2d<double, HostDevice>(13, 11);
  dist::RowPartition start;
  start.offsets.assign(static_cast<std::size_t>(mpi_size()) + 1, serial.num_rows());
  start.offsets[0] = 0;  // everything on the last rank at first
  for (int r = 1; r < mpi_size(); ++r) start.offsets[static_cast<std::size_t>(r)] = 0;
  const auto A = test::local_rows_of(serial, start, mpi_rank());

  const auto rows = dist::balanced_by_nonzeros(MPI_COMM_WORLD, A);
  const auto B = dist::redistribute(MPI_COMM_WORLD, A, rows, rows);

  test::expect_rows_equal(serial, B, rows.begin(mpi_rank()), "laplace2d");
  EXPECT_LE(std::abs(static_cast<double>(B.num_local_entries()) - static_cast<double>(serial.nnz()) / mpi_size()), 5.0);
}

TEST(DistPartition, MetisRenumberingOfAPermutedLaplacian) {
  // A 2D Laplacian in a random order: contiguous rows cut almost every edge, METIS few.
  const auto laplacian = generators::laplace2d<double, HostDevice>(24, 20);
  std::vector<dist::GlobalOrdinal> shuffle(static_cast<std::size_t>(laplacian.num_rows()));
  std::iota(shuffle.begin(), shuffle.end(), 0);
  std::shuffle(shuffle.begin(), shuffle.end(), std::mt19937_64(42));
  const Host serial = permuted(laplacian, shuffle);
  const auto rows = dist::RowPartition::balanced(serial.num_rows(), mpi_size());
  const auto A = test::local_rows_of(serial, rows, mpi_rank());

  const auto parts = dist::partition_metis(MPI_COMM_WORLD, A);
  const auto B = dist::renumber(MPI_COMM_WORLD, A, parts);

  // A bijection, parts contiguous and covering all rows.
  auto sorted = parts.new_of_old;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], static_cast<dist::GlobalOrdinal>(i));
  ASSERT_EQ(parts.rows.num_ranks(), mpi_size());
  EXPECT_EQ(parts.rows.global_size(), serial.num_rows());
  EXPECT_TRUE(std::is_sorted(parts.rows.offsets.begin(), parts.rows.offsets.end()));
  // Every row once, equal to P A P^T.
  test::expect_partition_consistent(B, "renumbered");
  test::expect_rows_equal(permuted(serial, parts.new_of_old), B, parts.rows.begin(mpi_rank()), "P A P^T");
  // A smaller cut than the contiguous split.
  if (mpi_size() > 1) {
    EXPECT_LT(global_cut(B), global_cut(A) / 2);
    EXPECT_EQ(2 * parts.edge_cut, global_cut(B));  // symmetric: each cut edge is two entries
  } else {
    EXPECT_EQ(parts.edge_cut, 0);
  }
}

TEST(DistPartition, VectorsThereAndBack) {
  const auto serial = generators::laplace2d<double, HostDevice>(9, 8);
  const auto rows = dist::RowPartition::balanced(serial.num_rows(), mpi_size());
  const auto A = test::local_rows_of(serial, rows, mpi_rank());
  const auto parts = dist::partition_metis(MPI_COMM_WORLD, A);
  std::vector<double> x(static_cast<std::size_t>(rows.size(mpi_rank())));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.5 + static_cast<double>(rows.begin(mpi_rank()) + static_cast<long long>(i));

  const auto x_new = dist::to_new_numbering(MPI_COMM_WORLD, x, rows, parts);
  const auto x_back = dist::to_original_numbering(MPI_COMM_WORLD, x_new, parts, rows);

  ASSERT_EQ(static_cast<dist::GlobalOrdinal>(x_new.size()), parts.rows.size(mpi_rank()));
  for (std::size_t i = 0; i < parts.new_of_old.size(); ++i) {
    const auto j = parts.new_of_old[i];  // x_new(j) = x(i) = i + 0.5
    if (j >= parts.rows.begin(mpi_rank()) && j < parts.rows.end(mpi_rank())) {
      EXPECT_EQ(x_new[static_cast<std::size_t>(j - parts.rows.begin(mpi_rank()))], 0.5 + static_cast<double>(i));
    }
  }
  EXPECT_EQ(x_back, x);
}

TEST(DistPartition, MetisWithMoreRanksThanRowsAndOneRank) {
  const auto serial = generators::laplace1d<double, HostDevice>(3);
  const auto rows = dist::RowPartition::balanced(3, mpi_size());
  const auto A = test::local_rows_of(serial, rows, mpi_rank());

  const auto parts = dist::partition_metis(MPI_COMM_WORLD, A);
  const auto B = dist::renumber(MPI_COMM_WORLD, A, parts);

  test::expect_partition_consistent(B, "laplace1d(3)");
  test::expect_rows_equal(permuted(serial, parts.new_of_old), B, parts.rows.begin(mpi_rank()), "laplace1d(3)");
  if (mpi_size() == 1) {
    EXPECT_EQ(parts.new_of_old, (std::vector<dist::GlobalOrdinal>{0, 1, 2}));
  }
}

TEST(DistPartition, MetisRejectsARectangularMatrix) {
  const auto A = dist::read_matrix_market<double>(test::matrix_path("lp_e226"), MPI_COMM_WORLD);

  try {
    dist::partition_metis(MPI_COMM_WORLD, A);
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("square matrix; A is 223 x 472"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kelp::partition_test
