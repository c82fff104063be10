#pragma once
/// A row order that keeps a row's graph neighbours close to it in memory, for kernels whose
/// reuse of gathered rows depends on it: the blocked KPM SpMMV reads an R-wide row of V at every
/// column index, and a row of V stays in cache only while the rows that gather it are near.
///
/// Greedy graph growing (C. Farhat, "A simple and efficient automatic FEM domain decomposer",
/// Computers & Structures 28(5), 1988): parts of part_rows rows are grown one after another by
/// breadth-first search over the symmetrised pattern, each from the lowest-numbered row not yet
/// placed; a part's rows keep their original relative order. The result lists the parts one after
/// another. A row then gathers mostly from rows of its own part, so a part whose block rows fit
/// in cache is read from memory about once. In the natural order of an nx x ny x nz lattice a
/// row gathers from rows nx ny away, and at R = 32 on the H100 that made V be read about three
/// times per product (docs/performance.md, issue 12).
///
/// Host work: O(nnz) time and memory, no library. Not a minimal-cut partition (METIS would cut
/// fewer edges): the parts only need to be compact, not balanced against each other.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "kelp/kernels/core/error.hpp"

namespace kelp::kernels {

/// old_of_new of the locality order of a square pattern: row old_of_new[i] of the original
/// numbering becomes row i.
/// @param[in] n          rows (= columns)
/// @param[in] row_map    n + 1 offsets (host, any integer type)
/// @param[in] entries    column indices in [0, n) (host)
/// @param[in] part_rows  rows per part (>= 1; the last part of a connected component may be
///                       smaller)
/// @throws InvalidArgument for part_rows < 1 or a column index outside [0, n)
template <class RowMap, class Entries>
std::vector<std::int64_t> locality_order(std::int64_t n, const RowMap& row_map, const Entries& entries,
                                         std::int64_t part_rows) {
  KELP_REQUIRE(part_rows >= 1, InvalidArgument,
               "kelp::kernels::locality_order: part_rows = " << part_rows << ", expected >= 1");
  // Symmetrised adjacency (both directions of every stored off-diagonal entry; duplicates are
  // harmless to the search).
  std::vector<std::int64_t> start(static_cast<std::size_t>(n) + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      const std::int64_t j = static_cast<std::int64_t>(entries(k));
      KELP_REQUIRE(j >= 0 && j < n, InvalidArgument,
                   "kelp::kernels::locality_order: row " << i << " has column " << j << " outside [0, " << n << ")");
      if (j == i) continue;
      ++start[static_cast<std::size_t>(i) + 1];
      ++start[static_cast<std::size_t>(j) + 1];
    }
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::int64_t> adjacent(static_cast<std::size_t>(start.back()));
  {
    std::vector<std::int64_t> next(start.begin(), start.end() - 1);
    for (std::int64_t i = 0; i < n; ++i) {
      for (auto k = row_map(i); k < row_map(i + 1); ++k) {
        const std::int64_t j = static_cast<std::int64_t>(entries(k));
        if (j == i) continue;
        adjacent[static_cast<std::size_t>(next[i]++)] = j;
        adjacent[static_cast<std::size_t>(next[j]++)] = i;
      }
    }
  }
  std::vector<std::int64_t> old_of_new;
  old_of_new.reserve(static_cast<std::size_t>(n));
  std::vector<char> placed(static_cast<std::size_t>(n), 0);
  std::vector<std::int64_t> part;  // the part being grown, in search order (it is the queue)
  std::int64_t seed = 0;
  while (static_cast<std::int64_t>(old_of_new.size()) < n) {
    while (placed[static_cast<std::size_t>(seed)]) ++seed;
    part.assign(1, seed);
    placed[static_cast<std::size_t>(seed)] = 1;
    for (std::size_t head = 0; head < part.size() && static_cast<std::int64_t>(part.size()) < part_rows; ++head) {
      const std::int64_t u = part[head];
      for (auto k = start[static_cast<std::size_t>(u)]; k < start[static_cast<std::size_t>(u) + 1]; ++k) {
        const std::int64_t v = adjacent[static_cast<std::size_t>(k)];
        if (placed[static_cast<std::size_t>(v)] || static_cast<std::int64_t>(part.size()) >= part_rows) continue;
        placed[static_cast<std::size_t>(v)] = 1;
        part.push_back(v);
      }
    }
    std::sort(part.begin(), part.end());
    old_of_new.insert(old_of_new.end(), part.begin(), part.end());
  }
  return old_of_new;
}

}  // namespace kelp::kernels
