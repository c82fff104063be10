// Jacobi and Identity on blocks of vectors and in every mode: a block apply (one kernel) equals
// k single applies and a dense reference of op(M^{-1}) (transpose: the same diagonal,
// conjugate_transpose: its conjugate), for every scalar, k = 1, 3, 0, beta = 0 with NaN-poisoned
// outputs and general alpha, beta.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "kelp/precond/identity.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/operator_check.hpp"
#include "test/support/random_matrices.hpp"

namespace kelp::block_apply_test {
namespace {

const OperatorMode all_modes[] = {OperatorMode::no_transpose, OperatorMode::transpose,
                                  OperatorMode::conjugate_transpose};

template <class Scalar>
class PrecondBlock : public ::testing::Test {};
using Scalars = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(PrecondBlock, Scalars);

/// n x n with a random nonzero (complex: non-real) diagonal and one random off-diagonal per row;
/// `diagonal` receives the diagonal.
template <class Scalar>
CrsMatrix<Scalar> random_diagonally_dominant(int n, std::vector<Scalar>& diagonal) {
  std::mt19937 rng(99);
  std::vector<Ordinal> rows, cols;
  std::vector<Scalar> values;
  diagonal.resize(n);
  for (int i = 0; i < n; ++i) {
    diagonal[i] = test::random_scalar<Scalar>(rng) + test::coefficient<Scalar>(3.0, 1.0);
    rows.insert(rows.end(), {i, i});
    cols.insert(cols.end(), {i, (7 * i + 3) % n == i ? (i + 1) % n : (7 * i + 3) % n});
    values.insert(values.end(), {diagonal[i], test::random_scalar<Scalar>(rng)});
  }
  return crs_from_coo<Scalar>(n, n, rows, cols, values);
}

template <class Scalar>
void check_every_mode_and_block(const Operator<Scalar>& op,
                                const std::vector<std::vector<Scalar>>& dense) {
  const std::pair<Scalar, Scalar> cases[] = {
      {Scalar(1), Scalar(0)},
      {test::coefficient<Scalar>(-1.5, 0.5), Scalar(0)},
      {test::coefficient<Scalar>(0.75, -0.25), test::coefficient<Scalar>(-0.5, 1.0)}};
  const double tol = test::operator_tolerance<Scalar>();
  for (const OperatorMode mode : all_modes) {
    ASSERT_TRUE(op.supports(mode)) << to_string(mode);
    for (const int k : {1, 3, 0}) {
      for (const auto& [alpha, beta] : cases) {
        SCOPED_TRACE(op.summary() + ", " + to_string(mode) + ", k = " + std::to_string(k));

        const auto run = test::run_block_and_singles(op, mode, k, alpha, beta, 31u + k);

        EXPECT_TRUE(test::all_close(run.block, run.singles, 0.0));  // same arithmetic per entry
        EXPECT_TRUE(test::all_close(
            run.block, test::dense_apply(dense, mode, alpha, run.x, k, beta, run.y0), tol));
      }
    }
  }
}

TYPED_TEST(PrecondBlock, JacobiBlockEqualsSingleAppliesInEveryMode) {
  using Scalar = TypeParam;
  const int n = 41;
  std::vector<Scalar> d;
  const auto A = random_diagonally_dominant<Scalar>(n, d);
  precond::Jacobi<CrsMatrix<Scalar>> jacobi(precond::JacobiParams{0.8});
  jacobi.setup(A);
  std::vector<std::vector<Scalar>> inverse(n, std::vector<Scalar>(n, Scalar(0)));
  for (int i = 0; i < n; ++i) inverse[i][i] = Scalar(0.8) / d[i];

  check_every_mode_and_block<Scalar>(jacobi, inverse);
}

TYPED_TEST(PrecondBlock, IdentityBlockEqualsSingleAppliesInEveryMode) {
  using Scalar = TypeParam;
  const int n = 29;
  std::vector<Scalar> d;
  const auto A = random_diagonally_dominant<Scalar>(n, d);
  precond::Identity<CrsMatrix<Scalar>> identity;
  identity.setup(A);
  std::vector<std::vector<Scalar>> eye(n, std::vector<Scalar>(n, Scalar(0)));
  for (int i = 0; i < n; ++i) eye[i][i] = Scalar(1);

  check_every_mode_and_block<Scalar>(identity, eye);
}

TEST(PrecondBlock, JacobiConjugateTransposeConjugatesTheDiagonalByHand) {
  using C = Kokkos::complex<double>;
  const auto A = crs_from_coo<C>(2, 2, {0, 1}, {0, 1}, {C(0, 1), C(2, 0)});  // diag(i, 2)
  precond::Jacobi<CrsMatrix<C>> jacobi;
  jacobi.setup(A);
  MultiVectorView<C> X("X", 2, 2), Y("Y", 2, 2);
  Kokkos::deep_copy(X, C(1, 0));

  jacobi.apply(X, Y, C(1), C(0), OperatorMode::transpose);
  const auto t = test::block_to_std(Y);
  jacobi.apply(X, Y, C(1), C(0), OperatorMode::conjugate_transpose);
  const auto h = test::block_to_std(Y);

  // D^{-1} = diag(-i, 1/2); (D^{-1})^H = diag(i, 1/2)
  EXPECT_EQ(t, (std::vector<C>{C(0, -1), C(0.5, 0), C(0, -1), C(0.5, 0)}));
  EXPECT_EQ(h, (std::vector<C>{C(0, 1), C(0.5, 0), C(0, 1), C(0.5, 0)}));
}

TEST(PrecondBlock, BlockApplyBeforeSetupNamesTheMissingCall) {
  precond::Jacobi<CrsMatrix<double>> jacobi;
  MultiVectorView<double> X("X", 2, 2), Y("Y", 2, 2);

  test::expect_throw_containing<InvalidState>(
      [&] { jacobi.apply(X, Y); }, "kelp::precond::Jacobi::apply: called before setup_numeric");
}

}  // namespace
}  // namespace kelp::block_apply_test
