// Downstream use of the installed Kelp::kelp_mpi component: a vector split over the ranks, its
// global dot product through dist::MpiReduction, checked against the closed form; and a
// distributed 1D Laplacian (the compiled dist::DistCrsMatrix) applied to ones.
#include <mpi.h>

#include <cstdio>

#include <kelp/distributed/dist_crs_matrix.hpp>
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

    // 1D Laplacian tridiag(-1, 2, -1) on 10 * size rows: A * ones is 1 at both ends, 0 inside.
    kelp::dist::LocalRows<double> mine;
    mine.global_rows = mine.global_cols = 10 * size;
    mine.rows = mine.cols = kelp::dist::RowPartition::balanced(mine.global_rows, size);
    for (auto i = mine.rows.begin(rank); i < mine.rows.end(rank); ++i) {
      for (auto c : {i - 1, i, i + 1}) {
        if (c < 0 || c >= mine.global_cols) continue;
        mine.col_index.push_back(c);
        mine.values.push_back(c == i ? 2.0 : -1.0);
      }
      mine.row_map.push_back(static_cast<std::int64_t>(mine.col_index.size()));
    }
    kelp::dist::DistCrsMatrix<double> A(MPI_COMM_WORLD, mine);
    kelp::VectorView<double> ones("ones", static_cast<std::size_t>(A.num_local_cols()));
    kelp::VectorView<double> y("y", static_cast<std::size_t>(A.num_local_rows()));
    Kokkos::deep_copy(ones, 1.0);
    A.apply(ones, y);
    const double sum = reduce.dot(ones, y);
    if (rank == 0) std::printf("downstream_mpi: sum of A * ones %.1f, expected 2.0\n", sum);
    if (sum != 2.0) status = 1;
  }
  MPI_Finalize();
  return status;
}
