// Gauss-Seidel family (multicolor, cluster, two-stage): sweeps equal sequential Gauss-Seidel in
// the sweep order (test/support/gauss_seidel_reference.hpp), symmetric sweeps are a symmetric
// operator, PCG iteration counts against sequential natural-order symmetric GS, the stationary
// solver, values-only setup, bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/stationary/stationary.hpp"
#include "test/support/dense.hpp"
#include "test/support/gauss_seidel_reference.hpp"
#include "test/support/paths.hpp"
#include "test/support/poison.hpp"
#include "test/support/random_matrices.hpp"
#include "test/support/sparse_reference.hpp"

namespace kelp::gauss_seidel_test {
namespace {

using precond::GaussSeidelDirection;
using precond::GaussSeidelParams;
using precond::GaussSeidelVariant;
using precond::TwoStageForm;
template <class S>
using Gs = precond::GaussSeidel<CrsMatrix<S>>;

template <class S>
S value_of(std::mt19937& rng) {
  return test::random_scalar<S>(rng);
}

/// n x n, nonsymmetric pattern: a dominant diagonal, a few random off-diagonal entries per row,
/// every 7th row diagonal only, and `dense_rows` rows dense across all columns.
template <class S>
CrsMatrix<S> test_matrix(int n, int dense_rows, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> col(0, n > 0 ? n - 1 : 0), len(0, 6);
  std::vector<long long> row_map{0};
  std::vector<int> entries;
  std::vector<S> values;
  for (int i = 0; i < n; ++i) {
    const bool dense = dense_rows > 0 && i % (n / dense_rows + 1) == 2;
    std::vector<int> cols;
    if (dense) {
      for (int j = 0; j < n; ++j) cols.push_back(j);
    } else {
      cols.push_back(i);
      const int count = i % 7 == 0 ? 0 : len(rng);
      for (int t = 0; t < count; ++t) {
        const int j = col(rng);
        if (j != i) cols.push_back(j);
      }
    }
    for (int j : cols) {
      entries.push_back(j);
      values.push_back(j == i ? S(20.0) + value_of<S>(rng) : value_of<S>(rng));
    }
    row_map.push_back(static_cast<long long>(entries.size()));
  }
  return test::crs_from_arrays<S>(n, n, row_map, entries, values);
}

template <class S>
std::vector<S> random_vector(int n, unsigned seed) {
  return test::random_vector<S>(n, seed);
}

template <class S>
double max_difference(const std::vector<S>& a, const std::vector<S>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, double(ScalarTraits<S>::abs(a[i] - b[i])));
  return m;
}

/// smooth(b, x, sweeps) from a given x against the sequential sweeps in M's forward order.
template <class S>
void expect_sweeps_equal_sequential(const CrsMatrix<S>& A, GaussSeidelParams p, int sweeps) {
  Gs<S> M(p);
  M.setup(A);
  const int n = A.num_rows();
  const auto host = test::to_host_crs(A);
  const auto b = random_vector<S>(n, 3), x0 = random_vector<S>(n, 4);
  auto x = test::vector_from<S>(x0);
  M.smooth(test::vector_from<S>(b), x, sweeps);
  std::vector<S> expected = x0;
  const auto forward = M.forward_order();
  const std::vector<int> order(forward.begin(), forward.end());
  const std::vector<int> reverse(order.rbegin(), order.rend());
  for (int s = 0; s < sweeps; ++s) {
    if (p.direction != GaussSeidelDirection::backward) test::reference_gs_sweep(host, b, expected, order, p.omega);
    if (p.direction != GaussSeidelDirection::forward) test::reference_gs_sweep(host, b, expected, reverse, p.omega);
  }
  EXPECT_LE(max_difference(test::to_std(x), expected), 1e-12) << M.summary();
}

template <class S>
void sweeps_equal_sequential_for_all_directions(GaussSeidelVariant variant, int cluster_size) {
  for (int n : {0, 1, 37, 300}) {
    const auto A = test_matrix<S>(n, n >= 37 ? 3 : 0, 11 + n);
    for (auto direction : {GaussSeidelDirection::forward, GaussSeidelDirection::backward,
                           GaussSeidelDirection::symmetric}) {
      GaussSeidelParams p;
      p.variant = variant;
      p.direction = direction;
      p.omega = 1.3;
      p.cluster_size = cluster_size;
      p.long_row_threshold = 20;  // the dense rows take the team path
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + precond::to_string(direction));
      expect_sweeps_equal_sequential(A, p, 2);
    }
  }
}

TEST(GaussSeidel, MulticolorSweepsEqualSequentialGaussSeidelInColorOrder) {
  sweeps_equal_sequential_for_all_directions<double>(GaussSeidelVariant::multicolor, 0);
  sweeps_equal_sequential_for_all_directions<Kokkos::complex<double>>(GaussSeidelVariant::multicolor, 0);
}

TEST(GaussSeidel, MulticolorOrderIsColorByColor) {
  const auto A = generators::laplace2d<double>(9, 7);
  Gs<double> M;
  M.setup(A);
  EXPECT_EQ(M.num_colors(), 2);  // a 5-point grid is bipartite: the greedy default finds 2
  const auto order = M.forward_order();
  ASSERT_EQ(order.size(), 63u);
  std::vector<int> seen(63, 0);
  for (int i : order) ++seen[i];
  for (int c : seen) EXPECT_EQ(c, 1);
}

TEST(GaussSeidel, ClusterSweepsEqualSequentialGaussSeidelInClusterOrder) {
  sweeps_equal_sequential_for_all_directions<double>(GaussSeidelVariant::cluster, 0);  // MIS-2
  sweeps_equal_sequential_for_all_directions<double>(GaussSeidelVariant::cluster, 4);  // balanced
  sweeps_equal_sequential_for_all_directions<Kokkos::complex<double>>(GaussSeidelVariant::cluster, 0);
}

TEST(GaussSeidel, TwoStageWithManyInnerSweepsConvergesToTheNaturalOrderSweep) {
  const auto A = test_matrix<double>(200, 0, 5);
  for (auto form : {TwoStageForm::classic, TwoStageForm::compact}) {
    for (auto direction : {GaussSeidelDirection::forward, GaussSeidelDirection::backward,
                           GaussSeidelDirection::symmetric}) {
      double previous = 1e300;
      for (int inner : {0, 2, 8, 60}) {
        GaussSeidelParams p;
        p.variant = GaussSeidelVariant::two_stage;
        p.form = form;
        p.direction = direction;
        p.inner_sweeps = inner;
        p.omega = 0.9;
        Gs<double> M(p);
        M.setup(A);
        const auto host = test::to_host_crs(A);
        const auto b = random_vector<double>(200, 3), x0 = random_vector<double>(200, 4);
        auto x = test::vector_from<double>(x0);
        M.smooth(test::vector_from<double>(b), x, 1);
        std::vector<double> expected = x0;
        const auto order = test::natural_order(200);
        const std::vector<int> reverse(order.rbegin(), order.rend());
        if (direction != GaussSeidelDirection::backward) test::reference_gs_sweep(host, b, expected, order, 0.9);
        if (direction != GaussSeidelDirection::forward) test::reference_gs_sweep(host, b, expected, reverse, 0.9);
        const double error = max_difference(test::to_std(x), expected);
        SCOPED_TRACE(M.summary());
        if (previous > 1e-13) {
          EXPECT_LT(error, previous);  // until the inner iteration is exact (nilpotent)
        }
        previous = error;
        if (inner == 60) {
          EXPECT_LT(error, 1e-12);
        }
      }
    }
  }
}

TEST(GaussSeidel, ClassicAndCompactTwoStageAreTheSameOperator) {
  const auto A = generators::laplace2d<double>(13, 11);
  const auto b = test::vector_from<double>(random_vector<double>(A.num_rows(), 8));
  std::vector<std::vector<double>> results;
  for (auto form : {TwoStageForm::classic, TwoStageForm::compact}) {
    GaussSeidelParams p;
    p.variant = GaussSeidelVariant::two_stage;
    p.form = form;
    p.inner_sweeps = 3;
    p.sweeps = 2;
    Gs<double> M(p);
    M.setup(A);
    VectorView<double> y("y", A.num_rows());
    test::poison(y);
    M.apply(b, y);
    results.push_back(test::to_std(y));
  }
  EXPECT_LE(max_difference(results[0], results[1]), 1e-13);
}

/// <M x, y> = <x, M y> for a symmetric / Hermitian A.
template <class S>
void expect_symmetric_operator(const CrsMatrix<S>& A, GaussSeidelParams p) {
  Gs<S> M(p);
  M.setup(A);
  const int n = A.num_rows();
  const auto xs = random_vector<S>(n, 21), ys = random_vector<S>(n, 22);
  VectorView<S> Mx("Mx", n), My("My", n);
  test::poison(Mx);
  test::poison(My);
  M.apply(test::vector_from<S>(xs), Mx);
  M.apply(test::vector_from<S>(ys), My);
  const auto mx = test::to_std(Mx), my = test::to_std(My);
  S left(0), right(0);
  double scale = 0;
  for (int i = 0; i < n; ++i) {
    left += ScalarTraits<S>::conj(mx[i]) * ys[i];
    right += ScalarTraits<S>::conj(xs[i]) * my[i];
    scale += double(ScalarTraits<S>::abs(mx[i]) * ScalarTraits<S>::abs(ys[i]));
  }
  EXPECT_LE(double(ScalarTraits<S>::abs(left - right)), 1e-13 * scale) << M.summary();
}

TEST(GaussSeidel, SymmetricSweepsAreASymmetricOperator) {
  const auto A = generators::laplace3d<double>(7, 6, 5);
  const auto H = io::read_matrix_market<Kokkos::complex<double>>(test::matrix_path("mhd1280b"));
  for (auto variant : {GaussSeidelVariant::multicolor, GaussSeidelVariant::cluster,
                       GaussSeidelVariant::two_stage}) {
    for (int sweeps : {1, 2}) {
      GaussSeidelParams p;
      p.variant = variant;
      p.sweeps = sweeps;
      p.omega = 1.2;
      p.inner_sweeps = 2;
      expect_symmetric_operator(A, p);
      expect_symmetric_operator(H, p);
    }
  }
}

/// PCG iterations to 1e-8 with symmetric GS (one sweep) of each variant.
int pcg_iterations(const CrsMatrix<double>& A, GaussSeidelParams p) {
  auto M = std::make_shared<Gs<double>>(p);
  M->setup(A);
  solvers::CgParams params;
  params.relative_tolerance = 1e-8;
  params.max_iterations = 3000;
  solvers::Cg<double> cg(std::make_shared<MatrixOperator<CrsMatrix<double>>>(A), M, params);
  VectorView<double> b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0);
  const auto result = cg.solve(b, x);
  if (!result.converged()) {
    std::printf("[ GS-PCG   ] %s: %s after %d iterations\n", M->summary().c_str(),
                solvers::to_string(result.reason).c_str(), result.iterations);
    return -result.iterations;
  }
  return result.iterations;
}

struct PinnedCase {
  const char* name;
  int multicolor, cluster, two_stage, sequential;
};

TEST(GaussSeidel, PcgIterationsAgainstSequentialNaturalOrderGaussSeidel) {
  // Pinned with reproducible (greedy) colorings: the counts then depend on rounding only (+-1,
  // 2% on the ill-conditioned 1138_bus). Measured: multicolor is within 1.35x of sequential
  // natural-order SGS everywhere (the red-black order of the grids even matches it), so the
  // issue's "multicolor <= 1.5x sequential on the Laplacians" holds. Cluster (MIS-2) beats
  // multicolor on bcsstk14 and 1138_bus but NOT on the grids, where red-black is already as good
  // as the natural order (cluster 1.33x and 1.50x multicolor). Two-stage (2 inner sweeps) is
  // close to sequential, but on bcsstk14 it is not positive definite: CG stops with
  // indefinite_preconditioner (pinned as -2: stopped after 2 iterations).
  const PinnedCase cases[] = {
      {"laplace3d_16", 21, 28, 22, 21}, {"laplace2d_40", 38, 57, 40, 40},
      {"1138_bus", 515, 512, 521, 518}, {"Aani", 87, 88, 70, 65},
      {"bcsstk14", 254, 226, -2, 217},  {"gr_30_30", 31, 35, 28, 28},
  };
  for (const auto& c : cases) {
    const std::string name = c.name;
    const auto A = name == "laplace3d_16"   ? generators::laplace3d<double>(16, 16, 16)
                   : name == "laplace2d_40" ? generators::laplace2d<double>(40, 40)
                                            : io::read_matrix_market<double>(test::matrix_path(name));
    GaussSeidelParams p;
    p.coloring = precond::GaussSeidelColoring::sequential_greedy;
    p.variant = GaussSeidelVariant::multicolor;
    const int multicolor = pcg_iterations(A, p);
    p.variant = GaussSeidelVariant::cluster;
    const int cluster = pcg_iterations(A, p);
    p.variant = GaussSeidelVariant::two_stage;
    p.inner_sweeps = 2;
    const int two_stage = pcg_iterations(A, p);
    const auto host = test::to_host_crs(A);
    const auto order = test::natural_order(host.num_rows);
    const int sequential = test::reference_pcg_iterations<double>(
        host, std::vector<double>(host.num_rows, 1.0),
        [&](const std::vector<double>& r) { return test::reference_symmetric_gs(host, r, order, 1.0, 1); },
        1e-8, 3000);
    std::printf("[ GS-PCG   ] %-13s multicolor %4d  cluster %4d  two_stage %4d  sequential %4d  "
                "multicolor/sequential %.2f  cluster/multicolor %.2f\n",
                c.name, multicolor, cluster, two_stage, sequential, double(multicolor) / sequential,
                double(cluster) / multicolor);
    SCOPED_TRACE(name);
    const auto slack = [](int pinned) { return std::max(1.0, 0.02 * std::abs(pinned)); };
    EXPECT_NEAR(multicolor, c.multicolor, slack(c.multicolor));
    EXPECT_NEAR(cluster, c.cluster, slack(c.cluster));
    EXPECT_NEAR(two_stage, c.two_stage, slack(c.two_stage));
    EXPECT_EQ(sequential, c.sequential);
    if (name == "bcsstk14" || name == "1138_bus") {
      EXPECT_LE(cluster, multicolor + slack(multicolor));
    }
    if (name.rfind("laplace", 0) == 0) {
      EXPECT_LE(multicolor, 1.5 * sequential);
    }
  }
}

TEST(GaussSeidel, StationarySolverReachesTheTolerance) {
  const auto A = generators::laplace2d<double>(12, 10);
  MatrixOperator<CrsMatrix<double>> A_op(A);
  VectorView<double> b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0);
  for (auto variant : {GaussSeidelVariant::multicolor, GaussSeidelVariant::cluster,
                       GaussSeidelVariant::two_stage}) {
    GaussSeidelParams p;
    p.variant = variant;
    p.omega = variant == GaussSeidelVariant::two_stage ? 1.0 : 1.5;  // inexact SOR: omega 1.5 diverges
    Gs<double> M(p);
    M.setup(A);
    solvers::StationaryParams sp;
    sp.relative_tolerance = 1e-8;
    sp.max_iterations = 2000;
    test::poison(x);
    const auto result = solvers::stationary_solve(M, A_op, b, x, sp, InitialGuess::zero);
    EXPECT_TRUE(result.converged()) << M.summary() << " " << result.relative_residual();
    EXPECT_LE(result.relative_residual(), 1e-8);
    EXPECT_GT(result.iterations, 5);
  }
}

TEST(GaussSeidel, SetupNumericFollowsNewValues) {
  auto A = generators::laplace2d<double>(6, 5);
  Gs<double> M;
  M.setup(A);
  const auto b = test::vector_from<double>(random_vector<double>(A.num_rows(), 2));
  VectorView<double> y1("y1", A.num_rows()), y2("y2", A.num_rows());
  M.apply(b, y1);
  test::update_values(A, [](std::size_t, double v) { return 2 * v; });
  M.setup_numeric(A);
  M.apply(b, y2);
  const auto a = test::to_std(y1), c = test::to_std(y2);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(c[i], a[i] / 2, 1e-14);
}

TEST(GaussSeidel, RejectsBadInput) {
  const auto expect_invalid = [](GaussSeidelParams p, const char* text) {
    try {
      Gs<double> M(p);
      ADD_FAILURE() << "no error for " << text;
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  GaussSeidelParams p;
  p.omega = 2.0;
  expect_invalid(p, "omega = 2");
  p.omega = 0;
  expect_invalid(p, "omega = 0");
  p = {};
  p.sweeps = 0;
  expect_invalid(p, "sweeps = 0");
  p = {};
  p.inner_sweeps = -1;
  expect_invalid(p, "inner_sweeps = -1");

  // Zero diagonal in row 3 (1-based), NaN in row 2.
  const auto Z = test::crs_from_dense<double>({{4, 1, 0}, {1, 4, 1}, {0, 1, 0}});
  for (auto variant : {GaussSeidelVariant::multicolor, GaussSeidelVariant::cluster,
                       GaussSeidelVariant::two_stage}) {
    GaussSeidelParams q;
    q.variant = variant;
    Gs<double> M(q, "z.mtx");
    try {
      M.setup(Z);
      ADD_FAILURE() << "no error for a zero diagonal";
    } catch (const NumericalError& e) {
      EXPECT_NE(std::string(e.what()).find("zero diagonal entry at row 3 (1-based) of matrix 'z.mtx'"),
                std::string::npos)
          << e.what();
    }
  }
  const auto N = test::crs_from_dense<double>({{4, 1}, {1, std::nan("")}});
  Gs<double> M;
  try {
    M.setup(N);
    ADD_FAILURE() << "no error for a NaN diagonal";
  } catch (const NumericalError& e) {
    EXPECT_NE(std::string(e.what()).find("non-finite diagonal entry (nan) at row 2"), std::string::npos)
        << e.what();
  }
  const auto R = test::crs_from_dense<double>({{4, 1, 0}, {1, 4, 1}});
  EXPECT_THROW(M.setup(R), DimensionMismatch);
  VectorView<double> b("b", 2), x("x", 2);
  Gs<double> fresh;
  EXPECT_THROW(fresh.apply(b, x), InvalidState);
}

}  // namespace
}  // namespace kelp::gauss_seidel_test
