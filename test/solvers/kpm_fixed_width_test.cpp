// The host fixed-width blocked KPM step (solvers/kpm/impl/kpm_fixed_width_kernel.hpp) in every
// register width, 2, 4 and 8 doubles, whatever this build's instruction set: a generic build runs
// only 2 through kpm_moments, an AVX or AVX-512 build only 4 or 8. Each is checked against a
// sequential reference of W <- alpha H V + beta V - gamma W and the 2R dots, with W poisoned
// (gamma = 0) or read (gamma != 0), on a matrix with empty rows, a row longer than the kernel
// stages at once and an odd size, complex (R = 1, 2, 4, 32) and real (R = 2, 64). With 2 doubles
// a register complex R = 32 and real R = 64 stage their rows (row 11 in two segments); both
// prefetch their gathers in every register width.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/solvers/kpm/impl/kpm_fixed_width_kernel.hpp"

namespace kelp::kpm_fixed_width_test {
namespace {

#ifdef KELP_KPM_FIXED_WIDTH_KERNEL
using Complex = Kokkos::complex<double>;
template <class Scalar>
using Block = MultiVectorView<Scalar, Kokkos::LayoutRight>;

/// A random entry: complex or real.
template <class Scalar>
Scalar random_entry(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  if constexpr (ScalarTraits<Scalar>::is_complex) {
    const double re = u(rng);
    return Scalar(re, u(rng));
  } else {
    return Scalar(u(rng));
  }
}

/// 37 rows: row 5 and 20 empty, rows 11 and 35 long (all columns: longer than the kernel stages
/// at a time, so they are done in two segments; row 11's diagonal is in its first segment, row
/// 35's in its second), others 1-5 random entries, some with a diagonal entry and some without
/// (the kernel folds beta into a diagonal it stages with a row's first segment).
template <class Scalar>
CrsMatrix<Scalar> test_matrix() {
  std::mt19937 rng(7);
  std::vector<Ordinal> rows, cols;
  std::vector<Scalar> vals;
  const Ordinal n = 37;
  for (Ordinal i = 0; i < n; ++i) {
    if (i == 5 || i == 20) continue;
    const bool all = i == 11 || i == 35;
    const int count = all ? static_cast<int>(n) : 1 + static_cast<int>(rng() % 5);
    for (int k = 0; k < count; ++k) {
      rows.push_back(i);
      cols.push_back(all ? k : i % 3 == 0 && k == 0 ? i : static_cast<Ordinal>(rng() % n));
      vals.push_back(random_entry<Scalar>(rng));
    }
  }
  return crs_from_coo<Scalar>(n, n, rows, cols, vals);  // duplicates are summed
}

template <int R, int N, class Scalar = Complex>
void check_width(double gamma) {
  using Traits = ScalarTraits<Scalar>;
  const auto H = test_matrix<Scalar>();
  const auto n = static_cast<std::size_t>(H.num_rows());
  Block<Scalar> V("V", n, R), W("W", n, R);
  std::mt19937 rng(11);
  auto Vh = Kokkos::create_mirror_view(V);
  auto Wh = Kokkos::create_mirror_view(W);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < R; ++c) {
      Vh(i, c) = random_entry<Scalar>(rng);
      Wh(i, c) = gamma != 0.0 ? random_entry<Scalar>(rng) : Scalar(NAN);  // poison: not read
    }
  }
  Kokkos::deep_copy(V, Vh);
  Kokkos::deep_copy(W, Wh);
  const double alpha = 0.7, beta = -0.3;
  // Sequential reference.
  const auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.row_map());
  const auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.entries());
  const auto va = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.values());
  std::vector<Scalar> w_ref(n * R);
  std::vector<double> sums_ref(2 * R, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < R; ++c) {
      Scalar hv(0);
      for (auto k = rm(i); k < rm(i + 1); ++k) hv += va(k) * Vh(static_cast<std::size_t>(en(k)), c);
      Scalar w = alpha * hv + beta * Vh(i, c);
      if (gamma != 0.0) w -= gamma * Wh(i, c);
      w_ref[i * R + c] = w;
      sums_ref[2 * c] += Traits::real(Traits::conj(Vh(i, c)) * Vh(i, c));
      sums_ref[2 * c + 1] += Traits::real(Traits::conj(w) * Vh(i, c));
    }
  }
  using Functor = solvers::impl::KpmBlockedSpmmvFixedWidth<CrsMatrix<Scalar>, Block<Scalar>, R, N>;
  ASSERT_GT(static_cast<long long>(rm(12) - rm(11)), Functor::stage_capacity) << "row 11 must take two segments";
  ASSERT_GT(35, Functor::stage_capacity) << "row 35's diagonal must be in its second segment";
  int with_diagonal = 0, without = 0;  // rows with entries: both kinds must be checked
  for (std::size_t i = 0; i < n; ++i) {
    if (rm(i) == rm(i + 1)) continue;
    bool diagonal = false;
    for (auto k = rm(i); k < rm(i + 1); ++k) diagonal = diagonal || static_cast<std::size_t>(en(k)) == i;
    ++(diagonal ? with_diagonal : without);
  }
  ASSERT_GE(with_diagonal, 5);
  ASSERT_GE(without, 5);
  std::vector<double> sums(2 * R, NAN);
  solvers::impl::blocked_step_fixed_width<R, Scalar, N>(H, V, W, alpha, beta, gamma, sums.data());
  Kokkos::deep_copy(Wh, W);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < R; ++c) {
      ASSERT_LE(Traits::abs(Wh(i, c) - w_ref[i * R + c]), 1e-13)
          << Traits::name() << " R " << R << " N " << N << " row " << i << " col " << c;
    }
  }
  for (int j = 0; j < 2 * R; ++j) {
    EXPECT_NEAR(sums[j], sums_ref[j], 1e-12 * (1 + std::abs(sums_ref[j])))
        << Traits::name() << " R " << R << " N " << N << " sum " << j;
  }
}

template <int N>
void check_all_widths() {
  using solvers::impl::KpmBlockedSpmmvFixedWidth;
  static_assert(N != 2 || KpmBlockedSpmmvFixedWidth<CrsMatrix<Complex>, Block<Complex>, 32, 2>::stage_rows,
                "the staged complex path must be among the widths checked");
  static_assert(N != 2 || KpmBlockedSpmmvFixedWidth<CrsMatrix<double>, Block<double>, 64, 2>::stage_rows,
                "the staged real path must be among the widths checked");
  static_assert(!KpmBlockedSpmmvFixedWidth<CrsMatrix<Complex>, Block<Complex>, 4, N>::stage_rows,
                "the unstaged path must be among the widths checked");
  for (const double gamma : {0.0, 0.9, 1.0}) {  // 1: the Chebyshev steps after the first
    check_width<1, N>(gamma);
    check_width<2, N>(gamma);
    check_width<4, N>(gamma);
    check_width<32, N>(gamma);
    check_width<64, N>(gamma);  // staged with 2 and 4 doubles a register
    check_width<2, N, double>(gamma);  // real: no R = 1 (a real row of one double is no pair)
    check_width<64, N, double>(gamma);
  }
}

TEST(KpmFixedWidth, TwoDoublesPerRegister) { check_all_widths<2>(); }
TEST(KpmFixedWidth, FourDoublesPerRegister) { check_all_widths<4>(); }
TEST(KpmFixedWidth, EightDoublesPerRegister) { check_all_widths<8>(); }
#else
TEST(KpmFixedWidth, NotInThisBuild) { GTEST_SKIP() << "the fixed-width kernel is for GCC/Clang host builds"; }
#endif

}  // namespace
}  // namespace kelp::kpm_fixed_width_test
