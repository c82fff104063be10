#pragma once
/// Errors that every rank sees: when one rank of a communicator hits bad input, all ranks throw
/// the same kelp error (same type, same message naming the failing rank), instead of the good
/// ranks waiting forever in the next collective.
///
/// Pattern: do the local checks inside collective_check (one MPI_Allreduce whether or not
/// anything failed), then communicate. Checks of values that must agree across ranks (global
/// sizes, partitions) go through require_same_on_all_ranks.
///
/// Example:
///   dist::collective_check(comm, [&] {
///     KELP_REQUIRE(col >= 0 && col < n, InvalidArgument, "f: column " << col << " out of range");
///   });   // throws InvalidArgument("rank 1 of 3: f: column ...") on every rank if rank 1 failed

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "kelp/kernels/core/error.hpp"

namespace kelp::dist {

/// Which kelp error type a failure was (travels between ranks as an int).
enum class ErrorKind : int {
  none = 0,
  invalid_argument,
  dimension_mismatch,
  invalid_state,
  config_error,
  not_supported,
  numerical_error,
  file_error,
  other,  ///< kelp::Error itself or any std::exception (thrown as kelp::Error)
};

/// Collective: every rank passes its own outcome (ErrorKind::none when it succeeded). If any
/// rank failed, every rank throws the error of the lowest failing rank, its message prefixed
/// with "rank r of p: "; otherwise returns. One MPI_Allreduce (plus two broadcasts on failure).
void raise_if_any_failed(MPI_Comm comm, ErrorKind kind, const std::string& message);

/// Collective: runs body() on this rank, catching any exception, then raise_if_any_failed.
template <class Body>
void collective_check(MPI_Comm comm, Body&& body) {
  ErrorKind kind = ErrorKind::none;
  std::string message;
  try {
    body();
  } catch (const InvalidArgument& e) {
    kind = ErrorKind::invalid_argument, message = e.what();
  } catch (const DimensionMismatch& e) {
    kind = ErrorKind::dimension_mismatch, message = e.what();
  } catch (const InvalidState& e) {
    kind = ErrorKind::invalid_state, message = e.what();
  } catch (const ConfigError& e) {
    kind = ErrorKind::config_error, message = e.what();
  } catch (const NotSupported& e) {
    kind = ErrorKind::not_supported, message = e.what();
  } catch (const NumericalError& e) {
    kind = ErrorKind::numerical_error, message = e.what();
  } catch (const FileError& e) {
    kind = ErrorKind::file_error, message = e.what();
  } catch (const std::exception& e) {
    kind = ErrorKind::other, message = e.what();
  }
  raise_if_any_failed(comm, kind, message);
}

/// Collective: throws `kind` on every rank, naming `what` and the smallest and largest value,
/// unless all ranks pass the same values (compared element by element; all ranks must pass
/// the same number of values).
void require_same_on_all_ranks(MPI_Comm comm, const std::vector<std::int64_t>& values,
                               const std::string& what, ErrorKind kind = ErrorKind::invalid_argument);

/// A 63-bit fingerprint of a list of integers (for comparing long lists across ranks with one
/// value; FNV-1a over the bytes).
std::int64_t fingerprint(const std::vector<std::int64_t>& values);

}  // namespace kelp::dist
