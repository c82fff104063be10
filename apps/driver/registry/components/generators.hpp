#pragma once
/// Matrix generators (problem.generator), kernels/generators/generators.hpp: finite-difference
/// model problems with real values, converted to the configuration's scalar.
///
///   generator: {type: laplace3d, nx: 100, ny: 100, nz: 100}
///   generator: {type: anisotropic2d, nx: 200, ny: 200, epsilon: 1.0e-3, theta: 0.5}

#include "kelp/apps/driver/registry/registries.hpp"

namespace kelp::solvers::components {

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

/// topological_insulator: the KPM paper's TI Hamiltonian (problem.scalar: complex only), 4 nx ny nz rows.
struct TopologicalInsulatorConfigParams {
  long long nx = 0;  ///< required
  long long ny = 0;  ///< required
  long long nz = 0;  ///< required
  /// Hopping t. Default 1 (the paper's units).
  double hopping = 1.0;
  /// Width of the random on-site potential. Default 0 (clean).
  double disorder = 0.0;
  /// Seed of the disorder. Default 1.
  long long seed = 1;
  /// Periodic in x and y (open in z). Default true, the paper's slab.
  bool periodic_xy = true;
};
/// tight_binding: -t on nearest-neighbour bonds of a chain (ny = nz = 1), square or cubic lattice.
struct TightBindingParams {
  long long nx = 0;  ///< required
  /// Default 1 (a chain).
  long long ny = 1;
  long long nz = 1;
  /// Hopping t. Default 1.
  double hopping = 1.0;
  /// Periodic boundaries (no direction of length 2). Default true: the analytic spectrum.
  bool periodic = true;
};
void topological_insulator_fields(config::FieldVisitor& v, TopologicalInsulatorConfigParams& p);
void tight_binding_fields(config::FieldVisitor& v, TightBindingParams& p);
void laplace1d_fields(config::FieldVisitor& v, Laplace1dParams& p);
void laplace2d_fields(config::FieldVisitor& v, Laplace2dParams& p);
void laplace3d_fields(config::FieldVisitor& v, Laplace3dParams& p);
void anisotropic2d_fields(config::FieldVisitor& v, Anisotropic2dParams& p);
void convection_diffusion_fields(config::FieldVisitor& v, ConvectionDiffusionParams& p);

void register_generators(GeneratorRegistry& registry);

}  // namespace kelp::solvers::components
