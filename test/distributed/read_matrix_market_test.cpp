// Distributed Matrix Market read (issue 14) on 1-4 ranks: each rank's rows equal exactly the
// same rows of the serial reader, for gzip and plain files, symmetric, hermitian, pattern,
// rectangular, complex, integer and skew-symmetric ones, with balanced and caller-chosen
// (uneven, empty) partitions; and bad input throws the serial reader's message on every rank.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <sstream>
#include <string>

#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/read_matrix_market.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "test/distributed/local_rows_check.hpp"
#include "test/distributed/shared_temp_dir.hpp"
#include "test/support/paths.hpp"

namespace kelp::read_matrix_market_test {
namespace {

using C = Kokkos::complex<double>;
using test::mpi_rank;
using test::mpi_size;

template <class Scalar>
void expect_read_matches_serial(const std::string& path, const dist::RowPartition* rows = nullptr) {
  const auto serial = io::read_matrix_market<Scalar, Ordinal, Offset, HostDevice>(path);

  const auto local = rows ? dist::read_matrix_market<Scalar>(path, MPI_COMM_WORLD, *rows)
                          : dist::read_matrix_market<Scalar>(path, MPI_COMM_WORLD);

  test::expect_partition_consistent(local, path);
  test::expect_rows_equal(serial, local, local.rows.begin(mpi_rank()), path);
  EXPECT_EQ(local.cols.global_size(), serial.num_cols());
}

/// A partition with an empty first rank, a one-row rank and the rest on the others.
dist::RowPartition uneven(dist::GlobalOrdinal n, int ranks) {
  dist::RowPartition p;
  p.offsets.assign(static_cast<std::size_t>(ranks) + 1, n);
  p.offsets[0] = 0;
  if (ranks >= 2) p.offsets[1] = 0;                  // rank 0 empty
  if (ranks >= 3) p.offsets[2] = std::min<dist::GlobalOrdinal>(1, n);  // rank 1: one row
  for (int r = 3; r < ranks; ++r) p.offsets[static_cast<std::size_t>(r)] = (n * r) / (ranks + 1);
  return p;
}

TEST(DistReadMatrixMarket, RepositoryMatricesEqualTheSerialRows) {
  for (const char* name : {"bcsstk14", "mahindas", "lp_e226", "rapP", "jagmesh7", "Erdos971"}) {
    expect_read_matches_serial<double>(test::matrix_path(name));
  }
  expect_read_matches_serial<C>(test::matrix_path("mhd1280b"));  // complex hermitian
  expect_read_matches_serial<C>(test::matrix_path("young1c"));   // complex general
  expect_read_matches_serial<float>(test::matrix_path("gr_30_30"));
}

TEST(DistReadMatrixMarket, CallerPartitionWithEmptyRanks) {
  const std::string path = test::matrix_path("bcsstk14");
  const auto rows = uneven(1806, mpi_size());

  expect_read_matches_serial<double>(path, &rows);
}

TEST(DistReadMatrixMarket, PlainFilesEqualTheSerialRows) {
  // Plain text: every rank reads its own byte range (the gzip path is rank 0's).
  test::SharedTempDir dir;
  const auto A = io::read_matrix_market<double, Ordinal, Offset, HostDevice>(test::matrix_path("bcsstk14"));
  const auto H = io::read_matrix_market<C, Ordinal, Offset, HostDevice>(test::matrix_path("mhd1280b"));
  const auto R = io::read_matrix_market<double, Ordinal, Offset, HostDevice>(test::matrix_path("lp_e226"));
  if (mpi_rank() == 0) {
    io::MatrixMarketWriteOptions symmetric;
    symmetric.symmetry = io::MatrixMarketSymmetry::symmetric;
    io::write_matrix_market(dir.file("bcsstk14.mtx"), A, symmetric);
    io::MatrixMarketWriteOptions hermitian;
    hermitian.symmetry = io::MatrixMarketSymmetry::hermitian;
    io::write_matrix_market(dir.file("mhd1280b.mtx"), H, hermitian);
    io::write_matrix_market(dir.file("lp_e226.mtx"), R);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  expect_read_matches_serial<double>(dir.file("bcsstk14.mtx"));
  expect_read_matches_serial<C>(dir.file("mhd1280b.mtx"));
  expect_read_matches_serial<double>(dir.file("lp_e226.mtx"));
  const auto rows = uneven(1806, mpi_size());
  expect_read_matches_serial<double>(dir.file("bcsstk14.mtx"), &rows);
}

/// A small file with comments and blank lines between entries, CRLF line ends, duplicates
/// (summed in file order), an explicit zero, empty rows and no final line break.
std::string tricky_file(const std::string& field, const std::string& symmetry) {
  std::ostringstream text;
  text << "%%MatrixMarket matrix coordinate " << field << " " << symmetry << "\r\n% a comment\n\n7 7 12\n";
  const int entries[12][2] = {{2, 1}, {3, 3}, {5, 2}, {7, 1}, {3, 3}, {6, 4}, {4, 2}, {7, 6}, {5, 2}, {6, 5}, {7, 5}, {4, 1}};
  for (int k = 0; k < 12; ++k) {
    if (k == 4) text << "% between entries\n\n";
    text << entries[k][0] << " " << entries[k][1];
    if (field == "integer") text << " " << (k % 5) - 2;
    if (field == "real") text << " " << 0.1 * (k + 1) - 0.3;
    if (field == "complex") text << " " << 0.1 * (k + 1) << " " << -0.7 * k;
    text << (k % 3 == 0 ? "\r\n" : "\n");
  }
  std::string s = text.str();
  s.pop_back();  // no final line break
  return s;
}

TEST(DistReadMatrixMarket, SymmetricKindsPatternIntegerAndDuplicates) {
  test::SharedTempDir dir;
  const std::string general = dir.write("general.mtx", tricky_file("real", "general"));
  const std::string symmetric = dir.write("symmetric.mtx", tricky_file("real", "symmetric"));
  const std::string integer = dir.write("integer.mtx.gz", tricky_file("integer", "symmetric"));
  const std::string pattern = dir.write("pattern.mtx", tricky_file("pattern", "symmetric"));

  for (const auto& path : {general, symmetric, integer, pattern}) expect_read_matches_serial<double>(path);
  expect_read_matches_serial<C>(general);
}

TEST(DistReadMatrixMarket, SkewSymmetricAndHermitian) {
  test::SharedTempDir dir;
  const std::string skew = dir.write("skew.mtx",
                                     "%%MatrixMarket matrix coordinate real skew-symmetric\n5 5 4\n2 1 1.5\n"
                                     "3 1 -2\n5 4 3.25\n4 2 7\n");
  const std::string hermitian = dir.write("hermitian.mtx",
                                          "%%MatrixMarket matrix coordinate complex hermitian\n4 4 5\n1 1 2 0\n"
                                          "2 1 1.5 -0.5\n4 1 -2 3\n3 3 4 0\n4 3 0.25 0.75\n");

  expect_read_matches_serial<double>(skew);
  expect_read_matches_serial<C>(hermitian);
}

TEST(DistReadMatrixMarket, MoreRanksThanRowsAndEmptyMatrix) {
  test::SharedTempDir dir;
  const std::string one = dir.write("one.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 4\n");
  const std::string empty = dir.write("empty.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n");
  const std::string no_entries = dir.write("none.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 0\n");

  expect_read_matches_serial<double>(one);
  expect_read_matches_serial<double>(empty);
  expect_read_matches_serial<double>(no_entries);
}

// --- errors: every rank throws, with the same message, the serial reader's one ---------------

/// Runs `distributed` (must throw on every rank) and `serial`; expects the same type (FileError
/// unless said) on all ranks, the message "rank r: <serial message>", and the same text on
/// every rank.
template <class Error = FileError>
void expect_serial_error_everywhere(const std::function<void()>& distributed, const std::function<void()>& serial,
                                    const std::string& expected_part) {
  std::string message, serial_message;
  bool thrown = false;
  try {
    distributed();
  } catch (const Error& e) {
    thrown = true;
    message = e.what();
  }
  try {
    serial();
  } catch (const Error& e) {
    serial_message = e.what();
  }
  ASSERT_TRUE(thrown) << "no " << typeid(Error).name() << " on rank " << mpi_rank();
  EXPECT_NE(message.find(expected_part), std::string::npos) << message;
  EXPECT_EQ(message.rfind("rank ", 0), 0u) << message;
  if (!serial_message.empty()) {
    ASSERT_GE(message.size(), serial_message.size()) << message;
    EXPECT_EQ(message.substr(message.size() - serial_message.size()), serial_message) << message;
  }
  // The same text on every rank.
  long long length = static_cast<long long>(message.size());
  MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  std::string root(static_cast<std::size_t>(length), ' ');
  if (mpi_rank() == 0) root = message;
  MPI_Bcast(root.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
  EXPECT_EQ(message, root);
}

void expect_file_error(const std::string& path, const std::string& expected_part) {
  expect_serial_error_everywhere([&] { dist::read_matrix_market<double>(path, MPI_COMM_WORLD); },
                                 [&] { io::read_matrix_market<double, Ordinal, Offset, HostDevice>(path); },
                                 expected_part);
}

/// A general 40 x 40 file with 40 entries (one per line) in which line `bad_line` (1-based, the
/// banner is line 1, the size line 2) is replaced by `bad`; `declared` on the size line.
std::string file_with(int bad_line, const std::string& bad, int declared = 40, int entries = 40) {
  std::ostringstream text;
  text << "%%MatrixMarket matrix coordinate real general\n40 40 " << declared << "\n";
  for (int k = 0; k < entries; ++k) {
    if (k + 3 == bad_line) {
      text << bad << "\n";
    } else {
      text << (k % 40) + 1 << " " << (7 * k % 40) + 1 << " " << 1.5 * k << "\n";
    }
  }
  return text.str();
}

TEST(DistReadMatrixMarketErrors, MissingFile) {
  test::SharedTempDir dir;

  expect_file_error(dir.file("absent.mtx"), "cannot open for reading");
}

TEST(DistReadMatrixMarketErrors, MissingOnOneRank) {
  test::SharedTempDir dir;
  const std::string present = dir.write("present.mtx", file_with(0, ""));
  const std::string path = mpi_rank() == mpi_size() - 1 ? dir.file("absent.mtx") : present;

  expect_serial_error_everywhere([&] { dist::read_matrix_market<double>(path, MPI_COMM_WORLD); }, [] {},
                                 "cannot open for reading");
}

TEST(DistReadMatrixMarketErrors, MalformedLineAnywhereNamesItsLine) {
  test::SharedTempDir dir;
  // Early, middle and late lines land on different ranks' pieces.
  for (int line : {3, 17, 30, 42}) {
    const std::string path = dir.write("bad" + std::to_string(line) + ".mtx", file_with(line, "5 x 1.0"));
    expect_file_error(path, ":" + std::to_string(line) + ": entry " + std::to_string(line - 2) +
                                ": expected a column index (integer), found 'x'");
  }
  const std::string gz = dir.write("bad.mtx.gz", file_with(25, "3 4 1.0 extra"));
  expect_file_error(gz, ":25: entry 23: unexpected text 'extra'");
}

TEST(DistReadMatrixMarketErrors, IndexOutOfRange) {
  test::SharedTempDir dir;
  const std::string path = dir.write("range.mtx", file_with(33, "41 1 2.0"));

  expect_file_error(path, ":33: entry 31: row index 41 out of range [1, 40]");
}

TEST(DistReadMatrixMarketErrors, HeaderClaimsMoreEntriesThanPresent) {
  test::SharedTempDir dir;
  const std::string path = dir.write("short.mtx", file_with(0, "", 45, 40));

  expect_file_error(path, ":42: the file ends after 40 of the 45 entries declared on the size line (line 2)");
}

TEST(DistReadMatrixMarketErrors, MoreEntriesThanDeclared) {
  test::SharedTempDir dir;
  // The first excess entry (line 38) comes before a malformed one (line 40): the excess wins, as
  // in the serial reader.
  const std::string path = dir.write("long.mtx", file_with(40, "oops", 35, 40));

  expect_file_error(path, ":38: more entries than the 35 declared on the size line (line 2)");
}

TEST(DistReadMatrixMarketErrors, ComplexFileIntoRealScalarAndBadPartition) {
  const std::string complex_path = test::matrix_path("young1c");

  expect_serial_error_everywhere<InvalidArgument>(
      [&] { dist::read_matrix_market<double>(complex_path, MPI_COMM_WORLD); }, [] {},
      "kelp::dist::read_matrix_market: " + complex_path + " holds a complex matrix");
  const auto wrong = dist::RowPartition::balanced(10, mpi_size());
  expect_serial_error_everywhere<InvalidArgument>(
      [&] { dist::read_matrix_market<C>(complex_path, MPI_COMM_WORLD, wrong); }, [] {}, "the partitions cover 10 rows");
}

TEST(DistCollectiveError, LowestFailingRankWinsWithItsType) {
  const int failing = mpi_size() - 1;

  expect_serial_error_everywhere<NumericalError>(
      [&] {
        dist::collective_try(MPI_COMM_WORLD, "test", [&] {
          KELP_REQUIRE(mpi_rank() != failing, NumericalError, "zero pivot at row " << mpi_rank());
        });
      },
      [] {}, "rank " + std::to_string(failing) + ": zero pivot at row " + std::to_string(failing));
  EXPECT_NO_THROW(dist::require_all(MPI_COMM_WORLD, true, "never"));
}

}  // namespace
}  // namespace kelp::read_matrix_market_test
