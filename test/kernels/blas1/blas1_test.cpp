// BLAS-1 and multi-vector kernels against sequential references, for float, double and complex,
// odd lengths (including 0 and 1), both multi-vector layouts, and NaN-poisoned outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "kelp/kernels/blas1.hpp"
#include "test/support/dense.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/scalar_values.hpp"

namespace kelp::blas1_test {
namespace {

template <class Scalar>
using Mag = typename ScalarTraits<Scalar>::magnitude_type;

template <class Scalar>
double tol() {
  return std::is_same<Mag<Scalar>, float>::value ? 1e-4 : 1e-12;
}

/// Exact-enough reference dot in double precision, and the rigorous forward error bound of a
/// recursive or tree summation in Scalar's precision: n * eps * sum |x_i y_i| (Higham, ch. 3).
template <class Scalar>
struct ReferenceDot {
  Kokkos::complex<double> value;
  double error_bound;
};

template <class Scalar>
ReferenceDot<Scalar> reference_dot(const std::vector<Scalar>& x, const std::vector<Scalar>& y,
                                   std::size_t offset, std::size_t n) {
  using T = ScalarTraits<Scalar>;
  Kokkos::complex<double> sum(0, 0);
  double abs_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Kokkos::complex<double> xi(T::real(x[offset + i]), T::imag(x[offset + i]));
    const Kokkos::complex<double> yi(T::real(y[offset + i]), T::imag(y[offset + i]));
    const Kokkos::complex<double> p = Kokkos::conj(xi) * yi;
    sum += p;
    abs_sum += Kokkos::abs(p);
  }
  const double eps = std::numeric_limits<Mag<Scalar>>::epsilon();
  return {sum, 2.0 * (static_cast<double>(n) + 2.0) * eps * abs_sum};
}

template <class Scalar>
double distance(Scalar computed, const Kokkos::complex<double>& exact) {
  using T = ScalarTraits<Scalar>;
  return Kokkos::abs(Kokkos::complex<double>(T::real(computed), T::imag(computed)) - exact);
}

template <class Scalar>
class Blas1Typed : public ::testing::Test {};
using ScalarTypes = ::testing::Types<float, double, Kokkos::complex<double>>;
TYPED_TEST_SUITE(Blas1Typed, ScalarTypes);

TYPED_TEST(Blas1Typed, DotAndFusedDotsMatchReference) {
  using S = TypeParam;
  for (std::size_t n : {0, 1, 17, 1001, 100003}) {
    const auto x = test::random_vector<S>(n, 1), y = test::random_vector<S>(n, 2), z = test::random_vector<S>(n, 3);
    auto dx = test::vector_from(x), dy = test::vector_from(y), dz = test::vector_from(z);

    const S d = kernels::dot(dx, dy);
    const auto [d1, d2] = kernels::dots(dx, dy, dz, dz);

    const auto ref = reference_dot(x, y, 0, n), ref2 = reference_dot(z, z, 0, n);
    EXPECT_LE(distance(d, ref.value), ref.error_bound) << "n = " << n;
    EXPECT_LE(distance(d1, ref.value), ref.error_bound) << "n = " << n;
    EXPECT_LE(distance(d2, ref2.value), ref2.error_bound) << "n = " << n;
  }
}

TYPED_TEST(Blas1Typed, NormsMatchReferenceAndPropagateNaN) {
  using S = TypeParam;
  const std::size_t n = 1001;
  const auto x = test::random_vector<S>(n, 4);
  auto dx = test::vector_from(x);
  double ref2 = 0, refinf = 0;
  for (const auto& v : x) {
    ref2 += ScalarTraits<S>::abs2(v);
    refinf = std::max<double>(refinf, ScalarTraits<S>::abs(v));
  }

  EXPECT_NEAR(kernels::nrm2(dx), std::sqrt(ref2), tol<S>() * std::sqrt(ref2));
  EXPECT_NEAR(kernels::nrminf(dx), refinf, tol<S>() * refinf);

  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dx);
  h(500) = test::nan_scalar<S>();
  Kokkos::deep_copy(dx, h);
  EXPECT_TRUE(std::isnan(kernels::nrm2(dx)));
  EXPECT_TRUE(std::isnan(kernels::nrminf(dx)));
  EXPECT_EQ(kernels::nrminf(Kokkos::View<S*>("empty", 0)), Mag<S>(0));
}

/// x scaled by 2^e (exact in binary), as a device vector.
template <class S>
Kokkos::View<S*> scaled_vector(const std::vector<S>& x, int e) {
  std::vector<S> y(x);
  for (auto& v : y) v = v * static_cast<Mag<S>>(std::ldexp(1.0, e));
  return test::vector_from(y);
}

TYPED_TEST(Blas1Typed, Nrm2NeitherUnderflowsNorOverflows) {
  using S = TypeParam;
  using M = Mag<S>;
  const int big = std::numeric_limits<M>::max_exponent - 8;     // 2^big squared overflows
  const int tiny = std::numeric_limits<M>::min_exponent + 30;   // 2^tiny squared underflows
  for (const std::size_t n : {1, 2, 17, 1001}) {
    const auto x = test::random_vector<S>(n, 11);
    double ref2 = 0;
    for (const auto& v : x) ref2 += ScalarTraits<S>::abs2(v);
    const double ref = std::sqrt(ref2);
    for (const int e : {big, tiny, 0}) {
      const double expected = std::ldexp(ref, e);  // exact scaling of the reference
      const auto dx = scaled_vector(x, e);
      EXPECT_NEAR(std::ldexp(static_cast<double>(kernels::nrm2(dx)), -e), ref, tol<S>() * ref)
          << "n = " << n << ", 2^" << e << " (norm " << expected << ")";
      // The same columns in a multi-vector: [x * 2^e, x, 0].
      Kokkos::View<S**, Kokkos::LayoutLeft> X("X", n, 3);
      Kokkos::deep_copy(Kokkos::subview(X, Kokkos::ALL, 0), dx);
      Kokkos::deep_copy(Kokkos::subview(X, Kokkos::ALL, 1), test::vector_from(x));
      Kokkos::View<M*> norms("norms", 3);
      test::poison(norms);
      kernels::nrm2(X, norms);
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), norms);
      EXPECT_NEAR(std::ldexp(static_cast<double>(h(0)), -e), ref, tol<S>() * ref) << n << " 2^" << e;
      EXPECT_NEAR(h(1), ref, tol<S>() * ref) << n;
      EXPECT_EQ(h(2), M(0)) << n;
    }
  }
  // Infinite and NaN entries keep their meaning on the scaled path.
  std::vector<S> x(5, S(1));
  x[2] = S(std::numeric_limits<M>::infinity());
  EXPECT_EQ(kernels::nrm2(test::vector_from(x)), std::numeric_limits<M>::infinity());
  x[3] = test::nan_scalar<S>();
  EXPECT_TRUE(std::isnan(kernels::nrm2(test::vector_from(x))));
  EXPECT_EQ(kernels::nrm2(Kokkos::View<S*>("zeros", 7)), M(0));
}

// nrminf takes moduli: for complex entries re^2 + im^2 under- or overflowed (0 or inf for
// 3e-200 + 4e-200i and 3e200 + 4e200i); ScalarTraits::abs now scales by the larger part.
TYPED_TEST(Blas1Typed, NrminfAndAbsNeitherUnderflowNorOverflow) {
  using S = TypeParam;
  using M = Mag<S>;
  for (const int e : {std::numeric_limits<M>::max_exponent - 4, std::numeric_limits<M>::min_exponent + 10, 0}) {
    const M scale = static_cast<M>(std::ldexp(1.0, e));
    const S x = test::scalar_of<S>(3, 4) * scale;
    const M expected = (ScalarTraits<S>::is_complex ? M(5) : M(3)) * scale;
    EXPECT_NEAR(ScalarTraits<S>::abs(x) / scale, expected / scale, tol<S>()) << "2^" << e;
    const std::vector<S> v = {S(0), -x, x * M(0.5)};
    EXPECT_NEAR(kernels::nrminf(test::vector_from(v)) / scale, expected / scale, tol<S>()) << "2^" << e;
  }
  const M inf = std::numeric_limits<M>::infinity();
  EXPECT_EQ(ScalarTraits<S>::abs(S(-inf)), inf);
  EXPECT_TRUE(std::isnan(ScalarTraits<S>::abs(test::nan_scalar<S>())));
  EXPECT_EQ(ScalarTraits<S>::abs(S(0)), M(0));
}

TYPED_TEST(Blas1Typed, AxpbyUpdateScalMatchReferenceAndIgnorePoisonedOutputs) {
  using S = TypeParam;
  const std::size_t n = 777;
  const auto x = test::random_vector<S>(n, 5), y = test::random_vector<S>(n, 6), z = test::random_vector<S>(n, 7);
  const S a = S(1.5), b = S(-0.25), g = S(2);
  auto dx = test::vector_from(x), dy = test::vector_from(y), dz = test::vector_from(z);
  auto dpoisoned = test::vector_from(y);
  test::poison(dpoisoned);

  kernels::axpby(a, dx, b, dy);             // y = a x + b y
  kernels::axpby(a, dx, S(0), dpoisoned);   // poisoned y must not be read
  auto du = test::vector_from(y);
  kernels::update(a, dx, b, du, g, dz);     // u = a x + b u + g z
  auto ds = test::vector_from(x);
  kernels::scal(b, ds);

  auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dy);
  auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dpoisoned);
  auto hu = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), du);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ds);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_LE(ScalarTraits<S>::abs(hy(i) - (a * x[i] + b * y[i])), tol<S>());
    EXPECT_LE(ScalarTraits<S>::abs(hp(i) - a * x[i]), tol<S>());
    EXPECT_LE(ScalarTraits<S>::abs(hu(i) - (a * x[i] + b * y[i] + g * z[i])), tol<S>());
    EXPECT_LE(ScalarTraits<S>::abs(hs(i) - b * x[i]), tol<S>());
  }
}

template <class S, class Layout>
void check_multivector_kernels() {
  const std::size_t n = 1003, k = 5;
  const auto x = test::random_vector<S>(n * k, 8), y = test::random_vector<S>(n * k, 9);
  auto X = test::multivector_from<S, Layout>(x, n, k), Y = test::multivector_from<S, Layout>(y, n, k);
  Kokkos::View<S*> dots("dots", k);
  Kokkos::View<Mag<S>*> norms("norms", k), norms_inf("norms_inf", k);
  test::poison(dots);

  kernels::dot(X, Y, dots);
  kernels::nrm2(X, norms);
  kernels::nrminf(X, norms_inf);
  kernels::axpby(S(2), X, S(0), Y);  // Y = 2 X (Y not read)

  auto hd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dots);
  auto hn = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), norms);
  auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), norms_inf);
  auto hY = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y);
  for (std::size_t j = 0; j < k; ++j) {
    const auto ref = reference_dot(x, y, j * n, n);
    EXPECT_LE(distance(hd(j), ref.value), ref.error_bound) << j;
    double r2 = 0, rinf = 0;
    for (std::size_t i = 0; i < n; ++i) {
      r2 += ScalarTraits<S>::abs2(x[i + j * n]);
      rinf = std::max<double>(rinf, ScalarTraits<S>::abs(x[i + j * n]));
      EXPECT_LE(ScalarTraits<S>::abs(hY(i, j) - S(2) * x[i + j * n]), tol<S>());
    }
    EXPECT_NEAR(hn(j), std::sqrt(r2), tol<S>() * 40) << j;
    EXPECT_NEAR(hi(j), rinf, tol<S>()) << j;
  }
}

TYPED_TEST(Blas1Typed, MultiVectorKernelsWorkColumnWiseInBothLayouts) {
  check_multivector_kernels<TypeParam, Kokkos::LayoutLeft>();
  check_multivector_kernels<TypeParam, Kokkos::LayoutRight>();
}

TEST(Blas1, ComplexDotConjugatesTheFirstArgument) {
  using C = Kokkos::complex<double>;
  auto x = test::vector_from<C>({C(0, 1)}), y = test::vector_from<C>({C(0, 1)});

  EXPECT_EQ(kernels::dot(x, y), C(1, 0));  // conj(i) * i = 1, not i * i = -1
}

TEST(Blas1, RejectsMismatchedLengths) {
  Kokkos::View<double*> x("x", 3), y("y", 4);

  try {
    kernels::axpby(1.0, x, 1.0, y);
    FAIL() << "expected DimensionMismatch";
  } catch (const DimensionMismatch& e) {
    EXPECT_NE(std::string(e.what()).find("x has extent 3 in dimension 0, y has 4"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(kernels::dot(x, y), DimensionMismatch);
}

}  // namespace
}  // namespace kelp::blas1_test
