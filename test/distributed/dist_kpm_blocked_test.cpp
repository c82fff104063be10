// The blocked KPM through an operator's block product (kpm_operator_moments with blocked = true:
// the distributed SpMMV, one halo exchange per step for all vectors, and the fused update with
// the 2R dots) gives the serial moments on many ranks, to rounding, for a complex Hermitian
// matrix (the TI Hamiltonian); the start vectors are hashed by global row (KpmStartVectors'
// global_row), so each rank draws its rows of the serial block. Issue 14.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <memory>
#include <vector>

#include "kelp/distributed/dist_crs_matrix.hpp"
#include "kelp/distributed/generators.hpp"
#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/kernels/generators/hamiltonians.hpp"
#include "kelp/solvers/kpm/kpm.hpp"
#include "kelp/solvers/kpm/kpm_operator.hpp"
#include "test/distributed/mpi_world.hpp"

namespace kelp::dist_kpm_blocked_test {
namespace {

using C = Kokkos::complex<double>;

/// The global row indices first, ..., first + count - 1 on the device (a free function: CUDA
/// refuses extended lambdas inside a test body, which is a private member function).
Kokkos::View<long long*> global_rows(long long first, long long count) {
  Kokkos::View<long long*> rows("global_row", count);
  Kokkos::parallel_for("fill", count, KOKKOS_LAMBDA(const long long i) { rows(i) = first + i; });
  return rows;
}

TEST(DistKpmBlocked, BlockedOperatorMomentsEqualTheSerialOnesOnManyRanks) {
  const int rank = test::mpi_rank(), size = test::mpi_size();
  generators::TopologicalInsulatorParams tp;
  tp.nx = 3, tp.ny = 3, tp.nz = 2, tp.disorder = 0.7;
  const auto H = generators::topological_insulator<C>(tp);
  const long long n = H.num_rows();
  const int num_moments = 33, R = 5;  // odd moment count: the last product stores one moment
  const auto scaling = solvers::KpmScaling::from_bounds(solvers::gershgorin_bounds(H), 0.01);
  MultiVectorView<C, Kokkos::LayoutRight> start("start", n, R);
  solvers::kpm_start_vectors(start, solvers::KpmTrace::stochastic, solvers::KpmRandomVector::random_phase, 11, 0);
  const auto serial =
      solvers::kpm_moments<C>(H, scaling, start, num_moments, solvers::KpmImplementation::blocked, R, 1e-6);

  const auto rows = dist::RowPartition::balanced(n, size);
  const auto Hd = std::make_shared<const dist::DistCrsMatrix<C>>(MPI_COMM_WORLD,
                                                                  dist::topological_insulator<C>(tp, rows, rank));
  const dist::DistOperator<C> op(Hd);
  // This rank's rows drawn directly by global row index.
  const long long first = rows.begin(rank), mine = rows.size(rank);
  const auto global_row = global_rows(first, mine);
  MultiVectorView<C, Kokkos::LayoutRight> local("local", mine, R);
  Kokkos::deep_copy(local, C(std::nan(""), 0.0));
  solvers::impl::KpmStartVectors<C, MultiVectorView<C, Kokkos::LayoutRight>> f{local, 11, 0, 2, global_row};
  Kokkos::parallel_for("start", mine, f);
  const auto blocked = solvers::kpm_operator_moments(op, scaling, local, num_moments, 1e-6, dist::MpiReduction(), true);
  const auto naive = solvers::kpm_operator_moments(op, scaling, local, num_moments, 1e-6, dist::MpiReduction(), false);
  ASSERT_EQ(blocked.values.size(), serial.values.size());
  for (std::size_t i = 0; i < serial.values.size(); ++i) {
    EXPECT_NEAR(blocked.values[i], serial.values[i], 1e-12 * n) << i;
    EXPECT_NEAR(naive.values[i], serial.values[i], 1e-12 * n) << i;
  }
}

}  // namespace
}  // namespace kelp::dist_kpm_blocked_test
