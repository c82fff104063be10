#pragma once
/// Model problems for configs, tests and benchmarks. All are finite-difference matrices on
/// nx x ny x nz grids with Dirichlet boundaries, scaled by h^2 (no 1/h^2 factor), natural ordering.

#include <cmath>
#include <vector>

#include "kelp/kernels/generators/stencil.hpp"

namespace kelp::generators {

/// The stencils of the generators below, one function each, so that the distributed generators
/// (distributed/generators.hpp) build exactly the same rows.
namespace stencils {

inline std::vector<StencilPoint> laplace1d() { return {{-1, 0, 0, -1}, {0, 0, 0, 2}, {1, 0, 0, -1}}; }

inline std::vector<StencilPoint> laplace2d() {
  return {{0, -1, 0, -1}, {-1, 0, 0, -1}, {0, 0, 0, 4}, {1, 0, 0, -1}, {0, 1, 0, -1}};
}

inline std::vector<StencilPoint> laplace2d_9pt() {
  std::vector<StencilPoint> s;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) s.push_back({dx, dy, 0, dx == 0 && dy == 0 ? 8.0 : -1.0});
  return s;
}

inline std::vector<StencilPoint> laplace3d() {
  return {{0, 0, -1, -1}, {0, -1, 0, -1}, {-1, 0, 0, -1}, {0, 0, 0, 6},
          {1, 0, 0, -1},  {0, 1, 0, -1},  {0, 0, 1, -1}};
}

inline std::vector<StencilPoint> laplace3d_27pt() {
  std::vector<StencilPoint> s;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        s.push_back({dx, dy, dz, dx == 0 && dy == 0 && dz == 0 ? 26.0 : -1.0});
  return s;
}

/// See generators::anisotropic2d.
inline std::vector<StencilPoint> anisotropic2d(double epsilon, double theta) {
  KELP_REQUIRE(epsilon > 0, InvalidArgument,
               "kelp::generators::anisotropic2d: epsilon = " << epsilon << ", expected > 0");
  const double c = std::cos(theta), s = std::sin(theta);
  const double kxx = c * c + epsilon * s * s;  // diffusion tensor entries
  const double kyy = s * s + epsilon * c * c;
  const double kxy = (1.0 - epsilon) * c * s;
  // Central differences; the mixed term u_xy uses the four diagonal neighbours.
  std::vector<StencilPoint> stencil = {{0, 0, 0, 2 * (kxx + kyy)},
                                       {-1, 0, 0, -kxx}, {1, 0, 0, -kxx},
                                       {0, -1, 0, -kyy}, {0, 1, 0, -kyy}};
  if (std::abs(kxy) > 1e-14) {
    stencil.push_back({1, 1, 0, -0.5 * kxy});
    stencil.push_back({-1, -1, 0, -0.5 * kxy});
    stencil.push_back({1, -1, 0, 0.5 * kxy});
    stencil.push_back({-1, 1, 0, 0.5 * kxy});
  }
  return stencil;
}

/// See generators::convection_diffusion (h = 1 / (nx + 1); nz > 1: 3D).
inline std::vector<StencilPoint> convection_diffusion(long long nx, long long nz, double wx, double wy,
                                                      double wz) {
  const double h = 1.0 / static_cast<double>(nx + 1);
  const double w[3] = {wx, wy, wz};
  const int dims = nz > 1 ? 3 : 2;
  std::vector<StencilPoint> stencil;
  double centre = 0;
  for (int d = 0; d < dims; ++d) {
    const double conv = w[d] * h;  // h^2 * w / h
    // Upwind: w > 0 differences backwards (u_i - u_{i-1}), w < 0 forwards.
    const double minus = -1.0 - (conv > 0 ? conv : 0.0);
    const double plus = -1.0 + (conv < 0 ? conv : 0.0);
    centre += 2.0 + std::abs(conv);
    int off[3] = {0, 0, 0};
    off[d] = -1;
    stencil.push_back({off[0], off[1], off[2], minus});
    off[d] = 1;
    stencil.push_back({off[0], off[1], off[2], plus});
  }
  stencil.push_back({0, 0, 0, centre});
  return stencil;
}

}  // namespace stencils

/// -u'' with the 3-point stencil [-1 2 -1]. SPD.
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> laplace1d(long long nx) {
  return stencil_matrix<Scalar, Device>(nx, 1, 1, stencils::laplace1d());
}

/// -Laplace(u) in 2D: 5-point stencil (4 centre, -1 at edge neighbours). SPD.
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> laplace2d(long long nx, long long ny) {
  return stencil_matrix<Scalar, Device>(nx, ny, 1, stencils::laplace2d());
}

/// 2D 9-point Laplacian: 8 at the centre, -1 at all eight neighbours (as gr_30_30). SPD.
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> laplace2d_9pt(long long nx, long long ny) {
  return stencil_matrix<Scalar, Device>(nx, ny, 1, stencils::laplace2d_9pt());
}

/// -Laplace(u) in 3D: 7-point stencil (6 centre, -1 at face neighbours). SPD.
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> laplace3d(long long nx, long long ny, long long nz) {
  return stencil_matrix<Scalar, Device>(nx, ny, nz, stencils::laplace3d());
}

/// 3D 27-point Laplacian: 26 at the centre, -1 at all 26 neighbours. SPD.
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> laplace3d_27pt(long long nx, long long ny, long long nz) {
  return stencil_matrix<Scalar, Device>(nx, ny, nz, stencils::laplace3d_27pt());
}

/// Rotated anisotropic diffusion -div(K grad u), K = R(theta) diag(1, epsilon) R(theta)^T, on a
/// 2D grid: 9-point stencil (5-point when theta is a multiple of pi/2). SPD for epsilon > 0 (the
/// classic AMG stress test: strong coupling along the rotated direction).
/// @param[in] epsilon  anisotropy ratio (> 0); @param[in] theta  rotation angle in radians
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> anisotropic2d(long long nx, long long ny, double epsilon,
                                                         double theta) {
  return stencil_matrix<Scalar, Device>(nx, ny, 1, stencils::anisotropic2d(epsilon, theta));
}

/// Nonsymmetric convection-diffusion -Laplace(u) + w . grad(u) with first-order upwinding of the
/// convection term, on an nx x ny x nz grid (nz = 1: 2D, 5-point; else 7-point), h = 1/(nx + 1).
/// An M-matrix for any velocity w = (wx, wy, wz); the cell Peclet number is |w| h / 2.
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> convection_diffusion(long long nx, long long ny,
                                                                long long nz, double wx, double wy,
                                                                double wz) {
  return stencil_matrix<Scalar, Device>(nx, ny, nz,
                                        stencils::convection_diffusion(nx, nz, wx, wy, wz));
}

}  // namespace kelp::generators
