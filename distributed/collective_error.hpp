#pragma once
/// Errors that stop every rank of a communicator together, with the same exception type and
/// message, instead of one rank throwing while the others wait in the next collective.
///
/// Pattern: do the local work that may throw inside collective_try; it catches the error and all
/// ranks agree (one MPI_Allreduce of the lowest failing rank, then one broadcast of that rank's
/// error). Every rank then throws the lowest failing rank's error, its message prefixed with
/// "rank r: ". Every rank must call it (it is a collective); the body must not itself call
/// collectives that a failing rank could skip.
///
/// Example:
///   dist::collective_try(comm, "kelp::dist::read_matrix_market", [&] { open_my_piece(path); });
///   dist::require_all(comm, ok, InvalidArgument, "kelp::dist::f", "partition has " << n << " ranks");
///
/// Values that must agree across ranks (global sizes, partitions) go through
/// require_same_on_all_ranks (long lists: compare their fingerprint).

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <limits>
#include <new>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kelp/kernels/core/error.hpp"

namespace kelp::dist {

namespace impl {

/// Which kelp error type crosses the communicator (the exception object itself cannot).
enum class ErrorKind : int {
  error = 0,
  invalid_argument,
  dimension_mismatch,
  invalid_state,
  config_error,
  not_supported,
  numerical_error,
  file_error
};

inline ErrorKind kind_of(const std::exception& e) {
  if (dynamic_cast<const InvalidArgument*>(&e)) return ErrorKind::invalid_argument;
  if (dynamic_cast<const DimensionMismatch*>(&e)) return ErrorKind::dimension_mismatch;
  if (dynamic_cast<const InvalidState*>(&e)) return ErrorKind::invalid_state;
  if (dynamic_cast<const ConfigError*>(&e)) return ErrorKind::config_error;
  if (dynamic_cast<const NotSupported*>(&e)) return ErrorKind::not_supported;
  if (dynamic_cast<const NumericalError*>(&e)) return ErrorKind::numerical_error;
  if (dynamic_cast<const FileError*>(&e)) return ErrorKind::file_error;
  if (dynamic_cast<const std::bad_alloc*>(&e)) return ErrorKind::not_supported;
  return ErrorKind::error;
}

[[noreturn]] inline void throw_kind(ErrorKind kind, const std::string& message, const char* function) {
  switch (kind) {
    case ErrorKind::invalid_argument: throw InvalidArgument(message, function, __FILE__, __LINE__);
    case ErrorKind::dimension_mismatch: throw DimensionMismatch(message, function, __FILE__, __LINE__);
    case ErrorKind::invalid_state: throw InvalidState(message, function, __FILE__, __LINE__);
    case ErrorKind::config_error: throw ConfigError(message, function, __FILE__, __LINE__);
    case ErrorKind::not_supported: throw NotSupported(message, function, __FILE__, __LINE__);
    case ErrorKind::numerical_error: throw NumericalError(message, function, __FILE__, __LINE__);
    case ErrorKind::file_error: throw FileError(message, function, __FILE__, __LINE__);
    case ErrorKind::error: break;
  }
  throw Error(message, function, __FILE__, __LINE__);
}

}  // namespace impl

/// The collective agreement behind collective_try and require_all: every rank passes whether it
/// failed (and, if so, its error kind and message); if any did, every rank throws the error of
/// the lowest failing rank, message "rank r: <message>". Costs one MPI_Allreduce of an int when
/// nobody failed, plus two broadcasts when someone did.
/// @param[in] function  named as the throwing function on every rank (a string literal)
inline void agree_on_error(MPI_Comm comm, bool failed, impl::ErrorKind kind, const std::string& message,
                           const char* function) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = failed ? rank : size;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  // kind and message length, then the message, from the lowest failing rank.
  long long header[2] = {static_cast<long long>(kind), static_cast<long long>(message.size())};
  MPI_Bcast(header, 2, MPI_LONG_LONG, first, comm);
  std::string text = rank == first ? message : std::string(static_cast<std::size_t>(header[1]), ' ');
  MPI_Bcast(text.data(), static_cast<int>(header[1]), MPI_CHAR, first, comm);
  impl::throw_kind(static_cast<impl::ErrorKind>(header[0]), "rank " + std::to_string(first) + ": " + text,
                   function);
}

/// Runs body() on every rank; if it throws on any rank (a kelp::Error, std::bad_alloc as
/// NotSupported, any other std::exception as kelp::Error), every rank throws the lowest failing
/// rank's error. Returns normally on all ranks only when no rank failed.
template <class Body>
void collective_try(MPI_Comm comm, const char* function, Body&& body) {
  bool failed = false;
  impl::ErrorKind kind = impl::ErrorKind::error;
  std::string message;
  try {
    std::forward<Body>(body)();
  } catch (const std::exception& e) {
    failed = true;
    kind = impl::kind_of(e);
    message = e.what();
  }
  agree_on_error(comm, failed, kind, message, function);
}

/// Throws InvalidArgument on every rank unless `ok` holds on every rank (STYLE's
/// dist::require_all); the message is the lowest failing rank's, "rank r: function: message".
inline void require_all(MPI_Comm comm, bool ok, const std::string& message,
                        const char* function = "kelp::dist") {
  agree_on_error(comm, !ok, impl::ErrorKind::invalid_argument,
                 ok ? std::string() : std::string(function) + ": " + message, function);
}

/// Throws Type on every rank unless `ok` holds on every rank; the message (a stream expression,
/// evaluated only on failing ranks) is the lowest failing rank's, prefixed "rank r: ".
#define KELP_DIST_REQUIRE_ALL(comm, ok, Type, function, message)                                 \
  do {                                                                                           \
    const bool kelp_dist_ok_ = static_cast<bool>(ok);                                            \
    std::string kelp_dist_message_;                                                              \
    if (!kelp_dist_ok_) {                                                                        \
      std::ostringstream kelp_dist_stream_;                                                      \
      kelp_dist_stream_ << function << ": " << message;                                          \
      kelp_dist_message_ = kelp_dist_stream_.str();                                              \
    }                                                                                            \
    ::kelp::dist::agree_on_error(comm, !kelp_dist_ok_, ::kelp::dist::impl::kind_of(::kelp::Type("")), \
                                 kelp_dist_message_, function);                                  \
  } while (false)

/// Collective: throws `kind` on every rank, naming `what` and the smallest and largest value,
/// unless all ranks pass the same values (compared element by element; all ranks must pass
/// the same number of values). One MPI_Allreduce of max(v) and max(-v).
inline void require_same_on_all_ranks(MPI_Comm comm, const std::vector<std::int64_t>& values,
                                      const std::string& what,
                                      impl::ErrorKind kind = impl::ErrorKind::invalid_argument) {
  const std::size_t n = values.size();
  std::vector<std::int64_t> both(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    both[i] = values[i];
    both[n + i] = values[i] == std::numeric_limits<std::int64_t>::min() ? std::numeric_limits<std::int64_t>::max()
                                                                        : -values[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, both.data(), static_cast<int>(2 * n), MPI_INT64_T, MPI_MAX, comm);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t largest = both[i], smallest = -both[n + i];
    if (largest != smallest) {
      impl::throw_kind(kind,
                       "kelp::dist: " + what + " differs across ranks (value " + std::to_string(i) +
                           " ranges from " + std::to_string(smallest) + " to " + std::to_string(largest) +
                           "); every rank must pass the same",
                       "kelp::dist::require_same_on_all_ranks");
    }
  }
}

/// A 63-bit fingerprint of a list of integers (for comparing long lists across ranks with one
/// value; FNV-1a over the bytes).
inline std::int64_t fingerprint(const std::vector<std::int64_t>& values) {
  std::uint64_t h = 1469598103934665603ull;
  for (const std::int64_t v : values) {
    const auto u = static_cast<std::uint64_t>(v);
    for (int b = 0; b < 8; ++b) {
      h ^= (u >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return static_cast<std::int64_t>(h >> 1);
}

}  // namespace kelp::dist
