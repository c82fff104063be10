// Eigensolvers on many ranks (issue 14, "Checked against"): LOBPCG with dist::MpiReduction on a
// dist::DistOperator of a coupled SPD matrix (2D Laplacian: every product needs the halo) gives
// the eigenvalues of the serial LOBPCG run on the whole matrix, to the solver tolerance; KPM
// moments (kpm_operator_moments: partial moments per rank, one reduction at the end) and the
// density of states of a periodic tight-binding Hamiltonian equal the serial ones to rounding.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/generators.hpp"
#include "kelp/distributed/local_rows_from_global.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/kernels/generators/hamiltonians.hpp"
#include "kelp/solvers/kpm/kpm.hpp"
#include "kelp/solvers/kpm/kpm_lanczos.hpp"
#include "kelp/solvers/kpm/kpm_operator.hpp"
#include "kelp/solvers/lobpcg/lobpcg.hpp"
#include "test/distributed/mpi_world.hpp"

namespace kelp::dist_eigensolvers_test {
namespace {



/// The same global start block on every rank count: entry (g, j) depends on the global row g
/// only, so each rank fills its own rows of one global vector.
MultiVectorView<double> start_block(long long first_row, Ordinal rows, int k) {
  MultiVectorView<double> X("X", rows, k);
  auto h = Kokkos::create_mirror_view(X);
  for (Ordinal i = 0; i < rows; ++i) {
    for (int j = 0; j < k; ++j) {
      const double g = static_cast<double>(first_row + i);
      h(i, j) = std::cos(0.37 * (g + 1.0) * (j + 1.0)) + 0.1 * std::sin(1.7 * g + j);
    }
  }
  Kokkos::deep_copy(X, h);
  return X;
}

solvers::LobpcgParams lobpcg_params() {
  solvers::LobpcgParams params;
  params.num_eigenpairs = 4;
  params.relative_tolerance = 1e-8;
  params.max_iterations = 1000;
  return params;
}

TEST(DistEigensolvers, LobpcgGivesTheSerialEigenvaluesOnManyRanks) {
  const long long nx = 20, ny = 20, n = nx * ny;
  const auto params = lobpcg_params();

  // Serial: the whole matrix on every rank, local reduction.
  const auto A = generators::laplace2d<double>(nx, ny);
  solvers::Lobpcg<double> serial_solver(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), nullptr,
                                        nullptr, params);
  auto X_serial = start_block(0, A.num_rows(), params.num_eigenpairs);
  const auto serial = serial_solver.solve(X_serial, solvers::LobpcgStart::provided);
  ASSERT_TRUE(serial.converged());

  // Distributed: this rank's rows only, halo exchange in every product, MPI reductions.
  const auto rows = dist::RowPartition::balanced(n, test::mpi_size());
  const int rank = test::mpi_rank();
  auto Ad = std::make_shared<const dist::DistCrsMatrix<double>>(MPI_COMM_WORLD,
                                                                 dist::laplace2d<double>(nx, ny, rows, rank));
  solvers::Lobpcg<double, DefaultDevice, dist::MpiReduction> solver(
      std::make_shared<dist::DistOperator<double>>(Ad), nullptr, nullptr, params, dist::MpiReduction());
  auto X = start_block(rows.begin(rank), static_cast<Ordinal>(rows.size(rank)), params.num_eigenpairs);
  const auto distributed = solver.solve(X, solvers::LobpcgStart::provided);

  ASSERT_TRUE(distributed.converged()) << solvers::to_string(distributed.reason);
  ASSERT_EQ(distributed.eigenvalues.size(), serial.eigenvalues.size());
  for (std::size_t j = 0; j < serial.eigenvalues.size(); ++j) {
    // Residual 1e-8 |lambda| bounds the eigenvalue error by ~ that over the gap, squared.
    EXPECT_NEAR(distributed.eigenvalues[j], serial.eigenvalues[j], 1e-8 * std::abs(serial.eigenvalues[j])) << j;
    EXPECT_LE(distributed.residual_norms[j], params.relative_tolerance * std::abs(distributed.eigenvalues[j]));
  }
  // The exact eigenvalues of the 5-point Laplacian: 4 - 2 cos(pi a / 21) - 2 cos(pi b / 21).
  const double pi = std::acos(-1.0);
  auto exact = [&](int a, int b) { return 4.0 - 2.0 * std::cos(pi * a / (nx + 1)) - 2.0 * std::cos(pi * b / (ny + 1)); };
  const double expected[4] = {exact(1, 1), exact(1, 2), exact(2, 1), exact(2, 2)};
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(distributed.eigenvalues[j], expected[j], 1e-8 * expected[j]) << j;
}

TEST(DistEigensolvers, KpmMomentsAndDensityEqualTheSerialOnesOnManyRanks) {
  const long long nx = 16, ny = 16, n = nx * ny;
  const int num_moments = 64, num_vectors = 3;
  const auto H = generators::tight_binding<double>(nx, ny, 1, 1.0, true);
  const auto scaling = solvers::KpmScaling::from_bounds(solvers::gershgorin_bounds(H), 0.01);
  // One global Rademacher block (entries hashed from (seed, global row, vector)), made whole on
  // every rank; each rank takes its own rows of it.
  MultiVectorView<double, Kokkos::LayoutRight> start("start", n, num_vectors);
  solvers::kpm_start_vectors(start, solvers::KpmTrace::stochastic, solvers::KpmRandomVector::rademacher, 7, 0);
  const auto serial = solvers::kpm_moments<double>(H, scaling, start, num_moments, solvers::KpmImplementation::naive,
                                                   1, 1e-6);

  // The operator path on one rank reproduces kpm_moments.
  const MatrixOperator<CrsMatrix<double>> whole(H);
  const auto local = solvers::kpm_operator_moments(whole, scaling, start, num_moments, 1e-6);
  ASSERT_EQ(local.values.size(), serial.values.size());
  for (std::size_t i = 0; i < serial.values.size(); ++i) EXPECT_NEAR(local.values[i], serial.values[i], 1e-12 * n) << i;

  const auto rows = dist::RowPartition::balanced(n, test::mpi_size());
  const int rank = test::mpi_rank();
  const auto Hd = std::make_shared<const dist::DistCrsMatrix<double>>(
      MPI_COMM_WORLD, dist::tight_binding<double>(nx, ny, 1, 1.0, true, rows, rank));
  const dist::DistOperator<double> op(Hd);
  MultiVectorView<double, Kokkos::LayoutRight> mine("mine", rows.size(rank), num_vectors);
  Kokkos::deep_copy(mine, Kokkos::subview(start, std::make_pair(rows.begin(rank), rows.end(rank)), Kokkos::ALL));
  const auto distributed = solvers::kpm_operator_moments(op, scaling, mine, num_moments, 1e-6, dist::MpiReduction());

  ASSERT_EQ(distributed.values.size(), serial.values.size());
  for (std::size_t i = 0; i < serial.values.size(); ++i) {
    // mu_0 = n for Rademacher vectors: rounding of sums of n terms of size <= 1.
    EXPECT_NEAR(distributed.values[i], serial.values[i], 1e-12 * n) << i;
  }
  std::vector<double> energies;
  for (int k = 0; k <= 40; ++k) energies.push_back(-4.0 + 0.2 * k);
  const auto rho_serial = solvers::kpm_density(serial.normalised(), scaling, solvers::KpmDampingKernel::jackson, 4.0, energies);
  const auto rho = solvers::kpm_density(distributed.normalised(), scaling, solvers::KpmDampingKernel::jackson, 4.0, energies);
  const double peak = *std::max_element(rho_serial.begin(), rho_serial.end());
  for (std::size_t k = 0; k < energies.size(); ++k) EXPECT_NEAR(rho[k], rho_serial[k], 1e-12 * peak) << energies[k];
}

// The audit's l27 (27-point Laplacian 3x3x3) and tight-binding 7x5x3 (105 rows) and a periodic
// 6-site chain: 30 Lanczos steps, comparable to n. The distributed bounds differed from the serial
// ones by up to 3 % (loss of orthogonality amplified the rounding of the reductions); with the
// shared, reorthogonalized Lanczos (kpm_lanczos.hpp) and the start vector drawn by global row they
// agree to rounding, and equal the extreme eigenvalues where the steps reach n.
TEST(DistEigensolvers, KpmLanczosBoundsEqualTheSerialOnesOnManyRanks) {
  const auto l27 = generators::laplace3d_27pt<double>(3, 3, 3);
  const auto cubic = generators::tight_binding<double>(7, 5, 3, 1.0, false);
  const auto chain = generators::tight_binding<double>(6, 1, 1, 1.0, true);
  for (const auto* H : {&l27, &cubic, &chain}) {
    const long long n = H->num_rows();
    for (int steps : {5, 30}) {
      SCOPED_TRACE(std::to_string(n) + " rows, " + std::to_string(steps) + " steps");
      const auto gershgorin = solvers::gershgorin_bounds(*H);
      const auto serial = solvers::lanczos_bounds(*H, steps, 42 ^ 0x5A5A5A5AULL);
      const auto rows = dist::RowPartition::balanced(n, test::mpi_size());
      const int rank = test::mpi_rank();
      const auto Hd = std::make_shared<const dist::DistCrsMatrix<double>>(
          MPI_COMM_WORLD, dist::local_rows_from_global(*H, rows, rows, rank));
      const dist::DistOperator<double> op(Hd);
      Kokkos::View<long long*> global_row("global_row", rows.size(rank));
      auto host = Kokkos::create_mirror_view(global_row);
      for (long long i = 0; i < rows.size(rank); ++i) host(i) = rows.begin(rank) + i;
      Kokkos::deep_copy(global_row, host);

      const auto distributed = solvers::kpm_lanczos_bounds(op, gershgorin, n, steps, 42 ^ 0x5A5A5A5AULL, global_row,
                                                           dist::MpiReduction());

      // Not bitwise: the reductions add in another order, and where the 27-point Laplacian's
      // degenerate spectrum makes beta fall towards the breakdown threshold that rounding shows
      // (measured 2.5e-11 of the width; the old code differed by 3e-2).
      const double scale = gershgorin.upper - gershgorin.lower;
      EXPECT_NEAR(distributed.lower, serial.lower, 1e-9 * scale);
      EXPECT_NEAR(distributed.upper, serial.upper, 1e-9 * scale);
      if (H == &chain && steps >= n) {  // all n steps: the extreme eigenvalues, -2 and 2
        EXPECT_NEAR(serial.lower, -2.0, 1e-9);
        EXPECT_NEAR(serial.upper, 2.0, 1e-9);
      }
    }
  }
}

}  // namespace
}  // namespace kelp::dist_eigensolvers_test
