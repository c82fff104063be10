// Gauss-Seidel's apply semantics beside Kokkos Kernels': start from x = 0 (InitialGuess::zero,
// x not read) or from the given x, and no cached right-hand side to go stale: every variant reads
// b where it is, in the original order, on every call (nothing is permuted or prepared), so a call
// after another right-hand side, or after only x changed, gives bitwise the same result as the
// first call with those inputs.
#include <gtest/gtest.h>

#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"
#include "test/support/dense.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"

namespace kelp::gauss_seidel_rhs_test {
namespace {

using precond::GaussSeidelParams;
using precond::GaussSeidelVariant;

std::vector<double> smoothed(const precond::GaussSeidel<CrsMatrix<double>>& M, const std::vector<double>& b,
                             const std::vector<double>& x0, InitialGuess guess) {
  auto x = test::vector_from<double>(x0);
  if (guess == InitialGuess::zero) test::poison(x);  // not read
  M.smooth(test::vector_from<double>(b), x, 2, guess);
  return test::to_std(x);
}

TEST(GaussSeidelRhs, RepeatedCallsWithTheSameRightHandSideAreIdentical) {
  const auto A = generators::laplace3d<double>(9, 8, 7);
  const int n = A.num_rows();
  const auto b1 = test::random_vector<double>(n, 1), b2 = test::random_vector<double>(n, 2);
  const auto x0 = test::random_vector<double>(n, 3), x1 = test::random_vector<double>(n, 4);
  for (auto variant : {GaussSeidelVariant::multicolor, GaussSeidelVariant::cluster, GaussSeidelVariant::two_stage}) {
    GaussSeidelParams p;
    p.variant = variant;
    p.omega = 1.2;
    precond::GaussSeidel<CrsMatrix<double>> M(p);
    M.setup(A);
    SCOPED_TRACE(M.summary());
    for (auto guess : {InitialGuess::provided, InitialGuess::zero}) {
      const auto first = smoothed(M, b1, x0, guess);
      const auto other_x = smoothed(M, b1, x1, guess);  // only x changed
      const auto other_b = smoothed(M, b2, x0, guess);  // another right-hand side in between
      EXPECT_EQ(smoothed(M, b1, x0, guess), first);
      if (guess == InitialGuess::zero) {
        EXPECT_EQ(other_x, first);  // x is not read
      } else {
        EXPECT_NE(other_x, first);
      }
      EXPECT_NE(other_b, first);
    }
  }
}

}  // namespace
}  // namespace kelp::gauss_seidel_rhs_test
