// Model-problem generators: exact stencils on tiny grids, symmetry, row sums, sizes.
#include <gtest/gtest.h>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/generators/grid_count.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"

namespace kelp::generators_test {
namespace {

using Dense = std::vector<std::vector<double>>;

TEST(Generators, Laplace1dIsTheTridiagonalStencil) {
  EXPECT_EQ(test::to_dense(generators::laplace1d<double>(3)),
            (Dense{{2, -1, 0}, {-1, 2, -1}, {0, -1, 2}}));
}

TEST(Generators, Laplace2dFivePointOnTwoByTwo) {
  EXPECT_EQ(test::to_dense(generators::laplace2d<double>(2, 2)),
            (Dense{{4, -1, -1, 0}, {-1, 4, 0, -1}, {-1, 0, 4, -1}, {0, -1, -1, 4}}));
}

TEST(Generators, StencilSizesMatchTheGridCounts) {
  // 7-point on n^3: 7 n^3 - 6 n^2 entries.
  auto A = generators::laplace3d<double>(10, 10, 10);
  auto B = generators::laplace3d_27pt<double>(3, 3, 3);
  auto C = generators::laplace2d_9pt<double>(30, 30);

  EXPECT_EQ(A.num_rows(), 1000);
  EXPECT_EQ(A.nnz(), 7 * 1000 - 6 * 100);
  EXPECT_EQ(B.nnz(), 343);  // per direction 3 + 2 * 2 = 7 neighbour pairs: 7^3
  EXPECT_EQ(C.nnz(), 7744);                                // as gr_30_30 in test/data/matrices
}

template <class Matrix>
void expect_symmetric(const Matrix& A) {
  const auto d = test::to_dense(A);
  for (std::size_t i = 0; i < d.size(); ++i)
    for (std::size_t j = 0; j < d.size(); ++j) ASSERT_DOUBLE_EQ(d[i][j], d[j][i]) << i << "," << j;
}

TEST(Generators, SymmetricProblemsAreSymmetric) {
  expect_symmetric(generators::laplace3d_27pt<double>(3, 4, 2));
  expect_symmetric(generators::anisotropic2d<double>(5, 6, 0.01, 0.7));
}

TEST(Generators, InteriorRowsOfLaplaciansSumToZero) {
  // Row sums vanish away from the boundary: a constant is in the stencil's kernel.
  const auto d = test::to_dense(generators::laplace3d_27pt<double>(3, 3, 3));
  double sum = 0;
  for (double v : d[13]) sum += v;  // centre point of the 3^3 grid
  EXPECT_DOUBLE_EQ(sum, 0.0);
}

TEST(Generators, ConvectionDiffusionIsNonsymmetricMMatrix) {
  auto A = generators::convection_diffusion<double>(4, 4, 1, 20.0, -10.0, 0.0);
  const auto d = test::to_dense(A);
  bool symmetric = true;
  for (std::size_t i = 0; i < d.size(); ++i) {
    double off = 0;
    for (std::size_t j = 0; j < d.size(); ++j) {
      if (i != j) {
        EXPECT_LE(d[i][j], 0.0);
        off += -d[i][j];
      }
      symmetric = symmetric && d[i][j] == d[j][i];
    }
    EXPECT_GE(d[i][i], off - 1e-12);  // weakly diagonally dominant
  }
  EXPECT_FALSE(symmetric);
}

TEST(Generators, RejectsEmptyGridsAndBadAnisotropy) {
  test::expect_throw_containing<InvalidArgument>([] { generators::laplace2d<double>(0, 5); },
                                                 "grid 0 x 5 x 1");
  test::expect_throw_containing<InvalidArgument>(
      [] { generators::anisotropic2d<double>(4, 4, -1.0, 0.0); }, "epsilon = -1");
}

// 2^32 x 2^32 x 1 wraps a 64-bit product to 0 and 2^21 cubed to a negative count: both must be
// refused by the size check, not passed on to the allocation (a crash) or a loop (a hang).
TEST(Generators, RejectsGridsWhoseRowCountOverflows) {
  const long long big = 1LL << 32;
  test::expect_throw_containing<InvalidArgument>([&] { generators::laplace3d<double>(big, big, 1); },
                                                 "grid 4294967296 x 4294967296 x 1 has more than 2147483646 rows");
  test::expect_throw_containing<InvalidArgument>(
      [] { generators::laplace3d<double>(1LL << 21, 1LL << 21, 1LL << 21); }, "has more than");
  test::expect_throw_containing<InvalidArgument>([&] { generators::laplace2d<double>(big, big); }, "has more than");
}

TEST(Generators, GridCountIsExactUpToItsLimitAndNeverWraps) {
  using generators::grid_count;
  EXPECT_EQ(grid_count(3, 5, 7, 4, 420), 420);
  EXPECT_EQ(grid_count(3, 5, 7, 4, 419), -1);
  EXPECT_EQ(grid_count(1, 1, 1, 1, 1), 1);
  const long long max = generators::max_serial_rows;  // 2^31 - 2 = 2 x 3 x 357913941
  EXPECT_EQ(grid_count(2, 3, 357913941, 1, max), max);
  EXPECT_EQ(grid_count(2, 3, 357913942, 1, max), -1);
  const long long big = 1LL << 32;
  EXPECT_EQ(grid_count(big, big, 1, 1, max), -1);
  EXPECT_EQ(grid_count(big, big, big, 4, generators::max_distributed_rows), -1);
  EXPECT_EQ(grid_count(1LL << 20, 1LL << 20, 1LL << 20, 1, generators::max_distributed_rows), 1LL << 60);
  EXPECT_EQ(grid_count(0, 5, 5, 1, max), -1);
}

}  // namespace
}  // namespace kelp::generators_test
