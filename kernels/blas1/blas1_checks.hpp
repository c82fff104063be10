#pragma once
/// Shape checks shared by the BLAS-1 entry points.

#include <Kokkos_Core.hpp>
#include <cstddef>

#include "kelp/kernels/core/error.hpp"

namespace kelp::kernels::impl {

/// Throws DimensionMismatch unless views a and b have the same extents.
template <class A, class B>
void require_same_shape(const char* where, const char* name_a, const A& a, const char* name_b,
                        const B& b) {
  static_assert(static_cast<int>(A::rank) == static_cast<int>(B::rank), "BLAS-1: operands must have the same rank");
  for (unsigned r = 0; r < A::rank; ++r) {
    KELP_REQUIRE(a.extent(r) == b.extent(r), DimensionMismatch,
                 where << ": dimension mismatch: " << name_a << " has extent " << a.extent(r)
                       << " in dimension " << r << ", " << name_b << " has " << b.extent(r));
  }
}

/// Throws DimensionMismatch unless `result` holds one entry per column of X.
template <class X, class R>
void require_result_per_column(const char* where, const X& x, const R& result) {
  KELP_REQUIRE(result.extent(0) == x.extent(1), DimensionMismatch,
               where << ": dimension mismatch: result has " << result.extent(0)
                     << " entries, the multi-vector has " << x.extent(1) << " columns");
}

/// Throws DimensionMismatch unless X and Y have the same number of rows.
template <class X, class Y>
void require_same_rows(const char* where, const char* name_x, const X& x, const char* name_y,
                       const Y& y) {
  KELP_REQUIRE(x.extent(0) == y.extent(0), DimensionMismatch,
               where << ": dimension mismatch: " << name_x << " has " << x.extent(0) << " rows, "
                     << name_y << " has " << y.extent(0));
}

/// Copies a result computed on the host (host(i) or host(i, j)) into `dst`, a view of the same
/// shape in host or device memory; a device copy runs on exec and is fenced, so `host` may be
/// freed on return.
template <class Exec, class Host, class Dst>
void store_result(const Exec& exec, const Host& host, const Dst& dst) {
  auto mirror = Kokkos::create_mirror_view(dst);  // dst itself when it lives in host memory
  if constexpr (Dst::rank == 1) {
    for (std::size_t i = 0; i < dst.extent(0); ++i) mirror(i) = host(i);
  } else {
    for (std::size_t j = 0; j < dst.extent(1); ++j) {
      for (std::size_t i = 0; i < dst.extent(0); ++i) mirror(i, j) = host(i, j);
    }
  }
  if (mirror.data() != dst.data()) {
    Kokkos::deep_copy(exec, dst, mirror);
    exec.fence();
  }
}

}  // namespace kelp::kernels::impl
