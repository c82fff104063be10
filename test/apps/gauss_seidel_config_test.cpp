// YAML for the gauss_seidel preconditioner: strict keys and types, defaults written back, and
// symmetric GS-preconditioned CG converging through the run driver for every variant.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "kelp/apps/driver/registry/components/gauss_seidel.hpp"
#include "kelp/apps/driver/run/run.hpp"
#include "test/apps/config_text.hpp"
#include "test/support/expect.hpp"

namespace kelp::gauss_seidel_config_test {
namespace {

using config::ConfigDocument;
using solvers::RunConfig;

using test::parse_config;

std::string config_with(const std::string& preconditioner) {
  return "problem:\n"
         "  generator: {type: laplace3d, nx: 8, ny: 7, nz: 6}\n"
         "  rhs: {type: ones}\n"
         "solver: {type: cg, relative_tolerance: 1.0e-8, preconditioner: " + preconditioner + "}\n"
         "output: {monitor_every: 0, fail_on_no_convergence: false}\n";
}

TEST(GaussSeidelConfig, KeysAndTypesAreChecked) {
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(config_with("{type: gauss_seidel, sweps: 2}")); },
      "solver.preconditioner: unknown key 'sweps'; allowed: [type, variant, direction, sweeps, "
      "omega, coloring, long_row_threshold, cluster_size, inner_sweeps, form, fused]");
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(config_with("{type: gauss_seidel, sweeps: two}")); },
      "solver.preconditioner.sweeps: expected an integer, got 'two'");
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(config_with("{type: gauss_seidel, sweeps: 0}")); }, "solver.preconditioner.sweeps");
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(config_with("{type: gauss_seidel, omega: 2.0}")); }, "solver.preconditioner.omega");
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(config_with("{type: gauss_seidel, variant: red_black}")); },
      "unknown value 'red_black'; allowed: [multicolor, cluster, two_stage]");
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(config_with("{type: gauss_seidel, direction: up}")); },
      "unknown value 'up'; allowed: [forward, backward, symmetric]");
}

TEST(GaussSeidelConfig, DefaultsAreWrittenBackAndRoundTrip) {
  const auto config = parse_config(config_with("{type: gauss_seidel, variant: two_stage, inner_sweeps: 3}"));
  const std::string printed = solvers::effective_config(config);
  EXPECT_NE(printed.find("variant: two_stage"), std::string::npos) << printed;
  EXPECT_NE(printed.find("direction: symmetric"), std::string::npos) << printed;
  EXPECT_NE(printed.find("inner_sweeps: 3"), std::string::npos) << printed;
  EXPECT_EQ(solvers::effective_config(parse_config(printed)), printed);
}

TEST(GaussSeidelConfig, EveryVariantPreconditionsCg) {
  for (const char* p : {"{type: gauss_seidel}", "{type: gauss_seidel, variant: cluster}",
                        "{type: gauss_seidel, variant: cluster, cluster_size: 4}",
                        "{type: gauss_seidel, variant: two_stage, form: compact, inner_sweeps: 2}",
                        "{type: gauss_seidel, sweeps: 2, omega: 1.3, coloring: deterministic}"}) {
    SCOPED_TRACE(p);
    std::ostringstream out;
    const auto result = solvers::run(parse_config(config_with(p)), out);
    EXPECT_TRUE(result.solve.converged()) << out.str();
    EXPECT_LE(result.true_relative_residual, 1e-8);
  }
}

TEST(GaussSeidelConfig, FusedEisenstatRunsEisenstatCgWithTheIteratesOfCg) {
  std::ostringstream out_plain, out_fused;
  const auto plain = solvers::run(parse_config(config_with("{type: gauss_seidel, omega: 1.3}")), out_plain);
  const auto fused =
      solvers::run(parse_config(config_with("{type: gauss_seidel, omega: 1.3, fused: eisenstat}")), out_fused);
  EXPECT_TRUE(fused.solve.converged()) << out_fused.str();
  EXPECT_LE(fused.true_relative_residual, 1e-8);
  EXPECT_NE(fused.solver_summary.find("eisenstat"), std::string::npos) << fused.solver_summary;
  EXPECT_NEAR(fused.solve.iterations, plain.solve.iterations, 1);
  // Eisenstat's trick needs the multicolor symmetric one-sweep form and the standard recurrence,
  // checked in the YAML itself (with a location: config_test.cpp).
  for (const char* gs : {"variant: cluster", "variant: two_stage", "direction: forward", "sweeps: 2"}) {
    EXPECT_THROW(parse_config(config_with(std::string("{type: gauss_seidel, fused: eisenstat, ") + gs + "}")),
                 ConfigError)
        << gs;
  }
  EXPECT_THROW(parse_config("problem: {generator: {type: laplace3d, nx: 4, ny: 4, nz: 4}}\n"
                            "solver: {type: cg, variant: flexible, preconditioner: "
                            "{type: gauss_seidel, fused: eisenstat}}\n"),
               ConfigError);
}

}  // namespace
}  // namespace kelp::gauss_seidel_config_test
