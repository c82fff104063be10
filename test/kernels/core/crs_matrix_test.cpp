// CRS containers: COO assembly (sorting, duplicate merging), validation, host/device copies,
// diagonal extraction and pattern fingerprints.
#include <gtest/gtest.h>

#include "kelp/kernels/core/crs_validate.hpp"
#include "kelp/kernels/core/diagonal.hpp"
#include "kelp/kernels/core/pattern_fingerprint.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"

namespace kelp::crs_matrix_test {
namespace {

TEST(CrsFromCoo, SortsRowsAndSumsDuplicates) {
  // Unsorted triplets with a duplicate (1,0) and an explicit zero at (2,2).
  auto A = crs_from_coo<double>(3, 4, {1, 0, 1, 2, 1, 0}, {3, 2, 0, 2, 0, 0},
                                {1.0, 2.0, 3.0, 0.0, 4.0, 5.0});

  auto h = test::to_host_crs(A);

  EXPECT_EQ(A.num_rows(), 3);
  EXPECT_EQ(A.num_cols(), 4);
  EXPECT_EQ(A.nnz(), 5);
  EXPECT_EQ(h.row_map, (std::vector<long long>{0, 2, 4, 5}));
  EXPECT_EQ(h.entries, (std::vector<int>{0, 2, 0, 3, 2}));
  EXPECT_EQ(h.values, (std::vector<double>{5.0, 2.0, 7.0, 1.0, 0.0}));  // 3 + 4 merged; zero kept
}

TEST(CrsFromCoo, KeepsEmptyRowsAndEmptyMatrices) {
  auto A = crs_from_coo<float>(4, 2, {3}, {1}, {2.5f});
  auto E = crs_from_coo<float>(0, 0, {}, {}, {});

  EXPECT_EQ(test::to_host_crs(A).row_map, (std::vector<long long>{0, 0, 0, 0, 1}));
  EXPECT_EQ(E.num_rows(), 0);
  EXPECT_EQ(E.nnz(), 0);
}

TEST(CrsFromCoo, RejectsOutOfRangeIndicesNamingTheTriplet) {
  test::expect_throw_containing<InvalidArgument>(
      [] { crs_from_coo<double>(2, 2, {0, 1}, {0, 2}, {1.0, 1.0}); },
      "triplet 1 has index (1, 2) outside the 2 x 2 matrix");
  test::expect_throw_containing<InvalidArgument>(
      [] { crs_from_coo<double>(2, 2, {-1}, {0}, {1.0}); }, "triplet 0 has index (-1, 0)");
}

TEST(CrsFromCoo, RejectsTripletArraysOfDifferentLengths) {
  test::expect_throw_containing<DimensionMismatch>(
      [] { crs_from_coo<double>(2, 2, {0, 1}, {0}, {1.0, 1.0}); },
      "rows 2, cols 1, values 2");
}

TEST(CrsMatrix, ComplexEntriesSurviveHostRoundTrip) {
  using C = Kokkos::complex<double>;
  auto A = crs_from_coo<C>(2, 2, {0, 1}, {1, 0}, {C(1, -2), C(0, 3)});

  auto back = copy_to<DefaultDevice>(to_host(A));

  EXPECT_EQ(test::to_host_crs(back).values, (std::vector<C>{C(1, -2), C(0, 3)}));
}

TEST(CrsGraph, RejectsRowMapOfWrongLength) {
  Kokkos::View<Offset*> row_map("row_map", 3);
  Kokkos::View<Ordinal*> entries("entries", 0);

  test::expect_throw_containing<DimensionMismatch>(
      [&] { CrsGraph<>(4, 4, row_map, entries); }, "row_map has 3 entries, expected 5");
}

TEST(CrsMatrix, RejectsValuesOfWrongLength) {
  Kokkos::View<Offset*> row_map("row_map", 2);
  Kokkos::View<Ordinal*> entries("entries", 2);
  Kokkos::View<double*> values("values", 3);

  test::expect_throw_containing<DimensionMismatch>(
      [&] { CrsMatrix<double>(1, 2, row_map, entries, values); }, "values has 3 entries, entries has 2");
}

/// Builds a matrix straight from raw arrays, bypassing crs_from_coo, to test validation.
CrsMatrix<double> raw_matrix(int num_rows, int num_cols, std::vector<Offset> row_map_in,
                             std::vector<Ordinal> entries_in) {
  Kokkos::View<Offset*, Kokkos::HostSpace> row_map("row_map", row_map_in.size());
  Kokkos::View<Ordinal*, Kokkos::HostSpace> entries("entries", entries_in.size());
  Kokkos::View<double*, Kokkos::HostSpace> values("values", entries_in.size());
  for (std::size_t i = 0; i < row_map_in.size(); ++i) row_map(i) = row_map_in[i];
  for (std::size_t i = 0; i < entries_in.size(); ++i) entries(i) = entries_in[i];
  return copy_to<DefaultDevice>(CrsMatrix<double, Ordinal, Offset, HostDevice>(
      num_rows, num_cols, row_map, entries, values));
}

TEST(ValidateCrs, AcceptsWellFormedMatrices) {
  EXPECT_NO_THROW(validate_crs(raw_matrix(2, 3, {0, 1, 3}, {2, 0, 1}), CrsCheck::sorted_unique));
}

TEST(ValidateCrs, RejectsMalformedStructureNamingTheRow) {
  test::expect_throw_containing<InvalidArgument>(
      [] { validate_crs(raw_matrix(2, 3, {1, 1, 2}, {0, 1})); }, "row_map(0) = 1, expected 0");
  test::expect_throw_containing<InvalidArgument>(
      [] { validate_crs(raw_matrix(3, 3, {0, 2, 1, 2}, {0, 1})); },
      "row_map is not monotone at row 1: row_map(1) = 2 > row_map(2) = 1");
  test::expect_throw_containing<InvalidArgument>(
      [] { validate_crs(raw_matrix(2, 3, {0, 1, 1}, {0, 1})); }, "row_map(2) = 1 but entries has 2");
  test::expect_throw_containing<InvalidArgument>(
      [] { validate_crs(raw_matrix(2, 3, {0, 1, 2}, {0, 3})); },
      "row 1 has column index 3 outside [0, 3)");
  test::expect_throw_containing<InvalidArgument>(
      [] { validate_crs(raw_matrix(1, 3, {0, 2}, {2, 2}), CrsCheck::sorted_unique); },
      "row 0 is not sorted with unique columns: column 2 is followed by 2");
}

TEST(ExtractDiagonal, ReturnsZeroForMissingEntriesAndHandlesRectangles) {
  auto A = test::crs_from_dense<double>({{2, 1, 0, 4}, {0, 0, 5, 0}, {1, 0, 7, 0}});
  Kokkos::View<double*> diag("diag", 3);
  test::poison(diag);

  kernels::extract_diagonal(A, diag);

  EXPECT_EQ(test::to_std(diag), (std::vector<double>{2, 0, 7}));
}

TEST(PatternFingerprint, DistinguishesPatternsButNotValues) {
  auto A = crs_from_coo<double>(3, 3, {0, 1, 2}, {0, 1, 2}, {1, 2, 3});
  auto B = crs_from_coo<double>(3, 3, {0, 1, 2}, {0, 1, 2}, {4, 5, 6});
  auto C = crs_from_coo<double>(3, 3, {0, 1, 2}, {0, 2, 1}, {1, 2, 3});

  EXPECT_EQ(pattern_fingerprint(A), pattern_fingerprint(B));
  EXPECT_NE(pattern_fingerprint(A), pattern_fingerprint(C));
}

TEST(PatternFingerprint, SeesEntriesMovedBetweenRows) {
  // [[a, 0], [0, b]] and [[0, 0], [a, b]]: same shape, nnz and entries {0, 1}; only row_map differs.
  auto diagonal = crs_from_coo<double>(2, 2, {0, 1}, {0, 1}, {1, 2});
  auto last_row = crs_from_coo<double>(2, 2, {1, 1}, {0, 1}, {1, 2});

  EXPECT_NE(pattern_fingerprint(diagonal), pattern_fingerprint(last_row));
}

}  // namespace
}  // namespace kelp::crs_matrix_test
