#pragma once
/// Matrix Market inputs of a configuration (problem.matrix, rhs and initial guess files), read
/// for the configuration's scalar with errors that name the key and the file.

#include <string>

#include "kelp/apps/driver/registry/config_types.hpp"
#include "kelp/kernels/core/eti.hpp"

namespace kelp::solvers {

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
