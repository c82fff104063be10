#pragma once
/// Description of a structured-grid stencil pattern that a CrsMatrix can carry (see
/// CrsMatrix::attach_stencil), so that kernels can compute an interior row's columns from the
/// stencil instead of reading them (kernels/spmv/impl/spmv_stencil.hpp).
///
/// Grid: nx x ny x nz points in natural order, row = x + nx * (y + ny * z). Point k of the
/// stencil is the neighbour (x + dx[k], y + dy[k], z + dz[k]). Row r of a matrix that carries the
/// description holds, in stencil order, exactly the entries of the points whose neighbour lies in
/// the grid (the others are dropped: homogeneous Dirichlet boundaries), with column = the
/// neighbour's row. This is the pattern kelp::generators::stencil_matrix builds. Values are free:
/// the description says nothing about them.
///
/// Trivially copyable and fixed-size (no heap memory), so that kernels can capture it.

#include <sstream>
#include <string>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "kelp/kernels/core/error.hpp"

namespace kelp {

struct StencilDescription {
  static constexpr int kMaxPoints = 27;  ///< the 27-point stencil is the largest generated one

  long long nx = 0, ny = 0, nz = 0;
  int num_points = 0;  ///< 0: no description
  int dx[kMaxPoints] = {};
  int dy[kMaxPoints] = {};
  int dz[kMaxPoints] = {};

  /// An empty description of an nx x ny x nz grid; add the points with add_point in row order.
  static StencilDescription grid(long long nx, long long ny, long long nz) {
    StencilDescription s;
    s.nx = nx;
    s.ny = ny;
    s.nz = nz;
    return s;
  }

  /// Appends the next point of a row (entries are stored in the order of the points).
  /// @throws InvalidArgument when the description already holds kMaxPoints points
  StencilDescription& add_point(int x, int y, int z) {
    KELP_REQUIRE(num_points < kMaxPoints, InvalidArgument,
                 "kelp::StencilDescription::add_point: more than " << kMaxPoints << " points");
    dx[num_points] = x;
    dy[num_points] = y;
    dz[num_points] = z;
    ++num_points;
    return *this;
  }

  bool empty() const { return num_points == 0; }
  long long num_grid_points() const { return nx * ny * nz; }
  /// Column minus row of point k in an interior row.
  long long linear_offset(int k) const {
    return static_cast<long long>(dx[k]) + nx * (static_cast<long long>(dy[k]) + ny * dz[k]);
  }

  /// The box of interior grid points, [lo[d], hi[d]) in direction d (x, y, z): those whose every
  /// stencil neighbour lies in the grid. Empty (lo >= hi in some direction) when there is none.
  void interior(long long lo[3], long long hi[3]) const {
    const long long n[3] = {nx, ny, nz};
    for (int d = 0; d < 3; ++d) {
      long long most_negative = 0, most_positive = 0;
      for (int k = 0; k < num_points; ++k) {
        const long long o = d == 0 ? dx[k] : d == 1 ? dy[k] : dz[k];
        if (o < most_negative) most_negative = o;
        if (o > most_positive) most_positive = o;
      }
      lo[d] = -most_negative;
      hi[d] = n[d] - most_positive;
    }
  }

  /// Why this is not a usable description ("" when it is): grid of at least one point per
  /// direction and fewer than 2^31 - 1 points, 1 to kMaxPoints points, no point twice.
  std::string problem() const {
    std::ostringstream why;
    if (nx < 1 || ny < 1 || nz < 1) {
      why << "grid " << nx << " x " << ny << " x " << nz << " must have at least one point per direction";
    } else if (nx >= (1LL << 31) || ny >= (1LL << 31) || nz >= (1LL << 31) ||
               nx * ny >= (1LL << 31) || num_grid_points() >= (1LL << 31) - 1) {
      why << "grid " << nx << " x " << ny << " x " << nz << " has more points than the 32-bit Ordinal allows";
    } else if (num_points < 1 || num_points > kMaxPoints) {
      why << num_points << " points, expected 1 to " << kMaxPoints;
    } else {
      for (int a = 0; a < num_points && why.tellp() == 0; ++a) {
        for (int b = a + 1; b < num_points; ++b) {
          if (dx[a] == dx[b] && dy[a] == dy[b] && dz[a] == dz[b]) {
            why << "points " << a << " and " << b << " are both (" << dx[a] << ", " << dy[a]
                << ", " << dz[a] << ")";
            break;
          }
        }
      }
    }
    return why.str();
  }

  friend bool operator==(const StencilDescription& a, const StencilDescription& b) {
    if (a.nx != b.nx || a.ny != b.ny || a.nz != b.nz || a.num_points != b.num_points) return false;
    for (int k = 0; k < a.num_points; ++k) {
      if (a.dx[k] != b.dx[k] || a.dy[k] != b.dy[k] || a.dz[k] != b.dz[k]) return false;
    }
    return true;
  }
  friend bool operator!=(const StencilDescription& a, const StencilDescription& b) { return !(a == b); }
};

static_assert(std::is_trivially_copyable<StencilDescription>::value,
              "StencilDescription is captured by kernels: it must stay trivially copyable");

namespace impl {
/// Throws InvalidArgument, naming `where` and the first difference, unless the CRS pattern
/// (host views) is exactly the one that `s` describes (see the file comment). O(nnz).
template <class RowMap, class Entries>
void check_stencil_pattern(const StencilDescription& s, long long num_rows, long long num_cols,
                           const RowMap& row_map, const Entries& entries, const char* where) {
  const std::string problem = s.problem();
  KELP_REQUIRE(problem.empty(), InvalidArgument, where << ": invalid stencil description: " << problem);
  const long long n = s.num_grid_points();
  KELP_REQUIRE(num_rows == n && num_cols == n, DimensionMismatch,
               where << ": the matrix is " << num_rows << " x " << num_cols << ", the stencil's grid "
                     << s.nx << " x " << s.ny << " x " << s.nz << " has " << n << " points");
  long long row = 0;
  for (long long z = 0; z < s.nz; ++z) {
    for (long long y = 0; y < s.ny; ++y) {
      for (long long x = 0; x < s.nx; ++x, ++row) {
        const long long begin = static_cast<long long>(row_map(row));
        const long long end = static_cast<long long>(row_map(row + 1));
        KELP_REQUIRE(0 <= begin && begin <= end && end <= static_cast<long long>(entries.extent(0)),
                     InvalidArgument,
                     where << ": row " << row << " has offsets [" << begin << ", " << end
                           << ") outside the " << entries.extent(0) << " entries");
        long long k = begin;
        for (int p = 0; p < s.num_points; ++p) {
          const long long xx = x + s.dx[p], yy = y + s.dy[p], zz = z + s.dz[p];
          if (xx < 0 || xx >= s.nx || yy < 0 || yy >= s.ny || zz < 0 || zz >= s.nz) continue;
          const long long expected = xx + s.nx * (yy + s.ny * zz);
          KELP_REQUIRE(k < end, InvalidArgument,
                       where << ": row " << row << " (grid point " << x << ", " << y << ", " << z
                             << ") has " << end - begin
                             << " entries, but the stencil has more neighbours in the grid "
                             << "(first missing: point " << p << " (" << s.dx[p] << ", " << s.dy[p]
                             << ", " << s.dz[p] << "), column " << expected << ")");
          const long long found = static_cast<long long>(entries(k));
          KELP_REQUIRE(found == expected, InvalidArgument,
                       where << ": row " << row << " (grid point " << x << ", " << y << ", " << z
                             << ") entry " << k - begin << " has column " << found
                             << ", the stencil's point " << p << " (" << s.dx[p] << ", " << s.dy[p]
                             << ", " << s.dz[p] << ") gives column " << expected);
          ++k;
        }
        KELP_REQUIRE(k == end, InvalidArgument,
                     where << ": row " << row << " (grid point " << x << ", " << y << ", " << z
                           << ") has " << end - begin << " entries, the stencil gives " << k - begin
                           << " (first extra column: " << static_cast<long long>(entries(k)) << ")");
      }
    }
  }
}
}  // namespace impl

}  // namespace kelp
