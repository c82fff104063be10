// Collective errors: see collective_check.hpp.
#include "kelp/distributed/collective_check.hpp"

#include <limits>

namespace kelp::dist {

namespace {
[[noreturn]] void throw_kind(ErrorKind kind, const std::string& message) {
  switch (kind) {
    case ErrorKind::invalid_argument:
      throw InvalidArgument(message);
    case ErrorKind::dimension_mismatch:
      throw DimensionMismatch(message);
    case ErrorKind::invalid_state:
      throw InvalidState(message);
    case ErrorKind::config_error:
      throw ConfigError(message);
    case ErrorKind::not_supported:
      throw NotSupported(message);
    case ErrorKind::numerical_error:
      throw NumericalError(message);
    case ErrorKind::file_error:
      throw FileError(message);
    case ErrorKind::none:
    case ErrorKind::other:
      break;
  }
  throw Error(message, "", "", 0);
}
}  // namespace

void raise_if_any_failed(MPI_Comm comm, ErrorKind kind, const std::string& message) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // The lowest failing rank speaks for all (size when none failed).
  int mine = kind == ErrorKind::none ? size : rank;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int header[2] = {static_cast<int>(kind), static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, first, comm);
  std::string text(static_cast<std::size_t>(header[1]), '\0');
  if (rank == first) text = message;
  if (header[1] > 0) MPI_Bcast(&text[0], header[1], MPI_CHAR, first, comm);
  throw_kind(static_cast<ErrorKind>(header[0]),
             "rank " + std::to_string(first) + " of " + std::to_string(size) + ": " + text);
}

void require_same_on_all_ranks(MPI_Comm comm, const std::vector<std::int64_t>& values,
                               const std::string& what, ErrorKind kind) {
  const std::size_t n = values.size();
  // min and max in one allreduce: max(v) and max(-v) (values are far from INT64_MIN here).
  std::vector<std::int64_t> both(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    both[i] = values[i];
    both[n + i] = values[i] == std::numeric_limits<std::int64_t>::min()
                      ? std::numeric_limits<std::int64_t>::max()
                      : -values[i];
  }
  MPI_Allreduce(MPI_IN_PLACE, both.data(), static_cast<int>(2 * n), MPI_INT64_T, MPI_MAX, comm);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t largest = both[i], smallest = -both[n + i];
    if (largest != smallest) {
      throw_kind(kind, "kelp::dist: " + what + " differs across ranks (value " + std::to_string(i) +
                           " ranges from " + std::to_string(smallest) + " to " +
                           std::to_string(largest) + "); every rank must pass the same");
    }
  }
}

std::int64_t fingerprint(const std::vector<std::int64_t>& values) {
  std::uint64_t h = 1469598103934665603ull;
  for (const std::int64_t v : values) {
    auto u = static_cast<std::uint64_t>(v);
    for (int b = 0; b < 8; ++b) {
      h ^= (u >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return static_cast<std::int64_t>(h >> 1);
}

}  // namespace kelp::dist
