#pragma once
/// Distributed Matrix Market read: every rank parses only its share of the file, and the entries
/// move to the owners of their rows.
///
///   1. Every rank reads the banner and the size line (kelp::io::read_matrix_market_info, so the
///      header checks and messages are the serial reader's) and agrees that the file exists and
///      reads alike everywhere.
///   2. The entry section is split into one byte range per rank, moved forward to line starts.
///      Plain files: each rank reads its own range (pread). Gzip files cannot be split (deflate
///      streams have no random access), so rank 0 decompresses the whole text and sends each
///      rank its range: rank 0 then holds the whole text once (the limit of that path).
///   3. Each rank parses its range with the serial reader's per-entry checks
///      (kelp::io::impl::parse_matrix_market_piece); a line count and an entry count per rank
///      (one MPI_Allgather) turn piece-local positions into the file's line and entry numbers.
///   4. Symmetric, skew-symmetric and hermitian storage is expanded where it is read; each entry
///      and each mirrored entry goes to the owner of ITS row (one MPI_Alltoallv).
///   5. Each rank sorts its rows by column and sums duplicates in file order (stored entries,
///      then mirrored ones, as the serial reader does), so its rows equal bitwise the same rows
///      of kelp::io::read_matrix_market.
///
/// Errors (missing or unreadable file on any rank, malformed entry, too many or too few entries,
/// index out of range, complex file read as real) are thrown on every rank alike, with the
/// serial reader's "path:line: entry N: what" text prefixed by the rank that found it.
///
/// Example:
///   auto A = kelp::dist::read_matrix_market<double>("bcsstk14.mtx.gz", MPI_COMM_WORLD);
///   // A.rows.begin(rank) .. A.rows.end(rank): this rank's rows, global column indices

#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kelp/distributed/collective_error.hpp"
#include "kelp/distributed/exchange.hpp"
#include "kelp/distributed/local_rows.hpp"
#include "kelp/kernels/io/matrix_market.hpp"

namespace kelp::dist {

namespace impl {

constexpr const char* read_function = "kelp::dist::read_matrix_market";

/// An open plain file read with pread; closes on destruction.
class PlainFile {
 public:
  explicit PlainFile(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail("cannot open for reading: " + std::string(std::strerror(errno)));
    struct stat status {};
    if (::fstat(fd_, &status) != 0) fail("cannot stat: " + std::string(std::strerror(errno)));
    size_ = static_cast<std::int64_t>(status.st_size);
  }
  ~PlainFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  PlainFile(const PlainFile&) = delete;
  PlainFile& operator=(const PlainFile&) = delete;

  std::int64_t size() const { return size_; }

  /// Bytes [begin, end) of the file.
  std::string read(std::int64_t begin, std::int64_t end) const {
    std::string text(static_cast<std::size_t>(std::max<std::int64_t>(end - begin, 0)), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t got = ::pread(fd_, text.data() + done, text.size() - done, static_cast<off_t>(begin + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) fail("read error at byte " + std::to_string(begin + static_cast<std::int64_t>(done)));
      done += static_cast<std::size_t>(got);
    }
    return text;
  }

  /// The first line start at or after `position` (a position just after a '\n', or the end of
  /// the file); `floor` is the start of the entry section (a line start itself).
  std::int64_t line_start_at_or_after(std::int64_t position, std::int64_t floor) const {
    if (position <= floor) return floor;
    constexpr std::int64_t block = 1 << 16;
    for (std::int64_t at = position - 1; at < size_; at += block) {
      const std::string text = read(at, std::min(at + block, size_));
      const auto newline = text.find('\n');
      if (newline != std::string::npos) return at + static_cast<std::int64_t>(newline) + 1;
    }
    return size_;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw FileError(path_ + ": " + what, read_function, __FILE__, __LINE__);
  }
  std::string path_;
  int fd_ = -1;
  std::int64_t size_ = 0;
};

/// Byte offset just after line `lines` (1-based count of '\n') of `text`; npos if absent.
inline std::size_t after_lines(const std::string& text, std::int64_t lines) {
  std::size_t at = 0;
  for (std::int64_t k = 0; k < lines; ++k) {
    const std::size_t newline = text.find('\n', at);
    if (newline == std::string::npos) return std::string::npos;
    at = newline + 1;
  }
  return at;
}

/// Offset of the entry section of a plain file: the byte after its size line.
inline std::int64_t entry_section_begin(const PlainFile& file, std::int64_t size_line) {
  std::int64_t length = 1 << 16;
  for (;;) {
    const std::string head = file.read(0, std::min(length, file.size()));
    const std::size_t at = after_lines(head, size_line);
    if (at != std::string::npos) return static_cast<std::int64_t>(at);
    if (length >= file.size()) return file.size();  // the size line is the file's last line
    length *= 4;
  }
}

/// Whether the file starts with the gzip magic bytes.
inline bool is_gzip(const PlainFile& file) {
  if (file.size() < 2) return false;
  const std::string magic = file.read(0, 2);
  return static_cast<unsigned char>(magic[0]) == 0x1f && static_cast<unsigned char>(magic[1]) == 0x8b;
}

/// The whole decompressed text of a gzip file (rank 0's part of the gzip path).
inline std::string decompress(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) throw FileError(path + ": cannot open for reading", read_function, __FILE__, __LINE__);
  std::string text;
  std::vector<char> block(std::size_t(1) << 22);
  // zlib words its errors "PATH: what"; the message names the path once.
  const auto without_path = [&path](std::string reason) {
    if (reason.rfind(path + ": ", 0) == 0) reason.erase(0, path.size() + 2);
    return reason;
  };
  for (;;) {
    const int got = gzread(file, block.data(), static_cast<unsigned>(block.size()));
    if (got < 0) {
      int code = Z_OK;
      const std::string reason = without_path(gzerror(file, &code));
      gzclose(file);
      throw FileError(path + ": cannot decompress after " + std::to_string(text.size()) +
                          " bytes of text: " + reason + " (corrupt or truncated gzip file)",
                      read_function, __FILE__, __LINE__);
    }
    if (got == 0) {
      int code = Z_OK;
      const std::string reason = without_path(gzerror(file, &code));
      gzclose(file);
      if (code != Z_OK) {
        throw FileError(path + ": cannot decompress after " + std::to_string(text.size()) +
                            " bytes of text: " + reason + " (corrupt or truncated gzip file)",
                        read_function, __FILE__, __LINE__);
      }
      return text;
    }
    text.append(block.data(), static_cast<std::size_t>(got));
  }
}

/// Sends `text` from rank 0 to `to` (or receives it there) in messages of at most 1 GiB.
inline void send_text(MPI_Comm comm, std::string& text, int to) {
  constexpr std::int64_t chunk = std::int64_t(1) << 30;
  std::int64_t size = static_cast<std::int64_t>(text.size());
  const int rank = comm_rank(comm);
  if (rank == 0) {
    MPI_Send(&size, 1, MPI_INT64_T, to, 0, comm);
    for (std::int64_t at = 0; at < size; at += chunk) {
      MPI_Send(text.data() + at, static_cast<int>(std::min(chunk, size - at)), MPI_CHAR, to, 1, comm);
    }
  } else {
    MPI_Recv(&size, 1, MPI_INT64_T, 0, 0, comm, MPI_STATUS_IGNORE);
    text.assign(static_cast<std::size_t>(size), '\0');
    for (std::int64_t at = 0; at < size; at += chunk) {
      MPI_Recv(text.data() + at, static_cast<int>(std::min(chunk, size - at)), MPI_CHAR, 0, 1, comm,
               MPI_STATUS_IGNORE);
    }
  }
}

/// This rank's range of the entry section [begin, end) of a `length`-byte section: the p equal
/// byte ranges, each moved forward to the next line start by `line_start(position)`.
template <class LineStart>
std::pair<std::int64_t, std::int64_t> my_range(std::int64_t section_begin, std::int64_t section_end, int rank,
                                               int size, const LineStart& line_start) {
  const std::int64_t length = section_end - section_begin;
  const auto nominal = [&](int r) { return section_begin + length / size * r + std::min<std::int64_t>(r, length % size); };
  const std::int64_t begin = rank == 0 ? section_begin : line_start(nominal(rank));
  const std::int64_t end = rank == size - 1 ? section_end : line_start(nominal(rank + 1));
  return {begin, std::max(begin, end)};
}

/// The file's own line and entry numbers of every rank's piece, and the one error all ranks
/// throw (or none), decided from an MPI_Allgather of each piece's counts. Rank 0's piece starts
/// after line info.size_line.
inline void agree_on_entries(MPI_Comm comm, const std::string& path, const io::MatrixMarketInfo& info,
                             const io::impl::MatrixMarketPiece& piece, const std::string& text) {
  const int rank = comm_rank(comm), size = comm_size(comm);
  // lines, entries (the failing one included), failed, error line, error entry
  const std::int64_t mine[5] = {piece.num_lines,
                                static_cast<std::int64_t>(piece.rows.size()) + (piece.failed ? 1 : 0),
                                piece.failed ? 1 : 0, piece.error_line, piece.error_entry};
  std::vector<std::int64_t> all(5 * static_cast<std::size_t>(size));
  MPI_Allgather(mine, 5, MPI_INT64_T, all.data(), 5, MPI_INT64_T, comm);
  const auto at = [&](int r, int k) { return all[5 * static_cast<std::size_t>(r) + static_cast<std::size_t>(k)]; };

  // Lines and entries before each piece; exact up to the first failing rank (all before it
  // parsed their whole piece).
  std::vector<std::int64_t> lines_before(static_cast<std::size_t>(size) + 1, info.size_line);
  std::vector<std::int64_t> entries_before(static_cast<std::size_t>(size) + 1, 0);
  int first_failed = size;
  for (int r = 0; r < size; ++r) {
    lines_before[r + 1] = lines_before[r] + at(r, 0);
    entries_before[r + 1] = entries_before[r] + at(r, 1);
    if (first_failed == size && at(r, 2) != 0) first_failed = r;
  }
  const std::int64_t declared = info.num_stored_entries;
  // The serial reader stops at the first entry past the declared count, or at the first
  // malformed entry, whichever comes first in the file.
  const std::int64_t error_entry =
      first_failed < size ? entries_before[first_failed] + at(first_failed, 4) : -1;
  const std::int64_t total = entries_before[first_failed < size ? first_failed : size] +
                             (first_failed < size ? at(first_failed, 4) : 0);
  const bool excess = first_failed < size ? declared + 1 <= error_entry : total > declared;

  bool failed = false;
  std::string message;
  if (excess) {
    // The rank whose piece holds entry declared + 1 finds its line by parsing again up to it.
    int holder = 0;
    while (holder < size - 1 && entries_before[holder + 1] < declared + 1) ++holder;
    if (rank == holder) {
      const auto again = io::impl::parse_matrix_market_piece(text.data(), text.size(), info,
                                                             declared - entries_before[holder]);
      failed = true;
      message = path + ":" + std::to_string(lines_before[holder] + again.limit_line) +
                ": more entries than the " + std::to_string(declared) + " declared on the size line (line " +
                std::to_string(info.size_line) + ")";
    }
  } else if (first_failed < size) {
    if (rank == first_failed) {
      failed = true;
      message = path + ":" + std::to_string(lines_before[rank] + piece.error_line) + ": entry " +
                std::to_string(entries_before[rank] + piece.error_entry) + ": " + piece.error;
    }
  } else if (total < declared && rank == size - 1) {
    failed = true;
    message = path + ":" + std::to_string(lines_before[size]) + ": the file ends after " + std::to_string(total) +
              " of the " + std::to_string(declared) + " entries declared on the size line (line " +
              std::to_string(info.size_line) + "); truncated file?";
  }
  agree_on_error(comm, failed, ErrorKind::file_error, message, read_function);
}

}  // namespace impl

/// Reads a Matrix Market coordinate file (plain or gzip) distributed over `comm`: this rank's
/// rows under `rows` as LocalRows (global column indices, rows sorted by column, duplicates
/// summed, explicit zeros kept, symmetric kinds expanded, pattern entries 1 even when listed
/// twice), equal bitwise to the same rows of kelp::io::read_matrix_market<Scalar>.
///
/// Collective: every rank calls it with the same path and partitions.
/// @tparam Scalar  float, double or Kokkos::complex<double> (complex files need a complex Scalar)
/// @param[in] path  file name, the same file on every rank (a shared file system)
/// @param[in] comm  the ranks that share the matrix
/// @param[in] rows  ownership of the rows (rows.global_size() must equal the file's rows)
/// @param[in] cols  distribution of the columns (the domain); must cover the file's columns
/// Cost: each rank parses ~1/p of the text (plain files); rank 0 decompresses all of a gzip
/// file. Memory: the piece's text plus ~24-32 bytes per entry read and received.
/// @throws FileError (path:line: what) on every rank for a missing, unreadable or malformed
///         file; NotSupported for an array-format file; InvalidArgument for a complex file and
///         a real Scalar or partitions that do not match the file
template <class Scalar>
LocalRows<Scalar> read_matrix_market(const std::string& path, MPI_Comm comm, const RowPartition& rows,
                                     const RowPartition& cols) {
  using impl::read_function;
  const int rank = impl::comm_rank(comm), size = impl::comm_size(comm);

  // 1. Header, on every rank.
  io::MatrixMarketInfo info;
  bool gzip = false;
  std::int64_t section_begin = 0, file_size = 0;
  collective_try(comm, read_function, [&] {
    info = io::read_matrix_market_info(path);
    impl::PlainFile file(path);
    gzip = impl::is_gzip(file);
    file_size = file.size();
    if (!gzip) section_begin = impl::entry_section_begin(file, info.size_line);
  });
  // Everybody must have read the same header (one file on a shared file system).
  std::int64_t header[6] = {info.num_rows, info.num_cols, info.num_stored_entries,
                            static_cast<std::int64_t>(info.field), static_cast<std::int64_t>(info.symmetry),
                            file_size};
  std::int64_t root_header[6];
  std::copy(header, header + 6, root_header);
  MPI_Bcast(root_header, 6, MPI_INT64_T, 0, comm);
  KELP_DIST_REQUIRE_ALL(comm, std::equal(header, header + 6, root_header), FileError, read_function,
                        path << " differs from rank 0's file of the same name (size line "
                             << info.num_rows << " x " << info.num_cols << " with " << info.num_stored_entries
                             << " entries, " << file_size << " bytes; rank 0 has " << root_header[0] << " x "
                             << root_header[1] << " with " << root_header[2] << " entries, " << root_header[5]
                             << " bytes)");
  KELP_DIST_REQUIRE_ALL(comm, info.format == io::MatrixMarketFormat::coordinate, NotSupported, read_function,
                        path << " is an array (dense) file; the distributed reader reads coordinate files "
                             << "(read dense vectors with kelp::io::read_dense_matrix_market)");
  collective_try(comm, read_function, [&] { io::impl::require_field_fits<Scalar>(info, path, read_function); });
  KELP_DIST_REQUIRE_ALL(comm,
                        rows.num_ranks() == size && rows.global_size() == info.num_rows &&
                            cols.num_ranks() == size && cols.global_size() == info.num_cols,
                        InvalidArgument, read_function,
                        "the partitions cover " << rows.global_size() << " rows and " << cols.global_size()
                                                << " columns over " << rows.num_ranks() << " and "
                                                << cols.num_ranks() << " ranks; " << path << " is "
                                                << info.num_rows << " x " << info.num_cols << " on " << size
                                                << " ranks");

  // 2. This rank's piece of the entry section: whole lines, ending with '\n'.
  std::string text;
  if (!gzip) {
    collective_try(comm, read_function, [&] {
      impl::PlainFile file(path);
      const auto [begin, end] = impl::my_range(section_begin, file.size(), rank, size, [&](std::int64_t position) {
        return file.line_start_at_or_after(position, section_begin);
      });
      text = file.read(begin, end);
    });
  } else {
    std::string whole;
    collective_try(comm, read_function, [&] {
      if (rank == 0) whole = impl::decompress(path);
    });
    if (rank == 0) {
      const std::size_t after = impl::after_lines(whole, info.size_line);
      const std::int64_t begin_all = after == std::string::npos ? static_cast<std::int64_t>(whole.size())
                                                                : static_cast<std::int64_t>(after);
      const auto line_start = [&](std::int64_t position) -> std::int64_t {
        if (position <= begin_all) return begin_all;
        const std::size_t newline = whole.find('\n', static_cast<std::size_t>(position - 1));
        return newline == std::string::npos ? static_cast<std::int64_t>(whole.size())
                                            : static_cast<std::int64_t>(newline) + 1;
      };
      const std::int64_t end_all = static_cast<std::int64_t>(whole.size());
      for (int r = 1; r < size; ++r) {
        const auto [begin, end] = impl::my_range(begin_all, end_all, r, size, line_start);
        std::string piece = whole.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin));
        impl::send_text(comm, piece, r);
      }
      const auto [begin, end] = impl::my_range(begin_all, end_all, 0, size, line_start);
      text = whole.substr(static_cast<std::size_t>(begin), static_cast<std::size_t>(end - begin));
    } else {
      impl::send_text(comm, text, rank);
    }
  }
  if (!text.empty() && text.back() != '\n') text.push_back('\n');  // the last line's, as the serial reader

  // 3. Parse, and agree on the file's first error.
  io::impl::MatrixMarketPiece piece;
  collective_try(comm, read_function,
                 [&] { piece = io::impl::parse_matrix_market_piece(text.data(), text.size(), info); });
  impl::agree_on_entries(comm, path, info, piece, text);
  std::string().swap(text);

  // 4. Expand the symmetric kinds and send every entry to the owner of its row.
  using io::MatrixMarketSymmetry;
  const MatrixMarketSymmetry symmetry = info.symmetry;
  const bool has_imag = !piece.imag_values.empty();
  // a_ji = a_ij (symmetric), -a_ij (skew-symmetric), conj(a_ij) (hermitian), as the serial reader
  const double real_sign = symmetry == MatrixMarketSymmetry::skew_symmetric ? -1.0 : 1.0;
  const double imag_sign = symmetry == MatrixMarketSymmetry::symmetric ? 1.0 : -1.0;
  std::vector<impl::Triplet<Scalar>> triplets;
  triplets.reserve(piece.rows.size() * (symmetry == MatrixMarketSymmetry::general ? 1 : 2));
  collective_try(comm, read_function, [&] {  // a value one rank cannot hold stops every rank
    for (std::size_t k = 0; k < piece.rows.size(); ++k) {
      io::impl::require_value_fits<Scalar>(path, read_function, piece.rows[k], piece.cols[k],
                                           piece.real_values[k], has_imag ? piece.imag_values[k] : 0.0);
    }
  });
  for (std::size_t k = 0; k < piece.rows.size(); ++k) {
    triplets.push_back({piece.rows[k], piece.cols[k],
                        io::impl::make_scalar<Scalar>(piece.real_values[k], has_imag ? piece.imag_values[k] : 0.0)});
  }
  if (symmetry != MatrixMarketSymmetry::general) {
    for (std::size_t k = 0; k < piece.rows.size(); ++k) {
      if (piece.rows[k] == piece.cols[k]) continue;
      triplets.push_back({piece.cols[k], piece.rows[k],
                          io::impl::make_scalar<Scalar>(real_sign * piece.real_values[k],
                                                        has_imag ? imag_sign * piece.imag_values[k] : 0.0)});
    }
  }
  piece = io::impl::MatrixMarketPiece();
  const auto received = impl::send_to_row_owners(comm, rows, triplets);
  std::vector<impl::Triplet<Scalar>>().swap(triplets);

  // 5. Assemble this rank's rows; a pattern entry listed twice is still 1, as in the serial reader.
  LocalRows<Scalar> local = impl::assemble_local_rows(rows, cols, rank, received);
  if (info.field == io::MatrixMarketField::pattern) std::fill(local.values.begin(), local.values.end(), Scalar(1));
  return local;
}

/// read_matrix_market with rows balanced by count (RowPartition::balanced) and the columns
/// distributed like the rows (square files) or balanced over the columns (rectangular ones).
template <class Scalar>
LocalRows<Scalar> read_matrix_market(const std::string& path, MPI_Comm comm = MPI_COMM_WORLD) {
  io::MatrixMarketInfo info;
  collective_try(comm, impl::read_function, [&] { info = io::read_matrix_market_info(path); });
  const int size = impl::comm_size(comm);
  return read_matrix_market<Scalar>(path, comm, RowPartition::balanced(info.num_rows, size),
                                    RowPartition::balanced(info.num_cols, size));
}

/// read_matrix_market with the caller's row partition; columns distributed like the rows when
/// the file is square, balanced otherwise.
template <class Scalar>
LocalRows<Scalar> read_matrix_market(const std::string& path, MPI_Comm comm, const RowPartition& rows) {
  io::MatrixMarketInfo info;
  collective_try(comm, impl::read_function, [&] { info = io::read_matrix_market_info(path); });
  const int size = impl::comm_size(comm);
  const RowPartition cols =
      info.num_rows == info.num_cols ? rows : RowPartition::balanced(info.num_cols, size);
  return read_matrix_market<Scalar>(path, comm, rows, cols);
}

}  // namespace kelp::dist
