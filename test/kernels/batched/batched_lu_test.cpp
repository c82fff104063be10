// Batched LU (with and without pivoting), solves, the fused factor+solve and the inverse against
// Eigen, in float, double and complex, all three modes, sizes 0..33; singular and NaN problems
// get a status per problem (not a crash, not a NaN solution); shape errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "kelp/kernels/batched/batched_lu.hpp"
#include "test/kernels/batched/batched_test_util.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"

namespace kelp::batched_lu_test {
namespace {

using namespace test::batched;
namespace batched = kernels::batched;

template <class S>
class BatchedLu : public ::testing::Test {};
using Scalars = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(BatchedLu, Scalars);

constexpr int kBatch = 3;

std::vector<int> host_status(const batched::BatchStatus<>& status) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), status);
  return std::vector<int>(h.data(), h.data() + h.extent(0));
}

/// ||A x - b|| relative to ||A|| ||x|| + ||b|| (backward error), which is small for a stable
/// solve even when A is ill-conditioned.
template <class S>
double backward_error(const EMatrix<S>& A, const EVector<S>& x, const EVector<S>& b) {
  if (A.rows() == 0) return 0;
  const double r = double((A * x - b).cwiseAbs().maxCoeff());
  const double scale = double(A.cwiseAbs().rowwise().sum().maxCoeff()) * double(x.cwiseAbs().maxCoeff()) +
                       double(b.cwiseAbs().maxCoeff());
  return r / scale;
}

TYPED_TEST(BatchedLu, FactorThenSolveMatchesEigenOnRandomMatrices) {
  using S = TypeParam;
  std::mt19937 rng(21);
  for (const Mode mode : all_modes()) {
    for (const int n : test_sizes()) {
      std::vector<EMatrix<S>> a;
      std::vector<EVector<S>> b;
      for (int p = 0; p < kBatch; ++p) {
        a.push_back(random_matrix<S>(n, n, rng));  // no dominant diagonal: pivoting matters
        b.push_back(random_matrix<S>(n, 1, rng));
      }
      auto A = to_batch<S>(a, n, n);
      auto B = to_batch<S>(b, n);
      batched::BatchPivots<> piv("piv", kBatch, n);
      batched::BatchStatus<> status("status", kBatch);
      Kokkos::deep_copy(status, 99);
      batched::lu_factor(mode, A, piv, status);
      EXPECT_EQ(host_status(status), std::vector<int>(kBatch, 0));
      batched::lu_solve(mode, A, piv, B);
      for (int p = 0; p < kBatch; ++p) {
        EXPECT_LE(backward_error<S>(a[p], problem(B, p), b[p]), tolerance<S>(n))
            << batched::to_string(mode) << " n " << n << " problem " << p;
        if (n > 0) {  // the same factors as Eigen's partial-pivoting LU: U's diagonal agrees
          const EMatrix<S> lu = test::partial_piv_lu_factors(a[p]);
          EXPECT_LE(relative_difference(EVector<S>(problem(A, p).diagonal()), EVector<S>(lu.diagonal())),
                    100 * tolerance<S>(n))
              << batched::to_string(mode) << " n " << n;
        }
      }
    }
  }
}

/// A = Q1 diag(sigma) Q2 with orthonormal Q1, Q2 (from QR of random matrices) and singular values
/// spread geometrically from 1 to 1 / cond: an ill-conditioned but nonsingular problem.
template <class S>
EMatrix<S> ill_conditioned(int n, double cond, std::mt19937& rng) {
  const EMatrix<S> q1 = test::householder_q(random_matrix<S>(n, n, rng));
  const EMatrix<S> q2 = test::householder_q(random_matrix<S>(n, n, rng));
  EVector<S> sigma(n);
  for (int i = 0; i < n; ++i) {
    sigma(i) = EScalar<S>(std::pow(cond, -static_cast<double>(i) / std::max(1, n - 1)));
  }
  return q1 * sigma.asDiagonal() * q2;
}

// The ill-conditioned category: condition numbers near 1/(10 eps). Partial pivoting keeps the
// solve backward stable (residual at rounding level), the status reports no failure, and the
// forward error stays within cond x rounding of Eigen's full-pivoting solution, in every flavour
// and for the fused kernel too.
TYPED_TEST(BatchedLu, IllConditionedProblemsAreSolvedBackwardStably) {
  using S = TypeParam;
  const double cond = std::is_same<S, float>::value ? 1e5 : 1e14;
  std::mt19937 rng(31);
  for (const Mode mode : all_modes()) {
    for (const int n : {2, 5, 8, 17}) {
      std::vector<EMatrix<S>> a;
      std::vector<EVector<S>> b;
      for (int p = 0; p < kBatch; ++p) {
        a.push_back(ill_conditioned<S>(n, cond, rng));
        b.push_back(random_matrix<S>(n, 1, rng));
      }
      for (const bool fused : {false, true}) {
        auto A = to_batch<S>(a, n, n);
        auto B = to_batch<S>(b, n);
        batched::BatchPivots<> piv("piv", kBatch, n);
        batched::BatchStatus<> status("status", kBatch);
        Kokkos::deep_copy(status, 99);
        if (fused) {
          batched::lu_factor_solve(mode, A, piv, B, status);
        } else {
          batched::lu_factor(mode, A, piv, status);
          batched::lu_solve(mode, A, piv, B);
        }
        const std::string what = std::string(batched::to_string(mode)) + (fused ? " fused" : "") + " n " + std::to_string(n);
        EXPECT_EQ(host_status(status), std::vector<int>(kBatch, 0)) << what;
        for (int p = 0; p < kBatch; ++p) {
          const EVector<S> x = problem(B, p);
          EXPECT_LE(backward_error<S>(a[p], x, b[p]), tolerance<S>(n)) << what << " problem " << p;
          const EVector<S> reference = test::full_piv_lu_solve(a[p], b[p]);
          EXPECT_LE(relative_difference(EVector<S>(x / reference.cwiseAbs().maxCoeff()),
                                        EVector<S>(reference / reference.cwiseAbs().maxCoeff())),
                    cond * tolerance<S>(n))
              << what << " problem " << p;
        }
      }
    }
  }
}

// The pivot search compares moduli: a complex modulus from re^2 + im^2 was 0 for a matrix scaled
// by 2^-600 (every pivot "zero": status 1) and inf for 2^600 (no row ever beat the first: the
// pivoting was lost). Scaling by a power of two is exact, so the scaled problem must give the
// unscaled one's solution bit for bit.
TYPED_TEST(BatchedLu, ScaledProblemsNeitherUnderflowNorOverflowThePivotSearch) {
  using S = TypeParam;
  using M = typename ScalarTraits<S>::magnitude_type;
  const int e = std::is_same<M, float>::value ? 76 : 600;  // 2^(2e) leaves the exponent range
  std::mt19937 rng(41);
  const auto solve = [](Mode mode, const std::vector<EMatrix<S>>& a, const std::vector<EVector<S>>& b, int n) {
    auto A = to_batch<S>(a, n, n);
    auto B = to_batch<S>(b, n);
    batched::BatchPivots<> piv("piv", kBatch, n);
    batched::BatchStatus<> status("status", kBatch);
    Kokkos::deep_copy(status, 99);
    batched::lu_factor_solve(mode, A, piv, B, status);
    return std::make_pair(host_status(status), B);
  };
  for (const Mode mode : all_modes()) {
    for (const int n : {1, 3, 8}) {
      std::vector<EMatrix<S>> a;
      std::vector<EVector<S>> b;
      for (int p = 0; p < kBatch; ++p) {
        a.push_back(random_matrix<S>(n, n, rng));
        b.push_back(random_matrix<S>(n, 1, rng));
      }
      const auto unscaled = solve(mode, a, b, n);
      ASSERT_EQ(unscaled.first, std::vector<int>(kBatch, 0));
      for (const int sign : {-1, 1}) {
        const M scale = static_cast<M>(std::ldexp(1.0, sign * e));
        std::vector<EMatrix<S>> as;
        std::vector<EVector<S>> bs;
        for (int p = 0; p < kBatch; ++p) {
          as.push_back(EMatrix<S>(a[p] * scale));
          bs.push_back(EVector<S>(b[p] * scale));
        }
        const auto scaled = solve(mode, as, bs, n);
        const std::string what = std::string(batched::to_string(mode)) + " n " + std::to_string(n) + " 2^" +
                                 std::to_string(sign * e);
        EXPECT_EQ(scaled.first, std::vector<int>(kBatch, 0)) << what;
        for (int p = 0; p < kBatch; ++p) {
          EXPECT_EQ(relative_difference(EVector<S>(problem(scaled.second, p)), EVector<S>(problem(unscaled.second, p))),
                    0.0)
              << what << " problem " << p;
        }
      }
    }
  }
}

TYPED_TEST(BatchedLu, FusedFactorSolveEqualsTheTwoKernels) {
  using S = TypeParam;
  std::mt19937 rng(22);
  for (const Mode mode : all_modes()) {
    for (const int n : {1, 5, 17, 32}) {
      std::vector<EMatrix<S>> a;
      std::vector<EVector<S>> b;
      for (int p = 0; p < kBatch; ++p) {
        a.push_back(random_matrix<S>(n, n, rng));
        b.push_back(random_matrix<S>(n, 1, rng));
      }
      auto A1 = to_batch<S>(a, n, n), A2 = to_batch<S>(a, n, n);
      auto B1 = to_batch<S>(b, n), B2 = to_batch<S>(b, n);
      batched::BatchPivots<> piv1("piv1", kBatch, n), piv2("piv2", kBatch, n);
      batched::BatchStatus<> s1("s1", kBatch), s2("s2", kBatch);
      batched::lu_factor(mode, A1, piv1, s1);
      batched::lu_solve(mode, A1, piv1, B1);
      batched::lu_factor_solve(mode, A2, piv2, B2, s2);
      EXPECT_EQ(host_status(s2), std::vector<int>(kBatch, 0));
      for (int p = 0; p < kBatch; ++p) {
        EXPECT_EQ(problem(B1, p), problem(B2, p)) << batched::to_string(mode) << " n " << n;
      }
    }
  }
}

TYPED_TEST(BatchedLu, NoPivotLuMatchesEigenOnDominantMatricesAndFailsWherePivotingWorks) {
  using S = TypeParam;
  std::mt19937 rng(23);
  for (const Mode mode : all_modes()) {
    for (const int n : test_sizes()) {
      std::vector<EMatrix<S>> a;
      for (int p = 0; p < kBatch; ++p) {
        a.push_back(random_matrix<S>(n, n, rng));
        for (int i = 0; i < n; ++i) a[p](i, i) += EScalar<S>(n + 1);
      }
      auto A = to_batch<S>(a, n, n);
      batched::BatchStatus<> status("status", kBatch);
      batched::lu_nopivot(mode, A, status);
      EXPECT_EQ(host_status(status), std::vector<int>(kBatch, 0));
      for (int p = 0; p < kBatch; ++p) {
        const EMatrix<S> LU = problem(A, p);
        EMatrix<S> L = LU.template triangularView<Eigen::UnitLower>();
        EMatrix<S> U = LU.template triangularView<Eigen::Upper>();
        EXPECT_LE(relative_difference(EMatrix<S>(L * U), a[p]), tolerance<S>(n))
            << batched::to_string(mode) << " n " << n;
      }
    }
    // [[0 1] [1 0]]: no-pivot LU meets a zero pivot at column 1, partial pivoting does not.
    std::vector<EMatrix<S>> swap(1, EMatrix<S>::Zero(2, 2));
    swap[0](0, 1) = swap[0](1, 0) = EScalar<S>(1);
    auto A1 = to_batch<S>(swap, 2, 2), A2 = to_batch<S>(swap, 2, 2);
    batched::BatchStatus<> s1("s1", 1), s2("s2", 1);
    batched::BatchPivots<> piv("piv", 1, 2);
    batched::lu_nopivot(mode, A1, s1);
    batched::lu_factor(mode, A2, piv, s2);
    EXPECT_EQ(host_status(s1), std::vector<int>{1});
    EXPECT_EQ(host_status(s2), std::vector<int>{0});
  }
}

TYPED_TEST(BatchedLu, SingularAndNanProblemsAreFlaggedPerProblem) {
  using S = TypeParam;
  std::mt19937 rng(24);
  for (const Mode mode : all_modes()) {
    const int n = 7, batch = 6;
    std::vector<EMatrix<S>> a;
    std::vector<EVector<S>> b;
    for (int p = 0; p < batch; ++p) {
      a.push_back(random_matrix<S>(n, n, rng));
      b.push_back(random_matrix<S>(n, 1, rng));
    }
    a[1].row(4).setZero();      // exactly singular: row 5 is zero
    a[3].col(0).setZero();      // zero first column: column 1 has no pivot
    a[4](5, 6) = EScalar<S>(std::numeric_limits<double>::quiet_NaN());
    auto A = to_batch<S>(a, n, n);
    auto B = to_batch<S>(b, n);
    batched::BatchPivots<> piv("piv", batch, n);
    batched::BatchStatus<> status("status", batch);
    batched::lu_factor_solve(mode, A, piv, B, status);
    const auto s = host_status(status);
    EXPECT_EQ(s[0], 0);
    EXPECT_GT(s[1], 0) << "zero pivot expected";
    EXPECT_EQ(s[2], 0);
    EXPECT_EQ(s[3], 1);
    EXPECT_LT(s[4], 0) << "non-finite pivot expected";
    EXPECT_EQ(s[5], 0);
    EXPECT_EQ(batched::failed_problems(status), (std::vector<int>{1, 3, 4}));
    EXPECT_EQ(batched::describe_status(1), "zero pivot in column 1");
    // Failed problems keep their right-hand side (no NaN written); the others are solved.
    EXPECT_EQ(problem(B, 1), b[1]);
    EXPECT_EQ(problem(B, 3), b[3]);
    EXPECT_LE(backward_error<S>(a[0], problem(B, 0), b[0]), tolerance<S>(n));
    // A tiny threshold flags a nearly singular problem too.
    std::vector<EMatrix<S>> near(1, EMatrix<S>::Identity(3, 3));
    near[0](2, 2) = EScalar<S>(1e-6);
    auto N = to_batch<S>(near, 3, 3);
    batched::BatchPivots<> piv1("piv1", 1, 3);
    batched::BatchStatus<> s1("s1", 1);
    batched::lu_factor(mode, N, piv1, s1, batched::Magnitude<S>(1e-4));
    EXPECT_EQ(host_status(s1), std::vector<int>{3});
  }
}

TYPED_TEST(BatchedLu, InverseAndMultipleRightHandSides) {
  using S = TypeParam;
  std::mt19937 rng(25);
  for (const Mode mode : all_modes()) {
    for (const int n : test_sizes()) {
      std::vector<EMatrix<S>> a, b;
      for (int p = 0; p < kBatch; ++p) {
        a.push_back(random_matrix<S>(n, n, rng));
        for (int i = 0; i < n; ++i) a[p](i, i) += EScalar<S>(2);
        b.push_back(random_matrix<S>(n, 3, rng));
      }
      auto A = to_batch<S>(a, n, n);
      auto B = to_batch<S>(b, n, 3);
      batched::BatchMatrices<S> Ainv("Ainv", kBatch, n, n);
      test::poison(Ainv);
      batched::BatchPivots<> piv("piv", kBatch, n);
      batched::BatchStatus<> status("status", kBatch);
      batched::lu_factor(mode, A, piv, status);
      ASSERT_EQ(batched::failed_problems(status), std::vector<int>{});
      batched::inverse(mode, A, piv, Ainv);
      batched::lu_solve(mode, A, piv, B);
      for (int p = 0; p < kBatch; ++p) {
        const double cond = n == 0 ? 1.0 : double(a[p].cwiseAbs().maxCoeff() * problem(Ainv, p).cwiseAbs().maxCoeff()) * n;
        EXPECT_LE(relative_difference(EMatrix<S>(a[p] * problem(Ainv, p)), EMatrix<S>(EMatrix<S>::Identity(n, n))),
                  tolerance<S>(n) * cond)
            << batched::to_string(mode) << " n " << n;
        EXPECT_LE(relative_difference(EMatrix<S>(a[p] * problem(B, p)), b[p]), tolerance<S>(n) * cond)
            << batched::to_string(mode) << " n " << n;
      }
    }
  }
}

TEST(BatchedLuErrors, MismatchedShapesAreReported) {
  batched::BatchMatrices<double> A("A", 4, 3, 3), R("R", 4, 3, 2);
  batched::BatchPivots<> piv("piv", 4, 3), short_piv("piv", 4, 2);
  batched::BatchStatus<> status("status", 4), few("few", 3);
  batched::BatchVectors<double> b("b", 4, 2);
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::lu_factor(Mode::serial, R, piv, status); },
      "kelp::kernels::batched::lu_factor: expected square matrices, A is 4 x 3 x 2");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::lu_factor(Mode::team, A, short_piv, status); },
      "kelp::kernels::batched::lu_factor: piv is 4 x 2, expected 4 x 3");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::lu_nopivot(Mode::serial, A, few); },
      "kelp::kernels::batched::lu_nopivot: batch sizes differ: A has 4 problems, status has 3");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::lu_solve(Mode::serial, A, piv, b); },
      "kelp::kernels::batched::lu_solve: b is 4 x 2, expected 4 x 3");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { batched::lu_factor_solve(Mode::team_vector, A, piv, b, status); },
      "kelp::kernels::batched::lu_factor_solve: b is 4 x 2, expected 4 x 3");
}

}  // namespace
}  // namespace kelp::batched_lu_test
