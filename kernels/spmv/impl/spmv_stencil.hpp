#pragma once
/// Structured-stencil SpMV/SpMMV for op(A) = A or conj(A), for matrices that carry a stencil
/// description (kernels/core/stencil_description.hpp; the kelp::generators stencil matrices).
///
/// Interior rows (every stencil neighbour inside the grid) hold exactly num_points entries in
/// stencil order, so entry p of row i has column i + offset[p], offset[p] the point's linear
/// offset: those rows read row_map (where their values start) and the values, never the column
/// indices. Boundary rows take the ordinary CRS row. Values are read as stored: they may differ
/// per row (variable coefficients, a shift the user applied), only the pattern is assumed.
/// Traffic saved against row-parallel CRS: sizeof(Ordinal) per interior entry (a third of A's
/// stream for double with 32-bit indices), and the dependent index load before each x load.
///
/// Host spaces: one work item per stretch of up to kStencilHostChunk points of a grid line (x
/// direction), so that the interior test is done per line, not per row, and the interior rows
/// form a plain loop; a 1D grid still splits into many items. GPU spaces: one thread per row
/// (the interior test from the row's grid coordinates, two divisions). For a 7-point stencil a
/// warp's rows span 32 x 7 consecutive values, read by the 7 loads of the point loop; after the
/// first load the lines are in L1, so A's stream is read once, as in row-parallel CRS with one
/// lane per row, minus the index stream. x reads of neighbouring threads are consecutive.

#include <cstddef>
#include <type_traits>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"

namespace kelp::kernels::impl {

/// Grid points per host work item (a stretch of one grid line).
constexpr long long kStencilHostChunk = 2048;

template <bool Conj, bool BetaZero, class Matrix, class X, class Y>
struct StencilSpmv {
  using Scalar = typename Matrix::scalar_type;
  using Ordinal = typename Matrix::ordinal_type;
  using Offset = typename Matrix::offset_type;

  typename Matrix::row_map_type row_map;
  typename Matrix::entries_type entries;
  typename Matrix::values_type values;
  std::remove_const_t<X> x;  // assigned member by member in spmv_stencil
  std::remove_const_t<Y> y;
  Scalar alpha;
  Scalar beta;
  int num_columns;
  int num_points;
  Ordinal nx, ny;
  Ordinal lo[3], hi[3];  // interior box [lo, hi) per direction
  Ordinal offset[StencilDescription::kMaxPoints];

  KOKKOS_INLINE_FUNCTION Scalar value(const Offset k) const {
    return Conj ? ScalarTraits<Scalar>::conj(values(k)) : values(k);
  }

  KOKKOS_INLINE_FUNCTION void write(const Ordinal i, const int j, const Scalar sum) const {
    if (BetaZero) {
      y(i, j) = alpha * sum;  // y is not read: NaN in y must not propagate
    } else {
      y(i, j) = beta * y(i, j) + alpha * sum;
    }
  }

  /// Row i, all of whose stencil neighbours are in the grid: columns from the stencil.
  KOKKOS_INLINE_FUNCTION void interior_row(const Ordinal i) const {
    const Offset begin = row_map(i);
    for (int j = 0; j < num_columns; ++j) {
      Scalar sum = Scalar(0);
      for (int p = 0; p < num_points; ++p) sum += value(begin + p) * x(i + offset[p], j);
      write(i, j, sum);
    }
  }

  /// Row i through its CRS entries.
  KOKKOS_INLINE_FUNCTION void crs_row(const Ordinal i) const {
    const Offset begin = row_map(i);
    const Offset end = row_map(i + 1);
    for (int j = 0; j < num_columns; ++j) {
      Scalar sum = Scalar(0);
      for (Offset k = begin; k < end; ++k) sum += value(k) * x(entries(k), j);
      write(i, j, sum);
    }
  }

  /// GPU: one row per thread.
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i) const {
    const Ordinal line = i / nx;
    const Ordinal gx = i - line * nx;
    const Ordinal gz = line / ny;
    const Ordinal gy = line - gz * ny;
    const bool interior = gx >= lo[0] && gx < hi[0] && gy >= lo[1] && gy < hi[1] && gz >= lo[2] && gz < hi[2];
    if (interior) {
      interior_row(i);
    } else {
      crs_row(i);
    }
  }
};

// Plain (not KOKKOS_INLINE_FUNCTION) code: launched only on host execution spaces, so GPU builds
// never compile it for the device.

/// Host: one stretch [x0, x1) of grid line `line` per work item.
template <bool Conj, bool BetaZero, class Matrix, class X, class Y>
struct StencilSpmvHost : StencilSpmv<Conj, BetaZero, Matrix, X, Y> {
  using Base = StencilSpmv<Conj, BetaZero, Matrix, X, Y>;
  using typename Base::Ordinal;
  long long chunks_per_line;

  void operator()(const long long item) const {
    const long long line = item / chunks_per_line;
    const long long chunk = item - line * chunks_per_line;
    const Ordinal x0 = static_cast<Ordinal>(chunk * kStencilHostChunk);
    const Ordinal x1 = static_cast<Ordinal>(
        x0 + kStencilHostChunk < static_cast<long long>(this->nx) ? x0 + kStencilHostChunk : this->nx);
    const Ordinal gz = static_cast<Ordinal>(line / this->ny);
    const Ordinal gy = static_cast<Ordinal>(line - static_cast<long long>(gz) * this->ny);
    const Ordinal first = static_cast<Ordinal>(line * this->nx);
    const bool line_interior = gy >= this->lo[1] && gy < this->hi[1] && gz >= this->lo[2] && gz < this->hi[2];
    // [a, b): the interior part of [x0, x1); empty when the line has none.
    Ordinal a = x1, b = x1;
    if (line_interior && this->lo[0] < this->hi[0]) {
      a = this->lo[0] > x0 ? this->lo[0] : x0;
      b = this->hi[0] < x1 ? this->hi[0] : x1;
      if (a > b) a = b = x1;
    }
    if (a == b) a = b = x1;  // no interior: the first loop below takes the whole stretch
    for (Ordinal gx = x0; gx < a; ++gx) this->crs_row(first + gx);
    for (Ordinal gx = a; gx < b; ++gx) this->interior_row(first + gx);
    for (Ordinal gx = b; gx < x1; ++gx) this->crs_row(first + gx);
  }
};

/// y = beta*y + alpha*op(A)*x with op = A (Conj = false) or conj(A), on exec; x, y n x k column
/// views. A must carry a stencil description.
template <bool Conj, class Matrix, class X, class Y>
void spmv_stencil(const typename Matrix::execution_space& exec, typename Matrix::scalar_type alpha,
                  const Matrix& A, const X& x, typename Matrix::scalar_type beta, const Y& y) {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  using Ordinal = typename Matrix::ordinal_type;
  KELP_REQUIRE(A.has_stencil(), InvalidState,
               "kelp::kernels::spmv(stencil): the matrix carries no stencil description");
  if (A.num_rows() == 0) return;
  const StencilDescription& s = A.stencil();
  long long lo[3], hi[3];
  s.interior(lo, hi);
  const bool any_interior = lo[0] < hi[0] && lo[1] < hi[1] && lo[2] < hi[2];
  const auto fill = [&](auto& f) {
    f.row_map = A.row_map();
    f.entries = A.entries();
    f.values = A.values();
    f.x = x;
    f.y = y;
    f.alpha = alpha;
    f.beta = beta;
    f.num_columns = static_cast<int>(x.extent(1));
    f.num_points = s.num_points;
    f.nx = static_cast<Ordinal>(s.nx);
    f.ny = static_cast<Ordinal>(s.ny);
    for (int d = 0; d < 3; ++d) {
      // No interior: an empty box, so that no row takes the stencil path (and the offsets,
      // possibly beyond the Ordinal range for far points, are never used).
      f.lo[d] = any_interior ? static_cast<Ordinal>(lo[d]) : 0;
      f.hi[d] = any_interior ? static_cast<Ordinal>(hi[d]) : 0;
    }
    for (int p = 0; p < StencilDescription::kMaxPoints; ++p) {
      f.offset[p] = any_interior && p < s.num_points ? static_cast<Ordinal>(s.linear_offset(p)) : 0;
    }
  };
  const auto launch = [&](auto beta_zero) {
    constexpr bool BetaZero = decltype(beta_zero)::value;
    constexpr bool host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible;
    if constexpr (host) {
      StencilSpmvHost<Conj, BetaZero, Matrix, X, Y> f;
      fill(f);
      f.chunks_per_line = (s.nx + kStencilHostChunk - 1) / kStencilHostChunk;
      Kokkos::parallel_for("kelp::kernels::spmv(stencil)",
                           Kokkos::RangePolicy<Exec, Kokkos::IndexType<long long>>(
                               exec, 0, f.chunks_per_line * s.ny * s.nz),
                           f);
    } else {
      StencilSpmv<Conj, BetaZero, Matrix, X, Y> f;
      fill(f);
      Kokkos::parallel_for("kelp::kernels::spmv(stencil)",
                           Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows()), f);
    }
  };
  if (beta == Scalar(0)) {
    launch(std::true_type());
  } else {
    launch(std::false_type());
  }
}

}  // namespace kelp::kernels::impl
