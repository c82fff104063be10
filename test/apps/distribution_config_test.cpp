// The `distribution` section of a run configuration (kelp run under mpirun, issue 14): parsed,
// written back, absent = serial; unknown keys and bad values are ConfigErrors naming the path.
// The distributed run itself is tested under mpirun by test/apps/dist_run_test.sh.
#include <gtest/gtest.h>

#include <string>

#include "kelp/apps/driver/run/run.hpp"
#include "test/apps/config_text.hpp"
#include "test/support/expect.hpp"

namespace kelp::distribution_config_test {
namespace {

using config::ConfigDocument;
using solvers::PartitionMethod;

const std::string base =
    "problem:\n"
    "  generator: {type: laplace2d, nx: 4, ny: 4}\n"
    "solver: {type: cg}\n";

using test::parse_config;

TEST(DistributionConfig, AbsentSectionIsSerial) {
  const auto config = parse_config(base);
  EXPECT_FALSE(config.distributed);
  EXPECT_EQ(solvers::effective_config(config).find("distribution"), std::string::npos);
}

TEST(DistributionConfig, PartitionDefaultsToRowsAndRoundTrips) {
  EXPECT_EQ(parse_config(base + "distribution: {}\n").distribution.partition,
            PartitionMethod::rows);
  for (const char* name : {"rows", "nonzeros", "metis"}) {
    const auto config = parse_config(base + "distribution: {partition: " + name + "}\n");
    EXPECT_TRUE(config.distributed);
    EXPECT_EQ(solvers::partition_methods().name(config.distribution.partition), name);
    const std::string printed = solvers::effective_config(config);
    EXPECT_EQ(solvers::effective_config(parse_config(printed)), printed);
  }
}

TEST(DistributionConfig, BadKeysAndValuesAreConfigErrors) {
  test::expect_throw_containing<ConfigError>(
      [] { parse_config(base + "distribution: {parts: 2}\n"); }, "distribution: unknown key 'parts'");
  test::expect_throw_containing<ConfigError>([] { parse_config(base + "distribution: {partition: bogus}\n"); },
                                             "unknown value 'bogus'; allowed: [rows, nonzeros, metis]");
  test::expect_throw_containing<ConfigError>([] { parse_config(base + "distribution: {partition: [1]}\n"); },
                                             "distribution.partition");
  test::expect_throw_containing<ConfigError>([] { parse_config(base + "distribution: rows\n"); },
                                             "distribution");
}

TEST(DistributionConfig, EigenAndDosTasksAcceptTheSection) {
  // Tasks eigen and dos run under mpirun too (dist_eigen_task.cpp, dist_dos_task.cpp).
  // base without its solver section, which tasks eigen and dos refuse.
  const std::string problem = base.substr(0, base.find("solver:"));
  const auto eigen =
      parse_config(problem + "task: eigen\neigen: {}\ndistribution: {partition: nonzeros}\n");
  EXPECT_TRUE(eigen.distributed);
  EXPECT_EQ(eigen.distribution.partition, PartitionMethod::nonzeros);
  const auto dos = parse_config(problem + "task: dos\ndos: {}\ndistribution: {}\n");
  EXPECT_TRUE(dos.distributed);
  EXPECT_NE(solvers::effective_config(dos).find("distribution"), std::string::npos);
}

}  // namespace
}  // namespace kelp::distribution_config_test
