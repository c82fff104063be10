#pragma once
// Row functors of the generators' 1D and 2D Laplacians (kernels/generators), for RowOperator
// tests: the same entries in the same (column) order as the CRS matrices, so a matrix-free
// operator must reproduce the CRS results. At namespace scope: CUDA kernels cannot take types
// defined inside functions.
#include "kelp/kernels/core/types.hpp"

namespace kelp::test {

/// Row i of laplace1d(n) x: -x(i-1) + 2 x(i) - x(i+1), missing neighbours dropped.
template <class Scalar, class Device = DefaultDevice>
struct Laplace1dRows {
  Ordinal n;
  KOKKOS_INLINE_FUNCTION Scalar operator()(const Ordinal i,
                                           const ConstVectorView<Scalar, Device>& x) const {
    Scalar sum(0);
    if (i > 0) sum += Scalar(-1) * x(i - 1);
    sum += Scalar(2) * x(i);
    if (i + 1 < n) sum += Scalar(-1) * x(i + 1);
    return sum;
  }
};

/// Row i = ix + nx * iy of laplace2d(nx, ny) x: 5-point stencil, 4 at the centre.
template <class Scalar, class Device = DefaultDevice>
struct Laplace2dRows {
  Ordinal nx, ny;
  KOKKOS_INLINE_FUNCTION Scalar operator()(const Ordinal i,
                                           const ConstVectorView<Scalar, Device>& x) const {
    const Ordinal ix = i % nx, iy = i / nx;
    Scalar sum(0);
    if (iy > 0) sum += Scalar(-1) * x(i - nx);
    if (ix > 0) sum += Scalar(-1) * x(i - 1);
    sum += Scalar(4) * x(i);
    if (ix + 1 < nx) sum += Scalar(-1) * x(i + 1);
    if (iy + 1 < ny) sum += Scalar(-1) * x(i + nx);
    return sum;
  }
};

}  // namespace kelp::test
