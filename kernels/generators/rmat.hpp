#pragma once
/// R-MAT power-law graphs (Chakrabarti, Zhan & Faloutsos, "R-MAT: A recursive model for graph
/// mining", SDM 2004) as sparse matrices: the model for social and web graphs, whose few very long
/// rows next to many short ones stress SpMV load balance.

#include <cstdint>
#include <random>
#include <vector>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/core/error.hpp"

namespace kelp::generators {

/// Parameters of an R-MAT graph; the defaults are the Graph500 ones.
struct RmatParams {
  int scale = 16;                 ///< 2^scale vertices (rows and columns)
  int edge_factor = 16;           ///< edges generated = edge_factor * 2^scale (duplicates merge)
  double a = 0.57, b = 0.19, c = 0.19;  ///< quadrant probabilities (d = 1 - a - b - c)
  std::uint64_t seed = 1;         ///< the same seed gives the same matrix on every machine
};

/// The adjacency matrix of an R-MAT graph: each edge picks, level by level, one of the four
/// quadrants of the remaining index range with probabilities a, b, c, d, so degrees follow a
/// power law. Entry (i, j) counts the edges i -> j (duplicates are summed), so rows are sorted
/// and nonzeros are positive integers. Directed (not symmetric); self loops are kept.
/// Cost: edge_factor * 2^scale * scale random draws on the host, then one CRS assembly.
template <class Scalar, class Device = DefaultDevice>
CrsMatrix<Scalar, Ordinal, Offset, Device> rmat(const RmatParams& p) {
  KELP_REQUIRE(p.scale >= 0 && p.scale <= 30 && p.edge_factor >= 1, InvalidArgument,
               "kelp::generators::rmat: scale = " << p.scale << ", edge_factor = " << p.edge_factor
                                                  << "; expected 0 <= scale <= 30, edge_factor >= 1");
  KELP_REQUIRE(p.a >= 0 && p.b >= 0 && p.c >= 0 && p.a + p.b + p.c <= 1, InvalidArgument,
               "kelp::generators::rmat: quadrant probabilities a = "
                   << p.a << ", b = " << p.b << ", c = " << p.c
                   << "; expected non-negative with a + b + c <= 1");
  const Ordinal n = static_cast<Ordinal>(1LL << p.scale);
  const std::size_t edges = static_cast<std::size_t>(p.edge_factor) * static_cast<std::size_t>(n);
  std::vector<Ordinal> rows(edges), cols(edges);
  std::mt19937_64 rng(p.seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (std::size_t e = 0; e < edges; ++e) {
    Ordinal i = 0, j = 0;
    for (int level = p.scale - 1; level >= 0; --level) {
      const double u = uniform(rng);
      const Ordinal bit = static_cast<Ordinal>(1) << level;
      if (u < p.a) {
        // top-left quadrant: neither bit
      } else if (u < p.a + p.b) {
        j |= bit;
      } else if (u < p.a + p.b + p.c) {
        i |= bit;
      } else {
        i |= bit;
        j |= bit;
      }
    }
    rows[e] = i;
    cols[e] = j;
  }
  return crs_from_coo<Scalar, Ordinal, Offset, Device>(n, n, rows, cols,
                                                       std::vector<Scalar>(edges, Scalar(1)));
}

}  // namespace kelp::generators
