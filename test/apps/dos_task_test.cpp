// The dos task of the run driver: every dos config in configs/ runs (shrunk) to a normalised,
// non-negative Jackson DOS; the JSON report and the CSV hold energies and rho; the generators;
// strict keys and types; float and non-Hermitian input refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/driver/run/run.hpp"
#include "test/apps/config_text.hpp"
#include "test/support/expect.hpp"
#include "test/support/files.hpp"
#include "test/support/temp_dir.hpp"

namespace kelp::dos_task_test {
namespace {

using solvers::RunConfig;

using test::parse_config;

std::string dos_config(const std::string& problem, const std::string& dos) {
  return "task: dos\nproblem:\n" + problem + "dos: {" + dos + "}\n";
}

double integral(const solvers::KpmDosResult& r) {
  double sum = 0;
  for (std::size_t k = 1; k < r.energies.size(); ++k) {
    sum += 0.5 * (r.density[k] + r.density[k - 1]) * (r.energies[k] - r.energies[k - 1]);
  }
  return sum;
}

TEST(DosTask, EveryDosConfigRunsOnASmallProblem) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(KELP_SOURCE_DIR) + "/configs")) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string path = entry.path().string();
    if (solvers::load_run_config(path).task.type != solvers::TaskKind::dos) continue;
    SCOPED_TRACE(path);
    ++count;
    test::TempDir dir;
    const std::string report = (std::filesystem::path(dir.path()) / "report.json").string();
    const std::string csv = (std::filesystem::path(dir.path()) / "dos.csv").string();
    const auto config = solvers::load_run_config(
        path, {"problem.generator.nx=4", "problem.generator.ny=4", "problem.generator.nz=3",
               "output.report=" + report, "dos.csv=" + csv, "dos.num_energies=401"});
    std::ostringstream out;

    const auto result = solvers::run(config, out);

    ASSERT_EQ(result.exit_code, solvers::ExitCode::success) << out.str();
    const auto& d = result.dos.result;
    EXPECT_NEAR(integral(d), 1.0, 0.02);  // the default grid spans the spectral bounds
    for (double rho : d.density) EXPECT_GE(rho, -1e-10);
    const auto json = nlohmann::json::parse(test::read_file(report));
    EXPECT_EQ(json["task"], "dos");
    ASSERT_EQ(json["dos"]["energies"].size(), 401u);
    ASSERT_EQ(json["dos"]["density"].size(), 401u);
    EXPECT_DOUBLE_EQ(json["dos"]["density"][200].get<double>(), d.density[200]);
    const std::string text = test::read_file(csv);
    EXPECT_EQ(text.rfind("energy,density,density_error\n", 0), 0u);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 402);
  }
  EXPECT_GE(count, 1);
}

TEST(DosTask, DefaultGridSpansTheBoundsWithoutASpikeAtItsEnds) {
  // Cubic lattice, periodic: spectrum [-6, 6], DOS ~ sqrt of the distance to the band edge
  // there. The grid's ends are the bounds (inside the scaled interval), where rho is small; the
  // scaled interval's ends (x = +-1) gave rho of several hundred through 1 / sqrt(1 - x^2).
  const auto config = parse_config(dos_config(
      "  generator: {type: tight_binding, nx: 8, ny: 8, nz: 8, periodic: true}\n",
      "num_moments: 128, trace: exact, num_energies: 201"));
  std::ostringstream out;
  const auto result = solvers::run(config, out);
  ASSERT_EQ(result.exit_code, solvers::ExitCode::success) << out.str();
  const auto& d = result.dos.result;
  ASSERT_EQ(d.energies.size(), 201u);
  EXPECT_EQ(d.energies.front(), d.bounds.lower);
  EXPECT_EQ(d.energies.back(), d.bounds.upper);
  const double peak = *std::max_element(d.density.begin(), d.density.end());
  EXPECT_GT(peak, 0.1);  // the cubic lattice's DOS peaks near 0.14 / t inside the band
  for (std::size_t k = 0; k < d.density.size(); ++k) {
    EXPECT_TRUE(std::isfinite(d.density[k])) << "energy " << d.energies[k];
    EXPECT_LE(d.density[k], peak) << "energy " << d.energies[k];
  }
  EXPECT_LT(d.density.front(), 0.25 * peak);
  EXPECT_LT(d.density.back(), 0.25 * peak);
}

TEST(DosTask, ImplementationsAndChainGeneratorAgree) {
  const std::string problem = "  generator: {type: tight_binding, nx: 60}\n";
  std::vector<std::vector<double>> densities;
  // The last run renumbers the chain into the locality order (parts of 8 rows): same density.
  for (const std::string impl : {"naive", "augmented", "blocked", "blocked, row_order: locality, locality_part_rows: 8"}) {
    const auto config = parse_config(dos_config(problem, "implementation: " + impl +
                                                             ", block_size: 3, num_vectors: 4, "
                                                             "num_moments: 40, energy_min: -2.5, "
                                                             "energy_max: 2.5, num_energies: 11"));
    std::ostringstream out;

    const auto result = solvers::run(config, out);
    densities.push_back(result.dos.result.density);
    EXPECT_EQ(result.solver_summary.find("rows: locality") != std::string::npos,
              impl.find("locality") != std::string::npos) << result.solver_summary;
  }

  for (std::size_t k = 0; k < 11; ++k) {
    for (std::size_t run = 1; run < densities.size(); ++run) EXPECT_NEAR(densities[run][k], densities[0][k], 1e-12);
  }
}

// The summary names the block width that ran: block_size capped at the run's vectors (R, or n
// with the exact trace), and says when it was capped; the density does not depend on it.
TEST(DosTask, SummaryNamesTheBlockWidthThatRan) {
  const std::string chain = "  generator: {type: tight_binding, nx: 12}\n";
  const std::string grid = ", num_moments: 16, energy_min: -2, energy_max: 2, num_energies: 5";
  struct Case {
    std::string dos;
    std::string block;
  };
  const Case cases[] = {
      {"num_vectors: 4, block_size: 3", "block 3, "},
      {"num_vectors: 4, block_size: 4", "block 4, "},
      {"num_vectors: 4, block_size: 100", "block 4 (block_size 100 capped at the vectors), "},
      {"trace: exact, block_size: 100", "block 12 (block_size 100 capped at the vectors), "},
      {"trace: exact, block_size: 5", "block 5, "},
  };
  std::vector<double> first_density;
  for (const Case& c : cases) {
    std::ostringstream out;

    const auto result = solvers::run(parse_config(dos_config(chain, c.dos + grid)), out);

    EXPECT_NE(result.solver_summary.find(c.block), std::string::npos) << c.dos << ": " << result.solver_summary;
    EXPECT_NE(out.str().find(c.block), std::string::npos) << c.dos;
    if (c.dos.rfind("num_vectors: 4", 0) == 0) {  // same 4 random vectors: same density
      if (first_density.empty()) first_density = result.dos.result.density;
      for (std::size_t k = 0; k < first_density.size(); ++k) {
        EXPECT_NEAR(result.dos.result.density[k], first_density[k], 1e-12) << c.dos << ", energy " << k;
      }
    }
  }
}

// Explicit ends mean what they say: equal ends are that one energy (they became the spectral
// bounds before: rho(-2) for a requested rho(0.5)); only absent ends are automatic.
TEST(DosTask, ExplicitSingleEnergyIsEvaluatedThere) {
  const auto config = parse_config(dos_config("  generator: {type: tight_binding, nx: 4000, periodic: true}\n",
                                              "num_moments: 512, trace: stochastic, num_vectors: 16, "
                                              "energy_min: 0.5, energy_max: 0.5, num_energies: 1"));
  std::ostringstream out;

  const auto result = solvers::run(config, out);

  const auto& d = result.dos.result;
  ASSERT_EQ(d.energies.size(), 1u);
  EXPECT_EQ(d.energies[0], 0.5);
  const double exact = 1.0 / (3.14159265358979 * std::sqrt(4.0 - 0.25));  // the chain's DOS at 0.5
  EXPECT_NEAR(d.density[0], exact, 0.02);
}

TEST(DosTask, EnergyGridRulesAreYamlErrorsWithTheirLocation) {
  const std::string chain = "  generator: {type: tight_binding, nx: 10}\n";
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(dos_config(chain, "energy_min: 0.5, energy_max: 0.5, num_energies: 5")); },
      "text.yaml:4:");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(dos_config(chain, "energy_min: 0.5, energy_max: 0.5, num_energies: 5")); },
      "dos.energy_max: energy_min = energy_max = 0.5 is one energy, but num_energies is 5");
  test::expect_throw_containing<ConfigError>([&] { parse_config(dos_config(chain, "energy_min: -1.0")); },
                                             "dos.energy_min: give energy_min and energy_max together, or neither");
  test::expect_throw_containing<ConfigError>([&] { parse_config(dos_config(chain, "energy_max: 1.0")); },
                                             "dos.energy_max: give energy_min and energy_max together");
  // Absent ends stay absent in the effective configuration (it reads back as automatic).
  const std::string effective = solvers::effective_config(parse_config(dos_config(chain, "num_moments: 8")));
  EXPECT_EQ(effective.find("energy_min"), std::string::npos) << effective;
  const auto again = parse_config(effective);
  EXPECT_FALSE(again.dos.energy_min.has_value());
  const std::string given =
      solvers::effective_config(parse_config(dos_config(chain, "energy_min: -1.5, energy_max: 2.0")));
  EXPECT_EQ(parse_config(given).dos.energy_min, -1.5);
  EXPECT_EQ(parse_config(given).dos.energy_max, 2.0);
}

// A single-point spectrum (c I) gave num_energies copies of E = c: no width, a blank plot. The
// default grid now spans [c - max(1, |c|), c + max(1, |c|)] with the kernel's peak at c.
TEST(DosTask, SinglePointSpectrumGivesAPeakOnAGridOfNonzeroWidth) {
  test::TempDir dir;
  const std::string file = (std::filesystem::path(dir.path()) / "diag2.mtx").string();
  {
    std::ofstream mtx(file);
    mtx << "%%MatrixMarket matrix coordinate real general\n5 5 5\n";
    for (int i = 1; i <= 5; ++i) mtx << i << " " << i << " 2.0\n";
  }
  const auto config = parse_config(dos_config("  matrix: {file: " + file + "}\n",
                                              "num_moments: 256, trace: exact, num_energies: 801"));
  std::ostringstream out;

  const auto result = solvers::run(config, out);

  const auto& d = result.dos.result;
  ASSERT_EQ(d.energies.size(), 801u);
  EXPECT_DOUBLE_EQ(d.energies.front(), 0.0);
  EXPECT_DOUBLE_EQ(d.energies.back(), 4.0);
  const auto peak = std::max_element(d.density.begin(), d.density.end()) - d.density.begin();
  EXPECT_NEAR(d.energies[static_cast<std::size_t>(peak)], 2.0, 1e-12);
  EXPECT_NEAR(integral(d), 1.0, 0.01);
  for (double rho : d.density) EXPECT_GE(rho, -1e-10);
}

TEST(DosTask, MatrixMarketHamiltonianWithExactTraceIsNormalised) {
  const std::string file = std::string(KELP_TEST_DATA_DIR) + "/driver/magnetic2d_hermitian.mtx";
  const auto config = parse_config(dos_config("  scalar: complex\n  matrix: {file: " + file + "}\n",
                                              "trace: exact, num_moments: 64, num_energies: 801, "
                                              "bounds: gershgorin"));
  std::ostringstream out;

  const auto result = solvers::run(config, out);

  const auto& d = result.dos.result;
  EXPECT_EQ(d.num_vectors, result.problem.num_rows);
  EXPECT_NEAR(integral(d), 1.0, 0.01);
  for (double rho : d.density) EXPECT_GE(rho, -1e-10);
  for (double e : d.density_error) EXPECT_EQ(e, 0.0);
}

TEST(DosTask, RejectsUnknownKeysWrongTypesAndMisplacedSection) {
  const std::string problem = "  generator: {type: tight_binding, nx: 10}\n";
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(dos_config(problem, "moments: 10")); }, "unknown key 'moments'");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(dos_config(problem, "num_moments: many")); }, "num_moments");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(dos_config(problem, "implementation: fast")); }, "allowed: [naive, augmented, blocked]");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(dos_config(problem, "row_order: metis")); }, "allowed: [natural, locality]");
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(dos_config(problem, "locality_part_rows: -5")); }, "locality_part_rows");
  // The YAML check, with its line and column, not the library's later one: the margin must be < 1.
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config(dos_config(problem, "safety_margin: 1.0")); },
      "dos.safety_margin: 1.0 is out of range; expected safety_margin >= 0.0 and safety_margin < 1.0");
  EXPECT_NO_THROW(parse_config(dos_config(problem, "safety_margin: 0.999")));
  test::expect_throw_containing<ConfigError>(
      [&] { parse_config("task: solve\nproblem:\n" + problem + "solver: {type: cg}\ndos: {num_moments: 8}\n"); },
      "the dos section needs task: dos");
}

TEST(DosTask, RefusesFloatRealTopologicalInsulatorAndNonHermitianMatrices) {
  std::ostringstream out;
  // Two finite ends whose distance is not (NaN and inf energies, exit 0, before): a YAML error
  // with its location now, before the problem is built.
  test::expect_throw_containing<ConfigError>(
      [&] {
        parse_config(dos_config("  generator: {type: tight_binding, nx: 10}\n",
                                "num_moments: 8, energy_min: -1.0e308, energy_max: 1.0e308"));
      },
      "text.yaml:4:");
  test::expect_throw_containing<ConfigError>(
      [&] {
        parse_config(dos_config("  generator: {type: tight_binding, nx: 10}\n",
                                "num_moments: 8, energy_min: -1.0e308, energy_max: 1.0e308"));
      },
      "dos.energy_max: energy_min = ");
  // A finite width whose steps overflow: 0 to 1e308 in 100 steps.
  test::expect_throw_containing<ConfigError>(
      [&] {
        parse_config(dos_config("  generator: {type: tight_binding, nx: 10}\n",
                                "num_moments: 8, energy_min: 0, energy_max: 1.0e308, num_energies: 101"));
      },
      "num_energies = 101: the grid's width overflows a double");
  // random_phase with a real Hamiltonian: at the key, before the problem is built.
  test::expect_throw_containing<ConfigError>(
      [&] {
        parse_config(dos_config("  generator: {type: tight_binding, nx: 10}\n", "random_vector: random_phase"));
      },
      "dos.random_vector: random_phase needs a complex Hamiltonian (problem.scalar: complex)");
  test::expect_throw_containing<ConfigError>(
      [&] {
        parse_config(dos_config("  generator: {type: tight_binding, nx: 10}\n", "random_vector: random_phase"));
      },
      "text.yaml:4:");
  EXPECT_NO_THROW(parse_config(dos_config("  generator: {type: tight_binding, nx: 10}\n",
                                          "random_vector: random_phase, trace: exact")));
  test::expect_throw_containing<NotSupported>(
      [&] {
        solvers::run(parse_config(dos_config("  scalar: float\n  generator: {type: tight_binding, nx: 10}\n",
                                             "num_moments: 8")),
                     out);
      },
      "task dos runs in problem.scalar double or complex; problem.scalar is float");
  test::expect_throw_containing<NotSupported>(
      [&] {
        solvers::run(parse_config(dos_config("  generator: {type: topological_insulator, nx: 3, ny: 3, nz: 2}\n",
                                             "num_moments: 8")),
                     out);
      },
      "set problem.scalar: complex");
  test::expect_throw_containing<InvalidArgument>(
      [&] {
        solvers::run(parse_config(dos_config("  generator: {type: convection_diffusion, nx: 5, ny: 5}\n",
                                             "num_moments: 8")),
                     out);
      },
      "is not Hermitian");
}

}  // namespace
}  // namespace kelp::dos_task_test
