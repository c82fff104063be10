// kelp-bench-kpm end to end on a tiny TI lattice: the triad, config and one verified measurement
// line per variant (naive, augmented, blocked R = 1, 2, 4), with B_min(R) as in the paper.
// Tiny sizes and one repeat: this checks behaviour, not speed.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test/support/temp_dir.hpp"

namespace kelp::kpm_bench_test {
namespace {

TEST(BenchKpm, QuickRunPrintsVerifiedMeasurementsForEveryVariant) {
  const char* dir = std::getenv("KELP_BINARY_DIR");
  const std::string binary = std::string(dir ? dir : KELP_BINARY_DIR) + "/apps/bench/kelp-bench-kpm";
  ASSERT_TRUE(std::filesystem::exists(binary)) << binary << ": build kelp-bench-kpm first";
  test::TempDir streams("kpm_bench");
  const std::string command = binary +
                              " --n 3 --nz 2 --moments 10 --repeats 1 --max-block 4 --triad-mb 1"
                              " --triad-repeats 1 >" + streams.file("out") + " 2>" + streams.file("err");

  const int status = std::system(command.c_str());

  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  std::ifstream in(streams.file("out"));
  std::string line;
  std::vector<nlohmann::json> measurements;
  int configs = 0;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["bench"], "kpm");
    if (j["kind"] == "config") {
      ++configs;
      EXPECT_EQ(j["num_rows"], 4 * 3 * 3 * 2);
    }
    if (j["kind"] == "measurement") measurements.push_back(j);
    EXPECT_NE(j["kind"], "error") << line;
  }
  EXPECT_EQ(configs, 1);
  ASSERT_EQ(measurements.size(), 5u);  // naive, augmented, blocked 1, 2, 4
  EXPECT_EQ(measurements[4]["implementation"], "blocked");
  EXPECT_EQ(measurements[4]["R"], 4);
  EXPECT_NEAR(measurements[4]["b_min_paper"].get<double>(), (260.0 / 4 + 48) / 138, 1e-12);
  for (const auto& m : measurements) EXPECT_LE(m["max_relative_moment_difference"].get<double>(), 1e-9);
}

TEST(BenchKpm, FlopPeakAndBothBlockedKernelsWithTheirFractionOfTheRoof) {
  const char* dir = std::getenv("KELP_BINARY_DIR");
  const std::string binary = std::string(dir ? dir : KELP_BINARY_DIR) + "/apps/bench/kelp-bench-kpm";
  ASSERT_TRUE(std::filesystem::exists(binary)) << binary << ": build kelp-bench-kpm first";
  test::TempDir streams("kpm_bench_kernels");
  const std::string command = binary +
                              " --n 3 --nz 2 --moments 6 --repeats 1 --max-block 2 --triad-mb 1"
                              " --triad-repeats 1 --flop-repeats 1 --blocked-kernel both >" +
                              streams.file("out") + " 2>" + streams.file("err");

  const int status = std::system(command.c_str());

  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  std::ifstream in(streams.file("out"));
  std::string line;
  std::vector<nlohmann::json> measurements;
  double peak = 0;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line);
    if (j["kind"] == "flop_peak") {
      peak = j["best_gflops"].get<double>();
      EXPECT_FALSE(j["instruction_set"].get<std::string>().empty());
    }
    if (j["kind"] == "measurement") measurements.push_back(j);
    EXPECT_NE(j["kind"], "error") << line;
  }
  EXPECT_GT(peak, 0.0);
  ASSERT_EQ(measurements.size(), 6u);  // naive, augmented, blocked 1 and 2 with row and team
  EXPECT_EQ(measurements[2]["kernel"], "row");
  EXPECT_EQ(measurements[3]["kernel"], "team");
  EXPECT_EQ(measurements[5]["R"], 2);
  for (const auto& m : measurements) {
    const double roof = m["roof_gflops"].get<double>();
    EXPECT_LE(roof, peak * (1 + 1e-12));
    EXPECT_LE(roof, m["roofline_gflops"].get<double>() * (1 + 1e-12));
    EXPECT_NEAR(m["fraction_of_roof"].get<double>(), m["gflops"].get<double>() / roof, 1e-9);
  }
}

}  // namespace
}  // namespace kelp::kpm_bench_test
