// KPM densities of states: exact-trace moments against dense Chebyshev traces (Eigen), the three
// implementations against each other, KPM-DOS against the exact eigenvalue histogram convolved
// with the same kernel (TI 4x4x4, chain, cubic), normalisation and positivity with Jackson, the
// spectral bounds, and bad input.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <complex>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "kelp/kernels/core/crs_from_coo.hpp"
#include "kelp/kernels/generators/hamiltonians.hpp"
#include "kelp/kernels/sparse/symmetric_permute.hpp"
#include "kelp/solvers/kpm/kpm.hpp"
#include "test/support/dense_oracles.hpp"
#include "test/support/expect.hpp"

namespace kelp::kpm_test {
namespace {

using Complex = Kokkos::complex<double>;
using solvers::KpmImplementation;
using solvers::KpmParams;
using solvers::KpmTrace;

/// Dense Hermitian copy of a small CRS matrix.
template <class Scalar>
Eigen::MatrixXcd dense_of(const CrsMatrix<Scalar>& A) {
  const auto H = to_host(A);
  Eigen::MatrixXcd D = Eigen::MatrixXcd::Zero(H.num_rows(), H.num_cols());
  for (Ordinal i = 0; i < H.num_rows(); ++i) {
    for (auto k = H.row_map()(i); k < H.row_map()(i + 1); ++k) {
      D(i, H.entries()(k)) += std::complex<double>(ScalarTraits<Scalar>::real(H.values()(k)),
                                                   ScalarTraits<Scalar>::imag(H.values()(k)));
    }
  }
  return D;
}

template <class Scalar>
std::vector<double> eigenvalues_of(const CrsMatrix<Scalar>& A) {
  const Eigen::VectorXd e = test::self_adjoint_eigenvalues(dense_of(A));
  return std::vector<double>(e.data(), e.data() + e.size());
}

/// The TI Hamiltonian on an nx x ny x nz lattice (4 nx ny nz rows) with on-site disorder.
CrsMatrix<Complex> ti_lattice(int nx, int ny, int nz, double disorder) {
  generators::TopologicalInsulatorParams p;
  p.nx = nx;
  p.ny = ny;
  p.nz = nz;
  p.disorder = disorder;
  return generators::topological_insulator<Complex>(p);
}

/// Random sparse Hermitian matrix (real symmetric for double), with some empty rows.
template <class Scalar>
CrsMatrix<Scalar> random_hermitian(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Ordinal> rows, cols;
  std::vector<Scalar> vals;
  for (int i = 0; i < n; ++i) {
    if (i % 5 == 3) continue;  // an empty row
    rows.push_back(i);
    cols.push_back(i);
    vals.push_back(Scalar(u(rng)));
    for (int j = i + 1; j < n; ++j) {
      if (j % 5 == 3 || u(rng) < 0.4) continue;
      Scalar a;
      if constexpr (ScalarTraits<Scalar>::is_complex) {
        a = Scalar(u(rng), u(rng));
      } else {
        a = Scalar(u(rng));
      }
      rows.push_back(i), cols.push_back(j), vals.push_back(a);
      rows.push_back(j), cols.push_back(i), vals.push_back(ScalarTraits<Scalar>::conj(a));
    }
  }
  return crs_from_coo<Scalar>(n, n, rows, cols, vals);
}

/// mu_m = tr T_m(H~) / N by the dense Chebyshev recurrence.
std::vector<double> dense_chebyshev_traces(const Eigen::MatrixXcd& H, const solvers::KpmScaling& s,
                                           int num_moments) {
  const auto n = H.rows();
  const Eigen::MatrixXcd Hs = (H - s.center * Eigen::MatrixXcd::Identity(n, n)) / s.half_width;
  Eigen::MatrixXcd T_prev = Eigen::MatrixXcd::Identity(n, n), T = Hs;
  std::vector<double> mu = {1.0, T.trace().real() / n};
  while (static_cast<int>(mu.size()) < num_moments) {
    Eigen::MatrixXcd T_next = 2.0 * Hs * T - T_prev;
    T_prev = T;
    T = T_next;
    mu.push_back(T.trace().real() / n);
  }
  mu.resize(num_moments);
  return mu;
}

std::vector<double> grid(double lo, double hi, int count) {
  std::vector<double> e(count);
  for (int k = 0; k < count; ++k) e[k] = lo + (hi - lo) * k / (count - 1);
  return e;
}

template <class Scalar>
void expect_exact_trace_matches_dense(const CrsMatrix<Scalar>& H) {
  for (auto impl : {KpmImplementation::naive, KpmImplementation::augmented,
                    KpmImplementation::blocked}) {
    KpmParams params;
    params.trace = KpmTrace::exact;
    params.num_moments = 41;  // odd: the last product's second moment is dropped
    params.implementation = impl;
    params.block_size = 4;    // N is not a multiple: a narrower last block

    const auto result = solvers::kpm_dos(H, params, {0.0});

    const auto expected = dense_chebyshev_traces(dense_of(H), result.scaling, params.num_moments);
    ASSERT_EQ(result.moments.size(), expected.size());
    for (std::size_t m = 0; m < expected.size(); ++m) {
      EXPECT_NEAR(result.moments[m], expected[m], 1e-11) << "m = " << m << ", " << to_string(impl);
    }
  }
}

TEST(Kpm, ExactTraceMomentsEqualDenseChebyshevTracesReal) {
  expect_exact_trace_matches_dense(random_hermitian<double>(23, 1));
}

TEST(Kpm, ExactTraceMomentsEqualDenseChebyshevTracesComplex) {
  expect_exact_trace_matches_dense(random_hermitian<Complex>(19, 2));
}

template <class Scalar>
void expect_implementations_agree(const CrsMatrix<Scalar>& H, solvers::KpmRandomVector kind) {
  const auto bounds = solvers::gershgorin_bounds(H);
  const auto scaling = solvers::KpmScaling::from_bounds(bounds, 0.01);
  MultiVectorView<Scalar, Kokkos::LayoutRight> start("start", H.num_rows(), 5);
  solvers::kpm_start_vectors(start, KpmTrace::stochastic, kind, 7, 0);

  const auto naive = solvers::kpm_moments(H, scaling, start, 30, KpmImplementation::naive, 1, 1e-6);
  const auto augmented =
      solvers::kpm_moments(H, scaling, start, 30, KpmImplementation::augmented, 1, 1e-6);
  const auto blocked = solvers::kpm_moments(H, scaling, start, 30, KpmImplementation::blocked, 2, 1e-6);
  const auto one_block =
      solvers::kpm_moments(H, scaling, start, 30, KpmImplementation::blocked, 64, 1e-6);
  // The GPU (team) kernel, forced on host spaces too.
  const auto team = solvers::kpm_moments(H, scaling, start, 30, KpmImplementation::blocked, 2, 1e-6,
                                         solvers::KpmBlockedKernel::team);
  const auto one_team_block = solvers::kpm_moments(H, scaling, start, 30, KpmImplementation::blocked,
                                                   64, 1e-6, solvers::KpmBlockedKernel::team);

  const double n = H.num_rows();
  for (int r = 0; r < 5; ++r) {
    EXPECT_NEAR(naive.at(r, 0), n, 1e-9 * n);  // |r|^2 = N for +-1 and unit phases
    for (int m = 0; m < 30; ++m) {
      EXPECT_NEAR(augmented.at(r, m), naive.at(r, m), 1e-10 * n) << r << " " << m;
      EXPECT_NEAR(blocked.at(r, m), naive.at(r, m), 1e-10 * n) << r << " " << m;
      EXPECT_NEAR(one_block.at(r, m), naive.at(r, m), 1e-10 * n) << r << " " << m;
      EXPECT_NEAR(team.at(r, m), naive.at(r, m), 1e-10 * n) << r << " " << m;
      EXPECT_NEAR(one_team_block.at(r, m), naive.at(r, m), 1e-10 * n) << r << " " << m;
    }
  }
}

TEST(Kpm, ImplementationsGiveTheSameMomentsTopologicalInsulator) {
  expect_implementations_agree(ti_lattice(3, 3, 3, 1.0), solvers::KpmRandomVector::random_phase);
}

TEST(Kpm, ImplementationsGiveTheSameMomentsRealCubic) {
  expect_implementations_agree(generators::tight_binding<double>(5, 4, 3, 1.0, false),
                               solvers::KpmRandomVector::rademacher);
}

/// Row and team kernels of the blocked implementation against the naive moments, for block widths
/// that fill part of a lane group (1, 3, 5), one warp (32) and two lanes per vector (64), on odd
/// row counts with empty rows and long rows (random_hermitian(71): up to 26 entries a row; rows
/// longer than the fixed-width kernel stages at once are in kpm_fixed_width_test.cpp). On host spaces the row kernel of the powers of two is the fixed-width one
/// (kpm_fixed_width_kernel.hpp: every width it instantiates is here), that of 3 and 5 the
/// runtime-R one; the team kernel is the independent check of both. The team kernel itself runs
/// as KpmTeamKernelNarrow for R = 1, 2, as KpmTeamKernelQuad for multiples of 4 from 8 to 64
/// (four vectors a lane: 8, 16, 32, 64), as KpmTeamKernelPaired for the other even R from 8 to 64
/// (two a lane: 10; on host spaces both go row by row through update_row_group, on GPUs with a
/// lane's sums in registers) and as KpmTeamKernelWide otherwise (3, 4, 5, 6, 66). They keep 8,
/// 2, 2 and 4 gathers in flight, so the rows of up to 26 entries take the batched loops and
/// their remainders.
template <class Scalar>
void expect_blocked_kernels_agree(int n, solvers::KpmRandomVector kind) {
  const auto H = random_hermitian<Scalar>(n, 11);
  const auto scaling = solvers::KpmScaling::from_bounds(solvers::gershgorin_bounds(H), 0.01);
  constexpr int moments = 17;  // odd: the last product's second moment is dropped
  for (int R : {1, 2, 3, 4, 5, 6, 8, 10, 16, 32, 64, 66}) {
    MultiVectorView<Scalar, Kokkos::LayoutRight> start("start", n, R);
    solvers::kpm_start_vectors(start, KpmTrace::stochastic, kind, 5, 0);
    // The naive reference on the first (at most 4) vectors keeps the test fast; the start vectors
    // depend only on (seed, row, index), so these are the block's first columns.
    const int checked = std::min(R, 4);
    MultiVectorView<Scalar, Kokkos::LayoutRight> first("first", n, checked);
    solvers::kpm_start_vectors(first, KpmTrace::stochastic, kind, 5, 0);
    const auto naive = solvers::kpm_moments(H, scaling, first, moments, KpmImplementation::naive, 1, 1e-6);
    const auto row = solvers::kpm_moments(H, scaling, start, moments, KpmImplementation::blocked, R,
                                          1e-6, solvers::KpmBlockedKernel::row);
    for (auto kernel : {solvers::KpmBlockedKernel::team, solvers::KpmBlockedKernel::automatic}) {
      const auto blocked =
          solvers::kpm_moments(H, scaling, start, moments, KpmImplementation::blocked, R, 1e-6, kernel);
      ASSERT_EQ(blocked.num_vectors, R);
      for (int r = 0; r < R; ++r) {
        for (int m = 0; m < moments; ++m) {
          ASSERT_NEAR(blocked.at(r, m), row.at(r, m), 1e-10 * n)
              << "R = " << R << ", vector " << r << ", moment " << m << ", " << to_string(kernel);
          if (r < checked) {
            ASSERT_NEAR(blocked.at(r, m), naive.at(r, m), 1e-10 * n)
                << "R = " << R << ", vector " << r << ", moment " << m << ", " << to_string(kernel);
          }
        }
      }
    }
  }
}

TEST(Kpm, BlockedRowAndTeamKernelsAgreeWithNaiveComplex) {
  expect_blocked_kernels_agree<Complex>(71, solvers::KpmRandomVector::random_phase);
  expect_blocked_kernels_agree<Complex>(1, solvers::KpmRandomVector::random_phase);
}

TEST(Kpm, BlockedRowAndTeamKernelsAgreeWithNaiveReal) {
  expect_blocked_kernels_agree<double>(71, solvers::KpmRandomVector::rademacher);
  expect_blocked_kernels_agree<double>(33, solvers::KpmRandomVector::rademacher);
}

/// One blocked step (impl::kpm_blocked_step) against a sequential reference. With gamma = 0 W is
/// poisoned with NaN: kpm_moments leaves W uninitialised for the first step, so a kernel that read
/// it would spread the NaN into W and the dots. With gamma != 0 W is read and must be.
void expect_blocked_step_matches_reference(bool team, int R, double gamma) {
  const auto H = random_hermitian<Complex>(41, 5);  // empty rows, rows of 1 to ~25 entries
  const auto n = static_cast<std::size_t>(H.num_rows());
  MultiVectorView<Complex, Kokkos::LayoutRight> V("V", n, R), W("W", n, R);
  auto Vh = Kokkos::create_mirror_view(V);
  auto Wh = Kokkos::create_mirror_view(W);
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < R; ++c) {
      Vh(i, c) = Complex(u(rng), u(rng));
      Wh(i, c) = gamma != 0.0 ? Complex(u(rng), u(rng)) : Complex(NAN, NAN);
    }
  }
  Kokkos::deep_copy(V, Vh);
  Kokkos::deep_copy(W, Wh);
  const double alpha = 0.7, beta = -0.3;
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
  std::vector<double> sums(2 * R, NAN);
  solvers::impl::kpm_blocked_step(H, V, W, alpha, beta, gamma, team, sums.data());
  Kokkos::deep_copy(Wh, W);
  const char* kernel = team ? "team" : "row";
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < R; ++c) {
      ASSERT_LE(Kokkos::abs(Wh(i, c) - w_ref[i * R + c]), 1e-13)
          << kernel << " R " << R << " gamma " << gamma << " row " << i << " col " << c;
    }
  }
  for (int j = 0; j < 2 * R; ++j) {
    EXPECT_NEAR(sums[j], sums_ref[j], 1e-12 * (1 + std::abs(sums_ref[j])))
        << kernel << " R " << R << " gamma " << gamma << " sum " << j;
  }
}

/// Both kernels, the team kernel's narrow (R = 1, 2), wide (3, 4), paired (10) and quad (8, 32)
/// instantiations, and the row kernel's fixed-width (1, 4, 8, 32 on host builds) and runtime
/// widths (3).
TEST(Kpm, BlockedStepDoesNotReadWOnTheFirstStep) {
  for (const bool team : {false, true}) {
    for (const int R : {1, 2, 3, 4, 8, 10, 32}) {
      for (const double gamma : {0.0, 0.9}) expect_blocked_step_matches_reference(team, R, gamma);
    }
  }
}

TEST(Kpm, BlockedStepRejectsMismatchedBlocks) {
  const auto H = random_hermitian<Complex>(12, 3);
  MultiVectorView<Complex, Kokkos::LayoutRight> V("V", 12, 2), W("W", 11, 2);
  std::vector<double> sums(4);
  test::expect_throw_containing<DimensionMismatch>(
      [&] { solvers::impl::kpm_blocked_step(H, V, W, 1.0, 0.0, 0.0, true, sums.data()); },
      "kpm_blocked_step: H has 12 rows, V is 12 x 2, W is 11 x 2");
}

TEST(Kpm, TeamKernelGivesTheSameBitsRunToRun) {
  const auto H = ti_lattice(5, 3, 3, 1.0);  // 180 rows
  const auto scaling = solvers::KpmScaling::from_bounds(solvers::gershgorin_bounds(H), 0.01);
  MultiVectorView<Complex, Kokkos::LayoutRight> start("start", H.num_rows(), 32);
  solvers::kpm_start_vectors(start, KpmTrace::stochastic, solvers::KpmRandomVector::random_phase, 3, 0);
  const auto run = [&] {
    return solvers::kpm_moments(H, scaling, start, 40, KpmImplementation::blocked, 32, 1e-6,
                                solvers::KpmBlockedKernel::team);
  };
  const auto first = run();
  for (int repeat = 0; repeat < 3; ++repeat) EXPECT_EQ(run().values, first.values);
}

/// The team kernel keeps each step's sums on the device and copies them to the host 256 steps at
/// a time (KpmTeamWorkspace::steps_per_copy): 601 moments are 301 steps, one full batch and a
/// partial one, each moment where the row kernel puts it.
TEST(Kpm, TeamKernelSumsComeBackInBatches) {
  const auto H = ti_lattice(3, 3, 2, 0.5);  // 72 rows
  const auto scaling = solvers::KpmScaling::from_bounds(solvers::gershgorin_bounds(H), 0.01);
  for (const int R : {1, 3}) {  // the narrow and the wide kernel
    MultiVectorView<Complex, Kokkos::LayoutRight> start("start", H.num_rows(), R);
    solvers::kpm_start_vectors(start, KpmTrace::stochastic, solvers::KpmRandomVector::random_phase, 9, 0);
    for (const int moments : {512, 513, 601}) {
      const auto row = solvers::kpm_moments(H, scaling, start, moments, KpmImplementation::blocked, R, 1e-6,
                                            solvers::KpmBlockedKernel::row);
      const auto team = solvers::kpm_moments(H, scaling, start, moments, KpmImplementation::blocked, R, 1e-6,
                                             solvers::KpmBlockedKernel::team);
      ASSERT_EQ(team.values.size(), row.values.size());
      for (int r = 0; r < R; ++r) {
        for (int m = 0; m < moments; ++m) {
          ASSERT_NEAR(team.at(r, m), row.at(r, m), 1e-9 * H.num_rows())
              << "R " << R << ", " << moments << " moments: vector " << r << ", moment " << m;
        }
      }
    }
  }
}

TEST(Kpm, EmptyMatrixGivesZeroMomentsWithTheTeamKernel) {
  const auto H = crs_from_coo<double>(0, 0, {}, {}, {});
  MultiVectorView<double, Kokkos::LayoutRight> start("start", 0, 3);
  const auto moments = solvers::kpm_moments(H, solvers::KpmScaling(), start, 4, KpmImplementation::blocked,
                                            3, 1e-6, solvers::KpmBlockedKernel::team);
  ASSERT_EQ(moments.values.size(), 12u);
  for (double mu : moments.values) EXPECT_EQ(mu, 0.0);
}

/// The locality order renumbers H and the start vectors alike, so every vector's moments are
/// those of the natural order up to rounding: per vector through kpm_moments, and the density
/// through kpm_dos (stochastic and exact traces, small parts so that there are many). H is a TI
/// lattice renumbered at random (a badly ordered input) and a real cubic lattice.
template <class Scalar>
void expect_locality_order_keeps_the_moments(const CrsMatrix<Scalar>& H, solvers::KpmRandomVector kind) {
  const auto scaling = solvers::KpmScaling::from_bounds(solvers::gershgorin_bounds(H), 0.01);
  const int R = 5;
  MultiVectorView<Scalar, Kokkos::LayoutRight> start("start", H.num_rows(), R);
  solvers::kpm_start_vectors(start, KpmTrace::stochastic, kind, 3, 0);
  const auto ordered = solvers::kpm_locality_ordered(H, R, 7);
  MultiVectorView<Scalar, Kokkos::LayoutRight> start_ordered("start_ordered", H.num_rows(), R);
  solvers::kpm_start_vectors(start_ordered, KpmTrace::stochastic, kind, 3, 0, ordered.old_of_new);
  const double n = H.num_rows();
  for (auto impl : {KpmImplementation::naive, KpmImplementation::blocked}) {
    const auto natural = solvers::kpm_moments(H, scaling, start, 30, impl, 4, 1e-6);
    const auto local = solvers::kpm_moments(ordered.H, scaling, start_ordered, 30, impl, 4, 1e-6);
    for (int r = 0; r < R; ++r) {
      for (int m = 0; m < 30; ++m) {
        EXPECT_NEAR(local.at(r, m), natural.at(r, m), 1e-11 * n) << to_string(impl) << " r " << r << " m " << m;
      }
    }
  }
  for (auto trace : {KpmTrace::stochastic, KpmTrace::exact}) {
    KpmParams params;
    params.trace = trace;
    params.random_vector = kind;
    params.num_moments = 24;
    params.num_vectors = 6;
    params.block_size = 4;
    const auto energies = grid(-1, 1, 9);
    const auto natural = solvers::kpm_dos(H, params, energies);
    params.row_order = solvers::KpmRowOrder::locality;
    params.locality_part_rows = 7;
    const auto local = solvers::kpm_dos(H, params, energies);
    ASSERT_EQ(local.moments.size(), natural.moments.size());
    for (std::size_t m = 0; m < natural.moments.size(); ++m) {
      EXPECT_NEAR(local.moments[m], natural.moments[m], 1e-11) << to_string(trace) << " m " << m;
    }
    for (std::size_t k = 0; k < energies.size(); ++k) {
      EXPECT_NEAR(local.density[k], natural.density[k], 1e-10 * (1 + natural.density[k])) << to_string(trace);
    }
  }
}

TEST(Kpm, LocalityOrderKeepsTheMomentsOfAShuffledTopologicalInsulator) {
  const auto H = ti_lattice(4, 4, 3, 1.0);
  std::vector<std::int64_t> order(static_cast<std::size_t>(H.num_rows()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(29));
  expect_locality_order_keeps_the_moments(kernels::symmetric_permute(H, order), solvers::KpmRandomVector::random_phase);
}

TEST(Kpm, LocalityOrderKeepsTheMomentsOfACubicLattice) {
  expect_locality_order_keeps_the_moments(generators::tight_binding<double>(6, 5, 4, 1.0, true),
                                          solvers::KpmRandomVector::rademacher);
}

TEST(Kpm, LocalityOrderRejectsNegativePartRows) {
  const auto H = generators::tight_binding<double>(5, 1, 1, 1.0, false);
  KpmParams params;
  params.row_order = solvers::KpmRowOrder::locality;
  params.locality_part_rows = -1;
  test::expect_throw_containing<InvalidArgument>([&] { solvers::kpm_dos(H, params, {0.0}); },
                                                 "locality_part_rows = -1");
  EXPECT_GE(solvers::kpm_locality_part_rows<double>(32), 64);
}

TEST(Kpm, StartVectorsDependOnlyOnSeedRowAndIndex) {
  MultiVectorView<double, Kokkos::LayoutRight> all("all", 50, 6), tail("tail", 50, 2);
  solvers::kpm_start_vectors(all, KpmTrace::stochastic, solvers::KpmRandomVector::rademacher, 3, 0);
  solvers::kpm_start_vectors(tail, KpmTrace::stochastic, solvers::KpmRandomVector::rademacher, 3, 4);
  const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), all);
  const auto t = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), tail);

  int plus = 0;
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(a(i, 4), t(i, 0));
    EXPECT_EQ(a(i, 5), t(i, 1));
    EXPECT_EQ(std::abs(a(i, 0)), 1.0);
    plus += a(i, 0) > 0;
  }
  EXPECT_GT(plus, 10);
  EXPECT_LT(plus, 40);
}

/// KPM-DOS (stochastic) vs the exact eigenvalue histogram convolved with the same kernel, and the
/// exact-trace DOS vs the same to rounding.
template <class Scalar>
void expect_dos_matches_histogram(const CrsMatrix<Scalar>& H, const std::vector<double>& eigenvalues,
                                  KpmParams params) {
  const auto energies = grid(eigenvalues.front() - 0.5, eigenvalues.back() + 0.5, 61);

  const auto stochastic = solvers::kpm_dos(H, params, energies);
  params.trace = KpmTrace::exact;
  const auto exact = solvers::kpm_dos(H, params, energies);

  const auto mu = solvers::kpm_moments_of_eigenvalues(eigenvalues, stochastic.scaling,
                                                      params.num_moments);
  const auto rho = solvers::kpm_density(mu, stochastic.scaling, params.kernel,
                                        params.lorentz_lambda, energies);
  double peak = 0;
  for (double x : rho) peak = std::max(peak, x);
  int outside_two_sigma = 0;
  for (std::size_t e = 0; e < energies.size(); ++e) {
    EXPECT_NEAR(exact.density[e], rho[e], 1e-10 * peak) << "E = " << energies[e];
    const double error = stochastic.density_error[e];
    EXPECT_NEAR(stochastic.density[e], rho[e], 5 * error + 1e-3 * peak) << "E = " << energies[e];
    outside_two_sigma += std::abs(stochastic.density[e] - rho[e]) > 2 * error + 1e-3 * peak;
  }
  EXPECT_LT(outside_two_sigma, 61 / 4);  // ~5 % expected beyond two standard errors
}

TEST(Kpm, DosOfTopologicalInsulatorMatchesExactHistogram) {
  generators::TopologicalInsulatorParams p;  // 4 x 4 x 4, N = 256
  p.disorder = 0.5;
  const auto H = generators::topological_insulator<Complex>(p);
  KpmParams params;
  params.num_moments = 64;
  params.num_vectors = 12;
  params.block_size = 8;
  params.random_vector = solvers::KpmRandomVector::random_phase;

  expect_dos_matches_histogram(H, eigenvalues_of(H), params);
}

// g_m = sinh(lambda (1 - m / M)) / sinh(lambda): the same values as the textbook form where that
// is finite, and finite, in [0, 1] and decreasing where sinh overflows (lambda > ~710; every rho
// was NaN there).
TEST(Kpm, LorentzDampingMatchesSinhFormAndStaysFiniteForLargeLambda) {
  const int M = 64;
  for (double lambda : {1e-3, 0.5, 4.0, 50.0, 700.0}) {
    const auto g = solvers::kpm_damping(solvers::KpmDampingKernel::lorentz, M, lambda);
    for (int m = 0; m < M; ++m) {
      const double expected = std::sinh(lambda * (1.0 - static_cast<double>(m) / M)) / std::sinh(lambda);
      EXPECT_NEAR(g[m], expected, 1e-14 * std::max(1.0, std::abs(expected)) + 1e-300)
          << "lambda " << lambda << ", m " << m;
    }
  }
  for (double lambda : {711.0, 1e4, 1e308}) {
    const auto g = solvers::kpm_damping(solvers::KpmDampingKernel::lorentz, M, lambda);
    EXPECT_EQ(g[0], 1.0) << "lambda " << lambda;
    for (int m = 1; m < M; ++m) {
      EXPECT_TRUE(std::isfinite(g[m])) << "lambda " << lambda << ", m " << m;
      EXPECT_GE(g[m], 0.0);
      EXPECT_LE(g[m], g[m - 1]);
    }
  }
}

TEST(Kpm, DosOfChainMatchesExactHistogramWithLorentz) {
  const auto H = generators::tight_binding<double>(150, 1, 1, 1.0, true);
  KpmParams params;
  params.num_moments = 48;
  params.num_vectors = 6;
  params.kernel = solvers::KpmDampingKernel::lorentz;
  params.implementation = KpmImplementation::augmented;

  expect_dos_matches_histogram(H, eigenvalues_of(H), params);
}

TEST(Kpm, DosOfCubicLatticeMatchesItsAnalyticSpectrum) {
  const int L = 14;  // periodic: E = -2 sum_d cos(2 pi k_d / L), N = 2744
  std::vector<double> eigenvalues;
  for (int a = 0; a < L; ++a)
    for (int b = 0; b < L; ++b)
      for (int c = 0; c < L; ++c)
        eigenvalues.push_back(-2 * (std::cos(2 * M_PI * a / L) + std::cos(2 * M_PI * b / L) +
                                    std::cos(2 * M_PI * c / L)));
  std::sort(eigenvalues.begin(), eigenvalues.end());
  const auto H = generators::tight_binding<double>(L, L, L, 1.0, true);
  KpmParams params;
  params.num_moments = 40;
  params.num_vectors = 4;
  const auto energies = grid(-5.5, 5.5, 45);

  const auto result = solvers::kpm_dos(H, params, energies);

  const auto mu = solvers::kpm_moments_of_eigenvalues(eigenvalues, result.scaling, 40);
  const auto rho = solvers::kpm_density(mu, result.scaling, params.kernel, 4.0, energies);
  for (std::size_t e = 0; e < energies.size(); ++e) {
    EXPECT_NEAR(result.density[e], rho[e], 5 * result.density_error[e] + 2e-3) << energies[e];
  }
}

/// The density of states of the infinite simple cubic lattice with hopping 1 (band [-6, 6]):
/// rho_3(E) = (1/pi) int_0^pi rho_2(E + 2 cos q) dq over the square lattice's
/// rho_2(E) = K(sqrt(1 - E^2/16)) / (2 pi^2), K the complete elliptic integral of the first kind
/// (modulus argument, std::comp_ellint_1). Midpoint rule in q: the log singularity of rho_2 at 0
/// costs < 1e-4 of the peak with 4000 points (checked against 10^5 points).
double cubic_lattice_dos(double E) {
  auto square = [](double e) {
    return std::abs(e) < 4 ? std::comp_ellint_1(std::sqrt(1 - e * e / 16)) / (2 * M_PI * M_PI)
                           : 0.0;
  };
  const int nq = 4000;
  double sum = 0;
  for (int k = 0; k < nq; ++k) sum += square(E + 2 * std::cos((k + 0.5) * M_PI / nq));
  return sum / nq;
}

TEST(Kpm, DosOfCubicLatticeMatchesTheAnalyticFormAwayFromVanHovePoints) {
  // Periodic L^3 lattice: its moments below order L equal the infinite lattice's, so with 64
  // moments the Jackson-damped KPM density differs from the analytic one by the kernel's
  // broadening only (0.64 % of the peak at E = +-3, computed in double precision), plus the
  // stochastic error of 8 random vectors. Van Hove points: the band edges +-6 and the kinks +-2,
  // where the broadening rounds the analytic form off; the check stays 1 away from them.
  const int L = 32;  // N = 32768
  const auto H = generators::tight_binding<double>(L, L, L, 1.0, true);
  KpmParams params;
  params.num_moments = 64;
  params.num_vectors = 8;
  params.block_size = 8;
  std::vector<double> energies;
  for (double E : grid(-5.0, -3.0, 9)) energies.push_back(E);
  for (double E : grid(-1.0, 1.0, 9)) energies.push_back(E);
  for (double E : grid(3.0, 5.0, 9)) energies.push_back(E);

  const auto result = solvers::kpm_dos(H, params, energies);

  const double peak = cubic_lattice_dos(0.0);
  EXPECT_NEAR(peak, 0.1427, 1e-3);  // the plateau of the cubic lattice's DOS, |E| < 2
  for (std::size_t e = 0; e < energies.size(); ++e) {
    const double exact = cubic_lattice_dos(energies[e]);
    EXPECT_NEAR(result.density[e], exact, 0.015 * peak + 4 * result.density_error[e])
        << "E = " << energies[e];
  }
  // The reference itself: normalised over the band.
  double integral = 0;
  for (int k = 0; k < 600; ++k) integral += cubic_lattice_dos(-6 + (k + 0.5) * 0.02) * 0.02;
  EXPECT_NEAR(integral, 1.0, 2e-3);
}

TEST(Kpm, JacksonDensityIntegratesToOneAndIsNonNegative) {
  generators::TopologicalInsulatorParams p;
  p.nx = p.ny = 3;
  p.nz = 2;
  const auto H = generators::topological_insulator<Complex>(p);
  KpmParams params;
  params.num_moments = 100;
  params.num_vectors = 3;
  params.bounds = solvers::KpmBoundsMethod::gershgorin;
  const auto bounds = solvers::gershgorin_bounds(H);
  const auto energies = grid(bounds.lower - 1, bounds.upper + 1, 4001);

  const auto result = solvers::kpm_dos(H, params, energies);

  double integral = 0;
  for (std::size_t e = 1; e < energies.size(); ++e) {
    integral += 0.5 * (result.density[e] + result.density[e - 1]) * (energies[e] - energies[e - 1]);
  }
  EXPECT_NEAR(integral, 1.0, 2e-3);  // trapezoid rule on the 1/sqrt(1-x^2) edges
  for (double rho : result.density) EXPECT_GE(rho, -1e-10);
}

TEST(Kpm, LanczosBoundsEncloseTheSpectrumWithinGershgorin) {
  generators::TopologicalInsulatorParams p;
  p.disorder = 2.0;
  const auto H = generators::topological_insulator<Complex>(p);
  const auto e = eigenvalues_of(H);

  const auto g = solvers::gershgorin_bounds(H);
  const auto l = solvers::lanczos_bounds(H, 40, 5);

  EXPECT_LE(g.lower, e.front());
  EXPECT_GE(g.upper, e.back());
  EXPECT_LE(l.lower, e.front() + 1e-8);
  EXPECT_GE(l.upper, e.back() - 1e-8);
  EXPECT_GE(l.lower, g.lower);
  EXPECT_LE(l.upper, g.upper);
  EXPECT_LT(l.upper - l.lower, g.upper - g.lower);
}

// The audit's chains: with a +-1 start vector the extreme eigenvectors (+-1 patterns) were
// often exactly orthogonal to it, and a breakdown (degenerate eigenvalues: an invariant Krylov
// space) was taken for convergence, so the bounds missed the spectrum (a periodic 4-site chain
// got [-2, -2] for [-2, 2]). With n <= steps every run must give the extreme eigenvalues.
TEST(Kpm, LanczosBoundsOfSmallChainsAreTheExtremeEigenvaluesForEverySeed) {
  struct Chain {
    int sites;
    bool periodic;
  };
  for (const Chain c : {Chain{3, true}, Chain{4, true}, Chain{5, true}, Chain{6, true}, Chain{16, true},
                        Chain{20, true}, Chain{4, false}, Chain{6, false}, Chain{16, false}}) {
    const auto H = generators::tight_binding<double>(c.sites, 1, 1, 1.0, c.periodic);
    const auto e = eigenvalues_of(H);
    for (std::uint64_t seed : {0ULL, 1ULL, 2ULL, 3ULL, 7ULL, 42ULL, 42ULL ^ 0x5A5A5A5AULL, 12345ULL}) {
      SCOPED_TRACE(std::to_string(c.sites) + (c.periodic ? " periodic" : " open") + ", seed " + std::to_string(seed));

      const auto l = solvers::lanczos_bounds(H, 30, seed);

      EXPECT_NEAR(l.lower, e.front(), 1e-9);
      EXPECT_NEAR(l.upper, e.back(), 1e-9);
    }
  }
}

// Fewer steps than rows: a breakdown (the periodic 16-site chain's Krylov space has 9
// dimensions) restarts with a vector orthogonal to it instead of stopping; every run encloses.
TEST(Kpm, LanczosBoundsEncloseTheSpectrumAfterABreakdownWithFewSteps) {
  for (const int steps : {5, 9, 10, 12}) {
    for (const bool periodic : {true, false}) {
      const auto H = generators::tight_binding<double>(16, 1, 1, 1.0, periodic);
      const auto e = eigenvalues_of(H);
      for (std::uint64_t seed = 0; seed < 10; ++seed) {
        const auto l = solvers::lanczos_bounds(H, steps, seed);

        EXPECT_LE(l.lower, e.front() + 1e-9) << steps << " steps, seed " << seed;
        EXPECT_GE(l.upper, e.back() - 1e-9) << steps << " steps, seed " << seed;
      }
    }
  }
}

TEST(Kpm, DefaultBoundsGiveTheDosOfAPeriodicSixSiteChain) {
  // The audit's chain6.yaml: dos.seed 0 failed with "does not enclose the spectrum".
  const auto H = generators::tight_binding<double>(6, 1, 1, 1.0, true);
  KpmParams params;
  params.seed = 0;
  params.num_moments = 64;
  params.num_vectors = 4;

  const auto result = solvers::kpm_dos(H, params, grid(-2, 2, 21));

  EXPECT_NEAR(result.bounds.lower, -2.0, 1e-9);
  EXPECT_NEAR(result.bounds.upper, 2.0, 1e-9);
}

// A single-point spectrum has no width: the scaling and the default grid span
// [c - max(1, |c|), c + max(1, |c|)], where the density is the kernel's peak at c.
TEST(Kpm, SinglePointSpectrumGetsAnIntervalOfNonzeroWidth) {
  const auto point = solvers::kpm_scaled_bounds({2.0, 2.0});
  const auto zero = solvers::kpm_scaled_bounds({0.0, 0.0});
  const auto wide = solvers::kpm_scaled_bounds({-1.0, 3.0});

  EXPECT_EQ(point.lower, 0.0);
  EXPECT_EQ(point.upper, 4.0);
  EXPECT_EQ(zero.lower, -1.0);
  EXPECT_EQ(zero.upper, 1.0);
  EXPECT_EQ(wide.lower, -1.0);
  EXPECT_EQ(wide.upper, 3.0);
  const auto s = solvers::KpmScaling::from_bounds({2.0, 2.0}, 0.01);
  EXPECT_DOUBLE_EQ(s.center, 2.0);
  EXPECT_DOUBLE_EQ(s.half_width, 2.0 / 0.99);
}

TEST(Kpm, OneByOneAndDiagonalMatrices) {
  const auto H = crs_from_coo<double>(1, 1, {0}, {0}, {2.5});
  KpmParams params;
  params.trace = KpmTrace::exact;
  params.num_moments = 20;

  const auto result = solvers::kpm_dos(H, params, grid(0, 5, 101));

  double integral = 0;
  for (std::size_t e = 1; e < result.energies.size(); ++e) {
    integral += 0.5 * (result.density[e] + result.density[e - 1]) * 0.05;
  }
  EXPECT_NEAR(integral, 1.0, 0.05);
  EXPECT_NEAR(result.energies[50], 2.5, 1e-12);
  for (double rho : result.density) EXPECT_LE(rho, result.density[50] + 1e-12);  // peak at 2.5
}

TEST(Kpm, RejectsNonHermitianMatrixNamingTheEntry) {
  const auto H = crs_from_coo<Complex>(3, 3, {0, 1, 1, 2}, {0, 2, 1, 1},
                                       {Complex(1), Complex(0, 1), Complex(2), Complex(0, 1)});
  KpmParams params;

  test::expect_throw_containing<InvalidArgument>([&] { solvers::kpm_dos(H, params, {0.0}); },
                                                 "a(1, 2) = (0, 1) but conj(a(2, 1)) = (0, -1)");
  // A Hermitian matrix whose entries overflow the modulus: named as too large, not "not Hermitian".
  const auto huge = crs_from_coo<Complex>(2, 2, {0, 0, 1, 1}, {0, 1, 0, 1},
                                          {Complex(1), Complex(1.5e308, 1.5e308), Complex(1.5e308, -1.5e308), Complex(1)});
  test::expect_throw_containing<InvalidArgument>([&] { solvers::kpm_dos(huge, params, {0.0}); },
                                                 "is not finite or too large for double arithmetic");
}

TEST(Kpm, RejectsBoundsThatDoNotEncloseTheSpectrum) {
  const auto H = generators::tight_binding<double>(20, 1, 1, 1.0, false);
  MultiVectorView<double, Kokkos::LayoutRight> start("start", 20, 2);
  solvers::kpm_start_vectors(start, KpmTrace::stochastic, solvers::KpmRandomVector::rademacher, 1, 0);
  solvers::KpmScaling too_narrow;
  too_narrow.half_width = 1.0;  // the spectrum reaches +-1.98

  for (auto impl : {KpmImplementation::naive, KpmImplementation::augmented,
                    KpmImplementation::blocked}) {
    test::expect_throw_containing<NumericalError>(
        [&] { solvers::kpm_moments(H, too_narrow, start, 200, impl, 2, 1e-6); },
        "does not enclose the spectrum");
  }
}

TEST(Kpm, RejectsBadParametersAndEmptyInput) {
  const auto H = generators::tight_binding<double>(5, 1, 1, 1.0, false);
  KpmParams params;

  params.num_moments = 0;
  test::expect_throw_containing<InvalidArgument>([&] { solvers::kpm_dos(H, params, {0.0}); },
                                                 "num_moments = 0");
  params = KpmParams();
  params.num_vectors = 0;
  test::expect_throw_containing<InvalidArgument>([&] { solvers::kpm_dos(H, params, {0.0}); },
                                                 "num_vectors = 0");
  params = KpmParams();
  test::expect_throw_containing<InvalidArgument>([&] { solvers::kpm_dos(H, params, {}); },
                                                 "energy grid is empty");
  test::expect_throw_containing<InvalidArgument>(
      [&] { solvers::kpm_dos(H, params, {0.0, std::numeric_limits<double>::quiet_NaN()}); },
      "energy 1 is nan; expected finite energies");
  params.random_vector = solvers::KpmRandomVector::random_phase;
  test::expect_throw_containing<InvalidArgument>([&] { solvers::kpm_dos(H, params, {0.0}); },
                                                 "random_phase needs a complex");
  params = KpmParams();
  params.lorentz_lambda = 0;
  test::expect_throw_containing<InvalidArgument>([&] { solvers::kpm_dos(H, params, {0.0}); },
                                                 "lorentz_lambda = 0");
  const CrsMatrix<double> empty;
  test::expect_throw_containing<InvalidArgument>(
      [&] { solvers::kpm_dos(empty, KpmParams(), {0.0}); }, "expected square and not empty");
  MultiVectorView<double, Kokkos::LayoutRight> zero("zero", 5, 1);
  test::expect_throw_containing<InvalidArgument>(
      [&] {
        solvers::kpm_moments(H, solvers::KpmScaling(), zero, 4, KpmImplementation::blocked, 1, 1e-6)
            .normalised();
      },
      "mu_0 = 0");
}

}  // namespace
}  // namespace kelp::kpm_test
