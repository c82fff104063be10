// The MPI reduction policy on 1, 2 and 3 ranks (odd counts give uneven blocks): global dots and
// norms, and an unmodified CG that must take exactly the serial iteration count.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <memory>

#include "kelp/distributed/mpi_reduction.hpp"
#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/identity.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "test/distributed/mpi_world.hpp"

namespace kelp::mpi_reduction_test {
namespace {


template <class Scalar>
Kokkos::View<Scalar*> local_values(long long n, Scalar (*f)(long long)) {
  const auto [begin, end] = test::even_share(n);
  Kokkos::View<Scalar*> v("v", end - begin);
  auto h = Kokkos::create_mirror_view(v);
  for (long long i = begin; i < end; ++i) h(i - begin) = f(i);
  Kokkos::deep_copy(v, h);
  return v;
}

TEST(MpiReduction, DotsAndNormsEqualTheGlobalSums) {
  const long long n = 1001;
  auto x = local_values<double>(n, [](long long i) { return 1.0 + i % 7; });
  auto y = local_values<double>(n, [](long long i) { return 0.5 * (i % 3); });
  double ref_xy = 0, ref_xx = 0;
  for (long long i = 0; i < n; ++i) {
    ref_xy += (1.0 + i % 7) * 0.5 * (i % 3);
    ref_xx += (1.0 + i % 7) * (1.0 + i % 7);
  }
  dist::MpiReduction reduce;

  const double xy = reduce.dot(x, y);
  const auto [d1, d2] = reduce.dots(x, y, x, x);
  const double norm = reduce.norm2(x);

  EXPECT_NEAR(xy, ref_xy, 1e-10 * ref_xy);
  EXPECT_NEAR(d1, ref_xy, 1e-10 * ref_xy);
  EXPECT_NEAR(d2, ref_xx, 1e-10 * ref_xx);
  EXPECT_NEAR(norm, std::sqrt(ref_xx), 1e-10 * std::sqrt(ref_xx));
}

TEST(MpiReduction, ComplexDotConjugatesAcrossRanks) {
  using C = Kokkos::complex<double>;
  auto x = local_values<C>(10, [](long long i) { return C(0, static_cast<double>(i)); });
  dist::MpiReduction reduce;

  const C xx = reduce.dot(x, x);

  EXPECT_NEAR(xx.real(), 285.0, 1e-12);  // sum of i^2, i < 10
  EXPECT_NEAR(xx.imag(), 0.0, 1e-12);
}

TEST(MpiReduction, DistributedCgMatchesTheSerialIterationCount) {
  // A diagonal SPD matrix split by rows: no halo needed, but every CG step depends on global
  // inner products, so a wrong reduction changes the iteration count or the solution.
  const long long n = 3000;
  auto diagonal = [](long long i) { return 1.0 + static_cast<double>(i % 97); };
  auto solve = [&](long long begin, long long end, auto reduce) {
    const int local_n = static_cast<int>(end - begin);
    std::vector<Ordinal> idx(local_n);
    std::vector<double> values(local_n);
    for (int i = 0; i < local_n; ++i) {
      idx[i] = i;
      values[i] = diagonal(begin + i);
    }
    auto A = crs_from_coo<double>(local_n, local_n, idx, idx, values);
    // Identity, not Jacobi: Jacobi would make this diagonal system converge in one step.
    auto M = std::make_shared<precond::Identity<CrsMatrix<double>>>();
    M->setup(A);
    solvers::Cg<double, DefaultDevice, decltype(reduce)> cg(
        std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), M, {}, reduce);
    VectorView<double> b("b", local_n), x("x", local_n);
    auto bh = Kokkos::create_mirror_view(b);
    for (int i = 0; i < local_n; ++i) bh(i) = std::cos(static_cast<double>(begin + i));
    Kokkos::deep_copy(b, bh);
    return cg.solve(b, x);
  };
  const auto [begin, end] = test::even_share(n);

  const auto distributed = solve(begin, end, dist::MpiReduction());
  const auto serial = solve(0, n, solvers::LocalReduction());

  EXPECT_TRUE(distributed.converged());
  EXPECT_EQ(distributed.iterations, serial.iterations);
  EXPECT_NEAR(distributed.residual_norm, serial.residual_norm, 1e-6 * serial.rhs_norm);
  EXPECT_NEAR(distributed.rhs_norm, serial.rhs_norm, 1e-12 * serial.rhs_norm);
}

}  // namespace
}  // namespace kelp::mpi_reduction_test

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int result;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    result = RUN_ALL_TESTS();
  }
  // Every rank must agree that the run passed.
  int worst = result;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
