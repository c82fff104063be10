#pragma once
/// The `problem` section of a configuration: a matrix (generated or read from a Matrix Market
/// file) and a right-hand side.
///
///   problem:
///     generator: {type: laplace3d, nx: 100, ny: 100, nz: 100}   # exactly one of generator
///     # matrix: {file: A.mtx.gz}  (relative to the config) #   and matrix
///     rhs: {type: ones}                                          # default ones
///
/// Relative file names resolve against the configuration file's folder.

#include <memory>
#include <string>

#include "kelp/apps/driver/config/config_node.hpp"
#include "kelp/apps/driver/registry/registry.hpp"
#include "kelp/apps/driver/registry/solver_registry.hpp"

namespace kelp::solvers {

/// Generators build a matrix from their params alone.
using GeneratorRegistry = Registry<ConfigMatrix>;
/// Right-hand sides are built for a given matrix (their length is its number of rows).
using RhsRegistry = Registry<ConfigVector, const ConfigMatrix&>;

/// Types: laplace1d, laplace2d, laplace2d_9pt, laplace3d, laplace3d_27pt, anisotropic2d,
/// convection_diffusion (see kernels/generators/generators.hpp).
GeneratorRegistry& generator_registry();
/// Types: ones, random, file, A_times_ones.
RhsRegistry& rhs_registry();

/// Grid sizes of the laplace generators; those a generator has are required (>= 1).
struct Laplace1dParams {
  long long nx = 0;
};
struct Laplace2dParams {
  long long nx = 0;
  long long ny = 0;
};
struct Laplace3dParams {
  long long nx = 0;
  long long ny = 0;
  long long nz = 0;
};
/// anisotropic2d: rotated anisotropic diffusion.
struct Anisotropic2dParams {
  long long nx = 0;  ///< required
  long long ny = 0;  ///< required
  /// Anisotropy ratio (> 0). Default 1e-3: strong enough that point smoothers and plain Krylov
  /// methods struggle, the classic AMG stress case.
  double epsilon = 1e-3;
  /// Rotation of the strong direction in radians. Default 0 (grid-aligned, 5-point stencil).
  double theta = 0.0;
};
/// convection_diffusion: upwinded -Laplace(u) + w . grad(u), nonsymmetric (not for CG).
struct ConvectionDiffusionParams {
  long long nx = 0;  ///< required
  long long ny = 0;  ///< required
  /// Default 1: a 2D problem.
  long long nz = 1;
  /// Velocity w. Default (1, 1, 0): diagonal flow in the x-y plane.
  double wx = 1.0;
  double wy = 1.0;
  double wz = 0.0;
};

/// rhs random: entries uniform in [-1, 1] from a 64-bit Mersenne twister.
struct RandomRhsParams {
  /// Default 0; the same seed gives the same vector on every device.
  long long seed = 0;
};
/// rhs file: a one-column Matrix Market file (array or coordinate) of length num_rows.
struct FileRhsParams {
  std::string file;  ///< required
};

/// problem.matrix: a Matrix Market file (plain or gzip), symmetric storage expanded.
struct MatrixFileParams {
  std::string file;  ///< required
};
void matrix_file_fields(config::FieldVisitor& v, MatrixFileParams& params);

/// The parsed `problem` section.
struct ProblemConfig {
  /// The generator, or empty when the matrix comes from a file.
  ComponentSpec generator;
  /// The matrix file, used when `generator` is empty.
  MatrixFileParams matrix;
  /// Default ones.
  ComponentSpec rhs = rhs_registry().make("ones");
};

/// Parses the `problem` node. @throws ConfigError (also when both or neither of generator and
/// matrix are given)
ProblemConfig parse_problem_config(const config::ConfigNode& node);
/// The effective `problem` node, every default filled in.
YAML::Node write_problem_config(const ProblemConfig& config);

/// A linear system A x = b.
struct Problem {
  ConfigMatrix A;
  ConfigVector b;
  /// "laplace3d {nx: 100, ny: 100, nz: 100}" or "matrix /path/bcsstk14.mtx.gz".
  std::string matrix_description;
  /// "ones", "random {seed: 0}", ...
  std::string rhs_description;
  /// A's source for error messages: the file name, or the generator summary.
  std::string matrix_name;
};

/// Generates or reads A and builds b.
/// @throws FileError for unreadable or malformed files, InvalidArgument for a non-square or
///         complex matrix, DimensionMismatch when a right-hand side file has the wrong length
Problem build_problem(const ProblemConfig& config);

}  // namespace kelp::solvers
