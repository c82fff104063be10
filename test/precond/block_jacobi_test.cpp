// Block Jacobi: apply against a dense reference (block inverses with Eigen) for block sizes that
// do and do not divide n, float/double/complex; block size 1 equals Jacobi; CG on the elasticity
// matrix bcsstk14 needs fewer iterations than with Jacobi; values-only re-setup; errors naming
// the singular block and its rows.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <complex>
#include <limits>
#include <memory>
#include <random>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/block_jacobi/block_jacobi.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "test/kernels/batched/batched_test_util.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/paths.hpp"
#include "test/support/poison.hpp"

namespace kelp::block_jacobi_test {
namespace {

using namespace test::batched;

/// A random sparse-ish n x n matrix (about half the entries, a dominant diagonal) as CRS and as
/// a dense Eigen copy.
template <class S>
std::pair<CrsMatrix<S>, EMatrix<S>> random_problem(int n, std::mt19937& rng) {
  EMatrix<S> dense = EMatrix<S>::Zero(n, n);
  std::vector<Ordinal> rows, cols;
  std::vector<S> values;
  std::bernoulli_distribution keep(0.5);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j && !keep(rng)) continue;
      EScalar<S> v = random_entry<S>(rng);
      if (i == j) v += EScalar<S>(n);
      dense(i, j) = v;
      rows.push_back(i);
      cols.push_back(j);
      values.push_back(from_eigen<S>(v));
    }
  }
  return {crs_from_coo<S>(n, n, rows, cols, values), dense};
}

/// y = alpha * D_B^{-1} x + beta * y0 with dense block inverses.
template <class S>
EVector<S> dense_block_jacobi(const EMatrix<S>& A, std::vector<int> starts, const EVector<S>& x,
                              EScalar<S> alpha, EScalar<S> beta, const EVector<S>& y0) {
  const int n = int(A.rows());
  EVector<S> y(n);
  starts.push_back(n);
  for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
    const int first = starts[b], m = starts[b + 1] - first;
    const EMatrix<S> block = A.block(first, first, m, m);
    y.segment(first, m) = alpha * test::partial_piv_lu_solve<EScalar<S>>(block, x.segment(first, m)) + beta * y0.segment(first, m);
  }
  return y;
}
template <class S>
EVector<S> dense_block_jacobi(const EMatrix<S>& A, int bs, const EVector<S>& x, EScalar<S> alpha,
                              EScalar<S> beta, const EVector<S>& y0) {
  std::vector<int> starts;
  for (int first = 0; first < A.rows(); first += bs) starts.push_back(first);
  return dense_block_jacobi<S>(A, starts, x, alpha, beta, y0);
}

template <class S>
VectorView<S> device_vector(const EVector<S>& v) {
  std::vector<S> h(v.size());
  for (int i = 0; i < v.size(); ++i) h[i] = from_eigen<S>(v(i));
  return test::vector_from<S>(h);
}
template <class S>
EVector<S> host_vector(const VectorView<S>& v) {
  const auto h = test::to_std(v);
  EVector<S> out(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) out(i) = to_eigen(h[i]);
  return out;
}

template <class S>
class BlockJacobiTyped : public ::testing::Test {};
using Scalars = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(BlockJacobiTyped, Scalars);

TYPED_TEST(BlockJacobiTyped, ApplyMatchesDenseBlockInverses) {
  using S = TypeParam;
  std::mt19937 rng(31);
  for (const int n : {0, 1, 7, 12, 23}) {
    auto [A, dense] = random_problem<S>(n, rng);
    for (const int bs : {1, 2, 3, 4, 5, 12, 30}) {
      precond::BlockJacobi<CrsMatrix<S>> M(precond::BlockJacobiParams{bs});
      M.setup(A);
      EXPECT_EQ(M.num_blocks(), (n + bs - 1) / bs);
      const EVector<S> x = random_matrix<S>(n, 1, rng), y0 = random_matrix<S>(n, 1, rng);
      auto y = device_vector<S>(y0);
      auto z = device_vector<S>(y0);
      test::poison(z);
      M.apply(device_vector<S>(x), y, S(2), S(-1));
      M.apply(device_vector<S>(x), z);  // beta = 0 ignores the NaN in z
      const EVector<S> expected = dense_block_jacobi<S>(dense, bs, x, EScalar<S>(2), EScalar<S>(-1), y0);
      const EVector<S> expected0 = dense_block_jacobi<S>(dense, bs, x, EScalar<S>(1), EScalar<S>(0), y0);
      EXPECT_LE(relative_difference(host_vector<S>(y), expected), tolerance<S>(bs)) << "n " << n << " bs " << bs;
      EXPECT_LE(relative_difference(host_vector<S>(z), expected0), tolerance<S>(bs)) << "n " << n << " bs " << bs;
    }
  }
}

TYPED_TEST(BlockJacobiTyped, UserGivenBlocksMatchDenseBlockInverses) {
  using S = TypeParam;
  std::mt19937 rng(33);
  auto [A, dense] = random_problem<S>(12, rng);
  const std::vector<int> starts = {0, 3, 4, 9};  // blocks of 3, 1, 5 and 3 rows
  precond::BlockJacobi<CrsMatrix<S>> M(precond::BlockJacobiParams{1, starts});
  M.setup(A);
  EXPECT_EQ(M.num_blocks(), 4);
  EXPECT_EQ(M.summary(), "block_jacobi (4 user-given blocks)");
  const EVector<S> x = random_matrix<S>(12, 1, rng);
  auto y = device_vector<S>(x);
  test::poison(y);
  M.apply(device_vector<S>(x), y);
  EXPECT_LE(relative_difference(host_vector<S>(y), dense_block_jacobi<S>(dense, starts, x, EScalar<S>(1),
                                                                         EScalar<S>(0), x)),
            tolerance<S>(5));
}

TEST(BlockJacobi, RejectsBadUserGivenBlocks) {
  auto A = test::crs_from_dense<double>({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  using M = precond::BlockJacobi<CrsMatrix<double>>;
  M not_from_zero(precond::BlockJacobiParams{1, {1, 2}});
  test::expect_throw_containing<InvalidArgument>([&] { not_from_zero.setup(A); },
                                                 "block_starts begins with 1, expected 0");
  M decreasing(precond::BlockJacobiParams{1, {0, 2, 1}});
  test::expect_throw_containing<InvalidArgument>(
      [&] { decreasing.setup(A); },
      "kelp::precond::BlockJacobi::setup_symbolic: block 2 (0-based rows 2..0) has -1 rows, expected 1..256");
  M past_the_end(precond::BlockJacobiParams{1, {0, 3}});
  test::expect_throw_containing<InvalidArgument>([&] { past_the_end.setup(A); }, "the last below n = 3");
}

TEST(BlockJacobi, BlockOfMultiVectorsEqualsColumnByColumn) {
  std::mt19937 rng(32);
  auto [A, dense] = random_problem<double>(10, rng);
  precond::BlockJacobi<CrsMatrix<double>> M(precond::BlockJacobiParams{4});
  M.setup(A);
  std::vector<double> xs(30);
  for (auto& v : xs) v = std::uniform_real_distribution<double>(-1, 1)(rng);
  auto X = test::multivector_from<double>(xs, 10, 3);
  MultiVectorView<double> Y("Y", 10, 3);
  test::poison(Y);
  M.apply(X, Y);
  const auto Yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y);
  for (int j = 0; j < 3; ++j) {
    EVector<double> x(10);
    for (int i = 0; i < 10; ++i) x(i) = xs[i + 10 * j];
    const EVector<double> expected = dense_block_jacobi<double>(dense, 4, x, 1.0, 0.0, x);
    for (int i = 0; i < 10; ++i) EXPECT_NEAR(Yh(i, j), expected(i), 1e-13);
  }
}

TEST(BlockJacobi, BlockSizeOneEqualsJacobi) {
  auto A = io::read_matrix_market<double>(test::matrix_path("bcsstk14"));
  precond::BlockJacobi<CrsMatrix<double>> block(precond::BlockJacobiParams{1});
  precond::Jacobi<CrsMatrix<double>> point;
  block.setup(A);
  point.setup(A);
  std::vector<double> xs(A.num_rows());
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = std::sin(double(i));
  auto x = test::vector_from<double>(xs);
  VectorView<double> y1("y1", A.num_rows()), y2("y2", A.num_rows());
  block.apply(x, y1);
  point.apply(x, y2);
  const auto a = test::to_std(y1), b = test::to_std(y2);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-15 * std::abs(b[i])) << i;
}

/// CG iterations on bcsstk14 (b = A * ones) with preconditioner M.
int cg_iterations(const CrsMatrix<double>& A, std::shared_ptr<const Operator<double>> M) {
  std::vector<double> ones(A.num_rows(), 1.0);
  VectorView<double> b("b", A.num_rows()), x("x", A.num_rows());
  MatrixOperator<CrsMatrix<double>> op(A);
  op.apply(test::vector_from<double>(ones), b);
  solvers::CgParams params;
  params.max_iterations = 5000;
  solvers::Cg<double> cg(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), M, params);
  const auto result = cg.solve(b, x);
  EXPECT_TRUE(result.converged());
  return result.iterations;
}

TEST(BlockJacobi, CgNeedsFewerIterationsThanWithJacobiOnTheElasticityMatrix) {
  // bcsstk14: a structural stiffness matrix, 6 unknowns per node (3 displacements, 3 rotations).
  auto A = io::read_matrix_market<double>(test::matrix_path("bcsstk14"));
  auto jacobi = std::make_shared<precond::Jacobi<CrsMatrix<double>>>();
  auto block = std::make_shared<precond::BlockJacobi<CrsMatrix<double>>>(precond::BlockJacobiParams{6});
  jacobi->setup(A);
  block->setup(A);
  const int with_jacobi = cg_iterations(A, jacobi);
  const int with_blocks = cg_iterations(A, block);
  EXPECT_LT(with_blocks, with_jacobi * 3 / 4) << with_blocks << " vs " << with_jacobi;
}

TEST(BlockJacobi, ValuesOnlySetupFollowsNewValues) {
  auto A = test::crs_from_dense<double>({{2, 1, 0}, {1, 2, 0}, {0, 0, 4}});
  precond::BlockJacobi<CrsMatrix<double>> M(precond::BlockJacobiParams{2});
  M.setup(A);
  auto x = test::vector_from<double>({3, 3, 4});
  VectorView<double> y("y", 3);
  M.apply(x, y);
  EXPECT_EQ(test::to_std(y), (std::vector<double>{1, 1, 1}));
  auto B = test::crs_from_dense<double>({{4, 2, 0}, {2, 4, 0}, {0, 0, 8}});
  M.setup_numeric(B);  // same pattern, doubled values
  M.apply(x, y);
  EXPECT_EQ(test::to_std(y), (std::vector<double>{0.5, 0.5, 0.5}));
  EXPECT_NE(M.summary().find("block_jacobi (block size 2, 2 blocks)"), std::string::npos);
}

TEST(BlockJacobi, SingularBlockErrorNamesTheBlockAndItsRows) {
  // Block 2 (rows 3..4) is [[1 1] [1 1]]: singular although every diagonal entry is nonzero.
  auto A = test::crs_from_dense<double>({{4, 1, 0, 0, 0}, {1, 4, 0, 0, 0}, {0, 0, 1, 1, 0}, {0, 0, 1, 1, 0},
                                         {0, 0, 0, 0, 3}});
  precond::BlockJacobi<CrsMatrix<double>> M(precond::BlockJacobiParams{2}, "test/x.mtx");
  test::expect_throw_containing<NumericalError>(
      [&] { M.setup(A); },
      "kelp::precond::BlockJacobi::setup_numeric: diagonal block 2 of 3 (rows 3..4, 1-based) of "
      "matrix 'test/x.mtx' is singular: zero pivot in its column 2 (row 4); block Jacobi needs "
      "nonsingular, finite diagonal blocks");
  EXPECT_FALSE(M.is_set_up());
}

TEST(BlockJacobi, NanEntryIsReportedNotPropagated) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto A = crs_from_coo<double>(3, 3, std::vector<Ordinal>{0, 1, 2}, std::vector<Ordinal>{0, 1, 2},
                                std::vector<double>{1.0, nan, 1.0});
  precond::BlockJacobi<CrsMatrix<double>> M(precond::BlockJacobiParams{2});
  test::expect_throw_containing<NumericalError>(
      [&] { M.setup(A); },
      "diagonal block 1 of 2 (rows 1..2, 1-based) is not finite: non-finite pivot in its column 2");
}

TEST(BlockJacobi, RejectsBadBlockSizesAndEarlyApply) {
  using M = precond::BlockJacobi<CrsMatrix<double>>;
  test::expect_throw_containing<InvalidArgument>([] { M bad(precond::BlockJacobiParams{0}); },
                                                 "kelp::precond::BlockJacobi: block_size = 0, expected 1..256");
  test::expect_throw_containing<InvalidArgument>([] { M bad(precond::BlockJacobiParams{257}); },
                                                 "block_size = 257, expected 1..256");
  M ok(precond::BlockJacobiParams{256});
  auto x = test::vector_from<double>({1});
  VectorView<double> y("y", 1);
  test::expect_throw_containing<InvalidState>([&] { ok.apply(x, y); },
                                              "kelp::precond::BlockJacobi::apply: called before setup_numeric");
  auto A = test::crs_from_dense<double>({{2}});
  ok.setup(A);  // one block of 256 with 255 rows of padding
  ok.apply(x, y);
  EXPECT_EQ(test::to_std(y), std::vector<double>{0.5});
}

}  // namespace
}  // namespace kelp::block_jacobi_test
