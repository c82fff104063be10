#pragma once
/// The `problem` section of a configuration: the scalar, a matrix (generated or read from a
/// Matrix Market file), a right-hand side and an initial guess.
///
///   problem:
///     scalar: double                                             # float | double | complex
///     generator: {type: laplace3d, nx: 100, ny: 100, nz: 100}   # exactly one of generator
///     # matrix: {file: A.mtx.gz}  (relative to the config) #   and matrix
///     rhs: {type: ones}                                          # default ones
///     initial_guess: {type: zero}                                # default zero
///
/// Relative file names resolve against the configuration file's folder. build_problem<Scalar>
/// is compiled once per standard scalar (problem.cpp); pick it with dispatch_scalar.

#include <string>

#include "kelp/apps/driver/config/config_node.hpp"
#include "kelp/apps/driver/registry/registries.hpp"
#include "kelp/kernels/core/eti.hpp"

namespace kelp::solvers {

/// problem.matrix: a Matrix Market file (plain or gzip), symmetric storage expanded.
struct MatrixFileParams {
  std::string file;  ///< required
};
void matrix_file_fields(config::FieldVisitor& v, MatrixFileParams& params);

/// The parsed `problem` section.
struct ProblemConfig {
  /// Default double. complex is Kokkos::complex<double>.
  ScalarKind scalar = ScalarKind::real_double;
  /// The generator, or empty when the matrix comes from a file.
  ComponentSpec generator;
  /// The matrix file, used when `generator` is empty.
  MatrixFileParams matrix;
  /// Default ones.
  ComponentSpec rhs = rhs_registry().make("ones");
  /// Default zero.
  ComponentSpec initial_guess = initial_guess_registry().make("zero");
};

/// Parses the `problem` node. @throws ConfigError (also when both or neither of generator and
/// matrix are given, and for a scalar that is not float, double or complex)
ProblemConfig parse_problem_config(const config::ConfigNode& node);
/// The effective `problem` node, every default filled in.
YAML::Node write_problem_config(const ProblemConfig& config);

/// What a problem is, in words and sizes (the same for every scalar).
struct ProblemDescription {
  /// "laplace3d {nx: 100, ny: 100, nz: 100}" or "matrix /path/bcsstk14.mtx.gz".
  std::string matrix;
  /// "ones", "random {seed: 0}", ...
  std::string rhs;
  /// "zero" or "file {file: /path/x0.mtx}".
  std::string initial_guess;
  /// A's source for error messages: the file name, or the generator summary.
  std::string matrix_name;
  ScalarKind scalar = ScalarKind::real_double;
  long long num_rows = 0;
  long long nnz = 0;
};

/// A linear system A x = b with an initial guess x0.
template <class Scalar>
struct Problem {
  ConfigMatrix<Scalar> A;
  ConfigVector<Scalar> b;
  ConfigVector<Scalar> x0;
  ProblemDescription description;
};

/// Generates or reads A and builds b and x0, in Scalar (which must be the config's scalar).
/// @throws FileError for unreadable or malformed files, InvalidArgument for a non-square matrix,
///         for a complex file with a real scalar, and when Scalar is not config.scalar;
///         DimensionMismatch when a right-hand side or initial guess file has the wrong length
template <class Scalar>
Problem<Scalar> build_problem(const ProblemConfig& config);

#define KELP_DRIVER_BUILD_PROBLEM(PREFIX, S) \
  PREFIX template Problem<S> build_problem<S>(const ProblemConfig&);
KELP_ETI_FOR_EACH_SCALAR(KELP_DRIVER_BUILD_PROBLEM, extern)

}  // namespace kelp::solvers
