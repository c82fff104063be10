// Jacobi and identity preconditioners: exact values, setup-order rules, zero diagonals.
#include <gtest/gtest.h>

#include <limits>

#include "kelp/precond/identity.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"

namespace kelp::jacobi_test {
namespace {

using Matrix = CrsMatrix<double>;

TEST(Jacobi, AppliesDampedInverseDiagonal) {
  auto A = test::crs_from_dense<double>({{2, -1, 0}, {-1, 4, -1}, {0, -1, 8}});
  auto x = test::vector_from<double>({1, 2, 3});
  auto y = test::vector_from<double>({0, 0, 0});
  test::poison(y);
  precond::Jacobi<Matrix> jacobi(precond::JacobiParams{0.5});
  jacobi.setup(A);

  jacobi.apply(x, y);

  EXPECT_EQ(test::to_std(y), (std::vector<double>{0.25, 0.25, 0.1875}));  // 0.5 * x_i / a_ii
}

TEST(Jacobi, AccumulatesWithAlphaAndBeta) {
  auto A = test::crs_from_dense<double>({{2, 0}, {0, 4}});
  auto x = test::vector_from<double>({2, 4});
  auto y = test::vector_from<double>({1, 1});
  precond::Jacobi<Matrix> jacobi;
  jacobi.setup(A);

  jacobi.apply(x, y, 3.0, 2.0);  // y = 3 D^{-1} x + 2 y

  EXPECT_EQ(test::to_std(y), (std::vector<double>{5, 5}));
}

TEST(Jacobi, RejectsZeroDiagonalNamingTheRowOneBased) {
  auto A = test::crs_from_dense<double>({{1, 0, 0}, {0, 1, 1}, {0, 1, 0}});
  precond::Jacobi<Matrix> jacobi;
  jacobi.setup_symbolic(A);

  // Row index 2 (0-based) is the file's row 3.
  test::expect_throw_containing<NumericalError>(
      [&] { jacobi.setup_numeric(A); },
      "kelp::precond::Jacobi::setup_numeric: zero diagonal entry at row 3 (1-based) (absent or "
      "stored as 0); Jacobi needs a nonzero, finite diagonal");
}

TEST(Jacobi, ZeroDiagonalErrorNamesTheMatrixLabel) {
  auto A = test::crs_from_dense<double>({{0, 1}, {1, 2}});
  precond::Jacobi<Matrix> jacobi(precond::JacobiParams{}, "test/x.mtx");

  test::expect_throw_containing<NumericalError>(
      [&] { jacobi.setup(A); },
      "kelp::precond::Jacobi::setup_numeric: zero diagonal entry at row 1 (1-based) of matrix "
      "'test/x.mtx'");
  EXPECT_EQ(jacobi.matrix_label(), "test/x.mtx");
}

TEST(Jacobi, NonFiniteDiagonalErrorNamesTheValue) {
  auto A = test::crs_from_dense<double>({{1, 0}, {0, std::numeric_limits<double>::infinity()}});
  precond::Jacobi<Matrix> jacobi;

  test::expect_throw_containing<NumericalError>(
      [&] { jacobi.setup(A); },
      "setup_numeric: non-finite diagonal entry (inf) at row 2 (1-based); Jacobi needs a "
      "nonzero, finite diagonal");
}

TEST(Jacobi, EnforcesSetupOrder) {
  auto A = test::crs_from_dense<double>({{1, 0}, {0, 1}});
  auto B = test::crs_from_dense<double>({{1, 1}, {0, 1}});
  auto x = test::vector_from<double>({1, 1});
  auto y = test::vector_from<double>({0, 0});
  precond::Jacobi<Matrix> jacobi;

  test::expect_throw_containing<InvalidState>([&] { jacobi.setup_numeric(A); },
                                              "setup_numeric: called before setup_symbolic");
  jacobi.setup_symbolic(A);
  test::expect_throw_containing<InvalidState>([&] { jacobi.apply(x, y); },
                                              "apply: called before setup_numeric");
  test::expect_throw_containing<InvalidState>([&] { jacobi.setup_numeric(B); },
                                              "pattern differs from the one given to setup_symbolic");
}

TEST(Jacobi, ValuesOnlyResetupRefusesAPatternWhoseEntriesMovedBetweenRows) {
  // Same nnz and the same column indices {0, 1}: only row_map tells them apart.
  auto A = test::crs_from_dense<double>({{2, 0}, {0, 3}});
  auto B = test::crs_from_dense<double>({{0, 0}, {2, 3}});
  precond::Jacobi<Matrix> jacobi;
  jacobi.setup_symbolic(A);

  test::expect_throw_containing<InvalidState>([&] { jacobi.setup_numeric(B); },
                                              "pattern differs from the one given to setup_symbolic");
}

TEST(Jacobi, ApplyBeforeAnySetupSaysSoRatherThanZeroByZero) {
  auto x = test::vector_from<double>({1, 1});
  auto y = test::vector_from<double>({0, 0});
  precond::Jacobi<Matrix> jacobi;
  precond::Identity<Matrix> identity;

  test::expect_throw_containing<InvalidState>(
      [&] { jacobi.apply(x, y); }, "kelp::precond::Jacobi::apply: called before setup_numeric");
  test::expect_throw_containing<InvalidState>(
      [&] { identity.apply(x, y); }, "kelp::precond::Identity::apply: called before setup_numeric");
  EXPECT_FALSE(jacobi.is_set_up());
}

TEST(Jacobi, FailedSetupNumericLeavesThePreconditionerNotSetUp) {
  auto good = test::crs_from_dense<double>({{2, 1}, {1, 3}});
  auto singular = test::crs_from_dense<double>({{2, 1}, {1, 3}});
  Kokkos::deep_copy(Kokkos::subview(singular.values(), 3), 0.0);  // a(1,1) = 0, same pattern
  auto x = test::vector_from<double>({1, 1});
  auto y = test::vector_from<double>({0, 0});
  precond::Jacobi<Matrix> jacobi;
  jacobi.setup(good);

  EXPECT_THROW(jacobi.setup_numeric(singular), NumericalError);
  EXPECT_FALSE(jacobi.is_set_up());
  EXPECT_THROW(jacobi.apply(x, y), InvalidState);
}

TEST(Jacobi, SetupNumericPicksUpNewValues) {
  auto A = test::crs_from_dense<double>({{2, 0}, {0, 2}});
  auto A2 = test::crs_from_dense<double>({{4, 0}, {0, 8}});
  auto x = test::vector_from<double>({8, 8});
  auto y = test::vector_from<double>({0, 0});
  precond::Jacobi<Matrix> jacobi;
  jacobi.setup(A);

  jacobi.setup_numeric(A2);  // same pattern, new values
  jacobi.apply(x, y);

  EXPECT_EQ(test::to_std(y), (std::vector<double>{2, 1}));
}

TEST(Jacobi, RejectsBadParametersAndShapes) {
  test::expect_throw_containing<InvalidArgument>([] { precond::Jacobi<Matrix>(precond::JacobiParams{0.0}); },
                                                 "damping = 0, expected 0 < damping <= 2");
  auto R = test::crs_from_dense<double>({{1, 0, 0}, {0, 1, 0}});
  precond::Jacobi<Matrix> jacobi;
  test::expect_throw_containing<DimensionMismatch>([&] { jacobi.setup_symbolic(R); },
                                                   "matrix is 2 x 3, expected square");
}

TEST(Jacobi, OperatorApplyChecksVectorLengths) {
  auto A = test::crs_from_dense<double>({{1, 0}, {0, 1}});
  auto x = test::vector_from<double>({1, 1, 1});
  auto y = test::vector_from<double>({0, 0});
  precond::Jacobi<Matrix> jacobi;
  jacobi.setup(A);

  test::expect_throw_containing<DimensionMismatch>([&] { jacobi.apply(x, y); },
                                                   "x has 3 rows, expected 2");
}

TEST(Identity, CopiesAndScales) {
  auto A = test::crs_from_dense<double>({{5, 0}, {0, 7}});
  auto x = test::vector_from<double>({1, -2});
  auto y = test::vector_from<double>({0, 0});
  test::poison(y);
  precond::Identity<Matrix> identity;
  identity.setup(A);

  identity.apply(x, y, 2.0, 0.0);

  EXPECT_EQ(test::to_std(y), (std::vector<double>{2, -4}));
}

}  // namespace
}  // namespace kelp::jacobi_test
