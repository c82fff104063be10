#pragma once
// MPI_COMM_WORLD helpers shared by the distributed tests: this rank, the number of ranks, and an
// even split of n items (the first n % size ranks get one more).
#include <mpi.h>

#include <algorithm>
#include <utility>

namespace kelp::test {

inline int mpi_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int mpi_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// This rank's items [begin, end) of n, split as evenly as possible.
inline std::pair<long long, long long> even_share(long long n) {
  const long long size = mpi_size(), rank = mpi_rank();
  const long long base = n / size, extra = n % size;
  const long long begin = rank * base + std::min(rank, extra);
  return {begin, begin + base + (rank < extra ? 1 : 0)};
}

}  // namespace kelp::test
