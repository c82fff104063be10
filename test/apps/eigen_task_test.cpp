// The eigen task of the run driver: configs/laplace3d_lobpcg.yaml against the analytic
// Laplacian eigenvalues, the JSON report, exit codes, complex problems, the preconditioner from
// the registry, and the errors of a misplaced eigen section or a float scalar.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "kelp/apps/driver/run/run.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "test/apps/config_text.hpp"
#include "test/support/expect.hpp"
#include "test/support/files.hpp"
#include "test/support/temp_dir.hpp"

namespace kelp::eigen_task_test {
namespace {

using solvers::RunConfig;

using test::parse_config;
using test::replace;

std::string eigen_config(const std::string& scalar, const std::string& eigen,
                         const std::string& output = "monitor_every: 0") {
  return "task: eigen\n"
         "problem:\n"
         "  scalar: " + scalar + "\n"
         "  generator: {type: laplace2d, nx: 9, ny: 7}\n"
         "eigen: {" + eigen + "}\n"
         "output: {" + output + "}\n";
}

/// The k smallest eigenvalues of the n^3 7-point Laplacian.
std::vector<double> laplace3d_eigenvalues(int n, int k) {
  const double pi = std::acos(-1.0);
  std::vector<double> mu, all;
  for (int j = 1; j <= 4; ++j) mu.push_back(2 - 2 * std::cos(j * pi / (n + 1)));
  for (double a : mu)
    for (double b : mu)
      for (double c : mu) all.push_back(a + b + c);
  std::sort(all.begin(), all.end());
  all.resize(k);
  return all;
}

TEST(EigenTask, LaplaceConfigMatchesAnalyticEigenvalues) {
  const std::string path = std::string(KELP_SOURCE_DIR) + "/configs/laplace3d_lobpcg.yaml";
  test::TempDir dir;
  const std::string report = (std::filesystem::path(dir.path()) / "report.json").string();
  const auto config = solvers::load_run_config(
      path, {"problem.generator.nx=12", "problem.generator.ny=12", "problem.generator.nz=12",
             "output.monitor_every=0", "output.report=" + report});
  std::ostringstream out;

  const auto result = solvers::run(config, out);

  ASSERT_EQ(result.exit_code, solvers::ExitCode::success) << out.str();
  const auto expected = laplace3d_eigenvalues(12, 4);
  ASSERT_EQ(result.eigen.eigenvalues.size(), 4u);
  for (int j = 0; j < 4; ++j) {
    EXPECT_NEAR(result.eigen.eigenvalues[j], expected[j], 1e-9 * expected[j]) << j;
    // LOBPCG confirms convergence on A X applied afresh, so the app's own recomputed residual
    // meets the relative tolerance 1e-8 (up to the rounding of two SpMVs of the same X).
    EXPECT_LE(result.eigen.true_residual_norms[j], 1.001e-8 * expected[j]);
  }
  EXPECT_NE(out.str().find("eigenvalues"), std::string::npos);
  const auto json = nlohmann::json::parse(test::read_file(report));
  EXPECT_EQ(json["task"], "eigen");
  EXPECT_EQ(json["eigen"]["eigenvalues"].size(), 4u);
  EXPECT_NEAR(json["eigen"]["eigenvalues"][0].get<double>(), expected[0], 1e-9 * expected[0]);
  EXPECT_EQ(json["eigen"]["residual_history"].size(), static_cast<std::size_t>(result.solve.iterations) + 1);
  EXPECT_EQ(json["converged"], true);
}

TEST(EigenTask, NotConvergedGivesExitCodeThreeUnlessAllowed) {
  const auto strict = parse_config(eigen_config("double", "num_eigenpairs: 2, max_iterations: 2"));
  const auto lenient = parse_config(eigen_config("double", "num_eigenpairs: 2, max_iterations: 2",
                                                 "monitor_every: 0, fail_on_no_convergence: false"));
  std::ostringstream out;

  const auto a = solvers::run(strict, out);
  const auto b = solvers::run(lenient, out);

  EXPECT_EQ(a.exit_code, solvers::ExitCode::not_converged);
  EXPECT_EQ(a.solve.reason, solvers::StopReason::max_iterations);
  EXPECT_EQ(b.exit_code, solvers::ExitCode::success);
  EXPECT_NE(out.str().find("NOT converged"), std::string::npos);
}

// LOBPCG needs a Hermitian matrix: a nonsymmetric one ran 1000 iterations and ended with a hint
// about eigenvalues near 0. It is refused before the solve, naming an offending entry;
// eigen.hermitian_tolerance admits a nearly symmetric one.
TEST(EigenTask, RefusesANonsymmetricMatrix) {
  const std::string config = replace(eigen_config("double", "num_eigenpairs: 1, max_iterations: 3"),
                                     "{type: laplace2d, nx: 9, ny: 7}",
                                     "{type: convection_diffusion, nx: 4, ny: 4, nz: 4, wx: 1, wy: 0, wz: 0}");
  std::ostringstream out;
  test::expect_throw_containing<InvalidArgument>([&] { solvers::run(parse_config(config), out); },
                                                 "is not Hermitian: a(");
  const auto lenient = parse_config(replace(config, "max_iterations: 3", "max_iterations: 3, hermitian_tolerance: 1"));
  EXPECT_NO_THROW(solvers::run(lenient, out));
}

TEST(EigenTask, ComplexProblemWithJacobiPreconditioner) {
  const auto config = parse_config(eigen_config(
      "complex", "num_eigenpairs: 2, relative_tolerance: 1.0e-9, preconditioner: {type: jacobi}"));
  std::ostringstream out;

  const auto result = solvers::run(config, out);

  ASSERT_EQ(result.exit_code, solvers::ExitCode::success) << out.str();
  const double pi = std::acos(-1.0);
  const double expected = (2 - 2 * std::cos(pi / 10)) + (2 - 2 * std::cos(pi / 8));  // 9 x 7 grid
  EXPECT_NEAR(result.eigen.eigenvalues[0], expected, 1e-9 * expected);
  EXPECT_NE(result.solver_summary.find("jacobi"), std::string::npos) << result.solver_summary;
}

// output.solution takes the eigenvectors, one column per eigenpair; each column read back is an
// eigenvector of the 9 x 7 Laplacian to the tolerance (||A x - lambda x|| / ||x|| small).
TEST(EigenTask, WritesTheEigenvectorsToOutputSolution) {
  test::TempDir dir;
  const std::string file = dir.file("vectors.mtx");
  std::ostringstream out;
  const auto result = solvers::run(
      parse_config(eigen_config("double", "num_eigenpairs: 3", "monitor_every: 0, solution: " + file)), out);
  ASSERT_EQ(result.exit_code, solvers::ExitCode::success) << out.str();
  EXPECT_NE(out.str().find("eigenvectors: " + file), std::string::npos) << out.str();

  const auto X = io::read_dense_matrix_market<double, Kokkos::HostSpace>(file);
  ASSERT_EQ(X.extent(0), 63u);
  ASSERT_EQ(X.extent(1), 3u);
  for (std::size_t j = 0; j < 3; ++j) {
    const double lambda = result.eigen.eigenvalues[j];
    double r2 = 0, x2 = 0;
    for (int i = 0; i < 63; ++i) {  // the 5-point Laplacian, rows ordered x fastest (nx = 9)
      const int ix = i % 9, iy = i / 9;
      double ax = 4 * X(i, j);
      if (ix > 0) ax -= X(i - 1, j);
      if (ix < 8) ax -= X(i + 1, j);
      if (iy > 0) ax -= X(i - 9, j);
      if (iy < 6) ax -= X(i + 9, j);
      r2 += (ax - lambda * X(i, j)) * (ax - lambda * X(i, j));
      x2 += X(i, j) * X(i, j);
    }
    EXPECT_LE(std::sqrt(r2 / x2), 1e-6 * lambda) << "column " << j;
  }
}

// Keys that only task solve reads are refused with their location, not ignored.
TEST(EigenTask, RefusesKeysOnlyTaskSolveReads) {
  const std::string base = eigen_config("double", "num_eigenpairs: 2");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(replace(base, "task: eigen\n", "task: {type: eigen, repeat: 3}\n")); },
      "task.repeat: task eigen runs once; repeat is read by task solve only");
  EXPECT_NO_THROW(parse_config(replace(base, "task: eigen\n", "task: {type: eigen, repeat: 1}\n")));
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(base + "solver: {type: cg}\n"); },
      "solver: task eigen does not read the solver section; LOBPCG's settings and preconditioner go in the eigen section");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(replace(base, "  scalar: double\n", "  scalar: double\n  rhs: {type: file, file: missing.mtx}\n")); },
      "problem.rhs: task eigen does not use a right-hand side or an initial guess; remove rhs");
}

TEST(EigenTask, EffectiveConfigRoundTrips) {
  const auto config = parse_config(eigen_config("double", "num_eigenpairs: 3, which: largest"));

  const std::string printed = solvers::effective_config(config);

  EXPECT_EQ(solvers::effective_config(parse_config(printed)), printed);
  EXPECT_NE(printed.find("which: largest"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("solver:"), std::string::npos) << printed;
}

TEST(EigenTask, RejectsEigenSectionForSolveAndFloatScalar) {
  test::expect_throw_containing<ConfigError>(
      [] {
        parse_config("problem: {generator: {type: laplace1d, nx: 9}}\n"
                     "solver: {type: cg}\n"
                     "eigen: {num_eigenpairs: 2}\n");
      },
      "the eigen section needs task: eigen");
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(eigen_config("double", "which: middle")); },
      "eigen.which: unknown value 'middle'; allowed: [smallest, largest]");
  // Lobpcg needs restart_condition > 1: the YAML check says so, with the line and column.
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(eigen_config("double", "restart_condition: 1")); },
      "eigen.restart_condition: 1.0 is out of range; expected restart_condition > 1.0");
  EXPECT_NO_THROW(parse_config(eigen_config("double", "restart_condition: 1.5")));
  std::ostringstream out;
  test::expect_throw_containing<NotSupported>(
      [&] { solvers::run(parse_config(eigen_config("float", "num_eigenpairs: 1")), out); },
      "task eigen runs in problem.scalar double or complex; problem.scalar is float");
}

}  // namespace
}  // namespace kelp::eigen_task_test
