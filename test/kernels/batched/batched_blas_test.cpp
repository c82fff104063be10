// Batched gemm, gemv, trsm, trsv, copy, scale and set_identity against Eigen, in float, double and
// complex, in all three modes, on sizes 0..33; beta = 0 ignores NaN in the output; shape errors.
#include <gtest/gtest.h>

#include "kelp/kernels/batched/batched_blas.hpp"
#include "test/kernels/batched/batched_test_util.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"

namespace kelp::batched_blas_test {
namespace {

using namespace test::batched;
namespace batched = kernels::batched;

template <class S>
class BatchedBlas : public ::testing::Test {};
using Scalars = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(BatchedBlas, Scalars);

constexpr int kBatch = 3;

TYPED_TEST(BatchedBlas, GemmMatchesEigen) {
  using S = TypeParam;
  std::mt19937 rng(11);
  for (const Mode mode : all_modes()) {
    for (const int n : test_sizes()) {
      const int m = n + 1, k = n == 0 ? 0 : n + 2;  // rectangular: m x k times k x n
      std::vector<EMatrix<S>> a, b, c;
      for (int p = 0; p < kBatch; ++p) {
        a.push_back(random_matrix<S>(m, k, rng));
        b.push_back(random_matrix<S>(k, n, rng));
        c.push_back(random_matrix<S>(m, n, rng));
      }
      auto A = to_batch<S>(a, m, k), B = to_batch<S>(b, k, n), C = to_batch<S>(c, m, n);
      const S alpha = S(2), beta = S(-0.5);
      batched::gemm(mode, alpha, A, B, beta, C);
      for (int p = 0; p < kBatch; ++p) {
        const EMatrix<S> expected = to_eigen(alpha) * a[p] * b[p] + to_eigen(beta) * c[p];
        EXPECT_LE(relative_difference(problem(C, p), expected), tolerance<S>(k))
            << batched::to_string(mode) << " n " << n << " problem " << p;
      }
    }
  }
}

TYPED_TEST(BatchedBlas, GemmWithBetaZeroIgnoresNanInC) {
  using S = TypeParam;
  std::mt19937 rng(12);
  for (const Mode mode : all_modes()) {
    std::vector<EMatrix<S>> a = {random_matrix<S>(5, 5, rng)}, b = {random_matrix<S>(5, 5, rng)};
    auto A = to_batch<S>(a, 5, 5), B = to_batch<S>(b, 5, 5);
    batched::BatchMatrices<S> C("C", 1, 5, 5);
    test::poison(C);
    batched::gemm(mode, S(1), A, B, S(0), C);
    EXPECT_LE(relative_difference(problem(C, 0), EMatrix<S>(a[0] * b[0])), tolerance<S>(5));
  }
}

TYPED_TEST(BatchedBlas, GemvMatchesEigen) {
  using S = TypeParam;
  std::mt19937 rng(13);
  for (const Mode mode : all_modes()) {
    for (const int n : test_sizes()) {
      std::vector<EMatrix<S>> a;
      std::vector<EVector<S>> x, y;
      for (int p = 0; p < kBatch; ++p) {
        a.push_back(random_matrix<S>(n + 2, n, rng));
        x.push_back(random_matrix<S>(n, 1, rng));
        y.push_back(random_matrix<S>(n + 2, 1, rng));
      }
      auto A = to_batch<S>(a, n + 2, n);
      auto X = to_batch<S>(x, n), Y = to_batch<S>(y, n + 2);
      batched::gemv(mode, S(3), A, X, S(1), Y);
      for (int p = 0; p < kBatch; ++p) {
        const EVector<S> expected = to_eigen(S(3)) * a[p] * x[p] + y[p];
        EXPECT_LE(relative_difference(problem(Y, p), expected), tolerance<S>(n))
            << batched::to_string(mode) << " n " << n;
      }
    }
  }
}

/// A well-conditioned triangular test matrix: random with a dominant diagonal.
template <class S>
EMatrix<S> conditioned(int n, std::mt19937& rng) {
  EMatrix<S> A = random_matrix<S>(n, n, rng);
  for (int i = 0; i < n; ++i) A(i, i) += EScalar<S>(n + 1);
  return A;
}

TYPED_TEST(BatchedBlas, TrsmAndTrsvMatchEigen) {
  using S = TypeParam;
  std::mt19937 rng(14);
  for (const Mode mode : all_modes()) {
    for (const int n : test_sizes()) {
      for (const auto uplo : {batched::Uplo::lower, batched::Uplo::upper}) {
        for (const auto diag : {batched::Diag::unit, batched::Diag::non_unit}) {
          std::vector<EMatrix<S>> a, b;
          std::vector<EVector<S>> x;
          for (int p = 0; p < kBatch; ++p) {
            a.push_back(conditioned<S>(n, rng));
            b.push_back(random_matrix<S>(n, 4, rng));
            x.push_back(random_matrix<S>(n, 1, rng));
          }
          auto A = to_batch<S>(a, n, n), B = to_batch<S>(b, n, 4);
          auto X = to_batch<S>(x, n);
          batched::trsm(mode, uplo, diag, A, B);
          batched::trsv(mode, uplo, diag, A, X);
          for (int p = 0; p < kBatch; ++p) {
            EMatrix<S> eb = b[p];
            EVector<S> ex = x[p];
            const bool lower = uplo == batched::Uplo::lower;
            if (diag == batched::Diag::unit) {
              if (lower) {
                a[p].template triangularView<Eigen::UnitLower>().solveInPlace(eb);
                a[p].template triangularView<Eigen::UnitLower>().solveInPlace(ex);
              } else {
                a[p].template triangularView<Eigen::UnitUpper>().solveInPlace(eb);
                a[p].template triangularView<Eigen::UnitUpper>().solveInPlace(ex);
              }
            } else if (lower) {
              a[p].template triangularView<Eigen::Lower>().solveInPlace(eb);
              a[p].template triangularView<Eigen::Lower>().solveInPlace(ex);
            } else {
              a[p].template triangularView<Eigen::Upper>().solveInPlace(eb);
              a[p].template triangularView<Eigen::Upper>().solveInPlace(ex);
            }
            // Unit triangles of random matrices grow like 2^n: compare relative to the result.
            const double scale = n == 0 ? 1.0 : std::max(1.0, double(eb.cwiseAbs().maxCoeff()));
            EXPECT_LE(relative_difference(problem(B, p), eb), tolerance<S>(n) * scale)
                << batched::to_string(mode) << " n " << n << (lower ? " lower" : " upper");
            EXPECT_LE(relative_difference(problem(X, p), ex), tolerance<S>(n) * scale)
                << batched::to_string(mode) << " n " << n << (lower ? " lower" : " upper");
          }
        }
      }
    }
  }
}

/// The triangle of a (lower or upper, unit or not) as a dense Eigen matrix.
template <class S>
EMatrix<S> triangle(const EMatrix<S>& a, batched::Uplo uplo, batched::Diag diag) {
  EMatrix<S> t = uplo == batched::Uplo::lower ? EMatrix<S>(a.template triangularView<Eigen::Lower>())
                                              : EMatrix<S>(a.template triangularView<Eigen::Upper>());
  if (diag == batched::Diag::unit) t.diagonal().setOnes();
  return t;
}

TYPED_TEST(BatchedBlas, TrmmAndTrtriMatchEigen) {
  using S = TypeParam;
  std::mt19937 rng(16);
  for (const Mode mode : all_modes()) {
    for (const int n : test_sizes()) {
      for (const auto uplo : {batched::Uplo::lower, batched::Uplo::upper}) {
        for (const auto diag : {batched::Diag::unit, batched::Diag::non_unit}) {
          std::vector<EMatrix<S>> a, b;
          for (int p = 0; p < kBatch; ++p) {
            a.push_back(conditioned<S>(n, rng));
            b.push_back(random_matrix<S>(n, 3, rng));
          }
          auto A = to_batch<S>(a, n, n), B = to_batch<S>(b, n, 3), Ainv = to_batch<S>(a, n, n);
          batched::BatchStatus<> status("status", kBatch);
          Kokkos::deep_copy(status, 99);
          batched::trmm(mode, uplo, diag, S(2), A, B);
          batched::trtri(mode, uplo, diag, Ainv, status);
          EXPECT_EQ(batched::failed_problems(status), std::vector<int>{});
          for (int p = 0; p < kBatch; ++p) {
            const EMatrix<S> t = triangle<S>(a[p], uplo, diag);
            EXPECT_LE(relative_difference(problem(B, p), EMatrix<S>(to_eigen(S(2)) * t * b[p])), tolerance<S>(n))
                << batched::to_string(mode) << " n " << n;
            // The other triangle is untouched; the inverse's triangle times the triangle is I.
            const EMatrix<S> inv = triangle<S>(problem(Ainv, p), uplo, diag);
            const double scale = n == 0 ? 1.0 : std::max(1.0, double(inv.cwiseAbs().maxCoeff()));
            EXPECT_LE(relative_difference(EMatrix<S>(t * inv), EMatrix<S>(EMatrix<S>::Identity(n, n))),
                      tolerance<S>(n) * scale)
                << batched::to_string(mode) << " n " << n;
          }
        }
      }
    }
    // A zero diagonal entry is reported, 1-based.
    std::vector<EMatrix<S>> z(1, EMatrix<S>::Identity(4, 4));
    z[0](2, 2) = EScalar<S>(0);
    auto Z = to_batch<S>(z, 4, 4);
    batched::BatchStatus<> status("status", 1);
    batched::trtri(mode, batched::Uplo::upper, batched::Diag::non_unit, Z, status);
    EXPECT_EQ(batched::failed_problems(status), std::vector<int>{0});
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), status);
    EXPECT_EQ(h(0), 3);
  }
}

TYPED_TEST(BatchedBlas, CopyScaleAndSetIdentity) {
  using S = TypeParam;
  std::mt19937 rng(15);
  for (const Mode mode : all_modes()) {
    for (const int n : test_sizes()) {
      std::vector<EMatrix<S>> a;
      for (int p = 0; p < kBatch; ++p) a.push_back(random_matrix<S>(n, n + 1, rng));
      auto A = to_batch<S>(a, n, n + 1);
      batched::BatchMatrices<S> B("B", kBatch, n, n + 1), I("I", kBatch, n, n + 1);
      test::poison(B);
      test::poison(I);
      batched::copy(mode, A, B);
      batched::scale(mode, S(-2), B);
      batched::set_identity(mode, I);
      for (int p = 0; p < kBatch; ++p) {
        EXPECT_EQ(problem(B, p), EMatrix<S>(to_eigen(S(-2)) * a[p]));
        EXPECT_EQ(problem(I, p), EMatrix<S>(EMatrix<S>::Identity(n, n + 1)));
      }
    }
  }
}

TEST(BatchedBlasErrors, MismatchedShapesAreReported) {
  batched::BatchMatrices<double> A("A", 4, 3, 3), B("B", 5, 3, 3), C("C", 4, 3, 2), D("D", 4, 3, 3);
  batched::BatchVectors<double> x("x", 4, 2), y("y", 4, 3);
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::gemm(Mode::serial, 1.0, A, B, 0.0, D); },
      "kelp::kernels::batched::gemm: batch sizes differ: A 4 x 3 x 3, B 5 x 3 x 3, C 4 x 3 x 3");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::gemm(Mode::team, 1.0, A, D, 0.0, C); },
      "kelp::kernels::batched::gemm: shapes do not conform for C = A B");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::gemv(Mode::serial, 1.0, A, x, 0.0, y); },
      "kelp::kernels::batched::gemv: shapes do not conform for y = A x: A 4 x 3 x 3, x 4 x 2, y 4 x 3");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::trsm(Mode::serial, batched::Uplo::lower, batched::Diag::unit, C, A); },
      "kelp::kernels::batched::trsm: expected square A");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::copy(Mode::serial, A, C); }, "kelp::kernels::batched::copy: A is 4 x 3 x 3, B is 4 x 3 x 2");
}

}  // namespace
}  // namespace kelp::batched_blas_test
