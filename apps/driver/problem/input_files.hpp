#pragma once
/// Matrix Market inputs of a configuration (problem.matrix, rhs and initial guess files), read
/// for the configuration's scalar with errors that name the key and the file.

#include <string>

#include "kelp/apps/driver/registry/config_types.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/eti.hpp"

namespace kelp::solvers {

/// Runs read() and puts `key` in front of the message of a FileError or InvalidArgument it
/// throws: the readers name the file and the line, the key tells a user of the YAML which entry
/// of the configuration named that file ("problem.rhs.file: /x/b.mtx: cannot open for reading").
template <class Read>
auto with_key(const std::string& key, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const FileError& e) {
    throw FileError(key + ": " + e.what(), e.function(), e.file(), e.line());
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(key + ": " + e.what(), e.function(), e.file(), e.line());
  }
}

/// Checks, from its banner, that the Matrix Market file `path` (given under `key`) can be read
/// with problem.scalar = `scalar`: a complex file needs scalar complex.
/// @throws InvalidArgument "key: path holds complex values, but problem.scalar is double; set
///         problem.scalar: complex", FileError for an unreadable file
void require_scalar_fits(const std::string& key, const std::string& path, ScalarKind scalar);

/// Reads a one-column Matrix Market file (array or coordinate) of length `num_rows`.
/// @throws DimensionMismatch "key: dimension mismatch: path has 3 rows, the matrix has 4",
///         and what require_scalar_fits and io::read_vector_matrix_market throw
template <class Scalar>
ConfigVector<Scalar> read_vector_file(const std::string& key, const std::string& path,
                                      Ordinal num_rows);

#define KELP_DRIVER_READ_VECTOR_FILE(PREFIX, S)                                             \
  PREFIX template ConfigVector<S> read_vector_file<S>(const std::string&, const std::string&, \
                                                      Ordinal);
KELP_ETI_FOR_EACH_SCALAR(KELP_DRIVER_READ_VECTOR_FILE, extern)

}  // namespace kelp::solvers
