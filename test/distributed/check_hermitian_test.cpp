// The distributed Hermitian check (distributed/check_hermitian.hpp) on 1-4 ranks against the
// serial check_hermitian: Hermitian real and complex matrices pass on every rank; a broken
// hopping, an entry without its transpose and an imaginary diagonal throw on EVERY rank, naming
// the entry the serial check names, for balanced and uneven (empty-rank) partitions.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "kelp/distributed/check_hermitian.hpp"
#include "kelp/distributed/local_rows_from_global.hpp"
#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/generators/hamiltonians.hpp"
#include "kelp/solvers/kpm/kpm.hpp"
#include "test/distributed/mpi_world.hpp"

namespace kelp::check_hermitian_test {
namespace {

using C = Kokkos::complex<double>;
using test::mpi_rank;
using test::mpi_size;

/// The partitions a test runs: balanced, and one with an empty first rank and the rest on the last.
std::vector<dist::RowPartition> partitions(dist::GlobalOrdinal n) {
  dist::RowPartition skewed;
  skewed.offsets.assign(static_cast<std::size_t>(mpi_size()) + 1, 0);
  for (int r = 1; r < mpi_size(); ++r) skewed.offsets[static_cast<std::size_t>(r)] = r == 1 ? 0 : n / 2;
  skewed.offsets.back() = n;
  return {dist::RowPartition::balanced(n, mpi_size()), skewed};
}

/// The message after "check_hermitian: " (the serial and distributed checks differ only before it).
std::string body(const std::string& message) {
  const auto at = message.find("check_hermitian: ");
  return at == std::string::npos ? message : message.substr(at + 17);
}

/// The distributed check on this rank's rows of H must pass or fail as the serial check on H does,
/// with the same message body, on every rank.
template <class Scalar>
void expect_same_verdict_as_serial(const CrsMatrix<Scalar>& H, const std::string& needle) {
  std::string serial;
  try {
    solvers::check_hermitian(H, 1e-12);
  } catch (const InvalidArgument& e) {
    serial = body(e.what());
  }
  ASSERT_EQ(serial.empty(), needle.empty()) << serial;
  EXPECT_NE(serial.find(needle), std::string::npos) << serial;
  for (const auto& part : partitions(H.num_rows())) {
    const auto rows = dist::local_rows_from_global(H, part, part, mpi_rank());
    std::string distributed;
    try {
      dist::check_hermitian(MPI_COMM_WORLD, rows, 1e-12);
    } catch (const InvalidArgument& e) {
      distributed = body(e.what());
    }

    EXPECT_EQ(distributed, serial) << "rank " << mpi_rank() << " of " << mpi_size();
  }
}

/// A chain of n sites with hopping -1, except a(i, i + 1) = broken.
CrsMatrix<double> chain_with_broken_hopping(int n, int i, double broken) {
  std::vector<Ordinal> rows, cols;
  std::vector<double> values;
  for (int k = 0; k + 1 < n; ++k) {
    rows.insert(rows.end(), {k, k + 1});
    cols.insert(cols.end(), {k + 1, k});
    values.insert(values.end(), {k == i ? broken : -1.0, -1.0});
  }
  return crs_from_coo<double>(n, n, rows, cols, values);
}

TEST(DistCheckHermitian, HermitianMatricesPassOnEveryRank) {
  expect_same_verdict_as_serial(chain_with_broken_hopping(50, 24, -1.0), "");
  generators::TopologicalInsulatorParams p;
  p.nx = 3, p.ny = 3, p.nz = 2;
  p.disorder = 1.0;
  expect_same_verdict_as_serial(generators::topological_insulator<C>(p), "");
}

TEST(DistCheckHermitian, BrokenHoppingIsNamedOnEveryRankAsTheSerialCheckNamesIt) {
  expect_same_verdict_as_serial(chain_with_broken_hopping(50, 24, -1.5),
                                "H is not Hermitian: a(24, 25) = (-1.5, 0) but conj(a(25, 24)) = (-1, 0)");
  expect_same_verdict_as_serial(chain_with_broken_hopping(7, 5, -1.5), "a(5, 6) = (-1.5, 0)");
}

TEST(DistCheckHermitian, MissingTransposeAndImaginaryDiagonalAreNamed) {
  // a(1, 4) without a(4, 1); then a Hermitian pattern with an imaginary diagonal entry at row 3.
  expect_same_verdict_as_serial(crs_from_coo<C>(6, 6, {0, 1, 4, 5}, {0, 4, 4, 5}, {C(1), C(2, 1), C(3), C(4)}),
                                "a(1, 4) = (2, 1) but conj(a(4, 1)) = (0, -0)");
  expect_same_verdict_as_serial(crs_from_coo<C>(5, 5, {0, 3, 4}, {0, 3, 4}, {C(1), C(1, 0.5), C(2)}),
                                "a(3, 3) = (1, 0.5) but conj(a(3, 3)) = (1, -0.5)");
}

TEST(DistCheckHermitian, RejectsNonSquareOnEveryRank) {
  const auto A = crs_from_coo<double>(4, 3, {0, 1}, {0, 1}, {1.0, 1.0});
  const auto part = dist::RowPartition::balanced(4, mpi_size());
  const auto rows = dist::local_rows_from_global(A, part, dist::RowPartition::balanced(3, mpi_size()), mpi_rank());

  try {
    dist::check_hermitian(MPI_COMM_WORLD, rows, 1e-12);
    ADD_FAILURE() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("H is 4 x 3, expected square"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kelp::check_hermitian_test
