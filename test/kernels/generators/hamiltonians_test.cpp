// Model Hamiltonians: the topological-insulator lattice (size, ~13 nonzeros per row, Hermitian,
// reproducible disorder) and tight-binding lattices (analytic chain spectrum).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kelp/kernels/generators/hamiltonians.hpp"
#include "test/support/expect.hpp"

namespace kelp::hamiltonians_test {
namespace {

using Complex = Kokkos::complex<double>;

TEST(TopologicalInsulator, HasFourOrbitalsPerSiteThirteenNonzerosPerRowAndIsHermitian) {
  generators::TopologicalInsulatorParams p;
  p.nx = 4, p.ny = 3, p.nz = 5;
  p.disorder = 1.0;

  const auto H = to_host(generators::topological_insulator<Complex>(p));

  ASSERT_EQ(H.num_rows(), 4 * 4 * 3 * 5);
  for (Ordinal i = 0; i < H.num_rows(); ++i) {
    const long long z = i / 4 / (4 * 3);
    const auto len = H.row_map()(i + 1) - H.row_map()(i);
    EXPECT_EQ(len, (z == 0 || z == 4) ? 11 : 13) << "row " << i;  // open in z
    for (auto k = H.row_map()(i); k < H.row_map()(i + 1); ++k) {
      const Ordinal j = H.entries()(k);
      bool found = false;
      for (auto l = H.row_map()(j); l < H.row_map()(j + 1); ++l) {
        if (H.entries()(l) != i) continue;
        found = true;
        EXPECT_NEAR(H.values()(l).real(), H.values()(k).real(), 1e-15);
        EXPECT_NEAR(H.values()(l).imag(), -H.values()(k).imag(), 1e-15);
      }
      EXPECT_TRUE(found) << i << " " << j;
    }
  }
}

TEST(TopologicalInsulator, DisorderIsReproducibleFromTheSeed) {
  generators::TopologicalInsulatorParams p;
  p.disorder = 2.0;
  p.seed = 9;
  const auto a = to_host(generators::topological_insulator<Complex>(p));
  const auto b = to_host(generators::topological_insulator<Complex>(p));
  p.seed = 10;
  const auto c = to_host(generators::topological_insulator<Complex>(p));

  int differ = 0;
  for (std::size_t k = 0; k < a.values().extent(0); ++k) {
    EXPECT_EQ(a.values()(k), b.values()(k));
    differ += !(a.values()(k) == c.values()(k));
  }
  EXPECT_GT(differ, 0);
}

TEST(TopologicalInsulator, RejectsShortPeriodicDirections) {
  generators::TopologicalInsulatorParams p;
  p.nx = 2;
  test::expect_throw_containing<InvalidArgument>(
      [&] { generators::topological_insulator<Complex>(p); }, "periodic_xy needs nx, ny >= 3");
}

// Sizes whose row count wraps a 64-bit product (it hung in the fill loop before): refused.
TEST(TopologicalInsulator, RejectsLatticesWhoseRowCountOverflows) {
  generators::TopologicalInsulatorParams p;
  p.nx = p.ny = 1LL << 31;
  p.nz = 1;
  test::expect_throw_containing<InvalidArgument>([&] { generators::topological_insulator<Complex>(p); },
                                                 "x 4 per point has more than 2147483646 rows");
  const long long big = 1LL << 32;
  test::expect_throw_containing<InvalidArgument>(
      [&] { generators::tight_binding<double>(big, big, 1, 1.0, false); }, "has more than 2147483646 rows");
}

TEST(TightBinding, PeriodicChainHasCosineSpectrumRowSums) {
  const auto H = to_host(generators::tight_binding<double>(7, 1, 1, 0.5, true));
  const auto square = to_host(generators::tight_binding<double>(4, 3, 1, 1.0, false));

  ASSERT_EQ(H.num_rows(), 7);
  for (Ordinal i = 0; i < 7; ++i) {
    double sum = 0;
    for (auto k = H.row_map()(i); k < H.row_map()(i + 1); ++k) sum += H.values()(k);
    EXPECT_DOUBLE_EQ(sum, -1.0);  // the k = 0 eigenvector (all ones): E = -2t
  }
  EXPECT_EQ(square.nnz(), 2 * (3 * 3 + 4 * 2));  // open 4 x 3: 17 bonds, both directions
}

}  // namespace
}  // namespace kelp::hamiltonians_test
