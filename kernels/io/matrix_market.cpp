// Matrix Market parsing and writing (host only). See matrix_market.hpp for the contracts.
//
// Reading streams the (possibly gzip-compressed) file through zlib in 4 MiB blocks and parses
// whole blocks of lines in place (hand-written integer scan; exact fast path for short
// decimals, std::from_chars for the rest): no per-line allocation, no iostreams. Every check
// throws FileError "path:line: problem".

#include "kelp/kernels/io/matrix_market.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <system_error>

namespace kelp::io {

const char* to_string(MatrixMarketFormat format) {
  switch (format) {
    case MatrixMarketFormat::coordinate: return "coordinate";
    case MatrixMarketFormat::array: return "array";
  }
  return "?";
}

const char* to_string(MatrixMarketField field) {
  switch (field) {
    case MatrixMarketField::real: return "real";
    case MatrixMarketField::integer: return "integer";
    case MatrixMarketField::complex: return "complex";
    case MatrixMarketField::pattern: return "pattern";
  }
  return "?";
}

const char* to_string(MatrixMarketSymmetry symmetry) {
  switch (symmetry) {
    case MatrixMarketSymmetry::general: return "general";
    case MatrixMarketSymmetry::symmetric: return "symmetric";
    case MatrixMarketSymmetry::skew_symmetric: return "skew-symmetric";
    case MatrixMarketSymmetry::hermitian: return "hermitian";
  }
  return "?";
}

namespace {

constexpr std::size_t block_size = std::size_t(1) << 22;  // bytes per gzread
constexpr unsigned zlib_buffer_size = 1u << 17;            // zlib's own input buffer

// ---------------------------------------------------------------------------------------------
// Tokens. Lines end at '\n'; '\r' counts as a blank (CRLF files). The LineReader guarantees a
// readable '\n' after every line and at the end of every chunk it hands out (it appends one to
// a last line without it), so the scanning loops below stop there without bounds checks.

inline bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

inline bool is_separator(char c) { return is_blank(c) || c == '\n'; }

inline bool at_line_end(const char* p) { return *p == '\n'; }

inline const char* skip_blanks(const char* p) {
  while (is_blank(*p)) ++p;
  return p;
}

inline const char* token_end(const char* p) {
  while (!is_separator(*p)) ++p;
  return p;
}

/// The '\n' that ends the line containing p (end: the end of the chunk, itself a '\n').
inline const char* line_end(const char* p, const char* end) {
  const void* newline = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
  return newline != nullptr ? static_cast<const char*>(newline) : end;
}

/// The text of [begin, end) for a message: quoted, without trailing blanks, at most 48 chars.
std::string quoted(const char* begin, const char* end) {
  while (end > begin && is_separator(end[-1])) --end;
  constexpr std::ptrdiff_t max_chars = 48;
  std::string text;
  // Control bytes are written as \xNN: a NUL cut the message short, and a lone CR (classic Mac
  // line ends, which read as one long line) moved the terminal's cursor.
  for (const char* p = begin; p < begin + std::min(end - begin, max_chars); ++p) {
    const auto byte = static_cast<unsigned char>(*p);
    if (byte < 0x20 && byte != '\t') {
      static const char digits[] = "0123456789ABCDEF";
      text += "\\x";
      text += digits[byte >> 4];
      text += digits[byte & 15];
    } else {
      text += *p;
    }
  }
  if (end - begin > max_chars) text += "...";
  return "'" + text + "'";
}

/// Parses one whole integer token at p (optional sign, at most 18 digits) and advances p past
/// it. Hand-written: indices are two thirds of the numbers in a file, and this is about twice
/// as fast as std::from_chars<std::int64_t>.
inline bool parse_integer(const char*& p, std::int64_t& value) {
  const char* q = p;
  const bool negative = *q == '-';
  if (*q == '-' || *q == '+') ++q;
  const char* digits = q;
  std::uint64_t magnitude = 0;
  while (static_cast<unsigned char>(*q - '0') < 10) {
    magnitude = 10 * magnitude + static_cast<unsigned char>(*q - '0');
    ++q;
  }
  if (q == digits || q - digits > 18 || !is_separator(*q)) return false;
  value = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  p = q;
  return true;
}

/// Slow path of parse_real: Fortran exponents ("1.5D+03"), which some converted files use.
bool parse_real_fortran(const char*& p, double& value) {
  const char* last = token_end(p);
  char text[128];
  const std::size_t length = static_cast<std::size_t>(last - p);
  if (length == 0 || length >= sizeof(text)) return false;
  bool has_fortran_exponent = false;
  for (std::size_t k = 0; k < length; ++k) {
    text[k] = p[k];
    if (text[k] == 'd' || text[k] == 'D') {
      text[k] = 'e';
      has_fortran_exponent = true;
    }
  }
  if (!has_fortran_exponent) return false;
  const char* first = text[0] == '+' ? text + 1 : text;
  if (first != text && *first == '-') return false;  // a sign after a sign, as in +-5d0
  const auto result = std::from_chars(first, text + length, value);
  if (result.ec != std::errc() || result.ptr != text + length) return false;
  p = last;
  return true;
}

inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

/// Fast path of parse_real for plain decimals "[sign]digits[.digits][(e|E)[sign]digits]" with at
/// most 19 digits whose value m * 10^k has m <= 2^53 and |k| <= 22: then m and 10^|k| are exact
/// doubles and one IEEE multiplication or division rounds correctly (W. D. Clinger, "How to
/// read floating point numbers accurately", PLDI 1990). Returns false, leaving p, otherwise.
inline bool parse_real_fast(const char*& p, double& value) {
  static constexpr double powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char* q = p;
  const bool negative = *q == '-';
  if (*q == '-' || *q == '+') ++q;
  std::uint64_t mantissa = 0;
  const char* integer_digits = q;
  while (is_digit(*q)) mantissa = 10 * mantissa + static_cast<unsigned char>(*q++ - '0');
  std::ptrdiff_t num_digits = q - integer_digits;
  int exponent = 0;
  if (*q == '.') {
    const char* fraction_digits = ++q;
    while (is_digit(*q)) mantissa = 10 * mantissa + static_cast<unsigned char>(*q++ - '0');
    exponent = -static_cast<int>(q - fraction_digits);
    num_digits += q - fraction_digits;
  }
  if (num_digits == 0 || num_digits > 19) return false;  // 19 digits cannot overflow 64 bits
  if (*q == 'e' || *q == 'E') {
    ++q;
    const bool negative_exponent = *q == '-';
    if (*q == '-' || *q == '+') ++q;
    if (!is_digit(*q)) return false;
    int written_exponent = 0;
    while (is_digit(*q)) {
      if (written_exponent < 100000) written_exponent = 10 * written_exponent + (*q - '0');
      ++q;
    }
    exponent += negative_exponent ? -written_exponent : written_exponent;
  }
  if (!is_separator(*q) || mantissa > (std::uint64_t(1) << 53) || exponent < -22 ||
      exponent > 22) {
    return false;
  }
  double magnitude = static_cast<double>(mantissa);
  magnitude = exponent < 0 ? magnitude / powers_of_ten[-exponent]
                           : magnitude * powers_of_ten[exponent];
  value = negative ? -magnitude : magnitude;
  p = q;
  return true;
}

/// What parse_real made of a token.
enum class RealToken {
  number,        ///< value set, p advanced past the token
  malformed,     ///< not a number; p left at the token
  out_of_range,  ///< a decimal beyond double's range (overflow or total underflow); p left
};

/// Parses one whole real-number token at p (before end) and advances p past it: the fast
/// path above, else std::from_chars, else Fortran exponents.
inline RealToken parse_real(const char*& p, const char* end, double& value) {
  if (parse_real_fast(p, value)) return RealToken::number;
  const char* first = *p == '+' ? p + 1 : p;
  if (first != p && *first == '-') return RealToken::malformed;  // from_chars would take -5 of +-5
  const auto result = std::from_chars(first, end, value);
  if (result.ptr != first && is_separator(*result.ptr)) {
    if (result.ec == std::errc()) {
      p = result.ptr;
      return RealToken::number;
    }
    if (result.ec == std::errc::result_out_of_range) return RealToken::out_of_range;
  }
  return parse_real_fortran(p, value) ? RealToken::number : RealToken::malformed;
}

/// Why the decimal at [token, token_end) is out of double's range: too large, or so small that
/// it would read as zero (both are errors: the file's value cannot be kept).
std::string out_of_range_reason(const char* token, const char* token_end) {
  const std::string text(token, token_end);
  const double nearest = std::strtod(text.c_str(), nullptr);  // +-HUGE_VAL or (+-)0 with ERANGE
  return std::abs(nearest) > 1
             ? "value " + quoted(token, token_end) + " overflows double (largest 1.8e308)"
             : "value " + quoted(token, token_end) +
                   " underflows double (smallest 4.9e-324): it would read as 0";
}

std::string lowercase(std::string_view word) {
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower;
}

// ---------------------------------------------------------------------------------------------
// Line reader over zlib (gzopen also reads uncompressed files, transparently)

class LineReader {
 public:
  LineReader(const std::string& path, const char* function) : path_(path), function_(function) {
    errno = 0;
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr) {
      const int error = errno;
      throw FileError(path + ": cannot open for reading: " +
                          (error != 0 ? std::strerror(error) : "out of memory in zlib"),
                      function_, __FILE__, __LINE__);
    }
    gzbuffer(file_, zlib_buffer_size);
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode)) {
      bytes_on_disk_ = status.st_size;
    }
    // Uninitialized: large allocations come as untouched pages, so small files pay nothing.
    buffer_.reset(new char[block_size]);
    capacity_ = block_size;
  }
  ~LineReader() {
    if (file_ != nullptr) gzclose(file_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// Sets [begin, end) to the next line without its '\n', which stays readable at *end (a '\r'
  /// before it stays too; the tokenizer treats it as a blank), and counts it in line().
  /// Returns false at the end of the input.
  bool next(const char*& begin, const char*& end) {
    for (;;) {
      if (position_ < size_) {
        const char* first = buffer_.get() + position_;
        const void* newline = std::memchr(first, '\n', size_ - position_);
        if (newline != nullptr) {
          begin = first;
          end = static_cast<const char*>(newline);
          position_ = static_cast<std::size_t>(end - buffer_.get()) + 1;
          ++line_;
          return true;
        }
      } else if (at_eof_) {
        return false;
      }
      refill();
    }
  }

  /// Sets [begin, end) to the next run of whole lines, each ending in '\n'; about one block
  /// (4 MiB). The caller counts the lines (line() is not advanced). Returns false at the end
  /// of the input.
  bool next_chunk(const char*& begin, const char*& end) {
    for (;;) {
      if (position_ < size_) {
        const char* first = buffer_.get() + position_;
        const char* last = buffer_.get() + size_;
        while (last > first && last[-1] != '\n') --last;  // back to the last complete line
        if (last > first) {
          begin = first;
          end = last;
          position_ = static_cast<std::size_t>(last - buffer_.get());
          return true;
        }
      } else if (at_eof_) {
        return false;
      }
      refill();
    }
  }

  std::int64_t line() const { return line_; }
  /// Size of the file on disk; -1 when unknown (not a regular file: a pipe, a device).
  std::int64_t bytes_on_disk() const { return bytes_on_disk_; }
  /// True for gzip input (known once the first block has been read).
  bool compressed() const { return gzdirect(file_) == 0; }
  const std::string& path() const { return path_; }

  [[noreturn]] void fail(std::int64_t line, const std::string& what) const {
    throw FileError(path_ + ":" + std::to_string(line) + ": " + what, function_, __FILE__,
                    __LINE__);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw FileError(path_ + ": " + what, function_, __FILE__, __LINE__);
  }

 private:
  void refill() {
    const std::size_t kept = size_ - position_;
    if (kept > 0 && position_ > 0) std::memmove(buffer_.get(), buffer_.get() + position_, kept);
    position_ = 0;
    size_ = kept;
    if (size_ + 1 >= capacity_) {  // a line longer than the buffer
      std::unique_ptr<char[]> larger(new char[2 * capacity_]);
      std::memcpy(larger.get(), buffer_.get(), size_);
      buffer_ = std::move(larger);
      capacity_ *= 2;
    }
    // One byte stays free for the '\n' appended at the end of the input.
    const std::size_t room = std::min<std::size_t>(capacity_ - size_ - 1, INT_MAX);
    const int count = gzread(file_, buffer_.get() + size_, static_cast<unsigned>(room));
    if (count < 0) {
      int code = Z_OK;
      const char* message = gzerror(file_, &code);
      const std::string reason = code == Z_ERRNO ? std::strerror(errno) : zlib_reason(message);
      if (gzdirect(file_) == 0) {
        fail("cannot decompress" + after_bytes() + ": " + reason +
             " (corrupt or truncated gzip file)");
      }
      fail("read error" + after_bytes() + ": " + reason);
    }
    if (count == 0) {
      // zlib ends a gzip stream cut short like a normal end of file, setting Z_BUF_ERROR.
      int code = Z_OK;
      const char* message = gzerror(file_, &code);
      if (code != Z_OK) {
        fail("cannot decompress" + after_bytes() + ": " + zlib_reason(message) +
             " (corrupt or truncated gzip file)");
      }
      at_eof_ = true;
      if (size_ > 0 && buffer_[size_ - 1] != '\n') buffer_[size_++] = '\n';  // the sentinel
      return;
    }
    size_ += static_cast<std::size_t>(count);
    total_bytes_ += count;
  }

  // Blocks are read ahead of parsing, so a read error is located by bytes, not by lines.
  std::string after_bytes() const {
    return " after " + std::to_string(total_bytes_) + " bytes of text";
  }
  // zlib prefixes its messages with the file name, which our message already starts with.
  std::string zlib_reason(const char* message) const {
    const std::string text = message != nullptr ? message : "unknown zlib error";
    const std::string prefix = path_ + ": ";
    return text.compare(0, prefix.size(), prefix) == 0 ? text.substr(prefix.size()) : text;
  }

  std::string path_;
  const char* function_;
  gzFile file_ = nullptr;
  std::unique_ptr<char[]> buffer_;
  std::size_t capacity_ = 0;
  std::size_t position_ = 0;
  std::size_t size_ = 0;
  bool at_eof_ = false;
  std::int64_t line_ = 0;
  std::int64_t total_bytes_ = 0;
  std::int64_t bytes_on_disk_ = -1;
};

// ---------------------------------------------------------------------------------------------
// Banner and size line

constexpr const char* banner_usage =
    "'%%MatrixMarket matrix <coordinate|array> <real|integer|complex|pattern> "
    "<general|symmetric|skew-symmetric|hermitian>'";

/// Largest deflate expansion: 1032 bytes of output per byte of compressed input (zlib's
/// technical details: a long run of one byte compresses about 1032:1, never better).
constexpr std::int64_t max_deflate_ratio = 1032;

/// The shortest line an entry (coordinate) or a value (array) of `field` can take, and that line.
std::pair<std::int64_t, const char*> shortest_entry(MatrixMarketFormat format,
                                                    MatrixMarketField field) {
  const bool coordinate = format == MatrixMarketFormat::coordinate;
  switch (field) {
    case MatrixMarketField::pattern: return {4, "'1 1'"};
    case MatrixMarketField::complex:
      return coordinate ? std::make_pair(std::int64_t(8), "'1 1 0 0'")
                        : std::make_pair(std::int64_t(4), "'0 0'");
    default:
      return coordinate ? std::make_pair(std::int64_t(6), "'1 1 0'")
                        : std::make_pair(std::int64_t(2), "'0'");
  }
}

/// Rejects a size line that declares more entries than the file could possibly hold, before
/// anything is sized by it: a plain file holds at most bytes / (shortest entry line) entries; a
/// gzip file at most 1032 times that (deflate's largest expansion). Skipped when the size of the
/// input is unknown (not a regular file); the parsers then cap their reservations and grow.
void require_room_for_declared_entries(const LineReader& in, const MatrixMarketInfo& info) {
  const std::int64_t bytes = in.bytes_on_disk();
  if (bytes < 0 || info.num_stored_entries == 0) return;
  const bool compressed = in.compressed();
  const std::int64_t max_text = !compressed ? bytes
                                : bytes > std::numeric_limits<std::int64_t>::max() / max_deflate_ratio
                                    ? std::numeric_limits<std::int64_t>::max()
                                    : bytes * max_deflate_ratio;
  const auto [min_line, example] = shortest_entry(info.format, info.field);
  // +1: the last line may lack its line break.
  const std::int64_t max_entries = max_text / min_line + 1;
  if (info.num_stored_entries <= max_entries) return;
  const bool coordinate = info.format == MatrixMarketFormat::coordinate;
  const std::string what = coordinate ? "entries" : "values";
  std::string declared = "the size line declares " + std::to_string(info.num_rows) + " x " +
                         std::to_string(info.num_cols);
  declared += coordinate ? " with " + std::to_string(info.num_stored_entries) + " entries"
                         : " (" + std::to_string(info.num_stored_entries) + " stored values)";
  const std::string room =
      compressed ? "the gzip file of " + std::to_string(bytes) + " bytes expands to at most " +
                       std::to_string(max_text) + " bytes of text (deflate expands at most " +
                       std::to_string(max_deflate_ratio) + "-fold)"
                 : "the file has only " + std::to_string(bytes) + " bytes";
  in.fail(info.size_line, declared + ", but " + room + " and a " + to_string(info.field) + " " +
                              (coordinate ? "entry" : "value") + " takes at least " +
                              std::to_string(min_line) + " bytes (" + example +
                              " and a line break): at most " + std::to_string(max_entries) +
                              " " + what + " fit; wrong size line?");
}

MatrixMarketInfo parse_header(LineReader& in) {
  const char* begin;
  const char* end;
  if (!in.next(begin, end)) {
    in.fail("empty file; expected a '%%MatrixMarket' banner on line 1");
  }
  if (end - begin >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) begin += 3;  // UTF-8 BOM

  std::string_view words[6];
  int num_words = 0;
  for (const char* p = skip_blanks(begin); p < end && num_words < 6; p = skip_blanks(p)) {
    const char* last = token_end(p);
    words[num_words++] = std::string_view(p, static_cast<std::size_t>(last - p));
    p = last;
  }
  if (num_words == 0 || lowercase(words[0]) != "%%matrixmarket") {
    in.fail(1, "missing '%%MatrixMarket' banner: line 1 is " + quoted(begin, end) +
                   "; expected " + banner_usage);
  }
  if (const char* cr = std::find(begin, end, '\r'); cr != end && cr + 1 != end) {
    in.fail(1, "line 1 holds a carriage return inside it: the file has classic Mac (CR-only) line "
               "ends, which read as one line; convert them to LF (or CRLF)");
  }
  if (num_words != 5) {
    in.fail(1, "banner has " + std::to_string(num_words - 1) +
                   (num_words == 6 ? " or more" : "") + " words after '%%MatrixMarket', " +
                   "expected 4, as in " + banner_usage);
  }

  MatrixMarketInfo info;
  const std::string object = lowercase(words[1]);
  const std::string format = lowercase(words[2]);
  const std::string field = lowercase(words[3]);
  const std::string symmetry = lowercase(words[4]);
  if (object != "matrix") {
    in.fail(1, "unsupported object '" + std::string(words[1]) + "' in the banner; expected " +
                   "'matrix'");
  }
  if (format == "coordinate") {
    info.format = MatrixMarketFormat::coordinate;
  } else if (format == "array") {
    info.format = MatrixMarketFormat::array;
  } else {
    in.fail(1, "unknown format '" + std::string(words[2]) + "' in the banner; expected " +
                   "'coordinate' or 'array'");
  }
  if (field == "real") {
    info.field = MatrixMarketField::real;
  } else if (field == "integer") {
    info.field = MatrixMarketField::integer;
  } else if (field == "complex") {
    info.field = MatrixMarketField::complex;
  } else if (field == "pattern") {
    info.field = MatrixMarketField::pattern;
  } else {
    in.fail(1, "unknown field '" + std::string(words[3]) + "' in the banner; expected " +
                   "'real', 'integer', 'complex' or 'pattern'");
  }
  if (symmetry == "general") {
    info.symmetry = MatrixMarketSymmetry::general;
  } else if (symmetry == "symmetric") {
    info.symmetry = MatrixMarketSymmetry::symmetric;
  } else if (symmetry == "skew-symmetric") {
    info.symmetry = MatrixMarketSymmetry::skew_symmetric;
  } else if (symmetry == "hermitian") {
    info.symmetry = MatrixMarketSymmetry::hermitian;
  } else {
    in.fail(1, "unknown symmetry '" + std::string(words[4]) + "' in the banner; expected " +
                   "'general', 'symmetric', 'skew-symmetric' or 'hermitian'");
  }
  if (info.field == MatrixMarketField::pattern && info.format == MatrixMarketFormat::array) {
    in.fail(1, "field 'pattern' is only valid with format 'coordinate', not 'array'");
  }
  if (info.symmetry == MatrixMarketSymmetry::hermitian &&
      info.field != MatrixMarketField::complex) {
    in.fail(1, std::string("symmetry 'hermitian' requires field 'complex', not '") +
                   to_string(info.field) + "'");
  }
  if (info.symmetry == MatrixMarketSymmetry::skew_symmetric &&
      info.field == MatrixMarketField::pattern) {
    in.fail(1, "symmetry 'skew-symmetric' is not valid with field 'pattern' (no values to negate)");
  }

  // Comment lines ('%') and blank lines may precede the size line.
  const char* p = nullptr;
  for (;;) {
    if (!in.next(begin, end)) {
      in.fail(in.line(), "missing size line: the file ends after the banner and comments");
    }
    p = skip_blanks(begin);
    if (p < end && *p != '%') break;
  }
  info.size_line = in.line();
  const bool coordinate = info.format == MatrixMarketFormat::coordinate;
  const int expected = coordinate ? 3 : 2;
  std::int64_t sizes[3] = {0, 0, 0};
  const auto bad_size_line = [&]() {
    in.fail(in.line(), "bad size line " + quoted(begin, end) + ": expected " +
                           (coordinate ? "'rows columns entries' (three non-negative integers) "
                                         "for a coordinate file"
                                       : "'rows columns' (two non-negative integers) for an "
                                         "array file"));
  };
  for (int k = 0; k < expected; ++k) {
    p = skip_blanks(p);
    if (p == end || !parse_integer(p, sizes[k]) || sizes[k] < 0) bad_size_line();
  }
  if (skip_blanks(p) != end) bad_size_line();
  info.num_rows = sizes[0];
  info.num_cols = sizes[1];

  if (info.symmetry != MatrixMarketSymmetry::general && info.num_rows != info.num_cols) {
    in.fail(in.line(), std::string("a ") + to_string(info.symmetry) + " matrix must be square, " +
                           "but the size line declares " + std::to_string(info.num_rows) + " x " +
                           std::to_string(info.num_cols));
  }
  if (coordinate) {
    info.num_stored_entries = sizes[2];
  } else {
    const std::int64_t n = info.num_rows;
    if (info.num_cols != 0 && info.num_rows > (std::int64_t(1) << 62) / info.num_cols) {
      in.fail(in.line(), "array of " + std::to_string(info.num_rows) + " x " +
                             std::to_string(info.num_cols) + " values is too large");
    }
    switch (info.symmetry) {
      case MatrixMarketSymmetry::general: info.num_stored_entries = n * info.num_cols; break;
      case MatrixMarketSymmetry::symmetric:
      case MatrixMarketSymmetry::hermitian: info.num_stored_entries = n * (n + 1) / 2; break;
      case MatrixMarketSymmetry::skew_symmetric:
        info.num_stored_entries = n > 0 ? n * (n - 1) / 2 : 0;
        break;
    }
  }
  require_room_for_declared_entries(in, info);
  return info;
}

// ---------------------------------------------------------------------------------------------
// Entries. The loops below walk whole blocks of lines (LineReader::next_chunk) and parse in
// place; a line's end is found only when a message needs to quote it.

/// Throws for a value that parsed as nan or inf: such values would only poison the solve much
/// later, far from the line that holds them.
template <class Fail>
[[noreturn]] void fail_non_finite(const char* token, const char* token_end, const char* part,
                                  const Fail& fail) {
  fail(std::string("non-finite value ") + quoted(token, token_end) + part +
       "; Kelp reads only finite numbers (nan and inf are not allowed)");
  std::abort();  // not reached: fail throws
}

/// Reads the value(s) of one entry at p, shared by the coordinate and the array parser.
/// `fail(what)` throws with the entry's position prefixed.
template <MatrixMarketField Field, class Fail>
inline void parse_values(const char*& p, const char* end, double& real, double& imag,
                         const Fail& fail) {
  real = 1.0;
  imag = 0.0;
  if constexpr (Field != MatrixMarketField::pattern) {
    p = skip_blanks(p);
    if (at_line_end(p)) fail(std::string("missing value (field is ") + to_string(Field) + ")");
    if constexpr (Field == MatrixMarketField::integer) {
      std::int64_t integer = 0;
      const char* token = p;
      if (!parse_integer(p, integer)) {
        fail("expected an integer value (field is integer), found " +
             quoted(p, token_end(p)));
      }
      // Beyond 2^53 a double holds only every second integer (or fewer): the value would change.
      constexpr std::int64_t exact = std::int64_t(1) << 53;
      if (integer > exact || integer < -exact) {
        fail("integer value " + quoted(token, p) +
             " is beyond 2^53 = 9007199254740992, where double no longer holds every integer");
      }
      real = static_cast<double>(integer);
    } else {
      constexpr const char* real_part = Field == MatrixMarketField::complex ? " (real part)" : "";
      const char* token = p;
      const RealToken parsed = parse_real(p, end, real);
      if (parsed == RealToken::out_of_range) fail(out_of_range_reason(token, token_end(p)) + real_part);
      if (parsed == RealToken::malformed) {
        fail(std::string("expected a real number") + real_part + ", found " +
             quoted(p, token_end(p)));
      }
      if (!std::isfinite(real)) fail_non_finite(token, p, real_part, fail);
      if constexpr (Field == MatrixMarketField::complex) {
        p = skip_blanks(p);
        if (at_line_end(p)) {
          fail("missing imaginary part (field is complex: expected 'real imag')");
        }
        token = p;
        const RealToken parsed_imag = parse_real(p, end, imag);
        if (parsed_imag == RealToken::out_of_range) {
          fail(out_of_range_reason(token, token_end(p)) + " (imaginary part)");
        }
        if (parsed_imag == RealToken::malformed) {
          fail("expected a real number (imaginary part), found " + quoted(p, token_end(p)));
        }
        if (!std::isfinite(imag)) fail_non_finite(token, p, " (imaginary part)", fail);
      }
    }
  }
}

constexpr const char* entry_layout(MatrixMarketField field) {
  switch (field) {
    case MatrixMarketField::pattern: return "'row column'";
    case MatrixMarketField::complex: return "'row column real imag'";
    default: return "'row column value'";
  }
}

/// Moves p from the start of a line past blank lines and comment lines, counting them in
/// `line`; returns false when the chunk ends first. On true, p is at the first token.
inline bool skip_to_data(const char*& p, const char* end, std::int64_t& line) {
  while (p < end) {
    p = skip_blanks(p);  // stops at the '\n' that ends the chunk at the latest
    if (*p == '\n') {
      ++p;
      ++line;
      continue;
    }
    if (*p != '%') return true;
    p = line_end(p, end) + 1;
    ++line;
  }
  return false;
}

/// Parses one coordinate entry at p (at its first token) up to its line's '\n' and checks it
/// against the size line and the symmetry (shared by the serial reader and the piece parser of
/// the distributed one). `fail(what)` throws with the entry's position prefixed.
template <MatrixMarketField Field, class Fail>
inline void parse_coordinate_entry(const char*& p, const char* end, const MatrixMarketInfo& info,
                                   const Fail& fail, std::int64_t& row, std::int64_t& col,
                                   double& real, double& imag) {
  const MatrixMarketSymmetry symmetry = info.symmetry;
  const std::int64_t num_rows = info.num_rows;
  const std::int64_t num_cols = info.num_cols;
  if (!parse_integer(p, row)) {
    fail("expected a row index (integer), found " + quoted(p, token_end(p)));
  }
  p = skip_blanks(p);
  if (at_line_end(p)) fail("missing column index");
  if (!parse_integer(p, col)) {
    fail("expected a column index (integer), found " + quoted(p, token_end(p)));
  }
  parse_values<Field>(p, end, real, imag, fail);
  p = skip_blanks(p);
  if (!at_line_end(p)) {
    fail("unexpected text " + quoted(p, line_end(p, end)) + " after the entry (a " +
         to_string(Field) + " entry is " + entry_layout(Field) + ")");
  }

  if (row < 1 || row > num_rows) {
    fail("row index " + std::to_string(row) + " out of range [1, " +
         std::to_string(num_rows) + "] (Matrix Market indices are 1-based)");
  }
  if (col < 1 || col > num_cols) {
    fail("column index " + std::to_string(col) + " out of range [1, " +
         std::to_string(num_cols) + "] (Matrix Market indices are 1-based)");
  }
  if (symmetry != MatrixMarketSymmetry::general) {
    if (col > row) {
      fail("(" + std::to_string(row) + ", " + std::to_string(col) +
           ") lies above the diagonal; a " + to_string(symmetry) +
           " file stores only the lower triangle (row >= column)");
    }
    if (symmetry == MatrixMarketSymmetry::skew_symmetric && col == row) {
      fail("diagonal entry (" + std::to_string(row) + ", " + std::to_string(col) +
           ") in a skew-symmetric file; its diagonal is zero and must not be stored");
    }
    if (symmetry == MatrixMarketSymmetry::hermitian && col == row && imag != 0.0) {
      std::ostringstream value;
      value.precision(17);
      value << imag;
      fail("diagonal entry (" + std::to_string(row) + ", " + std::to_string(col) +
           ") has imaginary part " + value.str() + "; a hermitian matrix has a real diagonal");
    }
  }
}

template <MatrixMarketField Field>
void parse_coordinate(LineReader& in, MatrixMarketCoo& coo) {
  const MatrixMarketInfo& info = coo.info;
  const std::int64_t declared = info.num_stored_entries;
  constexpr bool is_complex_field = Field == MatrixMarketField::complex;

  // Trust the size line only as far as the file could hold it (>= 1 byte on disk per entry), so
  // that a bogus count does not allocate terabytes before the truncation is noticed.
  const std::int64_t plausible = std::max<std::int64_t>(std::int64_t(1) << 16, in.bytes_on_disk());
  const auto reserve = static_cast<std::size_t>(std::min(declared, plausible));
  coo.rows.reserve(reserve);
  coo.cols.reserve(reserve);
  coo.real_values.reserve(reserve);
  if (is_complex_field) coo.imag_values.reserve(reserve);

  std::int64_t line = in.line();  // lines before the current one
  std::int64_t count = 0;
  const auto fail = [&](const std::string& what) {
    in.fail(line + 1, "entry " + std::to_string(count) + ": " + what);
  };
  const char* chunk_begin;
  const char* end;
  while (in.next_chunk(chunk_begin, end)) {
    const char* p = chunk_begin;
    while (skip_to_data(p, end, line)) {
      if (count == declared) {
        in.fail(line + 1, "more entries than the " + std::to_string(declared) +
                              " declared on the size line (line " +
                              std::to_string(info.size_line) + ")");
      }
      ++count;

      std::int64_t row = 0, col = 0;
      double real, imag;
      parse_coordinate_entry<Field>(p, end, info, fail, row, col, real, imag);
      coo.rows.push_back(row - 1);
      coo.cols.push_back(col - 1);
      coo.real_values.push_back(real);
      if constexpr (is_complex_field) coo.imag_values.push_back(imag);

      ++line;
      ++p;  // past the '\n'
    }
  }
  if (count < declared) {
    in.fail(line, "the file ends after " + std::to_string(count) + " of the " +
                      std::to_string(declared) + " entries declared on the size line (line " +
                      std::to_string(info.size_line) + "); truncated file?");
  }
}

/// Appends the mirror image of every stored off-diagonal entry (full storage).
void expand_symmetric(MatrixMarketCoo& coo) {
  const MatrixMarketSymmetry symmetry = coo.info.symmetry;
  if (symmetry == MatrixMarketSymmetry::general) return;
  const bool has_imag = !coo.imag_values.empty();
  const std::size_t stored = coo.rows.size();
  std::size_t off_diagonal = 0;
  for (std::size_t k = 0; k < stored; ++k) off_diagonal += coo.rows[k] != coo.cols[k] ? 1 : 0;
  const std::size_t total = stored + off_diagonal;
  coo.rows.resize(total);
  coo.cols.resize(total);
  coo.real_values.resize(total);
  if (has_imag) coo.imag_values.resize(total);
  // a_ji = a_ij (symmetric), -a_ij (skew-symmetric), conj(a_ij) (hermitian)
  const double real_sign = symmetry == MatrixMarketSymmetry::skew_symmetric ? -1.0 : 1.0;
  const double imag_sign = symmetry == MatrixMarketSymmetry::symmetric ? 1.0 : -1.0;
  std::size_t out = stored;
  for (std::size_t k = 0; k < stored; ++k) {
    if (coo.rows[k] == coo.cols[k]) continue;
    coo.rows[out] = coo.cols[k];
    coo.cols[out] = coo.rows[k];
    coo.real_values[out] = real_sign * coo.real_values[k];
    if (has_imag) coo.imag_values[out] = imag_sign * coo.imag_values[k];
    ++out;
  }
}

/// Reads the values of an array file in file order (column-major, lower triangle for the
/// symmetric kinds) and expands them into the full column-major array.
template <MatrixMarketField Field>
void parse_array(LineReader& in, MatrixMarketArray& array) {
  const MatrixMarketInfo& info = array.info;
  const MatrixMarketSymmetry symmetry = info.symmetry;
  const std::int64_t declared = info.num_stored_entries;
  const std::int64_t num_rows = info.num_rows;
  constexpr bool is_complex_field = Field == MatrixMarketField::complex;
  const auto first_row = [symmetry](std::int64_t col) -> std::int64_t {
    if (symmetry == MatrixMarketSymmetry::general) return 0;
    return symmetry == MatrixMarketSymmetry::skew_symmetric ? col + 1 : col;
  };

  // Values are collected in file order first, so that a bogus size line fails as a truncated
  // file instead of allocating rows * cols up front.
  std::vector<double> stored_real, stored_imag;
  const std::int64_t plausible = std::max<std::int64_t>(std::int64_t(1) << 16, in.bytes_on_disk());
  stored_real.reserve(static_cast<std::size_t>(std::min(declared, plausible)));
  if (is_complex_field) stored_imag.reserve(stored_real.capacity());

  std::int64_t line = in.line();  // lines before the current one
  std::int64_t count = 0;
  std::int64_t row = first_row(0), col = 0;  // 0-based position of the next value
  const auto fail = [&](const std::string& what) {
    in.fail(line + 1, "value " + std::to_string(count) + " (row " + std::to_string(row + 1) +
                          ", column " + std::to_string(col + 1) + "): " + what);
  };
  const char* chunk_begin;
  const char* end;
  while (in.next_chunk(chunk_begin, end)) {
    const char* p = chunk_begin;
    while (skip_to_data(p, end, line)) {
      if (count == declared) {
        in.fail(line + 1, "more values than the " + std::to_string(declared) +
                              " the size line (line " + std::to_string(info.size_line) +
                              ") declares for a " + to_string(symmetry) + " " +
                              std::to_string(info.num_rows) + " x " +
                              std::to_string(info.num_cols) + " array");
      }
      ++count;
      double real, imag;
      parse_values<Field>(p, end, real, imag, fail);
      p = skip_blanks(p);
      if (!at_line_end(p)) {
        fail("unexpected text " + quoted(p, line_end(p, end)) +
             " after the value (an array file has one value per line" +
             (is_complex_field ? ": 'real imag')" : ")"));
      }
      if (symmetry == MatrixMarketSymmetry::hermitian && row == col && imag != 0.0) {
        fail("diagonal value has a nonzero imaginary part; a hermitian matrix has a real "
             "diagonal");
      }
      stored_real.push_back(real);
      if constexpr (is_complex_field) stored_imag.push_back(imag);
      if (++row == num_rows) {
        ++col;
        row = first_row(col);
      }
      ++line;
      ++p;  // past the '\n'
    }
  }
  if (count < declared) {
    in.fail(line, "the file ends after " + std::to_string(count) + " of the " +
                      std::to_string(declared) + " values declared by the size line (line " +
                      std::to_string(info.size_line) + "); truncated file?");
  }

  if (symmetry == MatrixMarketSymmetry::general) {  // file order is already column-major
    array.real_values = std::move(stored_real);
    array.imag_values = std::move(stored_imag);
    return;
  }
  const std::size_t n = static_cast<std::size_t>(num_rows);
  array.real_values.assign(n * n, 0.0);
  if (is_complex_field) array.imag_values.assign(n * n, 0.0);
  const double real_sign = symmetry == MatrixMarketSymmetry::skew_symmetric ? -1.0 : 1.0;
  const double imag_sign = symmetry == MatrixMarketSymmetry::symmetric ? 1.0 : -1.0;
  std::size_t k = 0;
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = static_cast<std::size_t>(first_row(std::int64_t(j))); i < n; ++i, ++k) {
      array.real_values[i + j * n] = stored_real[k];
      array.real_values[j + i * n] = i == j ? stored_real[k] : real_sign * stored_real[k];
      if constexpr (is_complex_field) {
        array.imag_values[i + j * n] = stored_imag[k];
        array.imag_values[j + i * n] = i == j ? stored_imag[k] : imag_sign * stored_imag[k];
      }
    }
  }
}

template <class Parse>
void dispatch_field(MatrixMarketField field, const Parse& parse) {
  switch (field) {
    case MatrixMarketField::real:
      parse(std::integral_constant<MatrixMarketField, MatrixMarketField::real>());
      break;
    case MatrixMarketField::integer:
      parse(std::integral_constant<MatrixMarketField, MatrixMarketField::integer>());
      break;
    case MatrixMarketField::complex:
      parse(std::integral_constant<MatrixMarketField, MatrixMarketField::complex>());
      break;
    case MatrixMarketField::pattern:
      parse(std::integral_constant<MatrixMarketField, MatrixMarketField::pattern>());
      break;
  }
}

MatrixMarketArray parse_array_file(LineReader& in, const MatrixMarketInfo& info) {
  MatrixMarketArray array;
  array.info = info;
  dispatch_field(info.field, [&](auto field) { parse_array<decltype(field)::value>(in, array); });
  return array;
}

MatrixMarketCoo parse_coordinate_file(LineReader& in, const MatrixMarketInfo& info) {
  MatrixMarketCoo coo;
  coo.info = info;
  dispatch_field(info.field,
                 [&](auto field) { parse_coordinate<decltype(field)::value>(in, coo); });
  expand_symmetric(coo);
  return coo;
}

/// Physical memory of this machine in bytes; -1 when unknown.
std::int64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return -1;
  return static_cast<std::int64_t>(pages) * static_cast<std::int64_t>(page_size);
}

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  return text;
}

std::string declared_matrix(const MatrixMarketInfo& info) {
  std::string text = "a " + std::to_string(info.num_rows) + " x " + std::to_string(info.num_cols) +
                     " matrix";
  if (info.format == MatrixMarketFormat::coordinate) {
    text += " with " + std::to_string(info.num_stored_entries) +
            (info.num_stored_entries == 1 ? " entry" : " entries");
  }
  return text;
}

[[noreturn]] void fail_not_supported(const LineReader& in, std::int64_t line,
                                     const std::string& what, const char* function) {
  throw NotSupported(in.path() + ":" + std::to_string(line) + ": " + what, function, __FILE__,
                     __LINE__);
}

/// Checks the size line against what the caller can hold (index types, memory for the rows),
/// before anything is sized by it.
void require_capacity(const LineReader& in, const MatrixMarketInfo& info,
                      const impl::MatrixMarketCapacity& capacity) {
  const std::string declares = "the size line declares " + declared_matrix(info);
  if (info.num_rows > capacity.max_dimension || info.num_cols > capacity.max_dimension) {
    fail_not_supported(in, info.size_line,
                       declares + "; the " + std::to_string(capacity.ordinal_bits) +
                           "-bit Ordinal indexes at most " +
                           std::to_string(capacity.max_dimension) +
                           " rows and columns; read it with a 64-bit Ordinal",
                       capacity.function);
  }
  if (info.num_stored_entries > capacity.max_entries) {
    fail_not_supported(in, info.size_line,
                       declares + "; the " + std::to_string(capacity.offset_bits) +
                           "-bit Offset counts at most " + std::to_string(capacity.max_entries) +
                           " entries; read it with a 64-bit Offset",
                       capacity.function);
  }
  const std::int64_t memory = physical_memory_bytes();
  if (capacity.bytes_per_row > 0 && memory > 0 &&
      info.num_rows >= memory / capacity.bytes_per_row) {
    const double needed = (static_cast<double>(info.num_rows) + 1) * capacity.bytes_per_row;
    fail_not_supported(in, info.size_line,
                       declares + ": its row map alone needs " + gigabytes(needed) +
                           " of memory, more than the " + gigabytes(double(memory)) +
                           " of this machine; wrong size line?",
                       capacity.function);
  }
}

/// Runs `read` and turns running out of memory into an error that names the file and what its
/// size line asked for.
template <class Read>
auto reporting_out_of_memory(const LineReader& in, const MatrixMarketInfo& info,
                             const char* function, const Read& read) {
  try {
    return read();
  } catch (const std::bad_alloc&) {
    fail_not_supported(in, info.size_line,
                       "out of memory while reading " + declared_matrix(info) +
                           " (as the size line declares)",
                       function);
  }
}

}  // namespace

MatrixMarketInfo read_matrix_market_info(const std::string& path) {
  LineReader in(path, "kelp::io::read_matrix_market_info");
  return parse_header(in);
}

MatrixMarketCoo read_matrix_market_coo(const std::string& path) {
  return impl::read_matrix_market_coo(path, impl::MatrixMarketCapacity{});
}

namespace impl {

MatrixMarketCoo read_matrix_market_coo(const std::string& path,
                                       const MatrixMarketCapacity& capacity) {
  LineReader in(path, capacity.function);
  const MatrixMarketInfo info = parse_header(in);
  require_capacity(in, info, capacity);
  return reporting_out_of_memory(in, info, capacity.function, [&] {
    if (info.format == MatrixMarketFormat::coordinate) return parse_coordinate_file(in, info);

    MatrixMarketArray array = parse_array_file(in, info);
    MatrixMarketCoo coo;
    coo.info = info;
    const std::size_t num_rows = static_cast<std::size_t>(info.num_rows);
    const std::size_t num_cols = static_cast<std::size_t>(info.num_cols);
    coo.rows.resize(num_rows * num_cols);
    coo.cols.resize(num_rows * num_cols);
    for (std::size_t j = 0; j < num_cols; ++j) {
      for (std::size_t i = 0; i < num_rows; ++i) {
        coo.rows[i + j * num_rows] = static_cast<std::int64_t>(i);
        coo.cols[i + j * num_rows] = static_cast<std::int64_t>(j);
      }
    }
    coo.real_values = std::move(array.real_values);
    coo.imag_values = std::move(array.imag_values);
    return coo;
  });
}

namespace {

/// Thrown by the piece parser's fail(): carries "what" to the catch that records it.
struct PieceError {
  std::string what;
};

template <MatrixMarketField Field>
void parse_piece(const char* text, std::size_t size, std::int64_t max_entries,
                 MatrixMarketPiece& piece, const MatrixMarketInfo& info) {
  constexpr bool is_complex_field = Field == MatrixMarketField::complex;
  std::int64_t line = 0;  // lines before the current one
  std::int64_t count = 0;
  const auto fail = [&](const std::string& what) { throw PieceError{what}; };
  const char* p = text;
  const char* end = text + size;
  try {
    while (skip_to_data(p, end, line)) {
      if (count == max_entries) {
        piece.limit_line = line + 1;
        break;
      }
      ++count;
      std::int64_t row = 0, col = 0;
      double real, imag;
      parse_coordinate_entry<Field>(p, end, info, fail, row, col, real, imag);
      piece.rows.push_back(row - 1);
      piece.cols.push_back(col - 1);
      piece.real_values.push_back(real);
      if constexpr (is_complex_field) piece.imag_values.push_back(imag);
      ++line;
      ++p;  // past the '\n'
    }
  } catch (const PieceError& error) {
    piece.failed = true;
    piece.error_line = line + 1;
    piece.error_entry = count;
    piece.error = error.what;
  }
  piece.num_lines = line;
}

}  // namespace

MatrixMarketPiece parse_matrix_market_piece(const char* text, std::size_t size,
                                            const MatrixMarketInfo& info,
                                            std::int64_t max_entries) {
  KELP_REQUIRE(info.format == MatrixMarketFormat::coordinate, InvalidArgument,
               "kelp::io::impl::parse_matrix_market_piece: only coordinate files are split");
  KELP_REQUIRE(size == 0 || text[size - 1] == '\n', InvalidArgument,
               "kelp::io::impl::parse_matrix_market_piece: a piece must end with a line break");
  MatrixMarketPiece piece;
  // Real files take ~20-40 bytes per entry; the vectors grow past this if needed.
  const std::size_t reserve = size / 16;
  piece.rows.reserve(reserve);
  piece.cols.reserve(reserve);
  piece.real_values.reserve(reserve);
  if (info.field == MatrixMarketField::complex) piece.imag_values.reserve(reserve);
  dispatch_field(info.field, [&](auto field) {
    parse_piece<decltype(field)::value>(text, size, max_entries, piece, info);
  });
  return piece;
}

}  // namespace impl

MatrixMarketArray read_matrix_market_array(const std::string& path) {
  constexpr const char* function = "kelp::io::read_dense_matrix_market";
  LineReader in(path, function);
  const MatrixMarketInfo info = parse_header(in);
  if (info.format == MatrixMarketFormat::array) {
    return reporting_out_of_memory(in, info, function, [&] { return parse_array_file(in, info); });
  }

  if (info.num_cols != 0 && info.num_rows > (std::int64_t(1) << 62) / info.num_cols) {
    in.fail(info.size_line, "a dense " + std::to_string(info.num_rows) + " x " +
                                std::to_string(info.num_cols) + " array is too large");
  }
  const std::int64_t memory = physical_memory_bytes();
  const double dense_bytes = static_cast<double>(info.num_rows) * static_cast<double>(info.num_cols) *
                             (info.field == MatrixMarketField::complex ? 16.0 : 8.0);
  if (memory > 0 && dense_bytes > static_cast<double>(memory)) {
    fail_not_supported(in, info.size_line,
                       "the size line declares " + declared_matrix(info) + ": as a dense array it needs " +
                           gigabytes(dense_bytes) + " of memory, more than the " +
                           gigabytes(double(memory)) + " of this machine",
                       function);
  }
  return reporting_out_of_memory(in, info, function, [&] {
    MatrixMarketCoo coo = parse_coordinate_file(in, info);
    MatrixMarketArray array;
    array.info = info;
    const std::size_t num_rows = static_cast<std::size_t>(info.num_rows);
    const std::size_t size = num_rows * static_cast<std::size_t>(info.num_cols);
    array.real_values.assign(size, 0.0);
    if (!coo.imag_values.empty()) array.imag_values.assign(size, 0.0);
    for (std::size_t k = 0; k < coo.rows.size(); ++k) {
      const std::size_t position = static_cast<std::size_t>(coo.rows[k]) +
                                   static_cast<std::size_t>(coo.cols[k]) * num_rows;
      if (info.field == MatrixMarketField::pattern) {  // a pattern entry is 1, listed once or twice
        array.real_values[position] = 1.0;
        continue;
      }
      array.real_values[position] += coo.real_values[k];
      if (!coo.imag_values.empty()) array.imag_values[position] += coo.imag_values[k];
    }
    return array;
  });
}

// ---------------------------------------------------------------------------------------------
// Writer

namespace impl {

struct MatrixMarketSink::State {
  std::string path;
  std::string temporary_path;
  const char* function;
  gzFile file = nullptr;
  bool committed = false;

  [[noreturn]] void fail(const std::string& what) const {
    throw FileError(path + ": " + what, function, __FILE__, __LINE__);
  }
};

namespace {

constexpr std::size_t sink_buffer_size = std::size_t(1) << 20;
constexpr std::size_t max_line_size = 128;  // two 64-bit integers and two doubles, with blanks

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

inline char* put_integer(char* p, std::int64_t value) {
  return std::to_chars(p, p + 24, value).ptr;
}

inline char* put_real(char* p, double value) {
  // Shortest representation that reads back to exactly `value` (C++17 to_chars guarantee).
  return std::to_chars(p, p + 32, value).ptr;
}

std::atomic<unsigned> temporary_counter{0};

}  // namespace

MatrixMarketSink::MatrixMarketSink(const std::string& path, const char* function)
    : state_(std::make_unique<State>()), buffer_(sink_buffer_size) {
  state_->path = path;
  state_->function = function;
  const std::size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.empty()) state_->fail("not a file name (ends with '/')");

  // A fresh hidden name in the target's folder, so that the final rename cannot cross file
  // systems. O_EXCL: never reuse a file someone else has created.
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    state_->temporary_path = folder + "." + name + ".tmp-" + std::to_string(::getpid()) + "-" +
                             std::to_string(temporary_counter.fetch_add(1));
    fd = ::open(state_->temporary_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    const int error = errno;
    state_->fail("cannot create the temporary file '" + state_->temporary_path +
                 "': " + std::strerror(error));
  }
  state_->file = gzdopen(fd, ends_with(path, ".gz") ? "wb" : "wbT");
  if (state_->file == nullptr) {
    ::close(fd);
    ::unlink(state_->temporary_path.c_str());
    state_->fail("cannot start writing (out of memory in zlib)");
  }
}

MatrixMarketSink::~MatrixMarketSink() {
  if (state_ && !state_->committed) {
    if (state_->file != nullptr) gzclose(state_->file);
    ::unlink(state_->temporary_path.c_str());
  }
}

void MatrixMarketSink::flush() {
  if (used_ == 0) return;
  const int written = gzwrite(state_->file, buffer_.data(), static_cast<unsigned>(used_));
  if (written <= 0 || static_cast<std::size_t>(written) != used_) {
    int code = Z_OK;
    const char* message = gzerror(state_->file, &code);
    state_->fail(std::string("write error: ") +
                 (code == Z_ERRNO ? std::strerror(errno) : message));
  }
  used_ = 0;
}

void MatrixMarketSink::reserve_line() {
  if (buffer_.size() - used_ < max_line_size) flush();
}

void MatrixMarketSink::write_header(MatrixMarketFormat format, MatrixMarketField field,
                                    MatrixMarketSymmetry symmetry, const std::string& comment,
                                    std::int64_t num_rows, std::int64_t num_cols,
                                    std::int64_t num_entries) {
  std::string text = std::string("%%MatrixMarket matrix ") + to_string(format) + " " +
                     to_string(field) + " " + to_string(symmetry) + "\n";
  std::size_t start = 0;
  while (!comment.empty() && start <= comment.size()) {
    const std::size_t newline = std::min(comment.find('\n', start), comment.size());
    text += "%" + comment.substr(start, newline - start) + "\n";
    start = newline + 1;
  }
  text += std::to_string(num_rows) + " " + std::to_string(num_cols);
  if (num_entries >= 0) text += " " + std::to_string(num_entries);
  text += "\n";
  flush();
  const int written = gzwrite(state_->file, text.data(), static_cast<unsigned>(text.size()));
  if (written <= 0) state_->fail("write error while writing the header");
}

void MatrixMarketSink::write_entry(std::int64_t row, std::int64_t col, double value) {
  reserve_line();
  char* p = buffer_.data() + used_;
  p = put_integer(p, row);
  *p++ = ' ';
  p = put_integer(p, col);
  *p++ = ' ';
  p = put_real(p, value);
  *p++ = '\n';
  used_ = static_cast<std::size_t>(p - buffer_.data());
}

void MatrixMarketSink::write_entry(std::int64_t row, std::int64_t col, double real, double imag) {
  reserve_line();
  char* p = buffer_.data() + used_;
  p = put_integer(p, row);
  *p++ = ' ';
  p = put_integer(p, col);
  *p++ = ' ';
  p = put_real(p, real);
  *p++ = ' ';
  p = put_real(p, imag);
  *p++ = '\n';
  used_ = static_cast<std::size_t>(p - buffer_.data());
}

void MatrixMarketSink::write_value(double value) {
  reserve_line();
  char* p = buffer_.data() + used_;
  p = put_real(p, value);
  *p++ = '\n';
  used_ = static_cast<std::size_t>(p - buffer_.data());
}

void MatrixMarketSink::write_value(double real, double imag) {
  reserve_line();
  char* p = buffer_.data() + used_;
  p = put_real(p, real);
  *p++ = ' ';
  p = put_real(p, imag);
  *p++ = '\n';
  used_ = static_cast<std::size_t>(p - buffer_.data());
}

void MatrixMarketSink::commit() {
  flush();
  const int status = gzclose(state_->file);
  state_->file = nullptr;
  if (status != Z_OK) {
    state_->fail(std::string("write error while closing the temporary file '") +
                 state_->temporary_path + "'" +
                 (status == Z_ERRNO ? std::string(": ") + std::strerror(errno) : std::string()));
  }
  // Make the data durable before the rename publishes it.
  const int fd = ::open(state_->temporary_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  if (std::rename(state_->temporary_path.c_str(), state_->path.c_str()) != 0) {
    const int error = errno;
    state_->fail("cannot rename the temporary file '" + state_->temporary_path +
                 "' onto the target: " + std::strerror(error));
  }
  state_->committed = true;
}

}  // namespace impl
}  // namespace kelp::io
