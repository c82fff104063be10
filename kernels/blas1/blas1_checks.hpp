#pragma once
/// Shape checks shared by the BLAS-1 entry points.

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

}  // namespace kelp::kernels::impl
