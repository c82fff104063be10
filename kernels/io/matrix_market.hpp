#pragma once
/// Matrix Market reader and writer (coordinate and array formats; gzip read and written
/// transparently).
///
/// Parsing runs on the host in kernels/io/matrix_market.cpp and produces plain host arrays
/// (MatrixMarketCoo, MatrixMarketArray). The templates below convert those into Kelp containers
/// on any device. Every malformed file throws FileError with "path:line: what is wrong", e.g.
///   data/A.mtx:17: entry 12: row index 0 out of range [1, 5] (Matrix Market indices are 1-based)
///
/// Reference: R. F. Boisvert, R. Pozo, K. A. Remington, "The Matrix Market Exchange Formats:
/// Initial Design", NISTIR 5935, 1996.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/types.hpp"

namespace kelp::io {

/// Second word of the banner: sparse triplets or a dense column-major array.
enum class MatrixMarketFormat { coordinate, array };
/// Third word of the banner. pattern (coordinate only) stores no values; Kelp reads them as 1.
enum class MatrixMarketField { real, integer, complex, pattern };
/// Fourth word of the banner. Anything but general stores the lower triangle only
/// (skew_symmetric: strictly lower; hermitian: complex field only, real diagonal).
enum class MatrixMarketSymmetry { general, symmetric, skew_symmetric, hermitian };

/// Banner word of each enumerator ("coordinate", "skew-symmetric", ...).
const char* to_string(MatrixMarketFormat format);
const char* to_string(MatrixMarketField field);
const char* to_string(MatrixMarketSymmetry symmetry);

/// What the banner and the size line of a Matrix Market file declare.
struct MatrixMarketInfo {
  MatrixMarketFormat format = MatrixMarketFormat::coordinate;
  MatrixMarketField field = MatrixMarketField::real;
  MatrixMarketSymmetry symmetry = MatrixMarketSymmetry::general;
  std::int64_t num_rows = 0;
  std::int64_t num_cols = 0;
  /// Number of entries (coordinate) or values (array) the file stores, as the size line
  /// implies: before symmetric expansion and duplicate merging. For array files this is
  /// rows * cols (general), n(n+1)/2 (symmetric, hermitian) or n(n-1)/2 (skew-symmetric).
  std::int64_t num_stored_entries = 0;
  /// 1-based line number of the size line (for messages that refer to it).
  std::int64_t size_line = 0;
};

/// A parsed file as 0-based triplets in full storage.
///
/// Symmetric, skew-symmetric and hermitian storage is already expanded (off-diagonal entries
/// mirrored; negated for skew, conjugated for hermitian). Duplicates are kept (in file order,
/// mirrored entries after all stored ones); pattern entries have value 1. An array file
/// yields every one of its rows * cols values, zeros included, in column-major order.
struct MatrixMarketCoo {
  MatrixMarketInfo info;
  std::vector<std::int64_t> rows;
  std::vector<std::int64_t> cols;
  std::vector<double> real_values;
  /// Imaginary parts; empty unless info.field is complex.
  std::vector<double> imag_values;
};

/// A parsed file as a dense column-major num_rows x num_cols array: value (i, j) sits at
/// i + j * num_rows. Symmetric storage is expanded; coordinate files are scattered with
/// duplicates summed and absent entries zero.
struct MatrixMarketArray {
  MatrixMarketInfo info;
  std::vector<double> real_values;
  /// Imaginary parts; empty unless info.field is complex.
  std::vector<double> imag_values;
};

/// Reads only the banner and the size line of a Matrix Market file (plain or gzip).
///
/// @param[in] path  file name; gzip-compressed content is detected from the data, not the name
/// @throws FileError when the file cannot be opened or its banner or size line is malformed
MatrixMarketInfo read_matrix_market_info(const std::string& path);

/// Parses a whole Matrix Market file (either format) into host triplets; see MatrixMarketCoo.
///
/// Checks every line: counts against the size line, 1-based indices in range, numeric tokens
/// of the declared field, finite values only (nan, inf and overflowing numbers such as 1e999
/// are errors, either part of a complex value), nothing after the last token, lower-triangle
/// storage for symmetric kinds, no stored diagonal for skew-symmetric, real diagonal for
/// hermitian. Before anything is sized by the size line, checks that the file can hold what it
/// declares: a plain file at least 4 bytes per coordinate entry ("1 1" and a line break; 6 with
/// a value, 8 complex) or 2 per array value, a gzip file 1032 times less (deflate's largest
/// expansion).
/// Cost: one pass over the text in 4 MiB blocks, numbers parsed in place (an exact fast path
/// for short decimals, std::from_chars otherwise); about 400 MB/s of plain text, 240 MB/s of
/// gzip text (one core). Memory: 24 bytes per entry (+8 for complex), doubled for the
/// mirrored half of symmetric files.
/// @param[in] path  file name (plain or gzip)
/// @throws FileError naming the file, the line and the problem; NotSupported
///         ("path:line: out of memory ...") when the declared matrix does not fit in memory
MatrixMarketCoo read_matrix_market_coo(const std::string& path);

/// Parses a Matrix Market file into a dense host array; see MatrixMarketArray.
///
/// Meant for vectors and multi-vectors (array format); a coordinate file is accepted and
/// scattered into rows * cols values.
/// @param[in] path  file name (plain or gzip)
/// @throws FileError as read_matrix_market_coo; also when rows * cols overflows;
///         NotSupported when the dense array would not fit in the machine's memory
MatrixMarketArray read_matrix_market_array(const std::string& path);

namespace impl {

/// What a caller can hold; read_matrix_market_coo checks the size line against it before
/// anything is sized by it (errors: NotSupported, "path:line: ...").
struct MatrixMarketCapacity {
  /// Largest number of rows and of columns (the caller's OrdinalT).
  std::int64_t max_dimension = std::numeric_limits<std::int64_t>::max();
  /// Largest number of stored entries (the caller's OffsetT).
  std::int64_t max_entries = std::numeric_limits<std::int64_t>::max();
  /// Bits of the two index types, for messages.
  int ordinal_bits = 64;
  int offset_bits = 64;
  /// Host memory per row that the caller's conversion needs (a CRS row map); 0: none. A size
  /// line whose rows need more than the machine's physical memory is rejected.
  std::int64_t bytes_per_row = 0;
  /// Named in messages.
  const char* function = "kelp::io::read_matrix_market";
};

/// read_matrix_market_coo(path), with the size line checked against `capacity` first.
MatrixMarketCoo read_matrix_market_coo(const std::string& path,
                                       const MatrixMarketCapacity& capacity);

/// One run of whole lines of a coordinate file's entry section, parsed on its own: the
/// distributed reader (distributed/read_matrix_market.hpp) gives each rank one. Entries are the
/// stored ones (not mirrored), 0-based, in file order; pattern entries are 1.
struct MatrixMarketPiece {
  std::vector<std::int64_t> rows;
  std::vector<std::int64_t> cols;
  std::vector<double> real_values;
  std::vector<double> imag_values;  ///< empty unless the field is complex
  std::int64_t num_lines = 0;       ///< lines of the piece read (all of them unless stopped)
  bool failed = false;              ///< a malformed entry stopped the parse
  std::int64_t error_line = 0;      ///< 1-based line within the piece of the malformed entry
  std::int64_t error_entry = 0;     ///< 1-based entry number within the piece of that entry
  std::string error;                ///< what is wrong, worded as the serial reader's message after
                                    ///< "path:line: entry N: "
  std::int64_t limit_line = 0;      ///< 1-based line of entry max_entries + 1; 0: none
};

/// Parses `size` bytes of whole lines of a coordinate file (text[size - 1] must be '\n'; size 0
/// is an empty piece) with the serial reader's checks for `info` (indices in range, field,
/// symmetry). Stops at the first malformed entry (recorded in the piece, not thrown) and, when
/// max_entries >= 0, at the line of entry max_entries + 1 (limit_line).
MatrixMarketPiece parse_matrix_market_piece(const char* text, std::size_t size,
                                            const MatrixMarketInfo& info,
                                            std::int64_t max_entries = -1);

template <class Scalar>
Scalar make_scalar(double real, double imag) {
  if constexpr (is_complex<Scalar>::value) {
    using Real = typename ScalarTraits<Scalar>::magnitude_type;
    return Scalar(static_cast<Real>(real), static_cast<Real>(imag));
  } else {
    return static_cast<Scalar>(real);
  }
}

/// Whether a double read from a file keeps its meaning in Real: a float overflows past 3.4e38,
/// and a nonzero below its smallest subnormal rounds to 0 (a stored 1e-50 became a "zero
/// diagonal", a 1e39 an inf found only as a NaN residual).
template <class Real>
bool narrows_badly(double value) {
  if constexpr (std::is_same<Real, double>::value) {
    return false;
  } else {
    const Real r = static_cast<Real>(value);
    return (std::isfinite(value) && !std::isfinite(r)) || (r == Real(0) && value != 0.0);
  }
}

/// Throws FileError naming the file, the (1-based) row and column and the value when entry
/// (row, col) = real + i imag does not fit Scalar's precision.
template <class Scalar>
void require_value_fits(const std::string& path, const char* function, std::int64_t row, std::int64_t col,
                        double real, double imag) {
  using Real = typename ScalarTraits<Scalar>::magnitude_type;
  for (const double part : {real, imag}) {
    KELP_REQUIRE(!narrows_badly<Real>(part), FileError,
                 function << ": " << path << ": the value " << part << " at row " << row + 1 << ", column "
                          << col + 1 << (std::abs(part) > 1 ? " overflows " : " rounds to 0 in ")
                          << ScalarTraits<Scalar>::name() << " (magnitudes "
                          << std::numeric_limits<Real>::denorm_min() << " to " << std::numeric_limits<Real>::max()
                          << "); read the file in double precision");
  }
}

/// The indices as OrdinalT (moved when OrdinalT is std::int64_t); `source` is left empty.
template <class OrdinalT>
std::vector<OrdinalT> take_indices(std::vector<std::int64_t>& source) {
  if constexpr (std::is_same<OrdinalT, std::int64_t>::value) {
    return std::move(source);
  } else {
    std::vector<OrdinalT> indices(source.size());
    for (std::size_t k = 0; k < source.size(); ++k) indices[k] = static_cast<OrdinalT>(source[k]);
    std::vector<std::int64_t>().swap(source);
    return indices;
  }
}

/// The values as Scalar (moved when Scalar is double); both sources are left empty.
template <class Scalar>
std::vector<Scalar> take_values(std::vector<double>& real, std::vector<double>& imag) {
  if constexpr (std::is_same<Scalar, double>::value) {
    std::vector<double>().swap(imag);
    return std::move(real);
  } else {
    std::vector<Scalar> values(real.size());
    const bool has_imag = !imag.empty();
    for (std::size_t k = 0; k < real.size(); ++k) {
      values[k] = make_scalar<Scalar>(real[k], has_imag ? imag[k] : 0.0);
    }
    std::vector<double>().swap(real);
    std::vector<double>().swap(imag);
    return values;
  }
}

template <class Scalar>
void require_field_fits(const MatrixMarketInfo& info, const std::string& path,
                        const char* function) {
  if constexpr (!is_complex<Scalar>::value) {
    KELP_REQUIRE(info.field != MatrixMarketField::complex, InvalidArgument,
                 function << ": " << path << " holds a complex matrix, which cannot be read into "
                          << "the real Scalar " << ScalarTraits<Scalar>::name()
                          << "; read it as Kokkos::complex<double>");
  }
}

/// Buffered text output to a temporary file in the folder of `path`; commit() renames it onto
/// `path`, so an existing file is replaced only by a complete new one. A name ending in ".gz"
/// is written gzip-compressed. Without commit() the destructor deletes the temporary file.
class MatrixMarketSink {
 public:
  MatrixMarketSink(const std::string& path, const char* function);
  ~MatrixMarketSink();
  MatrixMarketSink(const MatrixMarketSink&) = delete;
  MatrixMarketSink& operator=(const MatrixMarketSink&) = delete;

  /// Banner, comment lines (each line of `comment` prefixed with '%') and size line;
  /// num_entries < 0 writes the two-number size line of the array format.
  void write_header(MatrixMarketFormat format, MatrixMarketField field,
                    MatrixMarketSymmetry symmetry, const std::string& comment,
                    std::int64_t num_rows, std::int64_t num_cols, std::int64_t num_entries);
  /// One coordinate line "row col value" (1-based indices, shortest round-trip decimals).
  void write_entry(std::int64_t row, std::int64_t col, double value);
  void write_entry(std::int64_t row, std::int64_t col, double real, double imag);
  /// One array line "value" or "real imag".
  void write_value(double value);
  void write_value(double real, double imag);
  /// Flushes, closes, syncs and renames the temporary file onto the target path.
  void commit();

 private:
  void reserve_line();
  void flush();

  struct State;
  std::unique_ptr<State> state_;
  std::vector<char> buffer_;
  std::size_t used_ = 0;
};

/// Throws InvalidArgument unless the host matrix A equals its transpose (symmetric), minus its
/// transpose (skew_symmetric: zero diagonal) or its conjugate transpose (hermitian: real
/// diagonal), entry by entry and exactly. Explicit zeros count as entries (the pattern must
/// be symmetric too). O(nnz log nnz) time, O(nnz) memory.
template <class HostMatrix>
void require_symmetry(const HostMatrix& A, MatrixMarketSymmetry symmetry, const char* function) {
  using Scalar = typename HostMatrix::scalar_type;
  using OrdinalT = typename HostMatrix::ordinal_type;
  using Traits = ScalarTraits<Scalar>;
  const char* kind = to_string(symmetry);
  KELP_REQUIRE(A.num_rows() == A.num_cols(), InvalidArgument,
               function << ": A is " << A.num_rows() << " x " << A.num_cols()
                        << "; only a square matrix can be written as " << kind);
  struct Triplet {
    OrdinalT row, col;
    Scalar value;
  };
  std::vector<Triplet> lower, upper_transposed;
  const auto& row_map = A.row_map();
  const auto& entries = A.entries();
  const auto& values = A.values();
  for (OrdinalT i = 0; i < A.num_rows(); ++i) {
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const OrdinalT j = entries(k);
      const Scalar v = values(k);
      if (i > j) {
        lower.push_back({i, j, v});
      } else if (i < j) {
        upper_transposed.push_back({j, i, v});
      } else {
        KELP_REQUIRE(symmetry != MatrixMarketSymmetry::skew_symmetric || v == Scalar(0),
                     InvalidArgument,
                     function << ": A is not skew-symmetric: diagonal A(" << i << ", " << i
                              << ") = " << v << " is nonzero (0-based indices)");
        KELP_REQUIRE(symmetry != MatrixMarketSymmetry::hermitian || Traits::imag(v) == 0,
                     InvalidArgument,
                     function << ": A is not hermitian: diagonal A(" << i << ", " << i
                              << ") = " << v << " is not real (0-based indices)");
      }
    }
  }
  const auto by_position = [](const Triplet& a, const Triplet& b) {
    return a.row < b.row || (a.row == b.row && a.col < b.col);
  };
  // Duplicates count as their sum (what a reader makes of them): merge each list's runs.
  const auto sort_and_merge = [&](std::vector<Triplet>& list) {
    std::stable_sort(list.begin(), list.end(), by_position);
    std::size_t out = 0;
    for (std::size_t k = 0; k < list.size(); ++k) {
      if (out > 0 && list[out - 1].row == list[k].row && list[out - 1].col == list[k].col) {
        list[out - 1].value += list[k].value;
      } else {
        list[out++] = list[k];
      }
    }
    list.resize(out);
  };
  sort_and_merge(lower);
  sort_and_merge(upper_transposed);
  const std::size_t num_pairs = std::min(lower.size(), upper_transposed.size());
  for (std::size_t k = 0; k <= num_pairs; ++k) {
    const bool have_lower = k < lower.size();
    const bool have_upper = k < upper_transposed.size();
    if (!have_lower && !have_upper) break;
    const Triplet* l = have_lower ? &lower[k] : nullptr;
    const Triplet* u = have_upper ? &upper_transposed[k] : nullptr;
    // The first position at which the two sorted lists disagree names an unpaired entry.
    if (l && (!u || by_position(*l, *u))) {
      KELP_THROW(InvalidArgument, function << ": A is not " << kind << ": A(" << l->row << ", "
                                           << l->col << ") is stored but A(" << l->col << ", "
                                           << l->row << ") is not (0-based indices)");
    }
    if (u && (!l || by_position(*u, *l))) {
      KELP_THROW(InvalidArgument, function << ": A is not " << kind << ": A(" << u->col << ", "
                                           << u->row << ") is stored but A(" << u->row << ", "
                                           << u->col << ") is not (0-based indices)");
    }
    Scalar mirrored = l->value;
    if (symmetry == MatrixMarketSymmetry::skew_symmetric) mirrored = -l->value;
    if (symmetry == MatrixMarketSymmetry::hermitian) mirrored = Traits::conj(l->value);
    KELP_REQUIRE(u->value == mirrored, InvalidArgument,
                 function << ": A is not " << kind << ": A(" << l->row << ", " << l->col
                          << ") = " << l->value << " but A(" << l->col << ", " << l->row
                          << ") = " << u->value << " (0-based indices)");
  }
}

/// Throws InvalidArgument naming entry name(i, j) = v unless v is finite: Kelp's reader refuses
/// nan and inf, so a file holding them could not be read back.
template <class Scalar>
void require_finite_entry(const Scalar& v, long long i, long long j, const char* function, const char* name) {
  KELP_REQUIRE(ScalarTraits<Scalar>::is_finite(v), InvalidArgument,
               function << ": " << name << "(" << i << ", " << j << ") = " << v
                        << " is not finite (0-based indices); Matrix Market files hold finite numbers "
                        << "only (the reader refuses nan and inf), so nothing was written");
}

}  // namespace impl

/// Reads a Matrix Market file into a CrsMatrix on Device.
///
/// A = the matrix of the file in full storage (symmetric kinds expanded), duplicates summed,
/// explicit zeros kept, rows sorted by column (see crs_from_coo). Pattern entries are 1, also
/// where the file lists one twice.
/// Integer and real files read into any Scalar; complex files only into a complex Scalar.
/// An array-format file becomes a CRS matrix with all rows * cols entries.
/// Memory: the host triplets (~24 bytes per entry) plus crs_from_coo's work space.
/// @tparam Scalar  float, double or Kokkos::complex<double>
/// @param[in] path  file name (plain or gzip)
/// @throws FileError for an unreadable or malformed file (path:line: problem),
///         InvalidArgument for a complex file and a real Scalar,
///         NotSupported ("path:line: ...", checked on the size line before anything is
///         allocated) when the sizes do not fit OrdinalT or OffsetT or the row map would not fit
///         in the machine's memory, and when memory runs out while reading
template <class Scalar, class OrdinalT = Ordinal, class OffsetT = Offset,
          class Device = DefaultDevice>
CrsMatrix<Scalar, OrdinalT, OffsetT, Device> read_matrix_market(const std::string& path) {
  constexpr const char* function = "kelp::io::read_matrix_market";
  static_assert(std::is_integral<OrdinalT>::value && std::is_integral<OffsetT>::value,
                "read_matrix_market: OrdinalT and OffsetT must be integer types");
  impl::MatrixMarketCapacity capacity;
  capacity.max_dimension = static_cast<std::int64_t>(
      std::min<std::uint64_t>(std::numeric_limits<OrdinalT>::max(),
                              std::numeric_limits<std::int64_t>::max()));
  capacity.max_entries = static_cast<std::int64_t>(
      std::min<std::uint64_t>(std::numeric_limits<OffsetT>::max(),
                              std::numeric_limits<std::int64_t>::max()));
  capacity.ordinal_bits = static_cast<int>(8 * sizeof(OrdinalT));
  capacity.offset_bits = static_cast<int>(8 * sizeof(OffsetT));
  capacity.bytes_per_row = 2 * static_cast<std::int64_t>(sizeof(OffsetT));  // see crs_from_coo
  capacity.function = function;
  MatrixMarketCoo coo = impl::read_matrix_market_coo(path, capacity);
  const MatrixMarketInfo& info = coo.info;
  impl::require_field_fits<Scalar>(info, path, function);
  // Symmetric expansion can double the stored entries.
  KELP_REQUIRE(coo.rows.size() <= static_cast<std::size_t>(capacity.max_entries), NotSupported,
               path << ":" << info.size_line << ": the file holds " << coo.rows.size()
                        << " entries in full storage; the " << capacity.offset_bits
                        << "-bit Offset counts at most " << capacity.max_entries
                        << "; read it with a 64-bit Offset");

  try {
    // Convert one array at a time and release its source, to bound the peak memory; arrays of
    // the right type already are moved.
    if constexpr (!std::is_same<typename ScalarTraits<Scalar>::magnitude_type, double>::value) {
      for (std::size_t k = 0; k < coo.real_values.size(); ++k) {
        impl::require_value_fits<Scalar>(path, function, coo.rows[k], coo.cols[k], coo.real_values[k],
                                         coo.imag_values.empty() ? 0.0 : coo.imag_values[k]);
      }
    }
    const auto rows = impl::take_indices<OrdinalT>(coo.rows);
    const auto cols = impl::take_indices<OrdinalT>(coo.cols);
    const auto values = impl::take_values<Scalar>(coo.real_values, coo.imag_values);
    auto A = crs_from_coo<Scalar, OrdinalT, OffsetT, Device>(static_cast<OrdinalT>(info.num_rows),
                                                             static_cast<OrdinalT>(info.num_cols),
                                                             rows, cols, values);
    // A pattern file says where the entries are, not what they sum to: an entry listed twice
    // is still 1 (crs_from_coo summed it to 2).
    if (info.field == MatrixMarketField::pattern) Kokkos::deep_copy(A.values(), Scalar(1));
    return A;
  } catch (const std::bad_alloc&) {
    KELP_THROW(NotSupported, path << ":" << info.size_line << ": out of memory while assembling "
                                  << "the " << info.num_rows << " x " << info.num_cols
                                  << " matrix with " << coo.info.num_stored_entries
                                  << " stored entries (as the size line declares)");
  }
  return {};  // not reached: the handler throws (nvcc cannot tell)
}

/// Reads a Matrix Market file into a dense column-major multi-vector X on Device.
///
/// X(i, j) = value (i, j) of the file (array format as stored; coordinate files scattered with
/// duplicates summed and absent entries zero, pattern entries 1; symmetric kinds expanded).
/// @tparam Scalar  float, double or Kokkos::complex<double>
/// @param[in] path  file name (plain or gzip)
/// @throws FileError for an unreadable or malformed file, InvalidArgument for a complex file
///         and a real Scalar
template <class Scalar, class Device = DefaultDevice>
MultiVectorView<Scalar, Kokkos::LayoutLeft, Device> read_dense_matrix_market(
    const std::string& path) {
  MatrixMarketArray array = read_matrix_market_array(path);
  impl::require_field_fits<Scalar>(array.info, path, "kelp::io::read_dense_matrix_market");
  const std::size_t num_rows = static_cast<std::size_t>(array.info.num_rows);
  const std::size_t num_cols = static_cast<std::size_t>(array.info.num_cols);
  MultiVectorView<Scalar, Kokkos::LayoutLeft, Device> X(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::io::read_dense_matrix_market"),
      num_rows, num_cols);
  auto host = Kokkos::create_mirror_view(X);
  const bool has_imag = !array.imag_values.empty();
  for (std::size_t j = 0; j < num_cols; ++j) {
    for (std::size_t i = 0; i < num_rows; ++i) {
      const std::size_t k = i + j * num_rows;
      impl::require_value_fits<Scalar>(path, "kelp::io::read_dense_matrix_market", static_cast<std::int64_t>(i),
                                       static_cast<std::int64_t>(j), array.real_values[k],
                                       has_imag ? array.imag_values[k] : 0.0);
      host(i, j) = impl::make_scalar<Scalar>(array.real_values[k],
                                             has_imag ? array.imag_values[k] : 0.0);
    }
  }
  Kokkos::deep_copy(X, host);
  return X;
}

/// Reads a one-column Matrix Market file (array or coordinate) into a vector x on Device.
///
/// x(i) = value (i, 1) of the file; otherwise as read_dense_matrix_market.
/// @throws DimensionMismatch when the file has more or fewer than one column, and whatever
///         read_dense_matrix_market throws
template <class Scalar, class Device = DefaultDevice>
VectorView<Scalar, Device> read_vector_matrix_market(const std::string& path) {
  auto X = read_dense_matrix_market<Scalar, Device>(path);
  KELP_REQUIRE(X.extent(1) == 1, DimensionMismatch,
               "kelp::io::read_vector_matrix_market: "
                   << path << " holds a " << X.extent(0) << " x " << X.extent(1)
                   << " matrix, expected one column; use read_dense_matrix_market");
  return Kokkos::subview(X, Kokkos::ALL(), 0);
}

/// Options of write_matrix_market.
struct MatrixMarketWriteOptions {
  /// Symmetry declared in the banner. Default general: every entry is written. symmetric,
  /// skew_symmetric and hermitian write the lower triangle only, after checking exactly that A
  /// has that symmetry (the check throws InvalidArgument, so no information is ever dropped).
  MatrixMarketSymmetry symmetry = MatrixMarketSymmetry::general;
  /// Written after the banner, each line prefixed with '%'; empty (default): no comment.
  std::string comment;
};

/// Writes A as a Matrix Market coordinate file (field real, or complex for complex Scalar).
///
/// Values are written as the shortest decimal that reads back to the same double (float values
/// are widened first), so write then read reproduces A exactly, empty rows included. Entries
/// come in CRS order, indices 1-based. A path ending in ".gz" is gzip-compressed.
/// The file is written to a temporary file in the same folder and renamed onto `path` only when
/// complete: an existing file is never left half-written.
/// @param[in] path     target file name
/// @param[in] A        matrix on any device (copied to the host)
/// @param[in] options  symmetry to declare (verified) and a comment
/// @throws FileError when the file cannot be written (the old file stays untouched),
///         InvalidArgument when A lacks the requested symmetry (duplicates count as their sum)
///         or holds a value that is not finite (nothing is written)
template <class Scalar, class OrdinalT, class OffsetT, class Device>
void write_matrix_market(const std::string& path,
                         const CrsMatrix<Scalar, OrdinalT, OffsetT, Device>& A,
                         const MatrixMarketWriteOptions& options = {}) {
  constexpr const char* function = "kelp::io::write_matrix_market";
  const auto H = to_host(A);
  const MatrixMarketSymmetry symmetry = options.symmetry;
  constexpr bool complex_scalar = is_complex<Scalar>::value;
  KELP_REQUIRE(symmetry != MatrixMarketSymmetry::hermitian || complex_scalar, InvalidArgument,
               function << ": symmetry hermitian needs a complex Scalar (Matrix Market allows it "
                        << "only with field complex); use symmetric for a real matrix");
  const auto& row_map = H.row_map();
  const auto& entries = H.entries();
  const auto& values = H.values();
  for (OrdinalT i = 0; i < H.num_rows(); ++i) {
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      impl::require_finite_entry(values(k), i, entries(k), function, "A");
    }
  }
  if (symmetry != MatrixMarketSymmetry::general) impl::require_symmetry(H, symmetry, function);

  // General: everything. Others: lower triangle; skew-symmetric leaves out its zero diagonal.
  const auto keep = [symmetry](OrdinalT i, OrdinalT j) {
    if (symmetry == MatrixMarketSymmetry::general) return true;
    if (symmetry == MatrixMarketSymmetry::skew_symmetric) return i > j;
    return i >= j;
  };
  std::int64_t num_written = 0;
  for (OrdinalT i = 0; i < H.num_rows(); ++i) {
    for (auto k = row_map(i); k < row_map(i + 1); ++k) num_written += keep(i, entries(k)) ? 1 : 0;
  }

  impl::MatrixMarketSink sink(path, function);
  sink.write_header(MatrixMarketFormat::coordinate,
                    complex_scalar ? MatrixMarketField::complex : MatrixMarketField::real, symmetry,
                    options.comment, H.num_rows(), H.num_cols(), num_written);
  for (OrdinalT i = 0; i < H.num_rows(); ++i) {
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const OrdinalT j = entries(k);
      if (!keep(i, j)) continue;
      const Scalar v = values(k);
      if constexpr (complex_scalar) {
        sink.write_entry(std::int64_t(i) + 1, std::int64_t(j) + 1,
                         static_cast<double>(v.real()), static_cast<double>(v.imag()));
      } else {
        sink.write_entry(std::int64_t(i) + 1, std::int64_t(j) + 1, static_cast<double>(v));
      }
    }
  }
  sink.commit();
}

/// Writes a vector (rank 1: one column) or a multi-vector (rank 2, any layout) as a Matrix
/// Market array file, general, column-major, real or complex by Scalar.
///
/// Same precision, ".gz" and replace-by-rename behaviour as write_matrix_market.
/// @param[in] path     target file name
/// @param[in] X        rank-1 or rank-2 view on any device (copied to the host)
/// @param[in] comment  written after the banner, each line prefixed with '%'
/// @throws FileError when the file cannot be written (the old file stays untouched),
///         InvalidArgument when X holds a value that is not finite (nothing is written)
template <class View>
void write_dense_matrix_market(const std::string& path, const View& X,
                               const std::string& comment = "") {
  static_assert(Kokkos::is_view<View>::value && (View::rank == 1 || View::rank == 2),
                "write_dense_matrix_market: X must be a rank-1 or rank-2 Kokkos::View");
  using Scalar = typename View::non_const_value_type;
  constexpr bool complex_scalar = is_complex<Scalar>::value;
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), X);
  const std::int64_t num_rows = static_cast<std::int64_t>(X.extent(0));
  const std::int64_t num_cols = View::rank == 2 ? static_cast<std::int64_t>(X.extent(1)) : 1;
  const auto at = [&](std::int64_t i, std::int64_t j) -> Scalar {
    if constexpr (View::rank == 2) {
      return host(i, j);
    } else {
      (void)j;
      return host(i);
    }
  };
  for (std::int64_t j = 0; j < num_cols; ++j) {
    for (std::int64_t i = 0; i < num_rows; ++i) {
      impl::require_finite_entry(at(i, j), i, j, "kelp::io::write_dense_matrix_market", "X");
    }
  }

  impl::MatrixMarketSink sink(path, "kelp::io::write_dense_matrix_market");
  sink.write_header(MatrixMarketFormat::array,
                    complex_scalar ? MatrixMarketField::complex : MatrixMarketField::real,
                    MatrixMarketSymmetry::general, comment, num_rows, num_cols, -1);
  for (std::int64_t j = 0; j < num_cols; ++j) {
    for (std::int64_t i = 0; i < num_rows; ++i) {
      const Scalar v = at(i, j);
      if constexpr (complex_scalar) {
        sink.write_value(static_cast<double>(v.real()), static_cast<double>(v.imag()));
      } else {
        sink.write_value(static_cast<double>(v));
      }
    }
  }
  sink.commit();
}

}  // namespace kelp::io
