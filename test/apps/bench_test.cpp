// kelp-bench-spmv end to end on a scratch folder: one unreadable matrix file is reported as a JSON
// error line and the others are still benchmarked (square, rectangular, complex), with a
// non-zero exit at the end. Tiny matrices and one repeat: this checks behaviour, not speed.
// The command lines of kelp-bench-spmv and kelp-bench-mm: --help, unknown options, bad values,
// and the --kokkos-* arguments that go to Kokkos alone.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test/support/temp_dir.hpp"
#include "test/support/text.hpp"

namespace kelp::bench_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::TempDir;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

using test::shell_quote;

struct ProgramOutcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs apps/bench/`program` (of the build tree) with `args`.
ProgramOutcome run_program(const std::string& program, const std::vector<std::string>& args) {
  const char* dir = std::getenv("KELP_BINARY_DIR");
  const std::string binary = std::string(dir ? dir : KELP_BINARY_DIR) + "/apps/bench/" + program;
  ProgramOutcome outcome;
  if (!fs::exists(binary)) {
    ADD_FAILURE() << binary << " does not exist; build the " << program << " target first";
    return outcome;
  }
  TempDir streams("streams");
  std::string command = shell_quote(binary);
  for (const auto& arg : args) command += " " + shell_quote(arg);
  command += " >" + shell_quote(streams.file("out")) + " 2>" + shell_quote(streams.file("err"));
  const int status = std::system(command.c_str());
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.out = read_text(streams.file("out"));
  outcome.err = read_text(streams.file("err"));
  return outcome;
}

struct BenchOutcome {
  int exit_code = -1;
  std::vector<json> lines;  // stdout, one JSON object per line
  std::string err;
};

/// Runs kelp-bench-spmv with `args`; every stdout line must be valid JSON.
BenchOutcome run_bench(const std::vector<std::string>& args) {
  const ProgramOutcome program = run_program("kelp-bench-spmv", args);
  BenchOutcome outcome;
  outcome.exit_code = program.exit_code;
  outcome.err = program.err;
  std::istringstream out(program.out);
  std::string line;
  while (std::getline(out, line)) {
    try {
      outcome.lines.push_back(json::parse(line));
    } catch (const json::exception& e) {
      ADD_FAILURE() << "not a JSON line: " << line << " (" << e.what() << ")";
    }
  }
  return outcome;
}

/// The lines of one kind (and, if given, one matrix).
std::vector<json> lines_of(const BenchOutcome& outcome, const std::string& kind,
                           const std::string& matrix = "") {
  std::vector<json> found;
  for (const auto& line : outcome.lines) {
    if (line.value("kind", "") == kind && (matrix.empty() || line.value("matrix", "") == matrix)) {
      found.push_back(line);
    }
  }
  return found;
}

/// Kelp's own measurement lines (a CUDA build adds a cuSPARSE line after each group, a peer
/// build a Kokkos Kernels one; those are checked by the peer-specific tests).
std::vector<json> kelp_measurements(const BenchOutcome& outcome, const std::string& matrix = "") {
  std::vector<json> kelp;
  for (const auto& line : lines_of(outcome, "measurement", matrix)) {
    if (line.value("impl", "") == "kelp") kelp.push_back(line);
  }
  return kelp;
}

/// The quickest run over `dir`: no generated matrices, one algorithm, one repeat, 1 MB triad.
std::vector<std::string> quick_all_shared(const std::string& dir) {
  return {"--all-shared", dir, "--no-generated", "--repeats", "1", "--warmup", "0",
          "--min-sample-ms", "0", "--vectors", "2", "--layouts", "left",
          "--algorithms", "automatic", "--triad-mb", "1", "--triad-repeats", "1"};
}

TEST(BenchSpmv, AllSharedReportsABrokenFileAndRunsTheOthers) {
  TempDir dir;
  dir.write("a_square.mtx",
            "%%MatrixMarket matrix coordinate real general\n"
            "3 3 4\n1 1 2.0\n2 2 3.0\n3 1 1.0\n3 3 4.0\n");
  const std::string broken = dir.write("b_broken.mtx",
                                       "%%MatrixMarket matrix coordinate real general\n"
                                       "2 2 1\n1 x 1.0\n");
  dir.write("c_rectangular.mtx",
            "%%MatrixMarket matrix coordinate real general\n"
            "2 3 3\n1 1 1.0\n1 3 2.0\n2 2 -1.0\n");
  dir.write("d_complex.mtx",
            "%%MatrixMarket matrix coordinate complex hermitian\n"
            "2 2 2\n1 1 2.0 0.0\n2 1 1.0 -1.0\n");
  dir.write("notes.txt", "not a matrix: ignored\n");

  const auto outcome = run_bench(quick_all_shared(dir.path().string()));

  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  const auto errors = lines_of(outcome, "error");
  ASSERT_EQ(errors.size(), 1u) << outcome.err;
  EXPECT_EQ(errors[0]["bench"], "spmv");
  EXPECT_EQ(errors[0]["file"], broken);
  EXPECT_EQ(errors[0]["matrix"], "b_broken");
  EXPECT_NE(errors[0]["message"].get<std::string>().find(broken + ":3:"), std::string::npos)
      << errors[0];
  // The files after the broken one still ran: spmv and spmmv (left, k = 2) per matrix.
  const std::map<std::string, std::vector<long long>> expected = {
      {"a_square", {3, 3}}, {"c_rectangular", {2, 3}}, {"d_complex", {2, 2}}};
  for (const auto& [matrix, shape] : expected) {
    SCOPED_TRACE(matrix);
    const auto config = lines_of(outcome, "config", matrix);
    ASSERT_EQ(config.size(), 1u);
    EXPECT_EQ(config[0]["num_rows"], shape[0]);
    EXPECT_EQ(config[0]["num_cols"], shape[1]);
    EXPECT_EQ(config[0]["scalar"], matrix == "d_complex" ? "complex<double>" : "double");
    const auto measurements = kelp_measurements(outcome, matrix);
    ASSERT_EQ(measurements.size(), 2u);
    EXPECT_EQ(measurements[0]["op"], "spmv");
    EXPECT_EQ(measurements[1]["op"], "spmmv");
    EXPECT_EQ(measurements[1]["k"], 2);
    for (const auto& m : measurements) {
      EXPECT_EQ(m["scaled_error_vs_reference"], 0.0) << m;  // tiny sums are exact
      EXPECT_GT(m["median_s"].get<double>(), 0.0) << m;
    }
  }
  const auto summary = lines_of(outcome, "summary");
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0]["matrices"], 3);
  EXPECT_EQ(summary[0]["file_errors"], 1);
  EXPECT_EQ(summary[0]["verification_failed"], false);
}

TEST(BenchSpmv, HeaderLinesRecordThreadsExecutionSpaceCpuAndTriadSize) {
  TempDir dir;
  dir.write("a_square.mtx",
            "%%MatrixMarket matrix coordinate real general\n"
            "3 3 4\n1 1 2.0\n2 2 3.0\n3 1 1.0\n3 3 4.0\n");

  const auto outcome = run_bench(quick_all_shared(dir.path().string()));

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto triad = lines_of(outcome, "triad");
  ASSERT_EQ(triad.size(), 1u);
  EXPECT_EQ(triad[0]["array_mb"], 1.0);
  EXPECT_EQ(triad[0]["array_mb_auto"], false);
  EXPECT_GT(triad[0]["median_gbytes_per_s"].get<double>(), 0.0);
  // Each width is timed, and the roof is the fastest of them.
  const auto& widths = triad[0]["median_gbytes_per_s_by_elements_per_index"];
  ASSERT_EQ(widths.size(), 3u);
  double fastest = 0;
  for (const char* width : {"1", "2", "4"}) {
    ASSERT_TRUE(widths.contains(width)) << widths.dump();
    fastest = std::max(fastest, widths[width].get<double>());
  }
  EXPECT_EQ(triad[0]["median_gbytes_per_s"].get<double>(), fastest);
  EXPECT_EQ(widths[std::to_string(triad[0]["elements_per_index"].get<int>())].get<double>(), fastest);
  const auto config = lines_of(outcome, "config", "a_square");
  ASSERT_EQ(config.size(), 1u);
  EXPECT_GE(config[0]["threads"].get<int>(), 1);
  EXPECT_EQ(config[0]["threads"], triad[0]["threads"]);  // the triad runs on the SpMV's threads
  EXPECT_EQ(config[0]["execution_space"], triad[0]["execution_space"]);
  EXPECT_FALSE(config[0]["execution_space"].get<std::string>().empty());
  EXPECT_FALSE(config[0]["cpu"].get<std::string>().empty());
  EXPECT_TRUE(config[0]["peer_status"].is_string());
}

TEST(BenchSpmv, BadCommandLineExitsWith2) {
  const auto unknown = run_bench({"--frobnicate"});
  const auto missing = run_bench({"--repeats"});

  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown option '--frobnicate'"), std::string::npos) << unknown.err;
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--repeats needs a value"), std::string::npos) << missing.err;
}

/// The first line of `text`.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

constexpr const char* kKokkosHelp = "Kokkos command line arguments";

TEST(BenchSpmv, HelpPrintsTheBenchmarksOwnUsageNotKokkos) {
  for (const std::string help : {"--help", "-h"}) {
    SCOPED_TRACE(help);
    const auto outcome = run_program("kelp-bench-spmv", {help});

    EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
    EXPECT_NE(outcome.out.find("Usage: kelp-bench-spmv"), std::string::npos) << outcome.out;
    EXPECT_EQ(outcome.out.find(kKokkosHelp), std::string::npos) << outcome.out;
    EXPECT_EQ(outcome.err.find(kKokkosHelp), std::string::npos) << outcome.err;
    // Every option, with its default where it has one.
    for (const char* option :
         {"--generator NAME=laplace3d", "--n N=100", "--matrix", "--all-shared [DIR]=",
          "--no-generated", "--repeats N=20", "--warmup N=3", "--min-sample-ms MS=20",
          "=1,4,8,16,32", "=left,right", "=row_parallel,merge_path,adaptive,automatic",
          "--spmmv-algorithms", "--no-spmv",
          "--beta BETA=0", "--triad-mb MB|auto=auto", "--triad-repeats N=20", "Exit codes:"}) {
      EXPECT_NE(outcome.out.find(option), std::string::npos) << option << "\n" << outcome.out;
    }
  }
}

TEST(BenchSpmv, BadValuesExitWith2NamingTheOptionAndTheValue) {
  const std::vector<std::vector<std::string>> cases = {
      {"--n", "abc", "--n: 'abc' is not an integer"},
      {"--repeats", "1.5", "--repeats: '1.5' is not an integer"},
      {"--beta", "x", "--beta: 'x' is not a number"},
      {"--vectors", "1,x", "--vectors: 'x' in '1,x' is not an integer >= 1"},
      {"--vectors", "0", "--vectors: '0' is not an integer >= 1"},
      {"--layouts", "diagonal", "--layouts: unknown value 'diagonal'; allowed: left, right"},
      {"--algorithms", "automatic,fast", "--algorithms: unknown value 'fast' in 'automatic,fast'"},
      {"--generator", "laplace4d", "--generator: unknown value 'laplace4d'"},
      {"--triad-mb", "lots", "--triad-mb: 'lots' is neither auto nor a number"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c[0] + " " + c[1]);
    const auto outcome = run_program("kelp-bench-spmv", {c[0], c[1]});

    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_EQ(first_line(outcome.err).rfind("kelp-bench-spmv: error: ", 0), 0u) << outcome.err;
    EXPECT_NE(first_line(outcome.err).find(c[2]), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.err.find("usage: kelp-bench-spmv"), std::string::npos) << outcome.err;
    EXPECT_EQ(outcome.out, "");  // nothing was run
  }
}

TEST(BenchSpmv, UnknownArgumentsExitWith2NamingThem) {
  const auto option = run_program("kelp-bench-spmv", {"--n", "4", "--frobnicate", "3"});
  const auto stray = run_program("kelp-bench-spmv", {"--n", "4", "stray"});

  EXPECT_EQ(option.exit_code, 2);
  EXPECT_EQ(first_line(option.err), "kelp-bench-spmv: error: unknown option '--frobnicate'");
  EXPECT_NE(option.err.find("usage: kelp-bench-spmv"), std::string::npos) << option.err;
  EXPECT_EQ(option.out, "");
  EXPECT_EQ(stray.exit_code, 2);
  EXPECT_EQ(first_line(stray.err), "kelp-bench-spmv: error: unexpected argument 'stray'");
}

TEST(BenchSpmv, KokkosArgumentsGoToKokkosAndValuesKeepTheirMeaning) {
  // --kokkos-threads=1 reaches Kokkos; a negative --beta is a value; counts are clamped; the last
  // of a repeated option wins; --no-spmv leaves the SpMMV only.
  const auto outcome = run_bench({"--kokkos-threads=1", "--generator", "laplace2d", "--n", "50",
                                  "--n", "6", "--repeats", "0", "--warmup", "-1",
                                  "--min-sample-ms", "-5", "--vectors", "3", "--layouts", "right",
                                  "--algorithms", "automatic", "--beta", "-0.5", "--triad-mb", "0",
                                  "--triad-repeats", "0", "--no-spmv"});

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto triad = lines_of(outcome, "triad");
  ASSERT_EQ(triad.size(), 1u);
  EXPECT_EQ(triad[0]["array_mb"], 1.0);  // --triad-mb 0: raised to 1
  EXPECT_EQ(triad[0]["repeats"], 1);
  const auto config = lines_of(outcome, "config", "laplace2d_6");
  ASSERT_EQ(config.size(), 1u) << outcome.err;
  // --kokkos-threads sets the host space's threads; on a GPU build "threads" is the device's.
  EXPECT_EQ(config[0]["host_threads"], 1);
  EXPECT_EQ(config[0]["num_rows"], 36);
  EXPECT_EQ(config[0]["beta"], -0.5);
  EXPECT_EQ(config[0]["repeats"], 1);
  EXPECT_EQ(config[0]["warmup"], 0);
  EXPECT_EQ(config[0]["min_sample_ms"], 0.0);
  EXPECT_EQ(config[0]["spmv"], false);
  EXPECT_EQ(config[0]["vectors"], json::array({3}));
  EXPECT_EQ(config[0]["layouts"], json::array({"right"}));
  const auto measurements = kelp_measurements(outcome);
  ASSERT_EQ(measurements.size(), 1u);
  EXPECT_EQ(measurements[0]["op"], "spmmv");
  EXPECT_EQ(measurements[0]["k"], 3);
}

TEST(BenchMm, HelpPrintsTheBenchmarksOwnUsageNotKokkos) {
  const auto outcome = run_program("kelp-bench-mm", {"--help"});

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("Usage: kelp-bench-mm"), std::string::npos) << outcome.out;
  EXPECT_EQ(outcome.out.find(kKokkosHelp), std::string::npos) << outcome.out;
  EXPECT_EQ(outcome.err.find(kKokkosHelp), std::string::npos) << outcome.err;
  for (const char* option : {"--n N=100", "--repeat N=5", "--matrices DIR=", "--work-dir DIR",
                             "--keep", "Exit codes:"}) {
    EXPECT_NE(outcome.out.find(option), std::string::npos) << option << "\n" << outcome.out;
  }
}

TEST(BenchMm, BadCommandLineExitsWith2) {
  const auto unknown = run_program("kelp-bench-mm", {"--frobnicate"});
  const auto bad = run_program("kelp-bench-mm", {"--repeat", "many"});
  const auto missing = run_program("kelp-bench-mm", {"--n"});

  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(first_line(unknown.err), "kelp-bench-mm: error: unknown option '--frobnicate'");
  EXPECT_NE(unknown.err.find("usage: kelp-bench-mm"), std::string::npos) << unknown.err;
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(first_line(bad.err), "kelp-bench-mm: error: --repeat: 'many' is not an integer");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(first_line(missing.err), "kelp-bench-mm: error: option --n needs a value");
  EXPECT_EQ(unknown.out + bad.out + missing.out, "");  // nothing was run
}


// Cross-option and list rules are command-line errors, before any measurement: a typo in
// --solvers ran BiCGStab under the typo's name, --min-block above --max-block ran no blocked
// product, and a nan --triad-mb became the automatic size; all exited 0.
TEST(BenchCommandLines, ListsRangesAndCrossOptionRulesAreCheckedBeforeAnyRun) {
  const auto typo = run_program("kelp-bench-krylov", {"--solvers", "cg,gmres_MGS"});
  const auto blocks = run_program("kelp-bench-kpm", {"--min-block", "8", "--max-block", "2"});
  const auto triad = run_program("kelp-bench-kpm", {"--triad-mb", "nan"});

  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_EQ(first_line(typo.err), "kelp-bench-krylov: error: --solvers: unknown item 'gmres_MGS'; allowed: cg, "
                                  "cg_single, cg_flexible, gmres, gmres_mgs, gmres_left, gmres_cgs, "
                                  "gmres_cgs_ifneeded, bicgstab");
  EXPECT_EQ(blocks.exit_code, 2);
  EXPECT_EQ(first_line(blocks.err), "kelp-bench-kpm: error: --min-block: 8 is above --max-block 2");
  EXPECT_EQ(triad.exit_code, 2);
  EXPECT_EQ(first_line(triad.err), "kelp-bench-kpm: error: --triad-mb: 'nan' is not a finite number");
  EXPECT_EQ(typo.out + blocks.out + triad.out, "");  // nothing was run
}

TEST(BenchBatched, QuickRunPrintsLuLinesForEveryModeAndTheEigenPeer) {
  const auto program = run_program("kelp-bench-batched",
                                   {"--batches", "7", "--sizes", "1,3", "--repeats", "1", "--triad-mb", "1"});
  ASSERT_EQ(program.exit_code, 0) << program.err;
  std::istringstream out(program.out);
  std::string line;
  int kelp = 0, eigen = 0, fused = 0;
  while (std::getline(out, line)) {
    const json j = json::parse(line);
    EXPECT_EQ(j["bench"], "batched");
    if (j["kind"] != "lu") continue;
    EXPECT_GT(j["median_s"].get<double>(), 0.0) << line;
    (j["implementation"] == "kelp" ? kelp : eigen) += 1;
    fused += j["fused"].get<bool>() ? 1 : 0;
  }
  EXPECT_EQ(kelp, 2 * 3 * 2);  // 2 sizes x 3 modes x (fused, unfused)
  EXPECT_EQ(eigen, 2);
  EXPECT_EQ(fused, 2 * 3 + 2);
  const auto bad = run_program("kelp-bench-batched", {"--sizes", "0"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(first_line(bad.err).rfind("kelp-bench-batched: error: ", 0), 0u) << bad.err;
}

}  // namespace
}  // namespace kelp::bench_test
