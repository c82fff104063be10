// The host fixed-width blocked KPM step (solvers/kpm/impl/kpm_fixed_width_kernel.hpp) in every
// register width, 2, 4 and 8 doubles, whatever this build's instruction set: a generic build runs
// only 2 through kpm_moments, an AVX or AVX-512 build only 4 or 8. Each is checked against a
// sequential reference of W <- alpha H V + beta V - gamma W and the 2R dots, with W poisoned
// (gamma = 0) or read (gamma != 0), on a matrix with empty rows, a row longer than the kernel
// stages at once and an odd size. With 2 doubles a register R = 32 stages its rows (row 11 in
// two segments); R = 32 prefetches its gathers in every register width.
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
using Block = MultiVectorView<Complex, Kokkos::LayoutRight>;

/// 37 rows: row 5 and 20 empty, row 11 long (all columns: longer than the kernel stages at a
/// time, so it is done in two segments), others 1-5 random entries.
CrsMatrix<Complex> test_matrix() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Ordinal> rows, cols;
  std::vector<Complex> vals;
  const Ordinal n = 37;
  for (Ordinal i = 0; i < n; ++i) {
    if (i == 5 || i == 20) continue;
    const int count = i == 11 ? static_cast<int>(n) : 1 + static_cast<int>(rng() % 5);
    for (int k = 0; k < count; ++k) {
      rows.push_back(i);
      cols.push_back(i == 11 ? k : static_cast<Ordinal>(rng() % n));
      vals.push_back(Complex(u(rng), u(rng)));
    }
  }
  return crs_from_coo<Complex>(n, n, rows, cols, vals);  // duplicates are summed
}

template <int R, int N>
void check_width(double gamma) {
  const auto H = test_matrix();
  const auto n = static_cast<std::size_t>(H.num_rows());
  Block V("V", n, R), W("W", n, R);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  auto Vh = Kokkos::create_mirror_view(V);
  auto Wh = Kokkos::create_mirror_view(W);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < R; ++c) {
      Vh(i, c) = Complex(u(rng), u(rng));
      Wh(i, c) = gamma != 0.0 ? Complex(u(rng), u(rng)) : Complex(NAN, NAN);  // poison: not read
    }
  }
  Kokkos::deep_copy(V, Vh);
  Kokkos::deep_copy(W, Wh);
  const double alpha = 0.7, beta = -0.3;
  // Sequential reference.
  const auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.row_map());
  const auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.entries());
  const auto va = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.values());
  std::vector<Complex> w_ref(n * R);
  std::vector<double> sums_ref(2 * R, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < R; ++c) {
      Complex hv(0);
      for (auto k = rm(i); k < rm(i + 1); ++k) hv += va(k) * Vh(static_cast<std::size_t>(en(k)), c);
      Complex w = alpha * hv + beta * Vh(i, c);
      if (gamma != 0.0) w -= gamma * Wh(i, c);
      w_ref[i * R + c] = w;
      sums_ref[2 * c] += (Kokkos::conj(Vh(i, c)) * Vh(i, c)).real();
      sums_ref[2 * c + 1] += (Kokkos::conj(w) * Vh(i, c)).real();
    }
  }
  using Functor = solvers::impl::KpmBlockedSpmmvFixedWidth<CrsMatrix<Complex>, Block, R, N>;
  ASSERT_GT(static_cast<long long>(rm(12) - rm(11)), Functor::stage_capacity) << "row 11 must take two segments";
  std::vector<double> sums(2 * R, NAN);
  solvers::impl::blocked_step_fixed_width<R, Complex, N>(H, V, W, alpha, beta, gamma, sums.data());
  Kokkos::deep_copy(Wh, W);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < R; ++c) {
      ASSERT_LE(Kokkos::abs(Wh(i, c) - w_ref[i * R + c]), 1e-13) << "R " << R << " N " << N << " row " << i << " col " << c;
    }
  }
  for (int j = 0; j < 2 * R; ++j) {
    EXPECT_NEAR(sums[j], sums_ref[j], 1e-12 * (1 + std::abs(sums_ref[j]))) << "R " << R << " N " << N << " sum " << j;
  }
}

template <int N>
void check_all_widths() {
  static_assert(N != 2 || solvers::impl::KpmBlockedSpmmvFixedWidth<CrsMatrix<Complex>, Block, 32, 2>::stage_rows,
                "the staged path must be among the widths checked");
  static_assert(!solvers::impl::KpmBlockedSpmmvFixedWidth<CrsMatrix<Complex>, Block, 4, N>::stage_rows,
                "the unstaged path must be among the widths checked");
  for (const double gamma : {0.0, 0.9}) {
    check_width<1, N>(gamma);
    check_width<2, N>(gamma);
    check_width<4, N>(gamma);
    check_width<32, N>(gamma);
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
