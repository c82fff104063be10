#pragma once
/// Vectors of a problem: right-hand sides (problem.rhs) and initial guesses
/// (problem.initial_guess), each built for the matrix (length num_rows, the problem's scalar).
///
///   rhs: {type: ones}  | {type: random, seed: 1} | {type: file, file: b.mtx} | A_times_ones
///   initial_guess: {type: zero} | {type: file, file: x0.mtx}
///
/// File names are relative to the configuration file's folder; a file must have one column of
/// num_rows values, complex values only with problem.scalar: complex.

#include <string>

#include "kelp/apps/driver/registry/registries.hpp"

namespace kelp::solvers::components {

/// rhs random: entries uniform in [-1, 1] from a 64-bit Mersenne twister (for a complex
/// scalar, real and imaginary parts alike).
struct RandomRhsParams {
  /// Default 0; the same seed gives the same vector on every device.
  long long seed = 0;
};
void random_rhs_fields(config::FieldVisitor& v, RandomRhsParams& p);

/// rhs file and initial_guess file: a one-column Matrix Market file (array or coordinate).
struct FileVectorParams {
  std::string file;  ///< required
};
void file_vector_fields(config::FieldVisitor& v, FileVectorParams& p);

/// Types ones, random, file, A_times_ones.
void register_rhs(VectorRegistry& registry);
/// Types zero, file.
void register_initial_guesses(VectorRegistry& registry);

}  // namespace kelp::solvers::components
