// Every file in configs/ parses and runs (shrunk to a small grid) to a converged solution whose
// true residual is recomputed here; and the built `kelp` executable exits with 0, 2 or 3 and one
// clear error line, end to end.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/driver/run/command_line.hpp"
#include "kelp/apps/driver/run/run.hpp"
#include "test/support/temp_dir.hpp"
#include "test/support/reference.hpp"

namespace kelp {
namespace {

namespace fs = std::filesystem;

using test::TempDir;

std::vector<std::string> config_files() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(fs::path(KELP_SOURCE_DIR) / "configs")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string config_path(const std::string& name) {
  return (fs::path(KELP_SOURCE_DIR) / "configs" / name).string();
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Overrides that shrink a configuration's generated grid to 12 points per direction.
std::vector<std::string> small_problem_overrides(const std::string& path) {
  const auto config = solvers::load_run_config(path);
  std::vector<std::string> overrides = {"output.report="};
  if (config.problem.generator.empty()) return overrides;
  const YAML::Node generator = config.problem.generator.write();
  for (const char* key : {"nx", "ny", "nz"}) {
    if (generator[key]) overrides.push_back(std::string("problem.generator.") + key + "=12");
  }
  return overrides;
}

/// ||b - A x|| / ||b||, computed sequentially on the host with the reference SpMV.
double reference_relative_residual(const solvers::ConfigMatrix& A, solvers::ConfigVector b,
                                   solvers::ConfigVector x) {
  const auto host_A = test::to_host_crs(A);
  const auto host_b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  const auto host_x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  const std::vector<double> bv(host_b.data(), host_b.data() + host_b.extent(0));
  const std::vector<double> xv(host_x.data(), host_x.data() + host_x.extent(0));
  const auto r = test::reference_spmv<double>(kernels::SpmvMode::no_transpose, -1.0, host_A, xv,
                                              1.0, bv);  // r = b - A x
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    rr += r[i] * r[i];
    bb += bv[i] * bv[i];
  }
  return std::sqrt(rr) / std::sqrt(bb);
}

TEST(Configs, EveryConfigStartsWithAComment) {
  const auto files = config_files();

  ASSERT_GE(files.size(), 4u);
  for (const auto& file : files) {
    EXPECT_EQ(read_text(file).rfind("# ", 0), 0u) << file << " must start with a comment";
  }
}

TEST(Configs, EveryConfigParsesAtFullSizeAndRoundTrips) {
  for (const auto& file : config_files()) {
    SCOPED_TRACE(file);

    const auto config = solvers::load_run_config(file);
    const std::string printed = solvers::effective_config(config);
    const auto reparsed = solvers::parse_run_config(
        config::ConfigDocument::from_string(printed, "effective").root());

    EXPECT_EQ(solvers::effective_config(reparsed), printed);
  }
}

TEST(Configs, EveryConfigConvergesOnASmallProblem) {
  for (const auto& file : config_files()) {
    SCOPED_TRACE(file);
    const auto config = solvers::load_run_config(file, small_problem_overrides(file));
    const double tolerance = config.solver.write()["relative_tolerance"].as<double>();
    std::ostringstream out;

    const auto result = solvers::run(config, out);

    EXPECT_EQ(result.exit_code, solvers::ExitCode::success) << out.str();
    EXPECT_TRUE(result.solve.converged()) << solvers::to_string(result.solve.reason);
    const double residual = reference_relative_residual(result.problem.A, result.problem.b, result.x);
    EXPECT_LE(residual, 1.01 * tolerance);
    EXPECT_NEAR(result.true_relative_residual, residual, 1e-3 * tolerance);
    EXPECT_NE(out.str().find("summary:"), std::string::npos);
    EXPECT_NE(out.str().find("rows " + std::to_string(result.problem.A.num_rows())),
              std::string::npos);
  }
}

TEST(Configs, MatrixFileWithKnownSolutionIsSolved) {
  // bcsstk14 with b = A * ones: the solution is all ones (to the conditioning of A).
  const auto config = solvers::load_run_config(config_path("bcsstk14_jacobi_cg.yaml"),
                                               {"output.monitor_every=0"});
  std::ostringstream out;

  const auto result = solvers::run(config, out);

  ASSERT_TRUE(result.solve.converged());
  const auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), result.x);
  ASSERT_EQ(x.extent(0), 1806u);
  double max_error = 0;
  for (std::size_t i = 0; i < x.extent(0); ++i) max_error = std::max(max_error, std::abs(x(i) - 1.0));
  EXPECT_LT(max_error, 1e-3);
}

TEST(Configs, RhsChoicesGiveTheExpectedVectors) {
  const auto parse = [](const std::string& rhs) {
    return solvers::parse_run_config(
        config::ConfigDocument::from_string("problem: {generator: {type: laplace1d, nx: 4}, rhs: " +
                                            rhs + "}\nsolver: cg\n")
            .root());
  };
  const auto host = [](solvers::ConfigVector v) {
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    return std::vector<double>(h.data(), h.data() + h.extent(0));
  };

  const auto ones = solvers::build_problem(parse("ones").problem);
  const auto a_ones = solvers::build_problem(parse("A_times_ones").problem);
  const auto random1 = solvers::build_problem(parse("{type: random, seed: 5}").problem);
  const auto random2 = solvers::build_problem(parse("{type: random, seed: 5}").problem);
  const auto random3 = solvers::build_problem(parse("{type: random, seed: 6}").problem);

  EXPECT_EQ(host(ones.b), (std::vector<double>{1, 1, 1, 1}));
  EXPECT_EQ(host(a_ones.b), (std::vector<double>{1, 0, 0, 1}));  // [-1 2 -1] row sums
  EXPECT_EQ(host(random1.b), host(random2.b));
  EXPECT_NE(host(random1.b), host(random3.b));
  for (double v : host(random1.b)) EXPECT_TRUE(v >= -1 && v <= 1);
}

// --- The kelp executable, end to end --------------------------------------------------------------

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string kelp_binary() {
  const char* dir = std::getenv("KELP_BINARY_DIR");
  return std::string(dir ? dir : KELP_BINARY_DIR) + "/apps/kelp/kelp";
}

/// Runs the kelp executable with `args`; captures exit code, stdout and stderr.
Outcome run_kelp(const std::vector<std::string>& args) {
  TempDir dir("streams");
  const std::string binary = kelp_binary();
  Outcome outcome;
  if (!fs::exists(binary)) {
    ADD_FAILURE() << binary << " does not exist; build the kelp-app target first";
    return outcome;
  }
  std::string command = shell_quote(binary);
  for (const auto& arg : args) command += " " + shell_quote(arg);
  command += " >" + shell_quote(dir.file("out")) + " 2>" + shell_quote(dir.file("err"));
  const int status = std::system(command.c_str());
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.out = read_text(dir.file("out"));
  outcome.err = read_text(dir.file("err"));
  return outcome;
}

const std::vector<std::string> small_poisson = {
    "run", config_path("poisson3d_jacobi_cg.yaml"), "--set", "problem.generator.nx=10",
    "--set", "problem.generator.ny=10", "--set", "problem.generator.nz=10"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

/// Exactly one line, "kelp: error: ...".
void expect_one_error_line(const std::string& err, const std::string& needle) {
  EXPECT_EQ(err.rfind("kelp: error: ", 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_TRUE(contains(err, needle)) << "stderr was: " << err << "\nexpected: " << needle;
}

TEST(KelpApp, ConvergedRunExitsWith0AndWritesTheReport) {
  TempDir dir;
  const std::string report = dir.file("report.json");

  const auto outcome = run_kelp(with(small_poisson, {"--set", "output.monitor_every=5",
                                                     "--report", report}));

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(outcome.err.empty()) << outcome.err;
  EXPECT_TRUE(contains(outcome.out, "rows 1000, nnz 6400")) << outcome.out;
  EXPECT_TRUE(contains(outcome.out, "iter     5  residual ")) << outcome.out;
  EXPECT_TRUE(contains(outcome.out, "converged_relative")) << outcome.out;
  const std::string json = read_text(report);
  EXPECT_TRUE(contains(json, "\"stop_reason\": \"converged_relative\"")) << json;
  EXPECT_TRUE(contains(json, "\"num_rows\": 1000")) << json;
  EXPECT_TRUE(contains(json, "\"damping\": 1.0")) << json;
}

TEST(KelpApp, NonConvergenceExitsWith3) {
  const auto outcome = run_kelp(with(small_poisson, {"--set", "solver.max_iterations=3"}));

  EXPECT_EQ(outcome.exit_code, 3);
  expect_one_error_line(outcome.err, "not converged: the solver stopped with max_iterations after 3");
  EXPECT_TRUE(contains(outcome.out, "NOT converged")) << outcome.out;
}

TEST(KelpApp, NonConvergenceIsAcceptedWhenNotFatal) {
  const auto outcome = run_kelp(with(small_poisson, {"--set", "solver.max_iterations=3", "--set",
                                                     "output.fail_on_no_convergence=false"}));

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(outcome.err.empty()) << outcome.err;
}

TEST(KelpApp, ConfigErrorsExitWith2) {
  TempDir dir;
  const std::string bad = dir.write("bad.yaml",
                                    "problem:\n"
                                    "  generator: {type: laplace1d, nx: 8}\n"
                                    "solver:\n"
                                    "  type: cg\n"
                                    "  preconditioner: {type: jacobi, dampin: 0.5}\n");

  const auto in_file = run_kelp({"run", bad});
  const auto in_override = run_kelp(with(small_poisson, {"--set", "solver.relative_tolerance=x"}));
  const auto missing = run_kelp({"run", dir.file("missing.yaml")});

  EXPECT_EQ(in_file.exit_code, 2);
  expect_one_error_line(in_file.err, bad + ":5:34: solver.preconditioner: unknown key 'dampin'; "
                                           "allowed: [type, damping]");
  EXPECT_EQ(in_override.exit_code, 2);
  expect_one_error_line(in_override.err, "--set solver.relative_tolerance=x: "
                                         "solver.relative_tolerance: expected a finite number");
  EXPECT_EQ(missing.exit_code, 2);
  expect_one_error_line(missing.err, "cannot open configuration file");
}

TEST(KelpApp, BadInputFilesExitWith2) {
  TempDir dir;
  const std::string malformed = dir.write("bad.mtx",
                                          "%%MatrixMarket matrix coordinate real general\n"
                                          "2 2 1\n"
                                          "1 x 1.0\n");
  const std::string rectangular = dir.write("rect.mtx",
                                            "%%MatrixMarket matrix coordinate real general\n"
                                            "2 3 1\n"
                                            "1 1 1.0\n");
  const std::string short_rhs = dir.write("b.mtx",
                                          "%%MatrixMarket matrix array real general\n"
                                          "3 1\n1\n2\n3\n");
  const auto config = [&](const std::string& name, const std::string& problem) {
    return dir.write(name, "problem: " + problem + "\nsolver: cg\n");
  };

  const auto bad_matrix = run_kelp({"run", config("a.yaml", "{matrix: {file: bad.mtx}}")});
  const auto no_matrix = run_kelp({"run", config("b.yaml", "{matrix: {file: none.mtx}}")});
  const auto non_square = run_kelp({"run", config("c.yaml", "{matrix: {file: rect.mtx}}")});
  const auto wrong_rhs = run_kelp(
      {"run", config("d.yaml", "{generator: {type: laplace1d, nx: 5}, rhs: {type: file, file: b.mtx}}")});

  EXPECT_EQ(bad_matrix.exit_code, 2);
  expect_one_error_line(bad_matrix.err, malformed + ":3:");
  EXPECT_EQ(no_matrix.exit_code, 2);
  expect_one_error_line(no_matrix.err, dir.file("none.mtx"));
  EXPECT_EQ(non_square.exit_code, 2);
  expect_one_error_line(non_square.err, rectangular + " is 2 x 3; the solvers need a square matrix");
  EXPECT_EQ(wrong_rhs.exit_code, 2);
  expect_one_error_line(wrong_rhs.err, "problem.rhs: dimension mismatch: " + short_rhs +
                                           " has 3 rows, the matrix has 5");
}

TEST(KelpApp, UsageErrorsExitWith2AndPrintUsage) {
  const auto no_args = run_kelp({});
  const auto unknown_command = run_kelp({"walk"});
  const auto unknown_option = run_kelp(with(small_poisson, {"--frobnicate"}));
  const auto missing_value = run_kelp(with(small_poisson, {"--set"}));
  const auto no_config = run_kelp({"run"});

  for (const auto* outcome : {&no_args, &unknown_command, &unknown_option, &missing_value, &no_config}) {
    EXPECT_EQ(outcome->exit_code, 2);
    EXPECT_EQ(outcome->err.rfind("kelp: error: ", 0), 0u) << outcome->err;
    EXPECT_TRUE(contains(outcome->err, "usage: kelp run CONFIG.yaml")) << outcome->err;
  }
  EXPECT_TRUE(contains(unknown_command.err, "unknown command 'walk'"));
  EXPECT_TRUE(contains(unknown_option.err, "unknown option '--frobnicate'"));
  EXPECT_TRUE(contains(missing_value.err, "option --set needs a value"));
  EXPECT_TRUE(contains(no_config.err, "missing configuration file"));
}

TEST(KelpApp, PrintConfigPrintsEffectiveConfigAndExits) {
  const auto outcome = run_kelp(with(small_poisson, {"--print-config"}));

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(contains(outcome.out, "  generator: {type: laplace3d, nx: 10, ny: 10, nz: 10}\n"))
      << outcome.out;
  EXPECT_TRUE(contains(outcome.out, "  absolute_tolerance: 0.0\n")) << outcome.out;
  EXPECT_FALSE(contains(outcome.out, "summary:")) << outcome.out;
}

TEST(KelpApp, PrintConfigOptionPrintsAndRuns) {
  const auto outcome = run_kelp(with(small_poisson, {"--set", "output.print_config=true"}));

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(contains(outcome.out, "  print_config: true\n")) << outcome.out;
  EXPECT_TRUE(contains(outcome.out, "summary:")) << outcome.out;
}

TEST(KelpCommandLine, RunsInProcessWithTheSameExitCodes) {
  std::ostringstream out, err;

  const int converged = solvers::run_command_line(with(small_poisson, {}), out, err);
  const int not_converged =
      solvers::run_command_line(with(small_poisson, {"--set", "solver.max_iterations=2"}), out, err);
  const int bad = solvers::run_command_line(with(small_poisson, {"--set", "solver.type=x"}), out, err);

  EXPECT_EQ(converged, 0);
  EXPECT_EQ(not_converged, 3);
  EXPECT_EQ(bad, 2);
}

}  // namespace
}  // namespace kelp
