// Strict YAML configuration: every kind of bad input names the file, line:column, the dotted path
// and the allowed keys or choices; overrides are validated like the file; the effective
// configuration (all defaults filled in) reads back to itself.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kelp/apps/driver/registry/components/cg.hpp"
#include "kelp/apps/driver/registry/components/generators.hpp"
#include "kelp/apps/driver/registry/components/jacobi.hpp"
#include "kelp/apps/driver/registry/components/block_jacobi.hpp"
#include "kelp/apps/driver/registry/components/vectors.hpp"
#include "kelp/apps/driver/run/run.hpp"
#include "test/apps/config_text.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "test/support/temp_dir.hpp"
#include "test/support/expect.hpp"

namespace kelp::config_test {
namespace {

namespace fs = std::filesystem;
using config::ConfigDocument;
using solvers::RunConfig;

using test::TempDir;

/// A small valid configuration; line numbers are used by the tests below.
const char* const valid_config =
    "problem:\n"                                                   // 1
    "  generator: {type: laplace3d, nx: 4, ny: 4, nz: 4}\n"        // 2
    "  rhs: {type: ones}\n"                                        // 3
    "solver:\n"                                                    // 4
    "  type: cg\n"                                                 // 5
    "  max_iterations: 100\n"                                      // 6
    "  preconditioner:\n"                                          // 7
    "    type: jacobi\n"                                           // 8
    "    damping: 1.0\n"                                           // 9
    "output:\n"                                                    // 10
    "  monitor_every: 0\n";                                        // 11

RunConfig parse_file(const std::string& path, const std::vector<std::string>& overrides = {}) {
  return solvers::load_run_config(path, overrides);
}

using test::parse_config;

/// Expects a ConfigError from parsing `text` (written to cfg.yaml) whose message contains
/// "<path of cfg.yaml>" + `where_and_what`.
void expect_config_error(const std::string& text, const std::string& where_and_what,
                         const std::vector<std::string>& overrides = {}) {
  TempDir dir;
  const std::string path = dir.write("cfg.yaml", text);
  test::expect_throw_containing<ConfigError>([&] { parse_file(path, overrides); },
                                             path + where_and_what);
}

using test::replace;

// --- Unknown keys at every depth -------------------------------------------------------------

TEST(Config, UnknownTopLevelKeyNamesLineAndAllowedKeys) {
  expect_config_error(std::string(valid_config) + "solvr: {}\n",
                      ":12:1: unknown key 'solvr'; allowed: [task, problem, solver, eigen, dos, output, distribution]");
}

TEST(Config, UnknownSolverKeyNamesPathAndAllowedKeys) {
  expect_config_error(replace(valid_config, "  max_iterations: 100", "  max_iteration: 100"),
                      ":6:3: solver: unknown key 'max_iteration'; allowed: [type, "
                      "max_iterations, relative_tolerance, absolute_tolerance, variant, preconditioner]");
}

TEST(Config, UnknownPreconditionerKeyNamesPathAndAllowedKeys) {
  expect_config_error(replace(valid_config, "    damping: 1.0", "    dampin: 1.0"),
                      ":9:5: solver.preconditioner: unknown key 'dampin'; allowed: [type, damping]");
}

TEST(Config, UnknownGeneratorKeyInFlowMapNamesColumn) {
  expect_config_error(replace(valid_config, "nz: 4}", "nz: 4, nw: 4}"),
                      ":2:53: problem.generator: unknown key 'nw'; allowed: [type, nx, ny, nz]");
}

TEST(Config, UnknownProblemAndOutputKeys) {
  expect_config_error(replace(valid_config, "  rhs:", "  rhs_: {type: ones}\n  rhs:"),
                      ":3:3: problem: unknown key 'rhs_'; allowed: [scalar, generator, matrix, rhs, initial_guess]");
  expect_config_error(replace(valid_config, "  monitor_every: 0", "  monitor: 0"),
                      ":11:3: output: unknown key 'monitor'; allowed: [monitor_every, "
                      "print_config, fail_on_no_convergence, report, solution]");
}

TEST(Config, UnknownKeyOfParameterlessTypeListsOnlyType) {
  expect_config_error(replace(valid_config, "  rhs: {type: ones}", "  rhs: {type: ones, seed: 3}"),
                      ":3:21: problem.rhs: unknown key 'seed'; allowed: [type]");
}

TEST(Config, DuplicateKeyIsAnError) {
  expect_config_error(replace(valid_config, "  max_iterations: 100", "  max_iterations: 100\n  max_iterations: 5"),
                      ":7:3: solver: duplicate key 'max_iterations'");
}

// --- Bad type choices ------------------------------------------------------------------------

TEST(Config, UnknownPreconditionerTypeListsChoices) {
  expect_config_error(replace(valid_config, "type: jacobi", "type: jacobbi"),
                      ":8:11: solver.preconditioner.type: unknown preconditioner type 'jacobbi'; "
                      "allowed: [identity, jacobi, block_jacobi, chebyshev, solver, gauss_seidel, additive_schwarz]");
}

TEST(Config, UnknownSolverAndGeneratorTypesListChoices) {
  expect_config_error(replace(valid_config, "type: cg", "type: minres"),
                      ":5:9: solver.type: unknown solver type 'minres'; allowed: [cg, gmres, "
                      "fgmres, bicgstab]");
  expect_config_error(replace(valid_config, "type: laplace3d,", "type: laplace4d,"),
                      ":2:21: problem.generator.type: unknown generator type 'laplace4d'; "
                      "allowed: [laplace1d, laplace2d, laplace2d_9pt, laplace3d, laplace3d_27pt, "
                      "anisotropic2d, convection_diffusion, topological_insulator, tight_binding]");
  expect_config_error(replace(valid_config, "{type: ones}", "wrong"),
                      ":3:8: problem.rhs: unknown rhs type 'wrong'; allowed: [ones, random, "
                      "file, A_times_ones]");
}

// --- Wrongly typed values --------------------------------------------------------------------

TEST(Config, StringForIntegerIsAnError) {
  expect_config_error(replace(valid_config, "max_iterations: 100", "max_iterations: abc"),
                      ":6:19: solver.max_iterations: expected an integer, got 'abc'");
}

TEST(Config, FractionForIntegerIsAnError) {
  expect_config_error(replace(valid_config, "max_iterations: 100", "max_iterations: 1.5"),
                      ":6:19: solver.max_iterations: expected an integer, got '1.5'");
}

TEST(Config, QuotedNumberIsAString) {
  expect_config_error(replace(valid_config, "nx: 4,", "nx: \"4\","),
                      ":2:36: problem.generator.nx: expected an integer, got the quoted string "
                      "\"4\"");
}

TEST(Config, NegativeValueWhereNotAllowed) {
  expect_config_error(replace(valid_config, "max_iterations: 100", "max_iterations: -5"),
                      ":6:19: solver.max_iterations: -5 is out of range; expected "
                      "max_iterations >= 0");
  expect_config_error(replace(valid_config, "nx: 4,", "nx: 0,"),
                      ":2:36: problem.generator.nx: 0 is out of range; expected nx >= 1");
}

TEST(Config, DoubleOutOfRangeNamesBounds) {
  expect_config_error(replace(valid_config, "damping: 1.0", "damping: 3"),
                      ":9:14: solver.preconditioner.damping: 3.0 is out of range; expected "
                      "damping > 0.0 and damping <= 2.0");
  // A relative tolerance of 1 or more is met by x = 0 before any iteration.
  expect_config_error(replace(valid_config, "max_iterations: 100", "relative_tolerance: 2"),
                      ":6:23: solver.relative_tolerance: 2.0 is out of range; expected "
                      "relative_tolerance >= 0.0 and relative_tolerance < 1.0");
  expect_config_error("task: eigen\nproblem: {generator: {type: laplace1d, nx: 30}}\neigen: {relative_tolerance: 1}\n",
                      ":3:29: eigen.relative_tolerance: 1.0 is out of range");
}

// divergence_tolerance: 0 switches the check off, otherwise it must be >= 1 (the stopping rules'
// own check; 0.5 passed the YAML and failed later without a location).
TEST(Config, DivergenceToleranceIsZeroOrAtLeastOne) {
  const std::string gmres = replace(valid_config, "type: cg", "type: gmres");
  expect_config_error(replace(gmres, "max_iterations: 100", "divergence_tolerance: 0.5"),
                      ":6:25: solver.divergence_tolerance: 0.5 is out of range; expected "
                      "divergence_tolerance = 0 (off) or divergence_tolerance >= 1.0");
  EXPECT_NO_THROW(parse_config(replace(gmres, "max_iterations: 100", "divergence_tolerance: 0")));
  EXPECT_NO_THROW(parse_config(replace(gmres, "max_iterations: 100", "divergence_tolerance: 1.0e5")));
}

// Rules across keys (FieldVisitor::require) fail at the key with its line and column, or at the
// section when the key was left out.
TEST(Config, CrossKeyRulesNameTheKeyOrItsSection) {
  const std::string chebyshev = replace(valid_config, "    type: jacobi\n    damping: 1.0\n",
                                        "    type: chebyshev\n    lambda_max: 2.0\n    lambda_min: 3.0\n");
  expect_config_error(chebyshev, ":10:17: solver.preconditioner.lambda_min: lambda_min = 3.0 >= lambda_max = 2.0; "
                                 "expected lambda_min < lambda_max (or lambda_max: 0 to estimate it)");
  EXPECT_NO_THROW(parse_config(replace(chebyshev, "lambda_min: 3.0", "lambda_min: 1.0")));
  EXPECT_NO_THROW(parse_config(replace(chebyshev, "lambda_max: 2.0", "lambda_max: 0.0")));
  const std::string eigen = "task: eigen\nproblem: {generator: {type: laplace1d, nx: 30}}\n";
  expect_config_error(eigen + "eigen: {absolute_tolerance: 0, relative_tolerance: 0}\n",
                      ":3:52: eigen.relative_tolerance: relative_tolerance and absolute_tolerance are both 0");
  // relative_tolerance left out (its default is > 0): only absolute_tolerance 0 is fine.
  EXPECT_NO_THROW(parse_config(eigen + "eigen: {absolute_tolerance: 0}\n"));
}

// fused: eisenstat is read by solver cg (variant standard) only: elsewhere it is refused at the
// preconditioner's location instead of being ignored.
TEST(Config, EisenstatFusionOutsideStandardCgIsRefused) {
  const std::string fused = replace(valid_config, "    type: jacobi\n    damping: 1.0\n",
                                    "    type: gauss_seidel\n    fused: eisenstat\n");
  EXPECT_NO_THROW(parse_config(fused));
  const std::string expected = "gauss_seidel with fused: eisenstat is read by solver cg only";
  for (const char* solver : {"gmres", "fgmres", "bicgstab"}) {
    expect_config_error(replace(fused, "type: cg", std::string("type: ") + solver),
                        ":8:5: solver.preconditioner: " + expected);
  }
  expect_config_error(replace(fused, "max_iterations: 100", "variant: flexible"),
                      ":6:12: solver.variant: variant flexible with preconditioner gauss_seidel fused: "
                      "eisenstat; expected variant standard");
  expect_config_error("task: eigen\nproblem: {generator: {type: laplace1d, nx: 30}}\n"
                      "eigen: {preconditioner: {type: gauss_seidel, fused: eisenstat}}\n",
                      ":3:25: eigen.preconditioner: " + expected);
  // Only the symmetric multicolor one-sweep form splits into Eisenstat's two halves.
  expect_config_error(replace(fused, "fused: eisenstat\n", "fused: eisenstat\n    variant: cluster\n"),
                      ":10:14: solver.preconditioner.variant: fused: eisenstat needs variant multicolor; "
                      "got cluster");
  expect_config_error(replace(fused, "fused: eisenstat\n", "fused: eisenstat\n    sweeps: 2\n"),
                      ":10:13: solver.preconditioner.sweeps: fused: eisenstat needs sweeps: 1; got 2");
}

// A one-sided Gauss-Seidel sweep is not symmetric: cg refuses it at the preconditioner's
// location (its residual grew 23-fold on bcsstk14), flexible cg and the other solvers take it.
TEST(Config, OneSidedGaussSeidelUnderCgIsRefused) {
  for (const char* direction : {"forward", "backward"}) {
    const std::string one_sided = replace(valid_config, "    type: jacobi\n    damping: 1.0\n",
                                          std::string("    type: gauss_seidel\n    direction: ") + direction + "\n");
    expect_config_error(one_sided, ":8:5: solver.preconditioner: gauss_seidel with a one-sided direction "
                                   "(forward or backward) is not a symmetric preconditioner, which cg needs");
    EXPECT_NO_THROW(parse_config(replace(one_sided, "max_iterations: 100", "variant: flexible")));
    for (const char* solver : {"gmres", "fgmres", "bicgstab"}) {
      EXPECT_NO_THROW(parse_config(replace(one_sided, "type: cg", std::string("type: ") + solver))) << solver;
    }
    // The same sweep as additive_schwarz's local preconditioner (it slipped past the rule).
    const std::string wrapped =
        replace(valid_config, "    type: jacobi\n    damping: 1.0\n",
                std::string("    type: additive_schwarz\n    local: {type: gauss_seidel, direction: ") + direction + "}\n");
    expect_config_error(wrapped, ":8:5: solver.preconditioner: gauss_seidel with a one-sided direction");
  }
  EXPECT_NO_THROW(parse_config(replace(valid_config, "    type: jacobi\n    damping: 1.0\n",
                                       "    type: gauss_seidel\n    direction: symmetric\n")));
}

// Task dos runs once and writes no solution: keys only task solve reads are refused where they
// stand (they were accepted and ignored).
TEST(Config, DosRefusesKeysOnlyTaskSolveReads) {
  const std::string dos = "task: dos\nproblem: {generator: {type: laplace1d, nx: 20}}\ndos: {num_moments: 8}\n";
  const auto refused = [](const std::string& text, const std::string& message) {
    test::expect_throw_containing<ConfigError>([&] { parse_config(text); }, message);
  };
  EXPECT_NO_THROW(parse_config(dos));
  refused(dos + "output: {solution: x.mtx}\n",
          "output.solution: task dos writes no solution; its results go to dos.csv and output.report");
  refused(dos + "solver: cg\n", "solver: task dos does not read the solver section");
  refused(replace(dos, "task: dos", "task: {type: dos, repeat: 2}"),
          "task.repeat: task dos runs once; repeat is read by task solve only");
  refused(replace(dos, "nx: 20}}", "nx: 20}, initial_guess: zero}"),
          "problem.initial_guess: task dos does not use a right-hand side or an initial guess");
  const std::string printed = solvers::effective_config(parse_config(dos));
  EXPECT_EQ(printed.find("rhs:"), std::string::npos) << printed;
  EXPECT_EQ(solvers::effective_config(parse_config(printed)), printed);
}

TEST(Config, NonNumberForDoubleIsAnError) {
  expect_config_error(replace(valid_config, "damping: 1.0", "damping: .inf"),
                      ":9:14: solver.preconditioner.damping: expected a finite number, got '.inf'");
}

TEST(Config, BadBooleanAndListValues) {
  expect_config_error(replace(valid_config, "monitor_every: 0", "print_config: yes"),
                      ":11:17: output.print_config: expected true or false, got 'yes'");
  expect_config_error(replace(valid_config, "monitor_every: 0", "monitor_every: [1, 2]"),
                      ":11:18: output.monitor_every: expected an integer, got a list");
  expect_config_error(replace(valid_config, "monitor_every: 0", "monitor_every:"),
                      ":11:3: output.monitor_every: expected an integer, got an empty value");
}

TEST(Config, SectionThatIsNotAMapIsAnError) {
  expect_config_error(replace(valid_config, "output:\n  monitor_every: 0\n", "output: 5\n"),
                      ":10:9: output: expected a map with keys [monitor_every, print_config, "
                      "fail_on_no_convergence, report, solution], got '5'");
  expect_config_error("- 1\n- 2\n", ":1:1: expected a map with keys [task, problem, solver, eigen, dos, output, distribution]");
}

// --- Missing required values ---------------------------------------------------------------------

TEST(Config, MissingGeneratorSizeListsAllowedKeys) {
  expect_config_error(replace(valid_config, ", nz: 4}", "}"),
                      ":2:14: problem.generator: missing required key 'nz'; allowed: [type, nx, "
                      "ny, nz]");
}

TEST(Config, MissingSectionAndTypeAreErrors) {
  expect_config_error("problem:\n  generator: {type: laplace1d, nx: 4}\n",
                      ":1:1: missing required key 'solver'; allowed: [task, problem, solver, eigen, dos, output, distribution]");
  expect_config_error(replace(valid_config, "  type: cg\n", ""),
                      ":5:3: solver: missing required key 'type'; allowed: [cg, gmres, fgmres, bicgstab]");
}

TEST(Config, ShorthandOfTypeWithRequiredKeysIsAnError) {
  expect_config_error(replace(valid_config, "{type: laplace3d, nx: 4, ny: 4, nz: 4}", "laplace3d"),
                      ":2:14: problem.generator: generator type 'laplace3d' needs the keys [nx, "
                      "ny, nz]");
}

TEST(Config, MissingMatrixFileIsAnError) {
  expect_config_error(
      replace(valid_config, "generator: {type: laplace3d, nx: 4, ny: 4, nz: 4}", "matrix: {}"),
      ":2:11: problem.matrix: missing required key 'file'; allowed: [file]");
}

TEST(Config, GeneratorAndMatrixAreExclusive) {
  expect_config_error(replace(valid_config, "  rhs:", "  matrix: {file: a.mtx}\n  rhs:"),
                      ":2:14: problem.generator: 'generator' and 'matrix' are exclusive; give "
                      "exactly one");
  expect_config_error(
      replace(valid_config, "  generator: {type: laplace3d, nx: 4, ny: 4, nz: 4}\n", ""),
      ":2:3: problem: missing 'generator' or 'matrix'; give exactly one");
}

// --- Syntax errors and files -----------------------------------------------------------------------

TEST(Config, MalformedYamlNamesLineAndColumn) {
  expect_config_error(replace(valid_config, "nz: 4}", "nz: 4"),
                      ":3:6: YAML syntax error: end of map flow not found");
}

TEST(Config, SecondDocumentIsAnError) {
  expect_config_error(std::string(valid_config) + "---\nsolver: {type: cg, max_iterations: 5}\n",
                      ":12:1: a second YAML document starts here ('---'); a configuration file "
                      "holds a single YAML document");
  // An empty second document too: the file was probably meant to say something there.
  expect_config_error(std::string(valid_config) + "--- # more\n",
                      ":12:1: a second YAML document starts here ('---')");
  expect_config_error("---\n" + std::string(valid_config) + "---\n",
                      ":13:1: a second YAML document starts here ('---')");
}

TEST(Config, ContentAfterDocumentEndIsAnError) {
  expect_config_error(std::string(valid_config) + "...\n# the rest\n\nsolver: {type: cg}\n",
                      ":15:1: content after the document end marker '...' (line 12); a "
                      "configuration file holds a single YAML document");
  expect_config_error(std::string(valid_config) + "...\n  stray text\n",
                      ":13:3: content after the document end marker '...' (line 12)");
}

TEST(Config, DocumentMarkersAroundOneDocumentAreFine) {
  TempDir dir;
  const std::string path = dir.write(
      "cfg.yaml", "%YAML 1.2\n---\n" + std::string(valid_config) + "...\n# trailing comment\n\n");

  const RunConfig config = parse_file(path);

  EXPECT_EQ(config.solver.params<solvers::components::CgConfig>().params.max_iterations, 100);
}

TEST(Config, TabIndentationSaysTabsAreNotAllowed) {
  // yaml-cpp says "illegal map value" here; the message names the tab's line and column.
  expect_config_error(replace(valid_config, "    damping: 1.0", "\tdamping: 1.0"),
                      ":9:1: YAML syntax error: tab character in the indentation; YAML does not "
                      "allow tabs for indentation, indent with spaces (yaml-cpp says: ");
  expect_config_error(replace(valid_config, "  max_iterations: 100", "  \tmax_iterations: 100"),
                      ":6:3: YAML syntax error: tab character in the indentation");
  expect_config_error("problem:\n\tgenerator: {type: laplace1d, nx: 4}\n",
                      ":2:1: YAML syntax error: tab character in the indentation");
}

TEST(Config, MissingFileIsAFileError) {
  TempDir dir;
  const std::string path = (dir.path() / "nowhere.yaml").string();

  test::expect_throw_containing<FileError>([&] { parse_file(path); },
                                           "cannot open configuration file '" + path + "'");
}

TEST(Config, EmptyFileIsAnError) {
  expect_config_error("", ": expected a map with keys [task, problem, solver, eigen, dos, output, distribution]");
}

// --- Overrides -----------------------------------------------------------------------------------

TEST(ConfigOverride, SetsValuesAtAnyDepth) {
  TempDir dir;
  const std::string path = dir.write("cfg.yaml", valid_config);

  const RunConfig config = parse_file(
      path, {"solver.max_iterations=7", "solver.preconditioner.damping=0.5",
             "problem.generator.nx=9", "output.report=out.json", "problem.rhs={type: random, seed: 4}"});

  const auto& cg = config.solver.params<solvers::components::CgConfig>();
  EXPECT_EQ(cg.params.max_iterations, 7);
  EXPECT_EQ(cg.preconditioner.params<precond::JacobiParams>().damping, 0.5);
  EXPECT_EQ(config.problem.generator.params<solvers::components::Laplace3dParams>().nx, 9);
  EXPECT_EQ(config.output.report, "out.json");
  EXPECT_EQ(config.problem.rhs.type(), "random");
  EXPECT_EQ(config.problem.rhs.params<solvers::components::RandomRhsParams>().seed, 4);
}

TEST(ConfigOverride, ReplacesWholeComponentAndNullRestoresDefault) {
  TempDir dir;
  const std::string path = dir.write("cfg.yaml", valid_config);

  const RunConfig identity = parse_file(path, {"solver.preconditioner=identity"});
  const RunConfig defaults = parse_file(path, {"solver.preconditioner=~", "solver.max_iterations=~"});

  EXPECT_EQ(identity.solver.params<solvers::components::CgConfig>().preconditioner.type(), "identity");
  const auto& cg = defaults.solver.params<solvers::components::CgConfig>();
  EXPECT_EQ(cg.preconditioner.type(), "identity");
  EXPECT_EQ(cg.params.max_iterations, solvers::CgParams{}.max_iterations);
}

TEST(ConfigOverride, CreatesMissingSections) {
  TempDir dir;
  const std::string path =
      dir.write("cfg.yaml", replace(valid_config, "output:\n  monitor_every: 0\n", ""));

  const RunConfig config = parse_file(path, {"output.monitor_every=3"});

  EXPECT_EQ(config.output.monitor_every, 3);
}

TEST(ConfigOverride, UnknownKeyNamesTheOverride) {
  TempDir dir;
  const std::string path = dir.write("cfg.yaml", valid_config);
  test::expect_throw_containing<ConfigError>(
      [&] { parse_file(path, {"solver.preconditioner.dampin=0.5"}); },
      "--set solver.preconditioner.dampin=0.5: solver.preconditioner: unknown key 'dampin'; "
      "allowed: [type, damping]");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_file(path, {"solvers.type=cg"}); },
      "--set solvers.type=cg: unknown key 'solvers'; allowed: [task, problem, solver, eigen, dos, output, distribution]");
}

TEST(ConfigOverride, BadValueNamesTheOverride) {
  TempDir dir;
  const std::string path = dir.write("cfg.yaml", valid_config);

  test::expect_throw_containing<ConfigError>(
      [&] { parse_file(path, {"solver.max_iterations=abc"}); },
      "--set solver.max_iterations=abc: solver.max_iterations: expected an integer, got 'abc'");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_file(path, {"solver.preconditioner.type=ilu"}); },
      "--set solver.preconditioner.type=ilu: solver.preconditioner.type: unknown preconditioner "
      "type 'ilu'; allowed: [identity, jacobi, block_jacobi, chebyshev, solver, gauss_seidel, additive_schwarz]");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_file(path, {"solver.max_iterations=[1"}); },
      "--set solver.max_iterations=[1: YAML syntax error in the value");
}

TEST(ConfigOverride, BadPathsAreErrors) {
  TempDir dir;
  const std::string path = dir.write("cfg.yaml", valid_config);

  test::expect_throw_containing<ConfigError>(
      [&] { parse_file(path, {"solver.max_iterations"}); },
      "--set solver.max_iterations: expected dotted.path=value");
  test::expect_throw_containing<ConfigError>([&] { parse_file(path, {"solver..type=cg"}); },
                                             "--set solver..type=cg: bad path 'solver..type'");
  test::expect_throw_containing<ConfigError>([&] { parse_file(path, {"=3"}); },
                                             "--set =3: bad path ''");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_file(path, {"solver.max_iterations.value=3"}); },
      "--set solver.max_iterations.value=3: cannot set 'solver.max_iterations.value': "
      "'solver.max_iterations' holds '100', not a map");
}

// --- Effective configuration ---------------------------------------------------------------------

TEST(EffectiveConfig, FillsInEveryDefault) {
  const RunConfig config = parse_config(
      "problem: {generator: {type: laplace1d, nx: 5}}\n"
      "solver: cg\n");

  const std::string text = solvers::effective_config(config);

  EXPECT_EQ(text,
            "task:\n  type: solve\n  repeat: 1\n"
            "problem:\n"
            "  scalar: double\n"
            "  generator: {type: laplace1d, nx: 5}\n"
            "  rhs: {type: ones}\n"
            "  initial_guess: {type: zero}\n"
            "solver:\n"
            "  type: cg\n"
            "  max_iterations: 1000\n"
            "  relative_tolerance: 1.0e-08\n"
            "  absolute_tolerance: 0.0\n"
            "  variant: standard\n"
            "  preconditioner: {type: identity}\n"
            "output:\n"
            "  monitor_every: 10\n"
            "  print_config: false\n"
            "  fail_on_no_convergence: true\n"
            "  report: \"\"\n"
            "  solution: \"\"\n");
}

TEST(EffectiveConfig, RoundTripsThroughTheParser) {
  const RunConfig config = parse_config(
      "problem:\n"
      "  generator: {type: anisotropic2d, nx: 5, ny: 6, epsilon: 0.01, theta: -0.3}\n"
      "  rhs: {type: random, seed: 17}\n"
      "solver: {type: cg, relative_tolerance: 1.0e-10, preconditioner: {type: jacobi, damping: 0.7}}\n"
      "output: {report: \"my report: #1.json\", print_config: true}\n");
  // Written by hand: the given values, every default filled in, the report name quoted.
  const std::string expected =
      "task:\n  type: solve\n  repeat: 1\n"
      "problem:\n"
      "  scalar: double\n"
      "  generator: {type: anisotropic2d, nx: 5, ny: 6, epsilon: 0.01, theta: -0.3}\n"
      "  rhs: {type: random, seed: 17}\n"
      "  initial_guess: {type: zero}\n"
      "solver:\n"
      "  type: cg\n"
      "  max_iterations: 1000\n"
      "  relative_tolerance: 1.0e-10\n"
      "  absolute_tolerance: 0.0\n"
      "  variant: standard\n"
      "  preconditioner: {type: jacobi, damping: 0.7}\n"
      "output:\n"
      "  monitor_every: 10\n"
      "  print_config: true\n"
      "  fail_on_no_convergence: true\n"
      "  report: \"my report: #1.json\"\n"
      "  solution: \"\"\n";

  const std::string printed = solvers::effective_config(config);
  const RunConfig reparsed = parse_config(printed);

  EXPECT_EQ(printed, expected);
  EXPECT_EQ(solvers::effective_config(reparsed), expected);
  // The values read back, field by field (defaults included), against literals.
  const auto& aniso = reparsed.problem.generator.params<solvers::components::Anisotropic2dParams>();
  EXPECT_EQ(reparsed.problem.generator.type(), "anisotropic2d");
  EXPECT_EQ(aniso.nx, 5);
  EXPECT_EQ(aniso.ny, 6);
  EXPECT_EQ(aniso.epsilon, 0.01);
  EXPECT_EQ(aniso.theta, -0.3);
  EXPECT_EQ(reparsed.problem.rhs.params<solvers::components::RandomRhsParams>().seed, 17);
  const auto& cg = reparsed.solver.params<solvers::components::CgConfig>();
  EXPECT_EQ(cg.params.max_iterations, 1000);
  EXPECT_EQ(cg.params.relative_tolerance, 1e-10);
  EXPECT_EQ(cg.params.absolute_tolerance, 0.0);
  EXPECT_EQ(cg.preconditioner.type(), "jacobi");
  EXPECT_EQ(cg.preconditioner.params<precond::JacobiParams>().damping, 0.7);
  EXPECT_EQ(reparsed.output.monitor_every, 10);
  EXPECT_TRUE(reparsed.output.print_config);
  EXPECT_TRUE(reparsed.output.fail_on_no_convergence);
  EXPECT_EQ(reparsed.output.report, "my report: #1.json");
}

TEST(EffectiveConfig, PrintsTheMatrixFileAndRhsFileAsAbsolutePaths) {
  TempDir dir;
  const std::string path = dir.write(
      "cfg.yaml", "problem:\n"
                  "  matrix: {file: A.mtx}\n"
                  "  rhs: {type: file, file: b.mtx}\n"
                  "solver: {type: cg, max_iterations: 5, preconditioner: identity}\n"
                  "output: {monitor_every: 0}\n");
  const std::string folder = dir.path().string();

  const std::string printed = solvers::effective_config(parse_file(path));

  EXPECT_EQ(printed, "task:\n  type: solve\n  repeat: 1\n"
                     "problem:\n"
                     "  scalar: double\n"
                     "  matrix: {file: " + folder + "/A.mtx}\n"
                     "  rhs: {type: file, file: " + folder + "/b.mtx}\n"
                     "  initial_guess: {type: zero}\n"
                     "solver:\n"
                     "  type: cg\n"
                     "  max_iterations: 5\n"
                     "  relative_tolerance: 1.0e-08\n"
                     "  absolute_tolerance: 0.0\n"
                     "  variant: standard\n"
                     "  preconditioner: {type: identity}\n"
                     "output:\n"
                     "  monitor_every: 0\n"
                     "  print_config: false\n"
                     "  fail_on_no_convergence: true\n"
                     "  report: \"\"\n"
                     "  solution: \"\"\n");
  const RunConfig reparsed = parse_config(printed);
  EXPECT_EQ(reparsed.problem.matrix.file, folder + "/A.mtx");
  EXPECT_EQ(reparsed.problem.rhs.params<solvers::components::FileVectorParams>().file, folder + "/b.mtx");
  EXPECT_EQ(reparsed.output.report, "");
}

TEST(EffectiveConfig, RelativeFilesResolveAgainstTheConfigFolder) {
  TempDir dir;
  fs::create_directories(dir.path() / "sub");
  const std::string path = dir.write(
      "sub/cfg.yaml", replace(replace(valid_config, "generator: {type: laplace3d, nx: 4, ny: 4, nz: 4}",
                                      "matrix: {file: ../data/A.mtx}"),  // path-check: ignore (scratch folder)
                              "{type: ones}", "{type: file, file: b.mtx}"));

  const RunConfig config = parse_file(path);
  const RunConfig overridden = parse_file(path, {"problem.rhs.file=rel/b.mtx"});

  EXPECT_EQ(config.problem.matrix.file, (dir.path() / "data" / "A.mtx").string());
  EXPECT_EQ(config.problem.rhs.params<solvers::components::FileVectorParams>().file,
            (dir.path() / "sub" / "b.mtx").string());
  // Values given on the command line are relative to the working directory.
  EXPECT_EQ(overridden.problem.rhs.params<solvers::components::FileVectorParams>().file,
            (fs::current_path() / "rel" / "b.mtx").string());
  const RunConfig reparsed = parse_config(solvers::effective_config(config));
  EXPECT_EQ(reparsed.problem.matrix.file, (dir.path() / "data" / "A.mtx").string());
}

TEST(EffectiveConfig, ShorthandTypeNamesAreAccepted) {
  const RunConfig config = parse_config(
      "problem: {generator: {type: laplace1d, nx: 5}, rhs: A_times_ones}\n"
      "solver: {type: cg, preconditioner: jacobi}\n");

  EXPECT_EQ(config.problem.rhs.type(), "A_times_ones");
  EXPECT_EQ(config.solver.params<solvers::components::CgConfig>().preconditioner.summary(),
            "jacobi {damping: 1.0}");
}

// --- Errors about the matrix name its source -------------------------------------------------------

TEST(ProblemErrors, JacobiZeroDiagonalNamesTheMatrixFileAndOneBasedRow) {
  TempDir dir;
  // Row 1 has no diagonal entry.
  dir.write("x.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1.0\n2 2 4.0\n");
  const std::string path = dir.write(
      "cfg.yaml", replace(valid_config, "generator: {type: laplace3d, nx: 4, ny: 4, nz: 4}",
                          "matrix: {file: x.mtx}"));
  const RunConfig config = parse_file(path);
  const auto problem = solvers::build_problem<double>(config.problem);
  auto op = std::make_shared<const MatrixOperator<solvers::ConfigMatrix<double>>>(problem.A);
  auto solver = solvers::solver_registry().build<double>(
      config.solver, op, {problem.A, problem.description.matrix_name});
  solver->setup_symbolic(problem.A);  // the preconditioner is built unset: no error yet

  test::expect_throw_containing<NumericalError>(
      [&] { solver->setup_numeric(problem.A); },
      "kelp::precond::Jacobi::setup_numeric: zero diagonal entry at row 1 (1-based) of matrix '" +
          (dir.path() / "x.mtx").string() + "'");
}

TEST(ProblemErrors, GeneratedMatrixIsNamedByItsGenerator) {
  const RunConfig config = parse_config(valid_config);

  const auto problem = solvers::build_problem<double>(config.problem);

  EXPECT_EQ(problem.description.matrix_name, "laplace3d {nx: 4, ny: 4, nz: 4}");
}

// --- Building blocks ---------------------------------------------------------------------------

TEST(ConfigFields, FormatDoubleRoundTripsAndLooksLikeAFloat) {
  EXPECT_EQ(config::format_double(1.0), "1.0");
  EXPECT_EQ(config::format_double(0.0), "0.0");
  EXPECT_EQ(config::format_double(1e-8), "1.0e-08");
  EXPECT_EQ(config::format_double(0.25), "0.25");
  EXPECT_EQ(config::format_double(-2.5e20), "-2.5e+20");
  EXPECT_EQ(std::stod(config::format_double(0.1 + 0.2)), 0.1 + 0.2);
}

TEST(ConfigFields, EmitQuotesOnlyWhenNeeded) {
  YAML::Node node(YAML::NodeType::Map);
  node["plain"] = "/abs/path-1_x.mtx.gz";
  node["negative"] = "-3.5";
  node["empty"] = "";
  node["null_word"] = "null";
  node["colon"] = "a: b";

  EXPECT_EQ(config::emit_flow(node),
            "{plain: /abs/path-1_x.mtx.gz, negative: -3.5, empty: \"\", null_word: \"null\", "
            "colon: \"a: b\"}");
}

TEST(Registry, RejectsDuplicateAndUnknownTypes) {
  solvers::Registry<int> registry("widget");
  registry.add<solvers::NoParams>("a", "first", solvers::no_fields,
                                  [](const solvers::NoParams&) { return 1; });

  test::expect_throw_containing<InvalidArgument>(
      [&] {
        registry.add<solvers::NoParams>("a", "again", solvers::no_fields,
                                        [](const solvers::NoParams&) { return 2; });
      },
      "widget type 'a' is already registered");
  test::expect_throw_containing<InvalidArgument>([&] { registry.make("b"); },
                                                 "unknown widget type 'b'; registered: [a]");
  EXPECT_EQ(registry.build(registry.make("a")), 1);
}


TEST(ConfigOverride, BlockJacobiTakesItsBlockSizeInRange) {
  TempDir dir;
  const std::string path = dir.write("cfg.yaml", valid_config);

  const RunConfig config = parse_file(path, {"solver.preconditioner={type: block_jacobi, block_size: 6}"});

  const auto& cg = config.solver.params<solvers::components::CgConfig>();
  EXPECT_EQ(cg.preconditioner.type(), "block_jacobi");
  EXPECT_EQ(cg.preconditioner.params<precond::BlockJacobiParams>().block_size, 6);
  test::expect_throw_containing<ConfigError>(
      [&] { parse_file(path, {"solver.preconditioner={type: block_jacobi, block_size: 257}"}); },
      "solver.preconditioner.block_size: 257 is out of range; expected block_size >= 1 and "
      "block_size <= 256");
}

}  // namespace
}  // namespace kelp::config_test
