#pragma once
/// The number of rows of a generated grid or lattice, formed without overflow: sizes such as
/// 4294967296 x 4294967296 x 1 wrap a plain 64-bit product to 0 (or to a negative count), which a
/// later "fits the Ordinal" check would then pass.

#include <string>

#include "kelp/kernels/core/error.hpp"

namespace kelp::generators {

/// The largest row count of a serial generator: Ordinal is 32-bit, and n + 1 row offsets and
/// the index n must fit it.
constexpr long long max_serial_rows = (1LL << 31) - 2;
/// The largest row count of a distributed generator (64-bit GlobalOrdinal, with room for sums
/// of a few counts).
constexpr long long max_distributed_rows = 1LL << 60;

/// nx * ny * nz * per_point, or -1 when it exceeds `max` (nx, ny, nz, per_point >= 1). Each
/// factor is checked before it is multiplied in, so the product never overflows.
inline long long grid_count(long long nx, long long ny, long long nz, long long per_point, long long max) {
  long long n = per_point;
  if (n < 1 || n > max) return -1;
  for (const long long f : {nx, ny, nz}) {
    if (f < 1 || n > max / f) return -1;
    n *= f;
  }
  return n;
}

/// grid_count, or InvalidArgument naming `function`, the sizes and the limit.
inline long long checked_grid_count(const char* function, long long nx, long long ny, long long nz,
                                    long long per_point, long long max) {
  const long long n = grid_count(nx, ny, nz, per_point, max);
  KELP_REQUIRE(n >= 0, InvalidArgument,
               function << ": grid " << nx << " x " << ny << " x " << nz
                        << (per_point > 1 ? " x " + std::to_string(per_point) + " per point" : std::string())
                        << " has more than " << max << " rows");
  return n;
}

}  // namespace kelp::generators
