// Block reductions (gram, fused column dots) and column-wise axpby against sequential references
// in double precision, for float, double and complex, both layouts, k = 0, 1, > 1 and beyond one
// Gram tile, n = 0, with NaN-poisoned outputs in host and device memory.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "kelp/kernels/blas1.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"

namespace kelp::block_reductions_test {
namespace {

using C = Kokkos::complex<double>;

template <class Scalar>
C widen(Scalar v) {
  return C(ScalarTraits<Scalar>::real(v), ScalarTraits<Scalar>::imag(v));
}

/// conj(a(:, i))^T b(:, j) in double precision, and the forward error bound of the summation in
/// Scalar's precision: 2 (n + 2) eps sum |a_ri b_rj| (Higham, ch. 3). a, b column-major n x *.
template <class Scalar>
std::pair<C, double> reference_dot(const std::vector<Scalar>& a, std::size_t i,
                                   const std::vector<Scalar>& b, std::size_t j, std::size_t n) {
  C sum(0, 0);
  double abs_sum = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const C p = Kokkos::conj(widen(a[r + i * n])) * widen(b[r + j * n]);
    sum += p;
    abs_sum += Kokkos::abs(p);
  }
  const double eps = std::numeric_limits<typename ScalarTraits<Scalar>::magnitude_type>::epsilon();
  return {sum, 2.0 * (static_cast<double>(n) + 2.0) * eps * abs_sum + 1e-300};
}

template <class Scalar>
class BlockReductions : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(BlockReductions, ScalarTypes);

template <class S, class Layout>
void check_gram(std::size_t n, std::size_t k, std::size_t m) {
  const auto x = test::random_vector<S>(n * k, 11), y = test::random_vector<S>(n * m, 12);
  auto X = test::multivector_from<S, Layout>(x, n, k);
  auto Y = test::multivector_from<S, Layout>(y, n, m);
  Kokkos::View<S**, Kokkos::LayoutLeft, Kokkos::HostSpace> G("G", k, m);
  MultiVectorView<S, Kokkos::LayoutRight> G_device("G_device", k, m);  // other space and layout
  test::poison(G);
  test::poison(G_device);

  kernels::gram(X, Y, G);
  kernels::gram(Kokkos::DefaultExecutionSpace(), X, Y, G_device);

  auto G2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), G_device);
  for (std::size_t j = 0; j < m; ++j) {
    for (std::size_t i = 0; i < k; ++i) {
      const auto [ref, bound] = reference_dot(x, i, y, j, n);
      EXPECT_LE(Kokkos::abs(widen(G(i, j)) - ref), bound) << "G(" << i << ", " << j << "), n = " << n;
      EXPECT_EQ(widen(G2(i, j)), widen(G(i, j))) << i << ", " << j;
    }
  }
}

TYPED_TEST(BlockReductions, GramMatchesReferenceForAllShapesAndLayouts) {
  using S = TypeParam;
  for (auto [n, k, m] : std::vector<std::array<std::size_t, 3>>{
           {1001, 5, 3}, {17, 1, 1}, {0, 3, 2}, {1001, 0, 4}, {64, 4, 0}, {333, 40, 3}, {101, 3, 35},
           {1300, 7, 1}, {700, 37, 1}, {512, 4, 1}}) {  // m = 1: the multi-dot kernel
    check_gram<S, Kokkos::LayoutLeft>(n, k, m);
    check_gram<S, Kokkos::LayoutRight>(n, k, m);
  }
}

TEST(BlockReductions, ComplexGramConjugatesX) {
  auto X = test::multivector_from<C>({C(0, 1), C(1, 0)}, 1, 2);  // [i, 1]
  auto Y = test::multivector_from<C>({C(0, 1)}, 1, 1);          // [i]
  Kokkos::View<C**, Kokkos::LayoutLeft, Kokkos::HostSpace> G("G", 2, 1);

  kernels::gram(X, Y, G);

  EXPECT_EQ(G(0, 0), C(1, 0));  // conj(i) i = 1
  EXPECT_EQ(G(1, 0), C(0, 1));  // conj(1) i = i
}

TEST(BlockReductions, GramWritesIntoAColumnRangeOfALargerHostBlock) {
  const std::size_t n = 50;
  const auto x = test::random_vector<double>(n * 2, 3), y = test::random_vector<double>(n * 3, 4);
  auto X = test::multivector_from<double>(x, n, 2), Y = test::multivector_from<double>(y, n, 3);
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> big("big", 4, 5);
  test::poison(big);
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> G =
      Kokkos::subview(big, std::make_pair(0, 2), std::make_pair(1, 4));  // leading dimension 4

  kernels::gram(X, Y, G);

  for (std::size_t j = 0; j < 3; ++j) {
    for (std::size_t i = 0; i < 2; ++i) EXPECT_NEAR(G(i, j), reference_dot(x, i, y, j, n).first.real(), 1e-12);
    EXPECT_TRUE(std::isnan(big(2, j + 1)) && std::isnan(big(3, j + 1)));  // rows outside G untouched
  }
  EXPECT_TRUE(std::isnan(big(0, 0)) && std::isnan(big(0, 4)));
}

template <class S, class Layout>
void check_column_dots(std::size_t n, std::size_t k1, std::size_t k2) {
  const auto x1 = test::random_vector<S>(n * k1, 21), y1 = test::random_vector<S>(n * k1, 22);
  const auto x2 = test::random_vector<S>(n * k2, 23), y2 = test::random_vector<S>(n * k2, 24);
  auto X1 = test::multivector_from<S, Layout>(x1, n, k1), Y1 = test::multivector_from<S, Layout>(y1, n, k1);
  auto X2 = test::multivector_from<S, Layout>(x2, n, k2), Y2 = test::multivector_from<S, Layout>(y2, n, k2);
  Kokkos::View<S*, Kokkos::HostSpace> r1("r1", k1);
  Kokkos::View<S*> r2("r2", k2);  // device memory
  test::poison(r1);
  test::poison(r2);

  kernels::column_dots(X1, Y1, X2, Y2, r1, r2);

  auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), r2);
  for (std::size_t j = 0; j < k1; ++j) {
    const auto [ref, bound] = reference_dot(x1, j, y1, j, n);
    EXPECT_LE(Kokkos::abs(widen(r1(j)) - ref), bound) << "r1(" << j << "), n = " << n;
  }
  for (std::size_t j = 0; j < k2; ++j) {
    const auto [ref, bound] = reference_dot(x2, j, y2, j, n);
    EXPECT_LE(Kokkos::abs(widen(h2(j)) - ref), bound) << "r2(" << j << "), n = " << n;
  }
}

TYPED_TEST(BlockReductions, FusedColumnDotsMatchReference) {
  using S = TypeParam;
  for (auto [n, k1, k2] : std::vector<std::array<std::size_t, 3>>{
           {1003, 3, 2}, {17, 1, 1}, {0, 2, 3}, {999, 0, 2}, {999, 4, 0}}) {
    check_column_dots<S, Kokkos::LayoutLeft>(n, k1, k2);
    check_column_dots<S, Kokkos::LayoutRight>(n, k1, k2);
  }
}

template <class S, class Layout>
void check_axpby_columns(std::size_t n, std::size_t k) {
  const auto x = test::random_vector<S>(n * k, 31), y = test::random_vector<S>(n * k, 32);
  auto X = test::multivector_from<S, Layout>(x, n, k), Y = test::multivector_from<S, Layout>(y, n, k);
  Kokkos::View<S*, Kokkos::HostSpace> a("a", k), b("b", k);
  for (std::size_t j = 0; j < k; ++j) {
    a(j) = S(1.5) - S(static_cast<float>(j));
    b(j) = j % 2 == 0 ? S(0) : S(-0.25) * S(static_cast<float>(j));  // even columns: overwrite
  }
  auto hY = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y);
  for (std::size_t j = 0; j < k; j += 2) {
    for (std::size_t i = 0; i < n; ++i) hY(i, j) = test::nan_scalar<S>();  // must not be read
  }
  Kokkos::deep_copy(Y, hY);

  kernels::axpby_columns(a, X, b, Y);

  Kokkos::deep_copy(hY, Y);
  const double tol = std::is_same<typename ScalarTraits<S>::magnitude_type, float>::value ? 1e-5 : 1e-14;
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < n; ++i) {
      const C expected = widen(a(j)) * widen(x[i + j * n]) +
                         (j % 2 == 0 ? C(0, 0) : widen(b(j)) * widen(y[i + j * n]));
      ASSERT_LE(Kokkos::abs(widen(hY(i, j)) - expected), tol * 8) << i << ", " << j;
    }
  }
}

TYPED_TEST(BlockReductions, AxpbyColumnsMatchesReferenceAndDoesNotReadYWhereBIsZero) {
  using S = TypeParam;
  for (auto [n, k] : std::vector<std::array<std::size_t, 2>>{{777, 5}, {33, 1}, {0, 3}, {10, 0}}) {
    check_axpby_columns<S, Kokkos::LayoutLeft>(n, k);
    check_axpby_columns<S, Kokkos::LayoutRight>(n, k);
  }
}

TEST(BlockReductions, AxpbyColumnsDoesNotReadXWhereAIsZero) {
  // A block solver freezes a stopped column with a(j) = 0, b(j) = 1, whatever X(:, j) holds.
  const std::size_t n = 9;
  MultiVectorView<double> X("X", n, 2), Y("Y", n, 2);
  test::poison(X);
  Kokkos::deep_copy(Y, 3.0);
  Kokkos::View<double*, Kokkos::HostSpace> a("a", 2), b("b", 2);
  a(0) = 0.0;
  b(0) = 1.0;  // frozen: Y(:, 0) stays 3
  a(1) = 0.0;
  b(1) = 0.0;  // both zero: Y(:, 1) = 0, neither operand read
  kernels::axpby_columns(a, X, b, Y);
  const auto hY = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(hY(i, 0), 3.0) << i;
    EXPECT_EQ(hY(i, 1), 0.0) << i;
  }
}

TEST(BlockReductions, RejectMismatchedShapesWithClearMessages) {
  MultiVectorView<double> X("X", 10, 3), Y("Y", 10, 2), Z("Z", 11, 2);
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> G("G", 2, 2);
  Kokkos::View<double*, Kokkos::HostSpace> r3("r3", 3), r2("r2", 2);

  test::expect_throw_containing<DimensionMismatch>([&] { kernels::gram(X, Y, G); },
                                                   "kelp::kernels::gram: dimension mismatch: G is 2 x 2, expected 3 x 2");
  Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::HostSpace> G32("G32", 3, 2);
  test::expect_throw_containing<DimensionMismatch>([&] { kernels::gram(X, Z, G32); },
                                                   "X has 10 rows, Y has 11");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { kernels::column_dots(X, X, Y, Y, r2, r2); },
      "kelp::kernels::column_dots: dimension mismatch: r1 has 2 entries, r2 has 2; expected 3 and 2");
  test::expect_throw_containing<DimensionMismatch>([&] { kernels::column_dots(X, X, Z, Z, r3, r2); },
                                                   "X1 has 10 rows, X2 has 11");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { kernels::axpby_columns(r2, Y, r2, Z); }, "kelp::kernels::axpby_columns: dimension mismatch");
  test::expect_throw_containing<DimensionMismatch>(
      [&] { kernels::axpby_columns(r3, Y, r2, Y); },
      "a has 3 entries, b has 2, expected 2 (the columns of Y)");
}

}  // namespace
}  // namespace kelp::block_reductions_test
