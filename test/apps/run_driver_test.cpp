// The run driver for every scalar (float, double, complex<double>), typed enum fields, the task
// table, lazy preconditioner setup with values-only re-setup (task.repeat), the solution output
// (Matrix Market, atomic) and the right-hand side and initial guess read from files.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <Kokkos_Core.hpp>
#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/driver/run/run.hpp"
#include "test/apps/config_text.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "test/support/dense.hpp"
#include "test/support/expect.hpp"
#include "test/support/files.hpp"
#include "test/support/residual.hpp"
#include "test/support/temp_dir.hpp"
#include "test/support/text.hpp"

namespace kelp::run_driver_test {
namespace {

namespace fs = std::filesystem;
using solvers::RunConfig;
using solvers::ScalarKind;
using test::TempDir;

using test::parse_config;

/// A small SPD problem in `scalar` with a random right-hand side (complex for complex).
std::string small_problem(const std::string& scalar, const std::string& extra_problem = "",
                          const std::string& output = "monitor_every: 0") {
  return "problem:\n"
         "  scalar: " + scalar + "\n"
         "  generator: {type: laplace2d, nx: 9, ny: 7}\n"
         "  rhs: {type: random, seed: 2}\n" + extra_problem +
         "solver: {type: cg, relative_tolerance: 1.0e-5, preconditioner: jacobi}\n"
         "output: {" + output + "}\n";
}

using test::contains;

std::vector<std::string> files_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

// --- Every scalar, end to end ----------------------------------------------------------------

template <class Scalar>
void expect_solves_in(const std::string& scalar) {
  SCOPED_TRACE(scalar);
  TempDir dir(scalar);
  const std::string report = dir.file("report.json");
  std::ostringstream out;

  const auto result =
      solvers::run(parse_config(small_problem(scalar, "", "monitor_every: 0, report: " + report)),
                   out);

  const auto& solution = result.solution_as<Scalar>();
  const double residual =
      test::reference_relative_residual(solution.problem.A, solution.problem.b, solution.x);
  EXPECT_TRUE(result.solve.converged()) << out.str();
  EXPECT_EQ(result.exit_code, solvers::ExitCode::success);
  EXPECT_LE(residual, 1.1e-5);  // float rounding on top of the tolerance
  EXPECT_NEAR(result.true_relative_residual, residual, 1e-6);
  EXPECT_EQ(result.problem.num_rows, 63);
  EXPECT_TRUE(contains(out.str(), "scalar " + scalar)) << out.str();
  const auto json = nlohmann::json::parse(test::read_file(report));
  EXPECT_EQ(json["scalar"], scalar);
  EXPECT_EQ(json["config"]["problem"]["scalar"], scalar);
  EXPECT_TRUE(json["setup_symbolic_seconds"].is_number());
  EXPECT_TRUE(json["setup_numeric_seconds"].is_number());
  EXPECT_EQ(json["repetitions"].size(), 1u);
}

TEST(RunScalars, FloatDoubleAndComplexSolveEndToEnd) {
  expect_solves_in<float>("float");
  expect_solves_in<double>("double");
  expect_solves_in<Kokkos::complex<double>>("complex");
}

TEST(RunScalars, ComplexRhsIsGenuinelyComplex) {
  std::ostringstream out;

  const auto result = solvers::run(parse_config(small_problem("complex")), out);

  const auto b = test::to_std(result.solution_as<Kokkos::complex<double>>().problem.b);
  double imaginary = 0;
  for (const auto& v : b) imaginary += std::abs(v.imag());
  EXPECT_GT(imaginary, 1.0);
  test::expect_throw_containing<InvalidArgument>([&] { result.solution_as<double>(); },
                                                 "the run's scalar is complex, not double");
}

TEST(RunScalars, ComplexHermitianFileIsSolvedAndRejectedForRealScalars) {
  const std::string file = std::string(KELP_TEST_DATA_DIR) + "/driver/magnetic2d_hermitian.mtx";
  const std::string text = "problem: {scalar: SCALAR, matrix: {file: " + file +
                           "}, rhs: {type: random, seed: 1}}\n"
                           "solver: {type: cg, relative_tolerance: 1.0e-10}\n"
                           "output: {monitor_every: 0}\n";
  const auto with_scalar = [&](const std::string& scalar) {
    std::string t = text;
    t.replace(t.find("SCALAR"), 6, scalar);
    return parse_config(t);
  };
  std::ostringstream out;

  const auto result = solvers::run(with_scalar("complex"), out);

  const auto& s = result.solution_as<Kokkos::complex<double>>();
  EXPECT_TRUE(result.solve.converged());
  EXPECT_LE(test::reference_relative_residual(s.problem.A, s.problem.b, s.x), 1e-10);
  for (const char* real : {"double", "float"}) {
    test::expect_throw_containing<InvalidArgument>(
        [&] { solvers::run(with_scalar(real), out); },
        "problem.matrix: " + file + " holds complex values, but problem.scalar is " + real +
            "; set problem.scalar: complex");
  }
}

// --- Typed enum fields and the task table ---------------------------------------------------

TEST(ConfigEnums, BadScalarNamesLineAndAllowedValues) {
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(small_problem("half")); },
      "text.yaml:2:11: problem.scalar: unknown value 'half'; allowed: [float, double, complex]");
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(small_problem("{type: float}")); },
      "problem.scalar: unknown value '{type: float}'; allowed: [float, double, complex]");
}

TEST(ConfigEnums, UnknownTaskListsTheTasks) {
  const std::string rest = small_problem("double");

  test::expect_throw_containing<ConfigError>(
      [&] { parse_config("task: kpm\n" + rest); },
      "text.yaml:1:7: task: unknown value 'kpm'; allowed: [solve, eigen, dos]");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config("task: {type: spectrum}\n" + rest); },
      "text.yaml:1:14: task.type: unknown value 'spectrum'; allowed: [solve, eigen, dos]");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config("task: {type: solve, repeat: 0}\n" + rest); },
      "task.repeat: 0 is out of range; expected repeat >= 1");
}

TEST(ConfigEnums, TaskShorthandAndMapReadTheSame) {
  const std::string rest = small_problem("double");

  const auto shorthand = parse_config("task: solve\n" + rest);
  const auto map = parse_config("task: {type: solve, repeat: 2}\n" + rest);

  EXPECT_EQ(shorthand.task.type, solvers::TaskKind::solve);
  EXPECT_EQ(shorthand.task.repeat, 1);
  EXPECT_EQ(map.task.repeat, 2);
  EXPECT_EQ(solvers::effective_config(parse_config(solvers::effective_config(map))),
            solvers::effective_config(map));
}

TEST(ConfigEnums, EveryTaskHasATableEntry) {
  for (const auto& name : solvers::task_kinds().names()) {
    const auto kind = *solvers::task_kinds().find(name);
    const auto& table = solvers::task_table();
    EXPECT_TRUE(std::any_of(table.begin(), table.end(),
                            [&](const solvers::TaskEntry& e) { return e.kind == kind; }))
        << name;
  }
}

enum class Color { red, green };

struct Paint {
  Color color = Color::green;
};

void paint_fields(config::FieldVisitor& v, Paint& p) {
  static const config::Choices<Color> colors{{Color::red, "red"}, {Color::green, "green"}};
  v.field("color", p.color, colors);
}

TEST(ConfigEnums, EnumFieldReadsWritesAndKeepsItsDefault) {
  Paint absent, red, bad;
  const auto doc = [](const std::string& text) {
    return config::ConfigDocument::from_string(text, "paint.yaml");
  };

  config::read_params(doc("{}").root(), absent, paint_fields);
  config::read_params(doc("color: red").root(), red, paint_fields);

  EXPECT_EQ(absent.color, Color::green);
  EXPECT_EQ(red.color, Color::red);
  EXPECT_EQ(config::emit_flow(config::write_params(red, paint_fields)), "{color: red}");
  test::expect_throw_containing<ConfigError>(
      [&] { config::read_params(doc("color: blue").root(), bad, paint_fields); },
      "paint.yaml:1:8: color: unknown value 'blue'; allowed: [red, green]");
  test::expect_throw_containing<ConfigError>(
      [&] { config::read_params(doc("color: 3").root(), bad, paint_fields); },
      "color: unknown value '3'; allowed: [red, green]");
}

// --- Lazy setup, values-only re-setup, task.repeat ---------------------------------------------

TEST(LazySetup, PreconditionerIsBuiltUnsetAndValuesOnlyResetupFollowsNewValues) {
  auto A = generators::laplace2d<double, solvers::ConfigDevice>(6, 5);
  const solvers::NamedMatrix<double> named{A, "laplace2d"};
  const auto jacobi = solvers::preconditioner_registry().make("jacobi");
  const auto cg = parse_config(small_problem("double")).solver;
  auto op = std::make_shared<const MatrixOperator<solvers::ConfigMatrix<double>>>(A);
  solvers::ConfigVector<double> b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0);

  auto M = solvers::preconditioner_registry().build<double>(jacobi, named);
  auto solver = solvers::solver_registry().build<double>(cg, op, named);

  EXPECT_FALSE(M->is_set_up());
  test::expect_throw_containing<InvalidState>([&] { solver->solve(b, x); },
                                              "CgSolver::solve: called before setup_symbolic");
  solver->setup_symbolic(A);
  test::expect_throw_containing<InvalidState>([&] { solver->solve(b, x); },
                                              "CgSolver::solve: called before setup_numeric");
  solver->setup_numeric(A);
  const auto first = solver->solve(b, x);
  const auto x1 = test::to_std(x);
  // A time step: new values, same pattern (A := 4 A, in place); only the value setup reruns.
  auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values());
  for (std::size_t k = 0; k < values.extent(0); ++k) values(k) *= 4;
  Kokkos::deep_copy(A.values(), values);
  solver->setup_numeric(A);
  Kokkos::deep_copy(x, 0.0);
  const auto second = solver->solve(b, x);

  EXPECT_TRUE(first.converged());
  EXPECT_TRUE(second.converged());
  EXPECT_EQ(first.iterations, second.iterations);  // Jacobi-scaled: the same preconditioned system
  EXPECT_LE(test::reference_relative_residual(A, b, x), 1e-5);
  const auto x2 = test::to_std(x);
  for (std::size_t i = 0; i < x1.size(); ++i) EXPECT_NEAR(x2[i], x1[i] / 4, 1e-5 * std::abs(x1[i]));
}

std::vector<std::string>& recorded_regions() {
  static std::vector<std::string> regions;
  return regions;
}
void record_push(const char* name) {
  if (std::string(name).rfind("kelp::run::", 0) == 0) recorded_regions().push_back(name);
}
void record_pop() {}

TEST(TaskRepeat, RerunsValueSetupAndSolveButNotTheSymbolicSetup) {
  TempDir dir;
  const std::string report = dir.file("report.json");
  const auto single = parse_config(small_problem("double"));
  const auto repeated = parse_config("task: {type: solve, repeat: 3}\n" +
                                     small_problem("double", "", "monitor_every: 0, report: " + report));
  std::ostringstream out, out_single;
  const auto reference = solvers::run(single, out_single);
  recorded_regions().clear();
  Kokkos::Tools::Experimental::set_push_region_callback(record_push);
  Kokkos::Tools::Experimental::set_pop_region_callback(record_pop);

  const auto result = solvers::run(repeated, out);

  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  Kokkos::Tools::Experimental::set_pop_region_callback(nullptr);
  EXPECT_EQ(recorded_regions(),
            (std::vector<std::string>{
                "kelp::run::problem", "kelp::run::setup_symbolic", "kelp::run::setup_numeric",
                "kelp::run::solve", "kelp::run::setup_numeric", "kelp::run::solve",
                "kelp::run::setup_numeric", "kelp::run::solve", "kelp::run::true_residual"}));
  ASSERT_EQ(result.repetitions.size(), 3u);
  for (const auto& r : result.repetitions) {
    EXPECT_TRUE(r.solve.converged());
    EXPECT_EQ(r.solve.iterations, reference.solve.iterations);  // each from the initial guess
  }
  const auto x = test::to_std(result.solution_as<double>().x);
  const auto x_ref = test::to_std(reference.solution_as<double>().x);
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], x_ref[i], 1e-12);
  EXPECT_TRUE(contains(out.str(), "repetition 3 of 3")) << out.str();
  EXPECT_TRUE(contains(out.str(), "(3 repetitions)")) << out.str();
  const auto json = nlohmann::json::parse(test::read_file(report));
  EXPECT_EQ(json["task"], "solve");
  EXPECT_EQ(json["config"]["task"]["repeat"], 3);
  ASSERT_EQ(json["repetitions"].size(), 3u);
  EXPECT_EQ(json["repetitions"][2]["iterations"], reference.solve.iterations);
  double numeric_sum = 0;
  for (const auto& r : json["repetitions"]) numeric_sum += r["setup_numeric_seconds"].get<double>();
  EXPECT_NEAR(json["setup_numeric_seconds"].get<double>(), numeric_sum, 1e-12);
}

// --- output.solution ---------------------------------------------------------------------------

template <class Scalar>
void expect_solution_round_trip(const std::string& scalar, const std::string& field) {
  SCOPED_TRACE(scalar);
  TempDir dir(scalar);
  const std::string path = dir.file("x.mtx");
  std::ostringstream out;

  const auto result =
      solvers::run(parse_config(small_problem(scalar, "", "monitor_every: 0, solution: " + path)),
                   out);

  const auto written = io::read_vector_matrix_market<Scalar, solvers::ConfigDevice>(path);
  const auto x = test::to_std(result.solution_as<Scalar>().x);
  const auto back = test::to_std(written);
  ASSERT_EQ(back.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_TRUE(back[i] == x[i]) << i;  // every digit
  const std::string text = test::read_file(path);
  EXPECT_EQ(text.rfind("%%MatrixMarket matrix array " + field + " general\n", 0), 0u) << text;
  EXPECT_TRUE(contains(out.str(), "solution: " + path)) << out.str();
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"x.mtx"});  // no temporary left
}

TEST(SolutionOutput, RoundTripsExactlyForEveryScalar) {
  expect_solution_round_trip<float>("float", "real");
  expect_solution_round_trip<double>("double", "real");
  expect_solution_round_trip<Kokkos::complex<double>>("complex", "complex");
}

TEST(SolutionOutput, FailedWriteLeavesTheOldFileAndNoTemporary) {
  TempDir dir;
  const std::string path = dir.write("x.mtx", "old solution\n");
  const auto config =
      parse_config(small_problem("double", "", "monitor_every: 0, solution: " + path));
  std::ostringstream out;
  // Writes beyond 256 bytes fail with EFBIG (instead of SIGXFSZ): the new file cannot be
  // completed after the path check has passed.
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 256;
  ::setrlimit(RLIMIT_FSIZE, &small);

  bool threw = false;
  try {
    solvers::run(config, out);
  } catch (const FileError& e) {
    threw = true;
    EXPECT_TRUE(contains(e.what(), path)) << e.what();
  }

  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(threw);
  EXPECT_EQ(test::read_file(path), "old solution\n");
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"x.mtx"});
}

// A solve that ends on inf (CG on the 1 x 1 matrix 1e-310: alpha overflows) leaves the old
// solution file alone and says why: Matrix Market files hold finite numbers only. The run's own
// outcome (non_finite, exit 3) stands.
TEST(SolutionOutput, NonFiniteSolutionIsNotWrittenAndSaysWhy) {
  TempDir dir;
  const std::string matrix = dir.write("tiny.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1e-310\n");
  const std::string path = dir.write("x.mtx", "old solution\n");
  std::ostringstream out;

  const auto result = solvers::run(
      parse_config("problem: {matrix: {file: " + matrix + "}, rhs: {type: ones}}\n"
                   "solver: {type: cg, preconditioner: {type: identity}}\n"
                   "output: {monitor_every: 0, solution: " + path + "}\n"),
      out);

  EXPECT_EQ(result.solve.reason, solvers::StopReason::non_finite) << out.str();
  EXPECT_EQ(result.exit_code, solvers::ExitCode::not_converged);
  EXPECT_TRUE(contains(out.str(), "warning: solution not written to " + path + ": entry 0 is inf")) << out.str();
  EXPECT_EQ(test::read_file(path), "old solution\n");
}

TEST(SolutionOutput, UnwritablePathFailsBeforeAnythingIsBuilt) {
  TempDir dir;
  const std::string path = dir.file("missing_folder/x.mtx");
  const auto config = parse_config(small_problem("double", "", "solution: " + path));
  std::ostringstream out;

  test::expect_throw_containing<FileError>(
      [&] { solvers::run(config, out); },
      "kelp::solvers::run: output.solution: cannot write '" + path + "'");
  EXPECT_FALSE(contains(out.str(), "problem:")) << out.str();
}

// --- Right-hand side and initial guess from files -----------------------------------------------

TEST(InputFiles, GoodInitialGuessConvergesInFewerIterations) {
  TempDir dir;
  const std::string rough = dir.file("rough.mtx");
  const std::string base =
      "problem:\n"
      "  generator: {type: laplace2d, nx: 20, ny: 20}\n"
      "  rhs: {type: random, seed: 5}\n"
      "INITIAL"
      "solver: {type: cg, relative_tolerance: TOL, preconditioner: jacobi}\n"
      "output: {monitor_every: 0, solution: SOLUTION}\n";
  const auto config = [&](const std::string& initial, const std::string& tol,
                          const std::string& solution) {
    std::string t = base;
    t.replace(t.find("INITIAL"), 7, initial);
    t.replace(t.find("TOL"), 3, tol);
    t.replace(t.find("SOLUTION"), 8, solution);
    return parse_config(t, dir.path().string());
  };
  std::ostringstream out;
  solvers::run(config("", "1.0e-3", rough), out);

  const auto from_zero = solvers::run(config("", "1.0e-10", "\"\""), out);
  const auto from_file = solvers::run(
      config("  initial_guess: {type: file, file: rough.mtx}\n", "1.0e-10", "\"\""), out);

  EXPECT_TRUE(from_zero.solve.converged());
  EXPECT_TRUE(from_file.solve.converged());
  EXPECT_LT(from_file.solve.iterations, from_zero.solve.iterations);
  const auto& s = from_file.solution_as<double>();
  EXPECT_LE(test::reference_relative_residual(s.problem.A, s.problem.b, s.x), 1e-10);
  EXPECT_EQ(from_file.problem.initial_guess, "file {file: " + rough + "}");
  // The guess was used as given: its residual is the solver's initial residual.
  const auto guess = io::read_vector_matrix_market<double, solvers::ConfigDevice>(rough);
  EXPECT_NEAR(from_file.solve.initial_residual_norm,
              test::reference_relative_residual(s.problem.A, s.problem.b, guess) *
                  from_file.solve.rhs_norm,
              1e-8 * from_file.solve.rhs_norm);
}

TEST(InputFiles, WrongLengthInitialGuessNamesTheFile) {
  TempDir dir;
  const std::string x0 = dir.write("x0.mtx",
                                   "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n");
  const auto config =
      parse_config(small_problem("double", "  initial_guess: {type: file, file: x0.mtx}\n"),
                   dir.path().string());
  std::ostringstream out;

  test::expect_throw_containing<DimensionMismatch>(
      [&] { solvers::run(config, out); },
      "problem.initial_guess: dimension mismatch: " + x0 + " has 3 rows, the matrix has 63");
}

TEST(InputFiles, RhsAndInitialGuessFilesWorkForEveryScalar) {
  TempDir dir;
  // b = (1, ..., 1) (real file) and x0 = its solution from a double run, complex-typed.
  std::string b = "%%MatrixMarket matrix array real general\n63 1\n";
  for (int i = 0; i < 63; ++i) b += "1\n";
  dir.write("b.mtx", b);
  std::ostringstream out;
  const auto exact = solvers::run(
      parse_config(small_problem("complex", "", "monitor_every: 0, solution: " + dir.file("x0.mtx"))),
      out);
  const std::string files = "  initial_guess: {type: file, file: x0.mtx}\n";
  const auto text = [&](const std::string& scalar) {
    std::string t = small_problem(scalar, files);
    t.replace(t.find("{type: random, seed: 2}"), 23, "{type: file, file: b.mtx}");
    return t;
  };

  const auto complex_run = solvers::run(parse_config(text("complex"), dir.path().string()), out);
  std::string real_guess = text("complex");
  real_guess.replace(real_guess.find("x0.mtx"), 6, "b.mtx");  // a real file, complex scalar
  const auto real_guess_run = solvers::run(parse_config(real_guess, dir.path().string()), out);
  const auto& c = complex_run.solution_as<Kokkos::complex<double>>();

  EXPECT_TRUE(exact.solve.converged());
  EXPECT_TRUE(complex_run.solve.converged());
  EXPECT_EQ(test::to_std(c.problem.b)[5], Kokkos::complex<double>(1, 0));
  EXPECT_LE(test::reference_relative_residual(c.problem.A, c.problem.b, c.x), 1e-5);
  EXPECT_TRUE(real_guess_run.solve.converged());
  // A complex file (x0.mtx) cannot be read with a real scalar.
  for (const char* real : {"float", "double"}) {
    test::expect_throw_containing<InvalidArgument>(
        [&] { solvers::run(parse_config(text(real), dir.path().string()), out); },
        "problem.initial_guess: " + dir.file("x0.mtx") +
            " holds complex values, but problem.scalar is " + real);
  }
  for (const char* real : {"float", "double"}) {
    std::string t = text(real);
    t.replace(t.find(files), files.size(), "");
    const auto run = solvers::run(parse_config(t, dir.path().string()), out);
    EXPECT_TRUE(run.solve.converged()) << real;
    EXPECT_EQ(run.problem.rhs, "file {file: " + dir.file("b.mtx") + "}");
  }
}

}  // namespace
}  // namespace kelp::run_driver_test
