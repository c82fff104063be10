#pragma once
/// The run driver behind `kelp run`: configuration -> task -> problem -> solver -> report.
///
/// A configuration file has four sections:
///
///   task: {type: solve, repeat: 1}   TaskParams; `task: solve` for short; default solve
///   problem: {...}   see apps/driver/problem/problem.hpp (scalar, matrix, rhs, initial guess)
///   solver:          see apps/driver/registry/components/cg.hpp
///     type: cg
///     max_iterations: 1000
///     relative_tolerance: 1.0e-8
///     absolute_tolerance: 0
///     preconditioner: {type: jacobi, damping: 1.0}
///   eigen:           task eigen only: LOBPCG's params and preconditioner (eigen_config.hpp);
///                    `solver` is then not needed
///   output:          OutputParams
///     monitor_every: 10
///     solution: x.mtx
///
/// run() dispatches on task.type through task_table(); each task dispatches on problem.scalar
/// (dispatch_scalar), so the whole run works for float, double and complex<double>.
/// Tests call load_run_config and run directly; the app only adds argument parsing
/// (apps/driver/run/command_line.hpp).

#include <iosfwd>
#include <string>
#include <variant>
#include <vector>

#include "kelp/apps/driver/problem/problem.hpp"
#include "kelp/apps/driver/run/eigen_config.hpp"
#include "kelp/apps/driver/run/dos_config.hpp"

namespace kelp::solvers {

/// What `kelp run` does with the problem. eigen and dos come next (issue 6).
enum class TaskKind { solve, eigen, dos };
/// Names of TaskKind in configurations: solve, eigen.
const config::Choices<TaskKind>& task_kinds();

/// The `task` section.
struct TaskParams {
  /// Default solve.
  TaskKind type = TaskKind::solve;
  /// Times the value setup and the solve run (the time-stepping pattern: setup_symbolic once,
  /// then repeat x {setup_numeric, solve from the initial guess}), so that the cost of a
  /// values-only re-setup is measured. Default 1.
  int repeat = 1;
};
void task_fields(config::FieldVisitor& v, TaskParams& params);

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
  /// Path of the solution x, written as a Matrix Market array file (real or complex by the
  /// scalar, every digit needed to read back the same values), relative to the working
  /// directory; empty (default) writes none. Checked before the run like `report`; written to a
  /// temporary file in the same folder and renamed, so an existing file is replaced only by a
  /// complete new one.
  std::string solution;
};
void output_fields(config::FieldVisitor& v, OutputParams& params);

/// How `distribution.partition` assigns rows to MPI ranks (issue 14).
enum class PartitionMethod { rows, nonzeros, metis };
/// Names of PartitionMethod in configurations: rows, nonzeros, metis.
const config::Choices<PartitionMethod>& partition_methods();

/// The `distribution` section: present = run under MPI (kelp run under mpirun), one block of
/// rows per rank, preconditioner on each rank's local block (block Jacobi / additive Schwarz
/// without overlap). See docs/architecture.md, "kelp run under mpirun".
struct DistributionParams {
  /// rows (default): contiguous, equal row counts; nonzeros: contiguous, equal entry counts;
  /// metis: METIS graph partition (renumbered; the solution is written in the original order).
  PartitionMethod partition = PartitionMethod::rows;
};
void distribution_fields(config::FieldVisitor& v, DistributionParams& params);

/// A parsed configuration.
struct RunConfig {
  TaskParams task;
  ProblemConfig problem;
  /// The solver spec (solver_registry()); required for task solve, empty when absent.
  ComponentSpec solver;
  OutputParams output;
  /// The `eigen` section (task eigen only; see eigen_config.hpp).
  EigenConfig eigen;
  /// The `dos` section (task dos only; see dos_config.hpp).
  DosConfig dos;
  /// True when the configuration has a `distribution` section (task solve under MPI).
  bool distributed = false;
  DistributionParams distribution;
  /// The file the configuration was read from (load_run_config, `kelp run`); empty when it
  /// was parsed from text. No output may name it (check_output_paths).
  std::string config_file;
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

/// The problem and the computed solution, in the configuration's scalar.
template <class Scalar>
struct Solution {
  Problem<Scalar> problem;
  /// The solution of the last repetition.
  ConfigVector<Scalar> x;
};

/// One value setup and solve (task.repeat of them).
struct Repetition {
  double setup_numeric_seconds = 0;
  double solve_seconds = 0;
  SolveResult solve;
};

/// What a run produced.
struct RunResult {
  ProblemDescription problem;
  /// Holds the Solution of the configuration's scalar.
  std::variant<Solution<float>, Solution<double>, Solution<Kokkos::complex<double>>> solution;
  /// The solver's own report of the last repetition.
  SolveResult solve;
  /// Every repetition, in order (task.repeat of them).
  std::vector<Repetition> repetitions;
  std::string solver_summary;
  /// ||b - A x|| and ||b - A x|| / ||b|| (||b - A x|| when b = 0) of the last repetition,
  /// recomputed by the driver with a fresh SpMV in the scalar's precision, independently of
  /// the solver.
  double true_residual_norm = 0;
  double true_relative_residual = 0;
  /// Wall times: building A, b and x0; the pattern setup (once); the value setups and the solves
  /// (summed over the repetitions).
  double problem_seconds = 0;
  double setup_symbolic_seconds = 0;
  double setup_numeric_seconds = 0;
  double solve_seconds = 0;
  /// The solver converged in the preconditioned norm (side: left) but ||b - A x|| misses the
  /// tolerance: the driver does not count that as converged.
  bool converged_in_preconditioned_norm_only = false;
  /// The solver stopped as converged, but ||b - A x|| recomputed by the driver (in double for a
  /// float problem) exceeds the tolerance bound by more than rounding: a float solve stopped on
  /// float residuals that double arithmetic put 2.4 times above it. Not counted as converged.
  bool true_residual_misses_tolerance = false;
  /// not_converged when any repetition did not converge, converged in the preconditioned norm
  /// only, or its true residual misses the tolerance (and fail_on_no_convergence).
  ExitCode exit_code = ExitCode::success;
  /// Eigenpairs of task eigen (empty otherwise).
  EigenOutcome eigen;
  /// The density of states of task dos (empty otherwise).
  DosOutcome dos;

  /// The Solution in Scalar. @throws InvalidArgument when the run used another scalar
  template <class Scalar>
  const Solution<Scalar>& solution_as() const {
    const auto* s = std::get_if<Solution<Scalar>>(&solution);
    KELP_REQUIRE(s != nullptr, InvalidArgument,
                 "kelp::solvers::RunResult::solution_as: the run's scalar is "
                     << to_string(problem.scalar) << ", not "
                     << to_string(scalar_kind_of<Scalar>()));
    return *s;
  }
};

/// One entry of the task table: a task and the function that runs it.
struct TaskEntry {
  TaskKind kind;
  const char* description;
  RunResult (*run)(const RunConfig& config, std::ostream& out);
};
/// The tasks run() dispatches on, one entry per TaskKind.
const std::vector<TaskEntry>& task_table();

/// Checks, before any work, that every output file of the configuration (output.report,
/// output.solution, dos.csv) can be written: opens it for appending, so an existing file is kept
/// as it is, and removes a file the check created. Also that no output names a file the run
/// reads (the configuration itself, problem.matrix, the rhs or initial-guess file) or the same
/// file as another output: the run would destroy the user's input, or one output the other.
/// @throws FileError naming the key and the path when one cannot be written, and naming both
///         keys when two name the same file
void check_output_paths(const RunConfig& config);

/// Runs the configured task, printing to `out`. For solve: the problem (n, nnz), the solver,
/// monitor lines ("iter    25  residual 3.1e+01  relative 3.1e-02") and a summary. Checks the
/// output paths first (check_output_paths); writes the solution and the JSON report when
/// output.solution and output.report are set. The phases are Kokkos profiling regions:
/// kelp::run::problem, kelp::run::setup_symbolic, then per repetition kelp::run::setup_numeric
/// and kelp::run::solve, then kelp::run::true_residual.
/// @throws kelp::Error for bad input (unreadable files, dimension mismatches, failed setup,
///         an output file that cannot be written)
RunResult run(const RunConfig& config, std::ostream& out);

/// Writes the JSON report of a run: effective configuration, scalar, problem size, iterations,
/// stop reason, residuals (solver's and true), residual history, timings of each phase and of
/// each repetition. Numbers that are not finite (a NaN residual after a breakdown, say) are
/// written as null, since JSON has no NaN.
/// @throws FileError when the file cannot be written
void write_report(const std::string& path, const RunConfig& config, const RunResult& result);

}  // namespace kelp::solvers
