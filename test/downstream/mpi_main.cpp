// Downstream use of the installed Kelp::kelp_mpi component: a vector split over the ranks, its
// global dot product through dist::MpiReduction, checked against the closed form.
#include <mpi.h>

#include <cstdio>

#include <kelp/distributed/mpi_reduction.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 1;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int local = 100 + rank;  // uneven blocks
    kelp::VectorView<double> x("x", local);
    Kokkos::deep_copy(x, 1.0);
    kelp::dist::MpiReduction reduce(MPI_COMM_WORLD);
    const double dot = reduce.dot(x, x);
    const double expected = 100.0 * size + size * (size - 1) / 2.0;
    if (rank == 0) std::printf("downstream_mpi: %d ranks, dot %.1f, expected %.1f\n", size, dot, expected);
    status = dot == expected ? 0 : 1;
  }
  MPI_Finalize();
  return status;
}
