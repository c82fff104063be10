#pragma once
/// Assembly of constant-coefficient stencil matrices on nx x ny x nz grids with homogeneous
/// Dirichlet boundaries (neighbours outside the grid are dropped), natural ordering
/// index = x + nx * (y + ny * z).

#include <algorithm>
#include <tuple>
#include <vector>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/generators/grid_count.hpp"

namespace kelp::generators {

/// One stencil entry: neighbour offset and coefficient.
struct StencilPoint {
  int dx, dy, dz;
  double value;
};

/// Builds the grid matrix of `stencil` directly in CRS form on the host (no COO sort), then copies
/// it to Device. Rows come out sorted. Cost: O(nnz) host time and memory. The matrix carries
/// the stencil's description (CrsMatrix::stencil()) when the stencil has at most 27 distinct points.
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> stencil_matrix(long long nx, long long ny, long long nz,
                                                         std::vector<StencilPoint> stencil) {
  KELP_REQUIRE(nx >= 1 && ny >= 1 && nz >= 1, InvalidArgument,
               "kelp::generators: grid " << nx << " x " << ny << " x " << nz
                                         << " must have at least one point per direction");
  const long long n = checked_grid_count("kelp::generators (32-bit Ordinal)", nx, ny, nz, 1, max_serial_rows);
  // Sorting by (dz, dy, dx) sorts each row by column index.
  std::sort(stencil.begin(), stencil.end(), [](const StencilPoint& a, const StencilPoint& b) {
    return std::tie(a.dz, a.dy, a.dx) < std::tie(b.dz, b.dy, b.dx);
  });
  using Host = CrsMatrix<Scalar, Ordinal, Offset, HostDevice>;
  typename Host::row_map_type row_map("kelp::CrsMatrix::row_map", n + 1);
  std::vector<Ordinal> cols;
  std::vector<Scalar> vals;
  cols.reserve(n * stencil.size());
  vals.reserve(n * stencil.size());
  for (long long z = 0; z < nz; ++z) {
    for (long long y = 0; y < ny; ++y) {
      for (long long x = 0; x < nx; ++x) {
        for (const auto& s : stencil) {
          const long long xx = x + s.dx, yy = y + s.dy, zz = z + s.dz;
          if (xx < 0 || xx >= nx || yy < 0 || yy >= ny || zz < 0 || zz >= nz) continue;
          cols.push_back(static_cast<Ordinal>(xx + nx * (yy + ny * zz)));
          vals.push_back(Scalar(s.value));
        }
        const long long row = x + nx * (y + ny * z);
        row_map(row + 1) = static_cast<Offset>(cols.size());
      }
    }
  }
  typename Host::entries_type entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::CrsMatrix::entries"), cols.size());
  typename Host::values_type values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::CrsMatrix::values"), vals.size());
  std::copy(cols.begin(), cols.end(), entries.data());
  std::copy(vals.begin(), vals.end(), values.data());
  Host host(static_cast<Ordinal>(n), static_cast<Ordinal>(n), row_map, entries, values);
  // The matrix carries its stencil, for kernels that use the structure (the stencil SpMV), when
  // the stencil is one a StencilDescription can hold (at most 27 distinct points). Attaching
  // checks the pattern again, O(nnz) host time like the assembly above.
  if (stencil.size() <= static_cast<std::size_t>(StencilDescription::kMaxPoints)) {
    auto description = StencilDescription::grid(nx, ny, nz);
    for (const auto& s : stencil) description.add_point(s.dx, s.dy, s.dz);
    if (description.problem().empty()) host.attach_stencil(description);
  }
  return copy_to<Device>(host);
}

}  // namespace kelp::generators
