// Matrix Market reader and writer: every variant checked exactly against hand-written dense
// matrices, malformed files against their messages, write/read round trips, gzip input, and
// the shared matrix collection against its oracles.
#include "kelp/kernels/io/matrix_market.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <yaml-cpp/yaml.h>
#include <zlib.h>

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test/support/expect.hpp"
#include "test/support/dense.hpp"
#include "test/support/files.hpp"
#include "test/support/paths.hpp"
#include "test/support/temp_dir.hpp"

namespace kelp::matrix_market_test {
namespace {

namespace fs = std::filesystem;
using Complex = Kokkos::complex<double>;
using io::MatrixMarketField;
using io::MatrixMarketFormat;
using io::MatrixMarketSymmetry;

template <class Scalar>
using Dense = std::vector<std::vector<Scalar>>;

std::string mm_file(const std::string& name) { return test::data_path("mm/" + name); }

using test::to_dense;

template <class Matrix>
void expect_matrix_eq(const Matrix& A, const Dense<typename Matrix::scalar_type>& expected) {
  ASSERT_EQ(static_cast<std::size_t>(A.num_rows()), expected.size());
  if (!expected.empty()) {
    ASSERT_EQ(static_cast<std::size_t>(A.num_cols()), expected[0].size());
  }
  const auto actual = to_dense(A);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    for (std::size_t j = 0; j < expected[i].size(); ++j) {
      EXPECT_EQ(actual[i][j], expected[i][j]) << "at (" << i << ", " << j << ") (0-based)";
    }
  }
}

template <class View>
void expect_dense_view_eq(const View& X, const Dense<typename View::non_const_value_type>& expected) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), X);
  ASSERT_EQ(host.extent(0), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(host.extent(1), expected[i].size());
    for (std::size_t j = 0; j < expected[i].size(); ++j) {
      EXPECT_EQ(host(i, j), expected[i][j]) << "at (" << i << ", " << j << ") (0-based)";
    }
  }
}

/// Identical structure and bitwise-equal values (after a sort, which crs_from_coo guarantees).
template <class MatrixA, class MatrixB>
void expect_identical(const MatrixA& A, const MatrixB& B) {
  const auto HA = to_host(A);
  const auto HB = to_host(B);
  ASSERT_EQ(HA.num_rows(), HB.num_rows());
  ASSERT_EQ(HA.num_cols(), HB.num_cols());
  ASSERT_EQ(HA.nnz(), HB.nnz());
  for (int i = 0; i <= HA.num_rows(); ++i) EXPECT_EQ(HA.row_map()(i), HB.row_map()(i));
  for (int k = 0; k < HA.nnz(); ++k) {
    EXPECT_EQ(HA.entries()(k), HB.entries()(k)) << "entry " << k;
    EXPECT_EQ(HA.values()(k), HB.values()(k)) << "entry " << k;
  }
}

using test::TempDir;

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

void write_gzip(const std::string& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(gzwrite(file, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  ASSERT_EQ(gzclose(file), Z_OK);
}

// ---------------------------------------------------------------------------------------------
// Tier 1: every variant, exactly

TEST(MatrixMarket, ReadsRealGeneralSummingDuplicatesAndKeepingExplicitZeros)
{
  const auto A = io::read_matrix_market<double>(mm_file("real_general.mtx"));

  expect_matrix_eq(A, {{2.0, 0, 4, 0}, {0, 0, 0, 0}, {0.7, 0, 0, -22.5}});
  EXPECT_EQ(A.nnz(), 5);  // (1,1) twice -> once; explicit zero at (3,2) kept
}

TEST(MatrixMarket, ReadsRealSymmetricAsFullStorage)
{
  const auto A = io::read_matrix_market<double>(mm_file("real_symmetric.mtx"));

  expect_matrix_eq(A, {{4, -1, 0}, {-1, 0, -2}, {0, -2, 5}});
  EXPECT_EQ(A.nnz(), 6);
}

TEST(MatrixMarket, ReadsRealSkewSymmetricWithNegatedMirror)
{
  const auto A = io::read_matrix_market<double>(mm_file("real_skew.mtx"));

  expect_matrix_eq(A, {{0, -3, 1.5}, {3, 0, 0}, {-1.5, 0, 0}});
}

TEST(MatrixMarket, ReadsIntegerGeneralSymmetricAndSkew)
{
  const auto general = io::read_matrix_market<double>(mm_file("integer_general.mtx"));
  const auto symmetric = io::read_matrix_market<double>(mm_file("integer_symmetric.mtx"));
  const auto skew = io::read_matrix_market<double>(mm_file("integer_skew.mtx"));

  expect_matrix_eq(general, {{0, -7, 0}, {12, 0, 3}});
  expect_matrix_eq(symmetric, {{2, -3}, {-3, 9}});
  expect_matrix_eq(skew, {{0, 0, 0}, {0, 0, -6}, {0, 6, 0}});
}

TEST(MatrixMarket, ReadsComplexGeneral)
{
  const auto A = io::read_matrix_market<Complex>(mm_file("complex_general.mtx"));

  expect_matrix_eq(A, {{Complex(1, 2), Complex(0, -1)}, {Complex(0), Complex(-3.5, 0.25)}});
}

TEST(MatrixMarket, ReadsComplexSymmetricWithoutConjugation)
{
  const auto A = io::read_matrix_market<Complex>(mm_file("complex_symmetric.mtx"));

  expect_matrix_eq(A, {{Complex(1, 1), Complex(2, -3)}, {Complex(2, -3), Complex(0)}});
}

TEST(MatrixMarket, ReadsComplexSkewSymmetricWithNegatedMirror)
{
  const auto A = io::read_matrix_market<Complex>(mm_file("complex_skew.mtx"));

  expect_matrix_eq(A, {{Complex(0), Complex(-2, 3)}, {Complex(2, -3), Complex(0)}});
}

TEST(MatrixMarket, ReadsComplexHermitianWithConjugatedMirror)
{
  const auto A = io::read_matrix_market<Complex>(mm_file("complex_hermitian.mtx"));

  expect_matrix_eq(A, {{Complex(2), Complex(1, -1), Complex(0)},
                       {Complex(1, 1), Complex(0), Complex(0, -4)},
                       {Complex(0), Complex(0, 4), Complex(-1)}});
}

TEST(MatrixMarket, ReadsPatternEntriesAsOne)
{
  const auto general = io::read_matrix_market<double>(mm_file("pattern_general.mtx"));
  const auto symmetric = io::read_matrix_market<double>(mm_file("pattern_symmetric.mtx"));

  expect_matrix_eq(general, {{1, 0}, {1, 0}, {0, 1}});
  expect_matrix_eq(symmetric, {{0, 1, 1}, {1, 0, 0}, {1, 0, 1}});
}

TEST(MatrixMarket, PatternEntryListedTwiceIsStillOne)
{
  // A real file sums its duplicates; a pattern file has no values to sum: (2,1) is listed
  // twice and (1,1) three times, and both are 1.
  TempDir dir;
  write_bytes(dir.file("p.mtx"), "%%MatrixMarket matrix coordinate pattern general\n"
                                 "2 2 6\n2 1\n1 1\n2 1\n1 1\n1 1\n2 2\n");

  const auto A = io::read_matrix_market<double>(dir.file("p.mtx"));
  const auto Z = io::read_matrix_market<Complex>(dir.file("p.mtx"));
  const auto X = io::read_dense_matrix_market<double>(dir.file("p.mtx"));

  expect_matrix_eq(A, {{1, 0}, {1, 1}});
  expect_matrix_eq(Z, {{Complex(1), Complex(0)}, {Complex(1), Complex(1)}});
  expect_dense_view_eq(X, {{1, 0}, {1, 1}});
  EXPECT_EQ(A.nnz(), 3);
}

TEST(MatrixMarket, ReadsArrayFilesColumnMajor)
{
  const auto real = io::read_dense_matrix_market<double>(mm_file("array_real_general.mtx"));
  const auto integer = io::read_dense_matrix_market<double>(mm_file("array_integer_general.mtx"));
  const auto complex = io::read_dense_matrix_market<Complex>(mm_file("array_complex_general.mtx"));

  expect_dense_view_eq(real, {{1, -4.5}, {2, 0}, {3, 600}});
  expect_dense_view_eq(integer, {{1, 3}, {-2, 4}});
  expect_dense_view_eq(complex, {{Complex(1, -1), Complex(3.5, 0)}, {Complex(0, 2), Complex(-4, -4)}});
}

TEST(MatrixMarket, ReadsSymmetricAndSkewArraysFromTheLowerTriangle)
{
  const auto symmetric = io::read_dense_matrix_market<double>(mm_file("array_real_symmetric.mtx"));
  const auto skew = io::read_dense_matrix_market<double>(mm_file("array_real_skew.mtx"));

  expect_dense_view_eq(symmetric, {{1, 2, 3}, {2, 4, 5}, {3, 5, 6}});
  expect_dense_view_eq(skew, {{0, -1, -2}, {1, 0, -3}, {2, 3, 0}});
}

TEST(MatrixMarket, ReadsOneColumnArrayAsVector)
{
  const auto x = io::read_vector_matrix_market<double>(mm_file("array_real_vector.mtx"));

  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  ASSERT_EQ(host.extent(0), 4u);
  EXPECT_EQ(host(0), 0.25);
  EXPECT_EQ(host(1), -1.0);
  EXPECT_EQ(host(2), 1e-3);
  EXPECT_EQ(host(3), 8.0);
}

TEST(MatrixMarket, ReadsArrayFileAsCrsWithEveryValue)
{
  const auto A = io::read_matrix_market<double>(mm_file("array_real_general.mtx"));

  expect_matrix_eq(A, {{1, -4.5}, {2, 0}, {3, 600}});
  EXPECT_EQ(A.nnz(), 6);  // the zero is an explicit entry
}

TEST(MatrixMarket, ReadsCoordinateFileAsDense)
{
  const auto X = io::read_dense_matrix_market<double>(mm_file("real_general.mtx"));

  expect_dense_view_eq(X, {{2.0, 0, 4, 0}, {0, 0, 0, 0}, {0.7, 0, 0, -22.5}});
}

TEST(MatrixMarket, ReadsMatrixWithoutEntries)
{
  const auto A = io::read_matrix_market<double>(mm_file("empty_matrix.mtx"));

  EXPECT_EQ(A.num_rows(), 4);
  EXPECT_EQ(A.num_cols(), 3);
  EXPECT_EQ(A.nnz(), 0);
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_map());
  for (int i = 0; i <= 4; ++i) EXPECT_EQ(row_map(i), 0);
}

TEST(MatrixMarket, AcceptsCaseCrlfTabsSignsFortranExponentsCommentsAndNoFinalNewline)
{
  const auto A = io::read_matrix_market<double>(mm_file("case_and_layout.mtx"));

  expect_matrix_eq(A, {{15, 0}, {1, -0.25}});
}

TEST(MatrixMarket, InfoReportsBannerAndSizeLine)
{
  const auto coordinate = io::read_matrix_market_info(mm_file("real_symmetric.mtx"));
  const auto array = io::read_matrix_market_info(mm_file("array_real_symmetric.mtx"));

  EXPECT_EQ(coordinate.format, MatrixMarketFormat::coordinate);
  EXPECT_EQ(coordinate.field, MatrixMarketField::real);
  EXPECT_EQ(coordinate.symmetry, MatrixMarketSymmetry::symmetric);
  EXPECT_EQ(coordinate.num_rows, 3);
  EXPECT_EQ(coordinate.num_cols, 3);
  EXPECT_EQ(coordinate.num_stored_entries, 4);
  EXPECT_EQ(coordinate.size_line, 2);
  EXPECT_EQ(array.format, MatrixMarketFormat::array);
  EXPECT_EQ(array.num_stored_entries, 6);  // 3 * 4 / 2 lower-triangle values
  EXPECT_EQ(array.size_line, 3);
}

TEST(MatrixMarket, CooKeepsDuplicatesAndAppendsMirroredEntries)
{
  const auto coo = io::read_matrix_market_coo(mm_file("real_symmetric.mtx"));

  EXPECT_EQ(coo.rows, (std::vector<std::int64_t>{0, 1, 2, 2, 0, 1}));
  EXPECT_EQ(coo.cols, (std::vector<std::int64_t>{0, 0, 1, 2, 1, 2}));
  EXPECT_EQ(coo.real_values, (std::vector<double>{4, -1, -2, 5, -1, -2}));
  EXPECT_TRUE(coo.imag_values.empty());
}

TEST(MatrixMarket, ReadsIntoFloatComplexAndOtherIndexTypes)
{
  const auto as_float = io::read_matrix_market<float>(mm_file("real_general.mtx"));
  const auto as_complex = io::read_matrix_market<Complex>(mm_file("real_symmetric.mtx"));
  const auto wide = io::read_matrix_market<double, long, int>(mm_file("real_skew.mtx"));

  expect_matrix_eq(as_float, {{2.0f, 0, 4, 0}, {0, 0, 0, 0}, {0.7f, 0, 0, -22.5f}});
  expect_matrix_eq(as_complex, {{Complex(4), Complex(-1), Complex(0)},
                                {Complex(-1), Complex(0), Complex(-2)},
                                {Complex(0), Complex(-2), Complex(5)}});
  expect_matrix_eq(wide, {{0, -3, 1.5}, {3, 0, 0}, {-1.5, 0, 0}});
}

TEST(MatrixMarket, ParsesRealTokensBitForBitLikeFromChars)
{
  // Random decimals of 1 to 20 digits, with and without a point, sign and exponent, plus edge
  // cases around the exactness limits (2^53, 10^22) of the parser's fast path.
  std::vector<std::string> tokens = {"0", "-0", "+0.0", "1e22", "1e23", "-1E-22", "1e-23",
                                     "9007199254740992", "9007199254740993", "0.1", "1.",
                                     "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308",
                                     "1234567890123456789", "12345678901234567890", ".5", "5.e-1",
                                     "0.30000000000000004", "123456789012345678e-40"};
  std::mt19937_64 random(20240601);
  for (int k = 0; k < 20000; ++k) {
    std::string token = std::array<const char*, 3>{"", "-", "+"}[random() % 3];
    const int num_digits = 1 + static_cast<int>(random() % 20);
    const int point = static_cast<int>(random() % (num_digits + 2)) - 1;  // -1: no point
    for (int d = 0; d < num_digits; ++d) {
      if (d == point) token += '.';
      token += static_cast<char>('0' + random() % 10);
    }
    if (random() % 3 != 0) {
      token += random() % 2 ? 'e' : 'E';
      token += std::array<const char*, 3>{"", "-", "+"}[random() % 3];
      token += std::to_string(random() % 40);
    }
    tokens.push_back(token);
  }
  TempDir dir;
  std::string text = "%%MatrixMarket matrix array real general\n" + std::to_string(tokens.size()) +
                     " 1\n";
  for (const auto& token : tokens) text += token + "\n";
  write_bytes(dir.file("tokens.mtx"), text);

  const auto coo = io::read_matrix_market_coo(dir.file("tokens.mtx"));

  ASSERT_EQ(coo.real_values.size(), tokens.size());
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string& token = tokens[k];
    const char* first = token.data() + (token[0] == '+' ? 1 : 0);
    double expected = 0;
    const auto result = std::from_chars(first, token.data() + token.size(), expected);
    ASSERT_EQ(result.ptr, token.data() + token.size()) << token;
    EXPECT_EQ(std::memcmp(&coo.real_values[k], &expected, sizeof(double)), 0)
        << token << ": read " << coo.real_values[k] << ", from_chars gives " << expected;
  }
}

// ---------------------------------------------------------------------------------------------
// Tier 6: errors

TEST(MatrixMarket, RejectsComplexFileForRealScalar)
{
  test::expect_throw_containing<InvalidArgument>(
      [] { io::read_matrix_market<double>(mm_file("complex_general.mtx")); },
      "complex_general.mtx holds a complex matrix, which cannot be read into the real Scalar double");
  test::expect_throw_containing<InvalidArgument>(
      [] { io::read_dense_matrix_market<float>(mm_file("array_complex_general.mtx")); },
      "cannot be read into the real Scalar float");
}

TEST(MatrixMarket, RejectsMultiColumnFileAsVector)
{
  test::expect_throw_containing<DimensionMismatch>(
      [] { io::read_vector_matrix_market<double>(mm_file("array_real_general.mtx")); },
      "holds a 3 x 2 matrix, expected one column");
}

TEST(MatrixMarket, MissingFileThrowsFileError)
{
  test::expect_throw_containing<FileError>(
      [] { io::read_matrix_market<double>(mm_file("does_not_exist.mtx")); },
      "does_not_exist.mtx: cannot open for reading: No such file or directory");
}

struct MalformedCase {
  const char* file;
  const char* message;  // expected substring, starting at "file:line:"
  // A valid file whose sizes this build cannot hold throws NotSupported instead of FileError.
  bool not_supported = false;
};

class MatrixMarketMalformed : public testing::TestWithParam<MalformedCase> {};

TEST_P(MatrixMarketMalformed, ThrowsFileErrorNamingFileLineAndProblem)
{
  const MalformedCase c = GetParam();
  const std::string path = mm_file(std::string("bad/") + c.file);
  const std::string message = std::string("/bad/") + c.message;

  if (c.not_supported) {
    test::expect_throw_containing<NotSupported>([&] { io::read_matrix_market<double>(path); },
                                                message);
  } else {
    test::expect_throw_containing<FileError>([&] { io::read_matrix_market<double>(path); },
                                             message);
  }
}

// clang-format off
const MalformedCase malformed_cases[] = {
    {"empty.mtx", "empty.mtx: empty file; expected a '%%MatrixMarket' banner on line 1"},
    {"no_banner.mtx", "no_banner.mtx:1: missing '%%MatrixMarket' banner: line 1 is '3 3 1'"},
    {"bad_object.mtx", "bad_object.mtx:1: unsupported object 'vector' in the banner; expected 'matrix'"},
    {"bad_format.mtx", "bad_format.mtx:1: unknown format 'coordinates' in the banner"},
    {"bad_field.mtx", "bad_field.mtx:1: unknown field 'float' in the banner"},
    {"bad_symmetry.mtx", "bad_symmetry.mtx:1: unknown symmetry 'symmetrical' in the banner"},
    {"banner_missing_word.mtx", "banner_missing_word.mtx:1: banner has 3 words after '%%MatrixMarket', expected 4"},
    {"pattern_array.mtx", "pattern_array.mtx:1: field 'pattern' is only valid with format 'coordinate'"},
    {"hermitian_real.mtx", "hermitian_real.mtx:1: symmetry 'hermitian' requires field 'complex', not 'real'"},
    {"bad_size_line.mtx", "bad_size_line.mtx:3: bad size line '3 x 1': expected 'rows columns entries'"},
    {"size_line_missing_count.mtx", "size_line_missing_count.mtx:2: bad size line '3 3'"},
    {"no_size_line.mtx", "no_size_line.mtx:2: missing size line"},
    {"symmetric_not_square.mtx", "symmetric_not_square.mtx:2: a symmetric matrix must be square, but the size line declares 3 x 4"},
    {"truncated.mtx", "truncated.mtx:5: the file ends after 3 of the 5 entries declared on the size line (line 2); truncated file?"},
    {"too_many_entries.mtx", "too_many_entries.mtx:5: more entries than the 2 declared on the size line (line 2)"},
    {"row_index_zero.mtx", "row_index_zero.mtx:4: entry 2: row index 0 out of range [1, 5] (Matrix Market indices are 1-based)"},
    {"column_out_of_range.mtx", "column_out_of_range.mtx:4: entry 2: column index 5 out of range [1, 4]"},
    {"non_numeric_value.mtx", "non_numeric_value.mtx:4: entry 2: expected a real number, found 'abc'"},
    {"non_numeric_index.mtx", "non_numeric_index.mtx:3: entry 1: expected a row index (integer), found '1.5'"},
    {"missing_value.mtx", "missing_value.mtx:4: entry 2: missing value (field is real)"},
    {"extra_junk.mtx", "extra_junk.mtx:3: entry 1: unexpected text 'junk' after the entry"},
    {"pattern_with_value.mtx", "pattern_with_value.mtx:3: entry 1: unexpected text '3.0' after the entry (a pattern entry is 'row column')"},
    {"complex_missing_imag.mtx", "complex_missing_imag.mtx:3: entry 1: missing imaginary part"},
    {"integer_not_integer.mtx", "integer_not_integer.mtx:3: entry 1: expected an integer value (field is integer), found '1.5'"},
    {"symmetric_upper.mtx", "symmetric_upper.mtx:5: entry 3: (2, 3) lies above the diagonal; a symmetric file stores only the lower triangle"},
    {"skew_diagonal.mtx", "skew_diagonal.mtx:4: entry 2: diagonal entry (2, 2) in a skew-symmetric file"},
    {"hermitian_complex_diagonal.mtx", "hermitian_complex_diagonal.mtx:3: entry 1: diagonal entry (1, 1) has imaginary part 0.5; a hermitian matrix has a real diagonal"},
    {"array_truncated.mtx", "array_truncated.mtx:5: the file ends after 3 of the 4 values declared by the size line (line 2)"},
    {"array_too_many.mtx", "array_too_many.mtx:5: more values than the 2 the size line (line 2) declares"},
    {"array_two_values_per_line.mtx", "array_two_values_per_line.mtx:3: value 1 (row 1, column 1): unexpected text '2' after the value"},
    // Non-finite values fail on their own line, not later in the solver.
    {"nan_value.mtx", "nan_value.mtx:4: entry 2: non-finite value 'nan'; Kelp reads only finite numbers (nan and inf are not allowed)"},
    {"inf_value.mtx", "inf_value.mtx:5: entry 2: non-finite value '-inf'; Kelp reads only finite numbers"},
    {"complex_nan_imaginary.mtx", "complex_nan_imaginary.mtx:4: entry 2: non-finite value 'NaN' (imaginary part); Kelp reads only finite numbers"},
    {"complex_inf_real.mtx", "complex_inf_real.mtx:3: entry 1: non-finite value 'Infinity' (real part); Kelp reads only finite numbers"},
    {"array_nan.mtx", "array_nan.mtx:4: value 2 (row 2, column 1): non-finite value 'nan'; Kelp reads only finite numbers"},
    {"overflowing_value.mtx", "overflowing_value.mtx:3: entry 1: value '1e999' overflows double (largest 1.8e308)"},
    {"underflowing_value.mtx", "underflowing_value.mtx:3: entry 1: value '1e-400' underflows double (smallest 4.9e-324): it would read as 0"},
    {"complex_overflowing_imaginary.mtx", "complex_overflowing_imaginary.mtx:3: entry 1: value '-2e400' overflows double (largest 1.8e308) (imaginary part)"},
    {"double_sign_value.mtx", "double_sign_value.mtx:4: entry 2: expected a real number, found '+-5'"},
    {"integer_beyond_2_53.mtx", "integer_beyond_2_53.mtx:3: entry 1: integer value '9007199254740993' is beyond 2^53 = 9007199254740992, where double no longer holds every integer"},
    // Size lines beyond what the file or the index types can hold fail on the size line.
    {"huge_entry_count.mtx", "huge_entry_count.mtx:2: the size line declares 3 x 3 with 4000000000 entries, but the file has only 77 bytes and a real entry takes at least 6 bytes ('1 1 0' and a line break): at most 13 entries fit; wrong size line?"},
    {"pattern_entry_count_beyond_file.mtx", "pattern_entry_count_beyond_file.mtx:3: the size line declares 3 x 3 with 100 entries, but the file has only 111 bytes and a pattern entry takes at least 4 bytes ('1 1' and a line break): at most 28 entries fit"},
    {"huge_array.mtx", "huge_array.mtx:2: the size line declares 2000000000 x 2000000000 (4000000000000000000 stored values), but the file has only 71 bytes and a real value takes at least 2 bytes ('0' and a line break): at most 36 values fit"},
    {"array_size_overflow.mtx", "array_size_overflow.mtx:2: array of 3037000500 x 3037000500 values is too large"},
    {"huge_dimensions.mtx", "huge_dimensions.mtx:2: the size line declares a 3000000000 x 3000000000 matrix with 2 entries; the 32-bit Ordinal indexes at most 2147483647 rows and columns; read it with a 64-bit Ordinal", true},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(BadFiles, MatrixMarketMalformed, testing::ValuesIn(malformed_cases),
                         [](const testing::TestParamInfo<MalformedCase>& case_info) {
                           std::string name = case_info.param.file;
                           name = name.substr(0, name.find('.'));
                           for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

TEST(MatrixMarket, EveryMalformedFileHasACase)
{
  std::size_t num_files = 0;
  for (const auto& entry : fs::directory_iterator(mm_file("bad"))) num_files += entry.is_regular_file();

  EXPECT_EQ(num_files, std::size(malformed_cases));
}

TEST(MatrixMarket, SizeLineBeyondTheIndexTypesFailsBeforeReading)
{
  TempDir dir;
  // 40000 entries: more than a 16-bit Offset counts (the file does hold them all).
  std::string text = "%%MatrixMarket matrix coordinate real general\n3 3 40000\n";
  for (int k = 0; k < 40000; ++k) text += "1 1 1\n";
  write_bytes(dir.file("many.mtx"), text);
  write_bytes(dir.file("wide.mtx"),
              "%%MatrixMarket matrix coordinate real general\n40000 40000 1\n1 1 1\n");

  test::expect_throw_containing<NotSupported>(
      [&] { io::read_matrix_market<double, int, short>(dir.file("many.mtx")); },
      "many.mtx:2: the size line declares a 3 x 3 matrix with 40000 entries; the 16-bit Offset "
      "counts at most 32767 entries; read it with a 64-bit Offset");
  test::expect_throw_containing<NotSupported>(
      [&] { io::read_matrix_market<double, short, int>(dir.file("wide.mtx")); },
      "wide.mtx:2: the size line declares a 40000 x 40000 matrix with 1 entry; the 16-bit "
      "Ordinal indexes at most 32767 rows and columns");
  EXPECT_EQ(io::read_matrix_market<double>(dir.file("many.mtx")).nnz(), 1);  // duplicates summed
}

// A value that float cannot hold is named with its row and column, not turned into inf or 0
// (which surfaced later as a NaN residual or a "zero diagonal"); double reads it as it is.
TEST(MatrixMarket, ValuesOutsideFloatAreRefusedForFloat)
{
  TempDir dir;
  write_bytes(dir.file("big.mtx"), "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 1 1e39\n");
  write_bytes(dir.file("tiny.mtx"), "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1\n2 1 1e-50\n");
  write_bytes(dir.file("cplx.mtx"), "%%MatrixMarket matrix array complex general\n2 1\n1 0\n2 -1e40\n");
  write_bytes(dir.file("ok.mtx"), "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1e-44\n");

  test::expect_throw_containing<FileError>([&] { io::read_matrix_market<float>(dir.file("big.mtx")); },
                                           "big.mtx: the value 1e+39 at row 2, column 1 overflows float");
  test::expect_throw_containing<FileError>([&] { io::read_matrix_market<float>(dir.file("tiny.mtx")); },
                                           "the value 1e-50 at row 2, column 1 rounds to 0 in float");
  test::expect_throw_containing<FileError>(
      [&] { io::read_dense_matrix_market<float>(dir.file("big.mtx")); }, "at row 2, column 1 overflows float");
  EXPECT_EQ(io::read_matrix_market<double>(dir.file("big.mtx")).nnz(), 2);
  EXPECT_NO_THROW(io::read_dense_matrix_market<Kokkos::complex<double>>(dir.file("cplx.mtx")));
  EXPECT_EQ(io::read_matrix_market<float>(dir.file("ok.mtx")).nnz(), 1);  // a subnormal float is kept
}

// Bytes a terminal would not show are quoted as \xNN: a NUL used to cut the message short. A file
// with CR-only line ends (one long line) says so instead of counting banner words.
TEST(MatrixMarket, ControlBytesAreQuotedVisiblyAndCrOnlyLineEndsAreNamed)
{
  TempDir dir;
  write_bytes(dir.file("nul.mtx"), std::string("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 4\0x\n", 60));
  write_bytes(dir.file("cr.mtx"), "%%MatrixMarket matrix coordinate real general\r1 1 1\r1 1 4\r");
  write_bytes(dir.file("crlf.mtx"), "%%MatrixMarket matrix coordinate real general\r\n1 1 1\r\n1 1 4\r\n");

  test::expect_throw_containing<FileError>([&] { io::read_matrix_market<double>(dir.file("nul.mtx")); },
                                           "found '4\\x00x'");
  test::expect_throw_containing<FileError>(
      [&] { io::read_matrix_market<double>(dir.file("cr.mtx")); },
      "cr.mtx:1: line 1 holds a carriage return inside it: the file has classic Mac (CR-only) line ends");
  EXPECT_EQ(io::read_matrix_market<double>(dir.file("crlf.mtx")).nnz(), 1);
}

TEST(MatrixMarket, SizeLineBeyondTheMachinesMemoryFailsBeforeAllocating)
{
  // 10^15 rows fit a 64-bit Ordinal, but their row map (16 PB) fits no machine: the size line
  // is reported instead of std::bad_alloc. Likewise a dense read of a 10^7 x 10^7 coordinate file.
  TempDir dir;
  write_bytes(dir.file("rows.mtx"), "%%MatrixMarket matrix coordinate real general\n"
                                    "1000000000000000 1000000000000000 1\n1 1 1\n");
  write_bytes(dir.file("dense.mtx"), "%%MatrixMarket matrix coordinate real general\n"
                                     "10000000 10000000 1\n1 1 1\n");

  test::expect_throw_containing<NotSupported>(
      [&] { io::read_matrix_market<double, std::int64_t>(dir.file("rows.mtx")); },
      "rows.mtx:2: the size line declares a 1000000000000000 x 1000000000000000 matrix with 1 "
      "entry: its row map alone needs 16000000.0 GB of memory, more than the ");
  test::expect_throw_containing<NotSupported>(
      [&] { io::read_dense_matrix_market<double>(dir.file("dense.mtx")); },
      "dense.mtx:2: the size line declares a 10000000 x 10000000 matrix with 1 entry: as a "
      "dense array it needs 800000.0 GB of memory");
  EXPECT_EQ(io::read_matrix_market_coo(dir.file("rows.mtx")).rows.size(), 1u);  // no row map
}

// ---------------------------------------------------------------------------------------------
// gzip

TEST(MatrixMarket, GzipSizeLineIsCheckedAgainstTheLargestDeflateExpansion)
{
  TempDir dir;
  // 500000 identical lines compress about 1000-fold: a legitimate file near deflate's limit.
  std::string text = "%%MatrixMarket matrix coordinate real general\n2 2 500000\n";
  for (int k = 0; k < 500000; ++k) text += "2 2 1\n";
  write_gzip(dir.file("dense_text.mtx.gz"), text);
  write_gzip(dir.file("bogus.mtx.gz"),
             "%%MatrixMarket matrix coordinate real general\n2 2 900000000\n1 1 1\n");
  const auto compressed = fs::file_size(dir.file("dense_text.mtx.gz"));
  ASSERT_LT(compressed * 500, text.size()) << "test bug: expected a compression ratio near 1000";

  const auto A = io::read_matrix_market<double>(dir.file("dense_text.mtx.gz"));

  EXPECT_EQ(to_dense(A), (Dense<double>{{0, 0}, {0, 500000}}));
  test::expect_throw_containing<FileError>(
      [&] { io::read_matrix_market<double>(dir.file("bogus.mtx.gz")); },
      "bogus.mtx.gz:2: the size line declares 2 x 2 with 900000000 entries, but the gzip file of ");
  test::expect_throw_containing<FileError>(
      [&] { io::read_matrix_market<double>(dir.file("bogus.mtx.gz")); },
      "bytes of text (deflate expands at most 1032-fold) and a real entry takes at least 6 bytes");
}

TEST(MatrixMarket, ReadsGzipCompressedFilesWhateverTheirName)
{
  TempDir dir;
  const std::string text = test::read_file(mm_file("complex_hermitian.mtx"));
  write_gzip(dir.file("a.mtx.gz"), text);
  write_gzip(dir.file("b.mtx"), text);

  const auto A = io::read_matrix_market<Complex>(dir.file("a.mtx.gz"));
  const auto B = io::read_matrix_market<Complex>(dir.file("b.mtx"));

  const auto expected = io::read_matrix_market<Complex>(mm_file("complex_hermitian.mtx"));
  expect_identical(A, expected);
  expect_identical(B, expected);
}

TEST(MatrixMarket, CorruptOrTruncatedGzipThrowsFileError)
{
  TempDir dir;
  write_gzip(dir.file("good.mtx.gz"), test::read_file(mm_file("real_general.mtx")));
  std::string bytes = test::read_file(dir.file("good.mtx.gz"));
  ASSERT_GT(bytes.size(), 20u);
  std::string bad_checksum = bytes;
  bad_checksum[bad_checksum.size() - 8] ^= 0x5a;  // the CRC-32 of the gzip trailer
  write_bytes(dir.file("bad_checksum.mtx.gz"), bad_checksum);
  write_bytes(dir.file("truncated.mtx.gz"), bytes.substr(0, bytes.size() - 12));

  test::expect_throw_containing<FileError>(
      [&] { io::read_matrix_market<double>(dir.file("bad_checksum.mtx.gz")); },
      "bad_checksum.mtx.gz: cannot decompress after ");
  test::expect_throw_containing<FileError>(
      [&] { io::read_matrix_market<double>(dir.file("bad_checksum.mtx.gz")); },
      "incorrect data check (corrupt or truncated gzip file)");
  test::expect_throw_containing<FileError>(
      [&] { io::read_matrix_market<double>(dir.file("truncated.mtx.gz")); },
      "(corrupt or truncated gzip file)");
}

// ---------------------------------------------------------------------------------------------
// Write -> read round trips

/// 6 x 5 with empty rows 1 and 5 (the last) and an empty last column; awkward values.
template <class Scalar>
CrsMatrix<Scalar> awkward_matrix(const std::vector<Scalar>& values) {
  const std::vector<int> rows = {0, 0, 2, 2, 2, 3, 4, 4};
  const std::vector<int> cols = {0, 3, 1, 2, 3, 0, 2, 1};
  return crs_from_coo<Scalar>(6, 5, rows, cols, values);
}

TEST(MatrixMarket, WriteThenReadIsExactForDouble)
{
  TempDir dir;
  const auto A = awkward_matrix<double>({1.0 / 3, -2.0 / 7, 1e-300, 6.02214076e23, M_PI, -0.0,
                                         4.9e-324, -1.7976931348623157e308});

  io::write_matrix_market(dir.file("a.mtx"), A);
  const auto B = io::read_matrix_market<double>(dir.file("a.mtx"));

  expect_identical(A, B);
  EXPECT_EQ(io::read_matrix_market_info(dir.file("a.mtx")).field, MatrixMarketField::real);
}

TEST(MatrixMarket, WriteThenReadIsExactForFloat)
{
  TempDir dir;
  const auto A = awkward_matrix<float>({0.1f, 1.0f / 3, 16777216.0f, -1e-38f, 3.4e38f, 1.5f,
                                        -2.0f / 3, 1e-45f});

  io::write_matrix_market(dir.file("a.mtx"), A);
  const auto B = io::read_matrix_market<float>(dir.file("a.mtx"));

  expect_identical(A, B);
}

TEST(MatrixMarket, WriteThenReadIsExactForComplexAndGzip)
{
  TempDir dir;
  const auto A = awkward_matrix<Complex>({Complex(1.0 / 3, -1.0 / 7), Complex(0, 1),
                                          Complex(-2.5, 0), Complex(1e-200, 1e200),
                                          Complex(M_PI, M_E), Complex(0), Complex(7, -7),
                                          Complex(-0.1, 0.2)});

  io::write_matrix_market(dir.file("a.mtx.gz"), A);
  const auto B = io::read_matrix_market<Complex>(dir.file("a.mtx.gz"));

  expect_identical(A, B);
  EXPECT_EQ(test::read_file(dir.file("a.mtx.gz")).substr(0, 2), "\x1f\x8b");  // gzip magic
  EXPECT_EQ(io::read_matrix_market_info(dir.file("a.mtx.gz")).field, MatrixMarketField::complex);
}

TEST(MatrixMarket, WritesVerifiedSymmetricSkewAndHermitianLowerTriangles)
{
  TempDir dir;
  const auto K = crs_from_coo<double>(2, 2, {1, 0, 0}, {0, 1, 0}, {3, -3, 0.0});
  const auto H = crs_from_coo<Complex>(2, 2, {0, 1, 0, 1}, {0, 0, 1, 1},
                                       {Complex(2), Complex(1, 1), Complex(1, -1), Complex(-3)});
  const auto S_full = crs_from_coo<double>(3, 3, {0, 1, 0, 2, 2, 0}, {0, 0, 1, 2, 0, 2},
                                           {4, -1, -1, 5, 0.5, 0.5});
  io::MatrixMarketWriteOptions symmetric, skew, hermitian;
  symmetric.symmetry = MatrixMarketSymmetry::symmetric;
  symmetric.comment = "symmetric test\nsecond line";
  skew.symmetry = MatrixMarketSymmetry::skew_symmetric;
  hermitian.symmetry = MatrixMarketSymmetry::hermitian;

  io::write_matrix_market(dir.file("s.mtx"), S_full, symmetric);
  io::write_matrix_market(dir.file("k.mtx"), K, skew);
  io::write_matrix_market(dir.file("h.mtx"), H, hermitian);

  const auto s_info = io::read_matrix_market_info(dir.file("s.mtx"));
  EXPECT_EQ(s_info.symmetry, MatrixMarketSymmetry::symmetric);
  EXPECT_EQ(s_info.num_stored_entries, 4);  // (1,1) (2,1) (3,1) (3,3)
  EXPECT_EQ(s_info.size_line, 4);           // after two comment lines
  expect_identical(io::read_matrix_market<double>(dir.file("s.mtx")), S_full);
  EXPECT_EQ(io::read_matrix_market_info(dir.file("k.mtx")).num_stored_entries, 1);
  expect_matrix_eq(io::read_matrix_market<double>(dir.file("k.mtx")), {{0, -3}, {3, 0}});
  EXPECT_EQ(io::read_matrix_market_info(dir.file("h.mtx")).symmetry, MatrixMarketSymmetry::hermitian);
  expect_identical(io::read_matrix_market<Complex>(dir.file("h.mtx")), H);
}

TEST(MatrixMarket, SymmetricWriteOfNonSymmetricMatrixThrowsAndKeepsOldFile)
{
  TempDir dir;
  write_bytes(dir.file("a.mtx"), "old content\n");
  const auto A = crs_from_coo<double>(2, 2, {0, 1, 0}, {0, 0, 1}, {1, 2, 3});
  const auto pattern = crs_from_coo<double>(2, 2, {1}, {0}, {2});
  io::MatrixMarketWriteOptions options;
  options.symmetry = MatrixMarketSymmetry::symmetric;

  test::expect_throw_containing<InvalidArgument>(
      [&] { io::write_matrix_market(dir.file("a.mtx"), A, options); },
      "A is not symmetric: A(1, 0) = 2 but A(0, 1) = 3 (0-based indices)");
  test::expect_throw_containing<InvalidArgument>(
      [&] { io::write_matrix_market(dir.file("a.mtx"), pattern, options); },
      "A is not symmetric: A(1, 0) is stored but A(0, 1) is not");

  EXPECT_EQ(test::read_file(dir.file("a.mtx")), "old content\n");
  EXPECT_EQ(test::count_entries(dir.path()), 1u);
}

// Duplicates count as their sum, as the reader sums them: A(0, 1) stored as 1 + 2 mirrors
// A(1, 0) = 3. And a matrix or vector holding nan or inf is refused with its position, the
// old file kept: the reader would refuse what the writer wrote.
TEST(MatrixMarket, WriterSumsDuplicatesForTheSymmetryCheckAndRefusesNonFiniteValues)
{
  TempDir dir;
  const auto with_duplicates = [](std::vector<long long> rows, std::vector<int> cols, std::vector<double> values) {
    CrsMatrix<double>::row_map_type row_map("row_map", 3);
    CrsMatrix<double>::entries_type entries("entries", cols.size());
    CrsMatrix<double>::values_type vals("values", values.size());
    auto r = Kokkos::create_mirror_view(row_map);
    auto e = Kokkos::create_mirror_view(entries);
    auto v = Kokkos::create_mirror_view(vals);
    for (std::size_t i = 0; i < rows.size(); ++i) r(i) = rows[i];
    for (std::size_t k = 0; k < cols.size(); ++k) {
      e(k) = cols[k];
      v(k) = values[k];
    }
    Kokkos::deep_copy(row_map, r);
    Kokkos::deep_copy(entries, e);
    Kokkos::deep_copy(vals, v);
    return CrsMatrix<double>(2, 2, row_map, entries, vals);
  };
  io::MatrixMarketWriteOptions symmetric;
  symmetric.symmetry = MatrixMarketSymmetry::symmetric;
  // Rows: 0: (0,1)=1, (0,1)=2; 1: (1,0)=3.
  io::write_matrix_market(dir.file("s.mtx"), with_duplicates({0, 2, 3}, {1, 1, 0}, {1, 2, 3}), symmetric);
  expect_matrix_eq(io::read_matrix_market<double>(dir.file("s.mtx")), {{0, 3}, {3, 0}});
  test::expect_throw_containing<InvalidArgument>(
      [&] {
        io::write_matrix_market(dir.file("s.mtx"), with_duplicates({0, 2, 3}, {1, 1, 0}, {1, 1, 3}), symmetric);
      },
      "A is not symmetric: A(1, 0) = 3 but A(0, 1) = 2 (0-based indices)");

  write_bytes(dir.file("a.mtx"), "old content\n");
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  test::expect_throw_containing<InvalidArgument>(
      [&] { io::write_matrix_market(dir.file("a.mtx"), crs_from_coo<double>(2, 2, {0, 1}, {1, 0}, {1, nan})); },
      "kelp::io::write_matrix_market: A(1, 0) = nan is not finite (0-based indices); Matrix Market files hold "
      "finite numbers only");
  test::expect_throw_containing<InvalidArgument>(
      [&] { io::write_matrix_market(dir.file("a.mtx"), crs_from_coo<Complex>(2, 2, {1}, {1}, {Complex(0, inf)})); },
      "A(1, 1) = (0,inf) is not finite");
  Kokkos::View<double**, Kokkos::LayoutLeft> X("X", 3, 2);
  Kokkos::deep_copy(Kokkos::subview(X, 2, 1), -inf);
  test::expect_throw_containing<InvalidArgument>([&] { io::write_dense_matrix_market(dir.file("a.mtx"), X); },
                                                 "kelp::io::write_dense_matrix_market: X(2, 1) = -inf is not finite");
  EXPECT_EQ(test::read_file(dir.file("a.mtx")), "old content\n");
  EXPECT_EQ(test::count_entries(dir.path()), 2u);  // a.mtx and s.mtx, no temporary file
}

TEST(MatrixMarket, WriteReplacesExistingFileAndLeavesNoTemporaryFiles)
{
  TempDir dir;
  write_bytes(dir.file("a.mtx"), "old content\n");
  const auto A = crs_from_coo<double>(2, 2, {0, 1}, {1, 0}, {1.5, -2});

  io::write_matrix_market(dir.file("a.mtx"), A);

  expect_identical(io::read_matrix_market<double>(dir.file("a.mtx")), A);
  EXPECT_EQ(test::count_entries(dir.path()), 1u);
}

TEST(MatrixMarket, WriteIntoMissingFolderThrowsFileError)
{
  TempDir dir;
  const auto A = crs_from_coo<double>(1, 1, {0}, {0}, {1.0});

  test::expect_throw_containing<FileError>(
      [&] { io::write_matrix_market(dir.file("missing/a.mtx"), A); },
      "a.mtx: cannot create the temporary file");
}

TEST(MatrixMarket, DenseWriteThenReadIsExact)
{
  TempDir dir;
  MultiVectorView<double, Kokkos::LayoutLeft, DefaultDevice> X("X", 3, 2);
  MultiVectorView<Complex, Kokkos::LayoutRight, DefaultDevice> Z("Z", 2, 3);
  VectorView<float> v("v", 4);
  auto hx = Kokkos::create_mirror_view(X);
  auto hz = Kokkos::create_mirror_view(Z);
  auto hv = Kokkos::create_mirror_view(v);
  Dense<double> x_expected = {{1.0 / 3, -1e-310}, {2, 0}, {M_PI, -7e100}};
  Dense<Complex> z_expected = {{Complex(1, -1), Complex(0.1, 0), Complex(0, 2.5)},
                               {Complex(-3), Complex(1e-20, 1e20), Complex(M_E, -M_E)}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) hx(i, j) = x_expected[i][j];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) hz(i, j) = z_expected[i][j];
  for (int i = 0; i < 4; ++i) hv(i) = 0.1f * static_cast<float>(i + 1);
  Kokkos::deep_copy(X, hx);
  Kokkos::deep_copy(Z, hz);
  Kokkos::deep_copy(v, hv);

  io::write_dense_matrix_market(dir.file("x.mtx"), X);
  io::write_dense_matrix_market(dir.file("z.mtx.gz"), Z, "complex multi-vector");
  io::write_dense_matrix_market(dir.file("v.mtx"), v);

  expect_dense_view_eq(io::read_dense_matrix_market<double>(dir.file("x.mtx")), x_expected);
  expect_dense_view_eq(io::read_dense_matrix_market<Complex>(dir.file("z.mtx.gz")), z_expected);
  const auto v_read = io::read_vector_matrix_market<float>(dir.file("v.mtx"));
  const auto hv_read = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v_read);
  ASSERT_EQ(hv_read.extent(0), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(hv_read(i), hv(i));
  EXPECT_EQ(io::read_matrix_market_info(dir.file("x.mtx")).format, MatrixMarketFormat::array);
}

// ---------------------------------------------------------------------------------------------
// The shared collection against its oracles

TEST(MatrixMarket, SharedMatricesMatchOracleSizesNnzAndFrobeniusNorm)
{
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(test::matrices_dir())) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 7 && name.compare(name.size() - 7, 7, ".mtx.gz") == 0) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 20u) << "in " << test::matrices_dir();

  for (const auto& file : files) {
    std::string name = file.filename().string();
    name = name.substr(0, name.size() - 7);
    SCOPED_TRACE(name);
    const YAML::Node oracle = YAML::LoadFile(test::oracle_path(name));
    const auto info = io::read_matrix_market_info(file.string());

    long double sum_of_squares = 0;
    std::int64_t num_rows = 0, num_cols = 0, nnz = 0;
    if (info.field == MatrixMarketField::complex) {
      const auto A = to_host(io::read_matrix_market<Complex>(file.string()));
      num_rows = A.num_rows();
      num_cols = A.num_cols();
      nnz = A.nnz();
      for (std::int64_t k = 0; k < nnz; ++k) {
        sum_of_squares += static_cast<long double>(ScalarTraits<Complex>::abs2(A.values()(k)));
      }
    } else {
      const auto A = to_host(io::read_matrix_market<double>(file.string()));
      num_rows = A.num_rows();
      num_cols = A.num_cols();
      nnz = A.nnz();
      for (std::int64_t k = 0; k < nnz; ++k) {
        sum_of_squares += static_cast<long double>(A.values()(k)) * A.values()(k);
      }
    }

    EXPECT_EQ(info.num_stored_entries, oracle["entries_in_file"].as<std::int64_t>());
    EXPECT_EQ(num_rows, oracle["rows"].as<std::int64_t>());
    EXPECT_EQ(num_cols, oracle["cols"].as<std::int64_t>());
    EXPECT_EQ(nnz, oracle["nnz"].as<std::int64_t>());
    const double fro = static_cast<double>(std::sqrt(sum_of_squares));
    const double expected_fro = oracle["norms"]["fro"].as<double>();
    EXPECT_NEAR(fro, expected_fro, 1e-12 * expected_fro);
  }
}

}  // namespace
}  // namespace kelp::matrix_market_test
