#pragma once
/// The main() that every CLI11-based kelp-bench-* app shares: bound threads, Kokkos' own
/// arguments split off and Kokkos started, the app's options parsed (help, one-line errors with
/// the usage), and the benchmark run with any exception reported as a JSON error line.
///
///   int main(int argc, char** argv) {
///     Options options;
///     return kelp::bench::bench_main(argc, argv, "cg", "kelp-bench-cg: what it measures",
///         [&](CLI::App& app) { app.add_option("--n", options.n, "..."); },
///         [&] { return run(options); });
///   }

#include <CLI/CLI.hpp>
#include <exception>
#include <string>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/driver/run/thread_binding.hpp"
#include "kelp/kernels/core/scope_guard.hpp"

namespace kelp::bench {

/// Runs the benchmark `kelp-bench-<bench>`: `add_options(app)` declares its options, `run()`
/// (called after a successful parse) returns the exit status. Returns 0 after --help,
/// kExitBadCommandLine for a bad command line, 1 when `run` throws (the message goes out as
/// {"bench": bench, "kind": "error", "message": ...}).
template <class AddOptions, class Run>
int bench_main(int argc, char** argv, const std::string& bench, const std::string& description,
               AddOptions&& add_options, Run&& run) {
  kelp::solvers::bind_threads_or_restart(argv);  // bound threads, and no warning in the JSON
  SplitArguments arguments(argc, argv);
  kelp::ScopeGuard kokkos(arguments.kokkos_argc(), arguments.kokkos_argv());
  const std::string name = "kelp-bench-" + bench;
  CLI::App app{description, name};
  add_options(app);
  if (const int status = parse_command_line(app, arguments.args(), "usage: " + name + " [options]\n");
      status >= 0) {
    return status;
  }
  try {
    return run();
  } catch (const std::exception& e) {
    print_json_line(Json{{"bench", bench}, {"kind", "error"}, {"message", e.what()}});
    return 1;
  }
}

}  // namespace kelp::bench
