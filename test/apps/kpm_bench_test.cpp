// kelp-bench-kpm end to end on a tiny TI lattice: the triad, config and one verified measurement
// line per variant (naive, augmented, blocked R = 1, 2, 4), with B_min(R) as in the paper.
// Tiny sizes and one repeat: this checks behaviour, not speed.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test/support/temp_dir.hpp"

namespace kelp::kpm_bench_test {
namespace {

/// Runs kelp-bench-kpm with `args` (tiny sizes) and returns its JSON lines; expects exit 0.
std::vector<nlohmann::json> run_bench(const std::string& args, const std::string& tag) {
  const char* dir = std::getenv("KELP_BINARY_DIR");
  const std::string binary = std::string(dir ? dir : KELP_BINARY_DIR) + "/apps/bench/kelp-bench-kpm";
  EXPECT_TRUE(std::filesystem::exists(binary)) << binary << ": build kelp-bench-kpm first";
  test::TempDir streams(tag);
  const std::string command = binary + " " + args + " >" + streams.file("out") + " 2>" + streams.file("err");
  const int status = std::system(command.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << command;
  std::ifstream in(streams.file("out"));
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

std::vector<nlohmann::json> of_kind(const std::vector<nlohmann::json>& lines, const std::string& kind) {
  std::vector<nlohmann::json> selected;
  for (const auto& j : lines) {
    EXPECT_NE(j["kind"], "error") << j.dump();
    if (j["kind"] == kind) selected.push_back(j);
  }
  return selected;
}

TEST(BenchKpm, QuickRunPrintsVerifiedMeasurementsForEveryVariant) {
  const auto lines = run_bench("--n 3 --nz 2 --moments 10 --repeats 1 --max-block 4 --triad-mb 1 --triad-repeats 1", "kpm_bench");
  for (const auto& j : lines) EXPECT_EQ(j["bench"], "kpm");
  const auto configs = of_kind(lines, "config");
  ASSERT_EQ(configs.size(), 1u);
  EXPECT_EQ(configs[0]["num_rows"], 4 * 3 * 3 * 2);
  const auto measurements = of_kind(lines, "measurement");
  ASSERT_EQ(measurements.size(), 5u);  // naive, augmented, blocked 1, 2, 4
  EXPECT_EQ(measurements[4]["implementation"], "blocked");
  EXPECT_EQ(measurements[4]["R"], 4);
  EXPECT_NEAR(measurements[4]["b_min_paper"].get<double>(), (260.0 / 4 + 48) / 138, 1e-12);
  for (const auto& m : measurements) EXPECT_LE(m["max_relative_moment_difference"].get<double>(), 1e-9);
}

TEST(BenchKpm, FlopPeakAndBothBlockedKernelsWithTheirFractionOfTheRoof) {
  const auto lines = run_bench("--n 3 --nz 2 --moments 6 --repeats 1 --max-block 2 --triad-mb 1 --triad-repeats 1"
                               " --flop-repeats 1 --blocked-kernel both", "kpm_bench_kernels");
  const auto peaks = of_kind(lines, "flop_peak");
  ASSERT_EQ(peaks.size(), 1u);
  const double peak = peaks[0]["best_gflops"].get<double>();
  EXPECT_FALSE(peaks[0]["instruction_set"].get<std::string>().empty());
  EXPECT_GT(peak, 0.0);
  const auto measurements = of_kind(lines, "measurement");
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

/// A randomly renumbered H put into the locality order: the moments still match the naive ones
/// (of the same ordered H), and the config line says what was done.
TEST(BenchKpm, ShuffledInputInTheLocalityOrderFromMinBlock) {
  const auto lines = run_bench("--n 4 --nz 3 --moments 8 --repeats 1 --min-block 2 --max-block 4 --triad-mb 1"
                               " --triad-repeats 1 --flop-repeats 1 --shuffle --row-order locality", "kpm_bench_order");
  const auto configs = of_kind(lines, "config");
  ASSERT_EQ(configs.size(), 1u);
  EXPECT_EQ(configs[0]["row_order"], "locality");
  EXPECT_EQ(configs[0]["shuffled"], true);
  EXPECT_GE(configs[0]["locality_part_rows"].get<long long>(), 64);
  const auto measurements = of_kind(lines, "measurement");
  ASSERT_EQ(measurements.size(), 4u);  // naive, augmented, blocked 2, 4 (--min-block 2)
  EXPECT_EQ(measurements[2]["R"], 2);
  for (const auto& m : measurements) EXPECT_LE(m["max_relative_moment_difference"].get<double>(), 1e-9);
}

/// --part-rows sets the locality order's part size (the config line reports it); moments still
/// match naive with parts smaller than the lattice's planes.
TEST(BenchKpm, LocalityPartRowsFromTheCommandLine) {
  const auto lines = run_bench("--n 4 --nz 3 --moments 8 --repeats 1 --min-block 4 --max-block 4 --triad-mb 1"
                               " --triad-repeats 1 --flop-repeats 1 --row-order locality --part-rows 40",
                               "kpm_bench_parts");
  const auto configs = of_kind(lines, "config");
  ASSERT_EQ(configs.size(), 1u);
  EXPECT_EQ(configs[0]["locality_part_rows"].get<long long>(), 40);
  const auto measurements = of_kind(lines, "measurement");
  ASSERT_EQ(measurements.size(), 3u);  // naive, augmented, blocked 4
  for (const auto& m : measurements) EXPECT_LE(m["max_relative_moment_difference"].get<double>(), 1e-9);
}

TEST(BenchKpm, NegativePartRowsIsACommandLineError) {
  const char* dir = std::getenv("KELP_BINARY_DIR");
  const std::string binary = std::string(dir ? dir : KELP_BINARY_DIR) + "/apps/bench/kelp-bench-kpm";
  test::TempDir streams("kpm_bench_bad_parts");
  const std::string command = binary + " --n 3 --nz 2 --part-rows -5 >" + streams.file("out") + " 2>" + streams.file("err");
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2) << command;
  std::ifstream err(streams.file("err"));
  const std::string text((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("--part-rows"), std::string::npos) << text;
}

}  // namespace
}  // namespace kelp::kpm_bench_test
