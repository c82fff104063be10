// Every file in configs/ parses and runs (shrunk to a small grid) to a converged solution whose
// true residual is recomputed here; and the built `kelp` executable exits with 0, 2 or 3 and one
// clear error line, end to end: command line (CLI11), --version/info, the JSON report, output
// paths checked before the run, and the profiling regions of the run driver.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "kelp/apps/driver/run/command_line.hpp"
#include "kelp/apps/driver/run/run.hpp"
#include "test/support/expect.hpp"
#include "test/support/reference.hpp"
#include "test/support/dense.hpp"
#include "test/support/files.hpp"
#include "test/support/residual.hpp"
#include "test/support/temp_dir.hpp"
#include "test/support/text.hpp"

namespace kelp::configs_test {
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


TEST(Configs, EveryConfigStartsWithAComment) {
  const auto files = config_files();

  ASSERT_GE(files.size(), 4u);
  for (const auto& file : files) {
    EXPECT_EQ(test::read_file(file).rfind("# ", 0), 0u) << file << " must start with a comment";
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

/// The reference residual of a run (sequential, double precision) in whatever scalar it used.
double reference_residual(const solvers::RunResult& result) {
  return std::visit(
      [](const auto& solution) {
        return test::reference_relative_residual(solution.problem.A, solution.problem.b,
                                                 solution.x);
      },
      result.solution);
}

/// Rounding in the scalar's precision: the driver's residual is computed in it.
double scalar_epsilon(solvers::ScalarKind scalar) {
  return scalar == solvers::ScalarKind::real_float ? 1.2e-7 : 2.3e-16;
}

TEST(Configs, EveryConfigConvergesOnASmallProblem) {
  for (const auto& file : config_files()) {
    SCOPED_TRACE(file);
    const auto config = solvers::load_run_config(file, small_problem_overrides(file));
    if (config.task.type == solvers::TaskKind::eigen) continue;  // test/apps/eigen_task_test.cpp
    if (config.task.type == solvers::TaskKind::dos) continue;  // test/apps/dos_task_test.cpp
    if (config.distributed) continue;  // under mpirun: test/apps/dist_run_test.sh (apps_dist_run)
    const double tolerance = config.solver.write()["relative_tolerance"].as<double>();
    const double rounding = 100 * scalar_epsilon(config.problem.scalar);
    std::ostringstream out;

    const auto result = solvers::run(config, out);

    EXPECT_EQ(result.exit_code, solvers::ExitCode::success) << out.str();
    EXPECT_TRUE(result.solve.converged()) << solvers::to_string(result.solve.reason);
    EXPECT_EQ(result.problem.scalar, config.problem.scalar);
    const double residual = reference_residual(result);
    EXPECT_LE(residual, 1.01 * tolerance + rounding);
    EXPECT_NEAR(result.true_relative_residual, residual, 1e-3 * tolerance + rounding);
    EXPECT_NE(out.str().find("summary:"), std::string::npos);
    EXPECT_NE(out.str().find("rows " + std::to_string(result.problem.num_rows)),
              std::string::npos);
  }
}

TEST(Configs, FloatAndComplexConfigsExist) {
  std::set<solvers::ScalarKind> scalars;
  for (const auto& file : config_files()) scalars.insert(solvers::load_run_config(file).problem.scalar);

  EXPECT_EQ(scalars.size(), 3u);  // float, double and complex each run above
}

TEST(Configs, MatrixFileWithKnownSolutionIsSolved) {
  // bcsstk14 with b = A * ones: the solution is all ones (to the conditioning of A).
  const auto config = solvers::load_run_config(config_path("bcsstk14_jacobi_cg.yaml"),
                                               {"output.monitor_every=0"});
  std::ostringstream out;

  const auto result = solvers::run(config, out);

  ASSERT_TRUE(result.solve.converged());
  const auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                     result.solution_as<double>().x);
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
  const auto host = [](solvers::ConfigVector<double> v) { return test::to_std(v); };
  const auto build = [&](const std::string& rhs) {
    return solvers::build_problem<double>(parse(rhs).problem);
  };

  const auto ones = build("ones");
  const auto a_ones = build("A_times_ones");
  const auto random1 = build("{type: random, seed: 5}");
  const auto random2 = build("{type: random, seed: 5}");
  const auto random3 = build("{type: random, seed: 6}");

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

using test::shell_quote;

std::string kelp_binary() {
  const char* dir = std::getenv("KELP_BINARY_DIR");
  return std::string(dir ? dir : KELP_BINARY_DIR) + "/apps/kelp/kelp";
}

/// Runs the kelp executable with `args` (after the shell words `env_prefix`, e.g. "env -u X");
/// captures exit code, stdout and stderr.
Outcome run_kelp(const std::vector<std::string>& args, const std::string& env_prefix = "") {
  TempDir dir("streams");
  const std::string binary = kelp_binary();
  Outcome outcome;
  if (!fs::exists(binary)) {
    ADD_FAILURE() << binary << " does not exist; build the kelp-app target first";
    return outcome;
  }
  std::string command = env_prefix + (env_prefix.empty() ? "" : " ") + shell_quote(binary);
  for (const auto& arg : args) command += " " + shell_quote(arg);
  command += " >" + shell_quote(dir.file("out")) + " 2>" + shell_quote(dir.file("err"));
  const int status = std::system(command.c_str());
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.out = test::read_file(dir.file("out"));
  outcome.err = test::read_file(dir.file("err"));
  return outcome;
}

const std::vector<std::string> small_poisson = {
    "run", config_path("poisson3d_jacobi_cg.yaml"), "--set", "problem.generator.nx=10",
    "--set", "problem.generator.ny=10", "--set", "problem.generator.nz=10"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

using test::contains;

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
  const std::string json = test::read_file(report);
  EXPECT_TRUE(contains(json, "\"stop_reason\": \"converged_relative\"")) << json;
  EXPECT_TRUE(contains(json, "\"num_rows\": 1000")) << json;
  EXPECT_TRUE(contains(json, "\"damping\": 1.0")) << json;
  const auto parsed = nlohmann::json::parse(json);  // throws on invalid JSON
  EXPECT_EQ(parsed["config"]["problem"]["generator"]["nx"], 10);
  EXPECT_TRUE(parsed["config"]["problem"]["generator"]["nx"].is_number_integer());
  EXPECT_EQ(parsed["config"]["solver"]["relative_tolerance"], 1e-8);
  EXPECT_EQ(parsed["config"]["output"]["fail_on_no_convergence"], true);
  EXPECT_EQ(parsed["config"]["output"]["report"], report);
  EXPECT_EQ(parsed["problem"]["nnz"], 6400);
  EXPECT_EQ(parsed["converged"], true);
  EXPECT_EQ(parsed["exit_code"], 0);
  ASSERT_TRUE(parsed["residual_history"].is_array());
  EXPECT_EQ(parsed["residual_history"].size(), parsed["iterations"].get<std::size_t>() + 1);
  EXPECT_LT(parsed["true_relative_residual"].get<double>(), 1e-8);
}

TEST(KelpRun, ReportIsValidJsonWithNonFiniteNumbersAsNullAndEscapedStrings) {
  TempDir dir;
  const auto config = solvers::load_run_config(
      config_path("poisson3d_jacobi_cg.yaml"),
      {"problem.generator.nx=4", "problem.generator.ny=4", "problem.generator.nz=4",
       "output.monitor_every=0"});
  std::ostringstream out;
  auto result = solvers::run(config, out);
  const std::string odd = "quote \" backslash \\ newline \n tab \t bell \a end";
  result.problem.matrix = odd;
  result.solve.residual_norm = std::numeric_limits<double>::quiet_NaN();
  result.true_relative_residual = std::numeric_limits<double>::infinity();
  result.solve.residual_history = {1.0, std::numeric_limits<double>::quiet_NaN(),
                                   -std::numeric_limits<double>::infinity(), 0.5};
  const std::string path = dir.file("report.json");

  solvers::write_report(path, config, result);

  const std::string text = test::read_file(path);
  EXPECT_FALSE(contains(text, "nan")) << text;
  EXPECT_FALSE(contains(text, "inf")) << text;
  const auto parsed = nlohmann::json::parse(text);
  EXPECT_EQ(parsed["problem"]["matrix"], odd);
  EXPECT_TRUE(parsed["residual_norm"].is_null());
  EXPECT_TRUE(parsed["true_relative_residual"].is_null());
  EXPECT_EQ(parsed["residual_history"],
            nlohmann::json::parse("[1.0, null, null, 0.5]"));
}

// Kokkos Tools callbacks, recording the region names the run driver pushes.
std::vector<std::string>& recorded_regions() {
  static std::vector<std::string> regions;
  return regions;
}
void record_push(const char* name) { recorded_regions().push_back(name); }
void record_pop() { recorded_regions().push_back("pop"); }

TEST(KelpRun, EachPhaseIsANamedProfilingRegion) {
  const auto config = solvers::load_run_config(
      config_path("poisson3d_jacobi_cg.yaml"),
      {"problem.generator.nx=4", "problem.generator.ny=4", "problem.generator.nz=4",
       "output.monitor_every=0"});
  std::ostringstream out;
  recorded_regions().clear();
  Kokkos::Tools::Experimental::set_push_region_callback(record_push);
  Kokkos::Tools::Experimental::set_pop_region_callback(record_pop);

  solvers::run(config, out);

  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  Kokkos::Tools::Experimental::set_pop_region_callback(nullptr);
  // The driver's regions in order, each closed before the next opens (nested ones, such as
  // those inside CG and SpMV, are skipped by depth; top-level kernel regions by name).
  std::vector<std::string> top_level;
  int depth = 0;
  for (const auto& event : recorded_regions()) {
    if (event == "pop") {
      --depth;
    } else if (depth++ == 0 && event.rfind("kelp::run::", 0) == 0) {
      top_level.push_back(event);
    }
  }
  EXPECT_EQ(depth, 0);
  EXPECT_EQ(top_level, (std::vector<std::string>{"kelp::run::problem", "kelp::run::setup_symbolic",
                                                 "kelp::run::setup_numeric", "kelp::run::solve",
                                                 "kelp::run::true_residual"}));
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
  const auto unknown_option_first = run_kelp({"run", "--sett", "a=1", config_path("poisson3d_jacobi_cg.yaml")});
  const auto unknown_top_option = run_kelp({"--verbose", "run", config_path("poisson3d_jacobi_cg.yaml")});
  const auto missing_value = run_kelp(with(small_poisson, {"--set"}));
  const auto missing_report = run_kelp(with(small_poisson, {"--report"}));
  const auto no_config = run_kelp({"run"});
  const auto two_configs = run_kelp({"run", "a.yaml", "b.yaml"});
  const auto info_argument = run_kelp({"info", "extra"});

  for (const auto* outcome : {&no_args, &unknown_command, &unknown_option, &unknown_option_first,
                              &unknown_top_option, &missing_value, &missing_report, &no_config,
                              &two_configs, &info_argument}) {
    EXPECT_EQ(outcome->exit_code, 2);
    EXPECT_EQ(outcome->err.rfind("kelp: error: ", 0), 0u) << outcome->err;
    EXPECT_TRUE(contains(outcome->err, "\nusage: kelp run CONFIG.yaml [--set dotted.path=value]... "
                                       "[--print-config] [--report FILE]\n"))
        << outcome->err;
    EXPECT_TRUE(outcome->out.empty()) << outcome->out;  // nothing ran
  }
  EXPECT_TRUE(contains(no_args.err, "kelp: error: missing command\n")) << no_args.err;
  EXPECT_TRUE(contains(unknown_command.err, "kelp: error: unknown command 'walk'\n"));
  EXPECT_TRUE(contains(unknown_option.err, "kelp: error: unknown option '--frobnicate'\n"));
  EXPECT_TRUE(contains(unknown_option_first.err, "kelp: error: unknown option '--sett'\n"))
      << unknown_option_first.err;
  EXPECT_TRUE(contains(unknown_top_option.err, "kelp: error: unknown option '--verbose'\n"))
      << unknown_top_option.err;
  EXPECT_TRUE(contains(missing_value.err, "kelp: error: option --set needs a value\n"))
      << missing_value.err;
  EXPECT_TRUE(contains(missing_report.err, "kelp: error: option --report needs a value\n"))
      << missing_report.err;
  EXPECT_TRUE(contains(no_config.err, "kelp: error: missing configuration file\n"));
  EXPECT_TRUE(contains(two_configs.err,
                       "kelp: error: more than one configuration file ('a.yaml' and 'b.yaml')\n"))
      << two_configs.err;
  EXPECT_TRUE(contains(info_argument.err, "kelp: error: info takes no arguments; got 'extra'\n"))
      << info_argument.err;
}

TEST(KelpApp, HelpPrintsTheOptionsAndExitsWith0) {
  const auto help = run_kelp({"--help"});
  const auto short_help = run_kelp({"-h"});
  const auto help_command = run_kelp({"help"});
  const auto run_help = run_kelp({"run", "--help"});
  const auto run_help_after_args = run_kelp(with(small_poisson, {"--help"}));

  for (const auto* outcome : {&help, &short_help, &help_command, &run_help, &run_help_after_args}) {
    EXPECT_EQ(outcome->exit_code, 0) << outcome->err;
    EXPECT_TRUE(outcome->err.empty()) << outcome->err;  // Kokkos prints no help of its own
  }
  for (const auto* outcome : {&help, &short_help, &help_command}) {
    EXPECT_TRUE(contains(outcome->out, "Usage: kelp [OPTIONS] [SUBCOMMAND]")) << outcome->out;
    EXPECT_TRUE(contains(outcome->out, "--version")) << outcome->out;
    EXPECT_TRUE(contains(outcome->out, "\n  run ")) << outcome->out;
    EXPECT_TRUE(contains(outcome->out, "\n  info ")) << outcome->out;
    EXPECT_TRUE(contains(outcome->out, "3 not converged")) << outcome->out;
  }
  for (const auto* outcome : {&run_help, &run_help_after_args}) {
    EXPECT_TRUE(contains(outcome->out, "Usage: kelp run [OPTIONS] [CONFIG.yaml]")) << outcome->out;
    EXPECT_TRUE(contains(outcome->out, "--set PATH=VALUE")) << outcome->out;
    EXPECT_TRUE(contains(outcome->out, "--print-config")) << outcome->out;
    EXPECT_TRUE(contains(outcome->out, "--report FILE")) << outcome->out;
    EXPECT_FALSE(contains(outcome->out, "summary:")) << outcome->out;  // help, no run
  }
}

TEST(KelpApp, RepeatedSetAppliesEveryOverrideInOrderAnywhereOnTheLine) {
  const auto outcome = run_kelp({"run", "--set", "problem.generator.nx=7",
                                 config_path("poisson3d_jacobi_cg.yaml"),
                                 "--set=problem.generator.ny=6", "--print-config", "--set",
                                 "problem.generator.nz=5", "--set", "problem.generator.nx=4",
                                 "--set", "solver.preconditioner={type: jacobi, damping: 0.5}"});

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(contains(outcome.out, "  generator: {type: laplace3d, nx: 4, ny: 6, nz: 5}\n"))
      << outcome.out;  // the later nx=4 wins over nx=7
  EXPECT_TRUE(contains(outcome.out, "damping: 0.5")) << outcome.out;
}

TEST(KelpApp, ReportOptionAcceptsTheEqualsForm) {
  const auto outcome = run_kelp(with(small_poisson, {"--report=custom.json", "--print-config"}));

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_TRUE(contains(outcome.out, "  report: custom.json\n")) << outcome.out;
}

/// The version in the top-level CMakeLists.txt: project(Kelp VERSION x.y.z ...).
std::string project_version() {
  const std::string cmake = test::read_file((fs::path(KELP_SOURCE_DIR) / "CMakeLists.txt").string());
  std::smatch match;
  if (!std::regex_search(cmake, match, std::regex(R"(project\(Kelp VERSION ([0-9.]+))"))) return "?";
  return match[1];
}

TEST(KelpApp, BindsThreadsWhenTheUserDidNotAndKeepsTheUsersChoice) {
  const auto unset = run_kelp({"info"}, "env -u OMP_PROC_BIND -u OMP_PLACES");
  const auto user = run_kelp({"info"}, "env OMP_PROC_BIND=false");

  ASSERT_EQ(unset.exit_code, 0) << unset.err;
  EXPECT_EQ(unset.out.find("WARNING"), std::string::npos) << unset.out;  // stdout stays clean
  ASSERT_EQ(user.exit_code, 0) << user.err;
  EXPECT_NE(user.out.find("thread binding: OMP_PROC_BIND=false"), std::string::npos) << user.out;
#if defined(KOKKOS_ENABLE_OPENMP)
  EXPECT_NE(unset.out.find("thread binding: OMP_PROC_BIND=spread, OMP_PLACES=threads"),
            std::string::npos)
      << unset.out;
#endif
}

TEST(KelpApp, VersionAndInfoDescribeTheBuildAndTheMachine) {
  const auto version = run_kelp({"--version"});
  const auto info = run_kelp({"info"});
  const std::string threads = std::to_string(Kokkos::DefaultHostExecutionSpace().concurrency());

  for (const auto* outcome : {&version, &info}) {
    EXPECT_EQ(outcome->exit_code, 0) << outcome->err;
    EXPECT_TRUE(outcome->err.empty()) << outcome->err;
    const std::string& out = outcome->out;
    std::smatch match;
    ASSERT_TRUE(std::regex_search(
        out, match,
        std::regex("^kelp ([0-9.]+) \\(git ([^ ()]+)\\)\n"
                   "version: ([0-9.]+)\n"
                   "git revision: ([^ \n]+)\n")))
        << out;
    EXPECT_EQ(match[1], project_version());
    EXPECT_EQ(match[3], project_version());
    EXPECT_EQ(match[2], match[4]);
    if (fs::exists(fs::path(KELP_SOURCE_DIR) / ".git")) {
      EXPECT_TRUE(std::regex_match(match[2].str(), std::regex("[0-9A-Za-z._-]+")))
          << match[2];  // git describe output, possibly -dirty
      EXPECT_NE(match[2], "unknown");
    }
    std::ostringstream kokkos;
    kokkos << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100 << "."
           << KOKKOS_VERSION % 100;
    EXPECT_TRUE(contains(out, "\nkokkos: " + kokkos.str() + "\n")) << out;
    EXPECT_TRUE(contains(out, "\nkokkos backends: [")) << out;
    EXPECT_TRUE(contains(out, std::string("\ndefault execution space: ") +
                                  Kokkos::DefaultExecutionSpace::name() + "\n"))
        << out;
    EXPECT_TRUE(contains(out, std::string("\nhost execution space: ") +
                                  Kokkos::DefaultHostExecutionSpace::name() + "\n"))
        << out;
    EXPECT_TRUE(contains(out, "\nhost threads: " + threads + "\n")) << out;
#ifdef KOKKOS_ENABLE_CUDA
    EXPECT_TRUE(contains(out, "\ngpu: ")) << out;
    EXPECT_FALSE(contains(out, "\ngpu: none\n")) << out;
#else
    EXPECT_TRUE(contains(out, "\ngpu: none\n")) << out;
#endif
  }
  EXPECT_EQ(version.out, info.out);
}

TEST(KelpApp, UnwritableReportFailsBeforeTheRun) {
  TempDir dir;
  const std::string in_missing_folder = dir.file("no_such_folder/report.json");
  const std::string a_folder = dir.path().string();

  const auto missing = run_kelp(with(small_poisson, {"--report", in_missing_folder}));
  const auto folder = run_kelp(with(small_poisson, {"--set", "output.report=" + a_folder}));

  EXPECT_EQ(missing.exit_code, 2);
  expect_one_error_line(missing.err, "output.report: cannot write '" + in_missing_folder +
                                         "': No such file or directory");
  EXPECT_FALSE(contains(missing.out, "problem:")) << missing.out;  // nothing was built
  EXPECT_EQ(folder.exit_code, 2);
  expect_one_error_line(folder.err, "output.report: cannot write '" + a_folder + "'");
  EXPECT_FALSE(contains(folder.out, "problem:")) << folder.out;
}

TEST(KelpApp, ReportInAReadOnlyFolderFailsBeforeTheRun) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only folders";
  TempDir dir;
  const fs::path folder = dir.path() / "read_only";
  fs::create_directories(folder);
  ::chmod(folder.c_str(), 0555);
  const std::string report = (folder / "report.json").string();

  const auto outcome = run_kelp(with(small_poisson, {"--report", report}));

  ::chmod(folder.c_str(), 0755);
  EXPECT_EQ(outcome.exit_code, 2);
  expect_one_error_line(outcome.err, "output.report: cannot write '" + report + "': Permission denied");
  EXPECT_FALSE(contains(outcome.out, "problem:")) << outcome.out;
}

TEST(KelpApp, OutputCheckKeepsAnExistingFileAndLeavesNoNewOne) {
  TempDir dir;
  const std::string existing = dir.write("existing.json", "keep me\n");
  const std::string fresh = dir.file("fresh.json");
  const std::string no_matrix = dir.write("c.yaml", "problem: {matrix: {file: none.mtx}}\nsolver: cg\n");

  // The report path passes the check, then the run fails on the missing matrix.
  const auto over_existing = run_kelp({"run", no_matrix, "--report", existing});
  const auto over_fresh = run_kelp({"run", no_matrix, "--report", fresh});

  EXPECT_EQ(over_existing.exit_code, 2);
  expect_one_error_line(over_existing.err, dir.file("none.mtx"));
  EXPECT_EQ(test::read_file(existing), "keep me\n");
  EXPECT_EQ(over_fresh.exit_code, 2);
  EXPECT_FALSE(fs::exists(fresh));
}

// A file that cannot be read is named with the key that gave it, not only by its path.
TEST(KelpApp, UnreadableInputFilesNameTheirKey) {
  TempDir dir;
  const auto missing_matrix = run_kelp({"run", dir.write("m.yaml", "problem: {matrix: {file: none.mtx}}\nsolver: cg\n")});
  EXPECT_EQ(missing_matrix.exit_code, 2);
  expect_one_error_line(missing_matrix.err, "problem.matrix.file: ");
  const auto missing_rhs = run_kelp({"run", dir.write("r.yaml", "problem: {generator: {type: laplace1d, nx: 4}, "
                                                                "rhs: {type: file, file: none.mtx}}\nsolver: cg\n")});
  EXPECT_EQ(missing_rhs.exit_code, 2);
  expect_one_error_line(missing_rhs.err, "problem.rhs.file: ");
  EXPECT_TRUE(contains(missing_rhs.err, dir.file("none.mtx"))) << missing_rhs.err;
}

TEST(KelpRun, CheckOutputPathsNamesTheKeyAndThePath) {
  TempDir dir;
  auto config = solvers::load_run_config(config_path("poisson3d_jacobi_cg.yaml"));
  config.output.report = dir.file("missing/r.json");

  test::expect_throw_containing<FileError>(
      [&] { solvers::check_output_paths(config); },
      "kelp::solvers::run: output.report: cannot write '" + dir.file("missing/r.json") + "'");
  config.output.report = dir.file("r.json");
  EXPECT_NO_THROW(solvers::check_output_paths(config));
  EXPECT_FALSE(fs::exists(dir.file("r.json")));
  config.output.report = "";
  EXPECT_NO_THROW(solvers::check_output_paths(config));
}

TEST(KelpRun, CheckOutputPathsRefusesAnOutputThatNamesAnInput) {
  TempDir dir;
  const std::string matrix = dir.write("A.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2\n");
  const std::string rhs = dir.write("b.mtx", "%%MatrixMarket matrix array real general\n1 1\n4\n");
  const std::string config_file = dir.write(
      "c.yaml", "problem: {matrix: {file: A.mtx}, rhs: {type: file, file: b.mtx}}\nsolver: cg\n");
  auto config = solvers::load_run_config(config_file);
  const auto refuses = [&](const std::string& fragment) {
    test::expect_throw_containing<FileError>([&] { solvers::check_output_paths(config); }, fragment);
  };

  config.output.solution = matrix;
  refuses("output.solution '" + matrix + "' is the same file as problem.matrix.file");
  config.output.solution = (dir.path() / "." / "b.mtx").string();  // another spelling of rhs
  refuses("is the same file as problem.rhs.file '" + rhs + "', which the run reads");
  config.output.solution = "";
  config.output.report = config_file;
  refuses("output.report '" + config_file + "' is the same file as the configuration file");
  config.output.report = dir.file("out.json");
  config.output.solution = dir.file("out.json");  // neither exists yet
  refuses("output.solution '" + dir.file("out.json") + "' is the same file as output.report");
  config.output.solution = dir.file("x.mtx");
  EXPECT_NO_THROW(solvers::check_output_paths(config));
  EXPECT_EQ(test::read_file(matrix), "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2\n");
}

TEST(KelpApp, ReportOverTheConfigFileFailsAndKeepsIt) {
  TempDir dir;
  const std::string text = "problem: {generator: {type: laplace1d, nx: 5}}\nsolver: cg\n";
  const std::string config_file = dir.write("c.yaml", text);

  const auto outcome = run_kelp({"run", config_file, "--report", config_file});

  EXPECT_EQ(outcome.exit_code, 2);
  expect_one_error_line(outcome.err, "is the same file as the configuration file");
  EXPECT_EQ(test::read_file(config_file), text);
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

/// Counts the writes that reach it (each std::ostream insertion is one).
struct CountingBuffer : std::stringbuf {
  int writes = 0;
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    ++writes;
    return std::stringbuf::xsputn(s, n);
  }
};

// The error lines go out in one write: under mpirun each rank prints the same collective error,
// and piecewise writes of several ranks ran together on one line.
TEST(KelpCommandLine, ErrorLinesAreWrittenInOnePiece) {
  std::ostringstream out;
  CountingBuffer buffer;
  std::ostream err(&buffer);

  const int not_converged =
      solvers::run_command_line(with(small_poisson, {"--set", "solver.max_iterations=2"}), out, err);

  EXPECT_EQ(not_converged, 3);
  EXPECT_EQ(buffer.writes, 1);
  EXPECT_TRUE(contains(buffer.str(), "kelp: error: not converged: the solver stopped with max_iterations after 2"))
      << buffer.str();
}

// A size the machine cannot hold (here a GMRES basis of 10^6 vectors, 8 GB, under a 2 GiB
// address-space allowance) is bad input with a message, exit 2, not "internal error" (exit 1).
TEST(KelpCommandLine, OutOfMemoryIsBadInputWithAMessage) {
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &old), 0);
  long long vm_kib = 0;
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmSize:", 0) == 0) vm_kib = std::stoll(line.substr(7));
  }
  ASSERT_GT(vm_kib, 0);
  rlimit tight = old;
  tight.rlim_cur = static_cast<rlim_t>(vm_kib + 2LL * 1024 * 1024) * 1024;
  if (old.rlim_max != RLIM_INFINITY && tight.rlim_cur > old.rlim_max) GTEST_SKIP() << "hard address-space limit";
  ASSERT_EQ(setrlimit(RLIMIT_AS, &tight), 0);
  std::ostringstream out, err;
  const int code = solvers::run_command_line(
      with(small_poisson, {"--set", "solver.type=gmres", "--set", "solver.restart=1000000"}), out, err);
  ASSERT_EQ(setrlimit(RLIMIT_AS, &old), 0);

  EXPECT_EQ(code, 2) << err.str();
  EXPECT_TRUE(contains(err.str(), "kelp: error: out of memory: ")) << err.str();
  EXPECT_TRUE(contains(err.str(), "check its sizes")) << err.str();
}

}  // namespace
}  // namespace kelp::configs_test
