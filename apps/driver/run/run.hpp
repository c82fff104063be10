#pragma once
/// The run driver behind `kelp run`: configuration -> problem -> solver -> solve -> summary.
///
/// A configuration file has three sections:
///
///   problem: {...}   see apps/driver/problem/problem.hpp
///   solver:          see apps/driver/registry/solver_registry.hpp
///     type: cg
///     max_iterations: 1000
///     relative_tolerance: 1.0e-8
///     absolute_tolerance: 0
///     preconditioner: {type: jacobi, damping: 1.0}
///   output:          OutputParams
///     monitor_every: 10
///
/// Tests call load_run_config and run directly; the app only adds argument parsing
/// (apps/driver/run/command_line.hpp).

#include <iosfwd>
#include <string>
#include <vector>

#include "kelp/apps/driver/problem/problem.hpp"

namespace kelp::solvers {

/// The `output` section.
struct OutputParams {
  /// Print a monitor line every monitor_every iterations (and one for the initial residual);
  /// 0 prints none. Default 10: readable for runs of a few hundred iterations.
  int monitor_every = 10;
  /// Print the effective configuration (all defaults filled in) before running. Default false.
  bool print_config = false;
  /// Exit with code 3 when the solver does not converge. Default true, so scripts and tests
  /// notice failures; set false to study a non-converging method.
  bool fail_on_no_convergence = true;
  /// Path of the JSON report, relative to the working directory; empty (default) writes none.
  /// run() checks that it can be written before it starts (check_output_paths).
  std::string report;
};
void output_fields(config::FieldVisitor& v, OutputParams& params);

/// A parsed configuration.
struct RunConfig {
  ProblemConfig problem;
  /// The solver spec (solver_registry()).
  ComponentSpec solver;
  OutputParams output;
};

/// Parses a whole configuration (the document root). @throws ConfigError
RunConfig parse_run_config(const config::ConfigNode& root);
/// The effective configuration as a YAML tree, every default filled in.
YAML::Node write_run_config(const RunConfig& config);
/// The effective configuration as YAML text; parse_run_config of it gives the same config.
std::string effective_config(const RunConfig& config);
/// Reads `path`, applies the overrides ("dotted.path=value", in order) and parses.
/// @throws FileError when the file cannot be read, ConfigError for anything invalid
RunConfig load_run_config(const std::string& path, const std::vector<std::string>& overrides = {});

/// Process exit codes of `kelp`.
enum class ExitCode : int {
  success = 0,         ///< converged, or fail_on_no_convergence is false
  internal_error = 1,  ///< an unexpected error (a bug)
  bad_input = 2,       ///< usage, configuration, file or dimension errors
  not_converged = 3,   ///< the solver stopped without converging and fail_on_no_convergence
};

/// What a run produced.
struct RunResult {
  Problem problem;
  /// The computed solution (zero initial guess).
  ConfigVector x;
  /// The solver's own report.
  SolveResult solve;
  std::string solver_summary;
  /// ||b - A x|| and ||b - A x|| / ||b|| (||b - A x|| when b = 0), recomputed by the driver
  /// with a fresh SpMV, independently of the solver.
  double true_residual_norm = 0;
  double true_relative_residual = 0;
  /// Wall times: building A and b; building the solver and preconditioner (incl. setup); solve.
  double problem_seconds = 0;
  double setup_seconds = 0;
  double solve_seconds = 0;
  ExitCode exit_code = ExitCode::success;
};

/// Checks, before any work, that every output file of the configuration (output.report) can be
/// written: opens it for appending, so an existing file is kept as it is, and removes a file the
/// check created.
/// @throws FileError naming the key and the path when one cannot be written
void check_output_paths(const RunConfig& config);

/// Builds and solves the configured problem, printing to `out`: the problem (n, nnz), the
/// solver, monitor lines ("iter    25  residual 3.1e+01  relative 3.1e-02") and a summary.
/// Checks the output paths first (check_output_paths); writes the JSON report when
/// output.report is set. The phases are Kokkos profiling regions: kelp::run::problem,
/// kelp::run::setup (solver and preconditioner), kelp::run::solve, kelp::run::true_residual.
/// @throws kelp::Error for bad input (unreadable files, dimension mismatches, failed setup,
///         an output file that cannot be written)
RunResult run(const RunConfig& config, std::ostream& out);

/// Writes the JSON report of a run: effective configuration, problem size, iterations, stop
/// reason, residuals (solver's and true), residual history and timings. Numbers that are not
/// finite (a NaN residual after a breakdown, say) are written as null, since JSON has no NaN.
/// @throws FileError when the file cannot be written
void write_report(const std::string& path, const RunConfig& config, const RunResult& result);

}  // namespace kelp::solvers
