#include "kelp/apps/driver/run/command_line.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <ostream>
#include <sstream>
#include <string>

#include "kelp/apps/driver/run/build_info.hpp"
#include "kelp/apps/driver/run/run.hpp"

namespace kelp::solvers {

namespace {

/// Whether some computed eigenvalue is no larger than `residual` in modulus: the relative test
/// ||r|| <= relative_tolerance * |lambda| then asks for a residual below rounding.
bool near_zero_eigenvalue(const EigenOutcome& eigen, double residual) {
  for (const double lambda : eigen.eigenvalues) {
    if (std::abs(lambda) <= residual) return true;
  }
  return false;
}

struct Arguments {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string report;
  bool print_config = false;
  bool version = false;
};

/// The command line's definition (CLI11); parsing stores into `arguments`.
/// Unknown arguments are collected (allow_extras), not rejected by CLI11, so that the errors
/// can say which kind of argument was not understood (command, option, second file).
struct CommandLine {
  CLI::App app{"kelp: solves the sparse linear system a YAML configuration describes, with the "
               "solver and preconditioner it names",
               "kelp"};
  CLI::App* run = nullptr;
  CLI::App* info = nullptr;

  explicit CommandLine(Arguments& arguments) {
    app.footer(
        "Exit codes: 0 converged (or output.fail_on_no_convergence: false), 2 bad input\n"
        "(command line, configuration, files, sizes), 3 not converged, 1 internal error.\n"
        "Run 'kelp run --help' for the options of run.");
    app.allow_extras();
    app.require_subcommand(0, 1);
    app.add_flag("--version", arguments.version,
                 "print the Kelp version, git revision, Kokkos version and backends, host "
                 "threads and GPU, and exit");

    run = app.add_subcommand("run", "build the problem and the solver CONFIG.yaml describes, "
                                    "solve, print monitor lines and a summary");
    run->allow_extras();
    run->add_option("CONFIG.yaml", arguments.config_path, "the configuration file");
    run->add_option("--set", arguments.overrides,
                    "override one value (repeatable), validated like the file, e.g.\n"
                    "--set solver.max_iterations=200\n"
                    "--set 'solver.preconditioner={type: jacobi, damping: 0.8}'\n"
                    "a value of ~ removes the key (its default applies)")
        ->type_name("PATH=VALUE")
        ->allow_extra_args(false);  // one value per --set, so CONFIG.yaml may follow it
    run->add_flag("--print-config", arguments.print_config,
                  "print the effective configuration (all defaults filled in) and exit without "
                  "solving (output.print_config: true prints it and runs)");
    run->add_option("--report", arguments.report,
                    "write a JSON report to FILE (same as --set output.report=FILE); checked to "
                    "be writable before the run starts")
        ->type_name("FILE");
    run->footer("Example: kelp run configs/poisson3d_jacobi_cg.yaml --set problem.generator.nx=50");

    info = app.add_subcommand("info", "same as --version");
    info->allow_extras();
  }
};

/// One line: newlines in messages would break "one error, one line".
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

/// Sizes the machine cannot hold (num_moments: 2147483647, a GMRES restart of 10^6, ...) are bad
/// input, not a bug: exit 2 with what failed and what to look at.
int out_of_memory(std::ostream& err, const std::string& what) {
  err << "kelp: error: out of memory: " << one_line(what)
      << "; the configuration asks for more memory than this machine has (check its sizes: the grid, "
         "num_moments, num_vectors, block_size, restart, num_eigenpairs)\n";
  return static_cast<int>(ExitCode::bad_input);
}

int usage_error(std::ostream& err, const std::string& message) {
  err << "kelp: error: " << one_line(message) << "\n" << command_line_usage();
  return static_cast<int>(ExitCode::bad_input);
}

/// CLI11's message for an option without its value is "--set: 1 required TEXT missing".
std::string describe(const CLI::ParseError& e) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr &&
      what.find("missing") != std::string::npos && what.find(':') != std::string::npos) {
    return "option " + what.substr(0, what.find(':')) + " needs a value";
  }
  return what;
}

bool is_option(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }

/// The error for the arguments that no option or positional took; empty when there are none.
std::string unexpected_arguments(const CommandLine& command_line, const Arguments& arguments) {
  const CLI::App* apps[] = {&command_line.app, command_line.run, command_line.info};
  for (const CLI::App* app : apps) {
    for (const std::string& arg : app->remaining()) {
      if (is_option(arg)) return "unknown option '" + arg + "'";
    }
  }
  if (const auto extra = command_line.app.remaining(); !extra.empty()) {
    return "unknown command '" + extra.front() + "'";
  }
  if (const auto extra = command_line.run->remaining(); !extra.empty()) {
    return "more than one configuration file ('" + arguments.config_path + "' and '" +
           extra.front() + "')";
  }
  if (const auto extra = command_line.info->remaining(); !extra.empty()) {
    return "info takes no arguments; got '" + extra.front() + "'";
  }
  return "";
}

}  // namespace

std::string command_line_usage() {
  return "usage: kelp run CONFIG.yaml [--set dotted.path=value]... [--print-config] "
         "[--report FILE]\n"
         "       kelp info | kelp --version | kelp [run] --help\n";
}

std::string command_line_help() {
  Arguments arguments;
  return CommandLine(arguments).app.help();
}

namespace {

int run_command_line_to(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) return usage_error(err, "missing command");
  Arguments arguments;
  CommandLine command_line(arguments);
  if (args[0] == "help") {
    out << command_line.app.help();
    return static_cast<int>(ExitCode::success);
  }
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 pops from the back
    command_line.app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << command_line.app.help();  // the help of the subcommand given, if any
    return static_cast<int>(ExitCode::success);
  } catch (const CLI::ParseError& e) {
    return usage_error(err, describe(e));
  }
  if (const std::string problem = unexpected_arguments(command_line, arguments); !problem.empty()) {
    return usage_error(err, problem);
  }
  if (arguments.version || command_line.info->parsed()) {
    out << build_info();
    return static_cast<int>(ExitCode::success);
  }
  if (!command_line.run->parsed()) return usage_error(err, "missing command");
  if (arguments.config_path.empty()) return usage_error(err, "missing configuration file");

  try {
    auto document = config::ConfigDocument::from_file(arguments.config_path);
    for (const auto& assignment : arguments.overrides) document.apply_override(assignment);
    if (!arguments.report.empty()) {
      document.set_string("output.report", arguments.report, "--report " + arguments.report);
    }
    RunConfig config = parse_run_config(document.root());
    config.config_file = arguments.config_path;
    if (arguments.print_config) {
      out << effective_config(config);
      return static_cast<int>(ExitCode::success);
    }
    const RunResult result = run(config, out);
    if (result.exit_code == ExitCode::not_converged) {
      char relative_residual[32];
      std::snprintf(relative_residual, sizeof relative_residual, "%.3e",
                    result.true_relative_residual);
      if (result.converged_in_preconditioned_norm_only) {
        err << "kelp: error: not converged: the solver converged in the preconditioned norm only "
               "(side: left), and the true relative residual "
            << relative_residual
            << " misses the tolerance (use side: right, or set output.fail_on_no_convergence: false to accept)\n";
        return static_cast<int>(result.exit_code);
      }
      if (result.true_residual_misses_tolerance) {
        err << "kelp: error: not converged: the solver stopped as converged, but the true relative residual "
            << relative_residual
            << ", recomputed, misses the tolerance (use scalar: double or a larger tolerance, or set "
               "output.fail_on_no_convergence: false to accept)\n";
        return static_cast<int>(result.exit_code);
      }
      // Task eigen's figure is the largest ||A x - lambda x||, an absolute norm.
      const bool eigen = config.task.type == TaskKind::eigen;
      err << "kelp: error: not converged: the solver stopped with "
          << to_string(result.solve.reason) << " after " << result.solve.iterations
          << (eigen ? " iterations, largest ||A x - lambda x|| " : " iterations, true relative residual ")
          << relative_residual;
      if (eigen && config.eigen.params.absolute_tolerance == 0 && result.true_relative_residual > 0 &&
          near_zero_eigenvalue(result.eigen, result.true_relative_residual)) {
        err << "; an eigenvalue near 0 cannot meet relative_tolerance * |lambda|: set eigen.absolute_tolerance";
      }
      err << " (set output.fail_on_no_convergence: false to accept)\n";
    }
    return static_cast<int>(result.exit_code);
  } catch (const InvalidState& e) {  // calls out of order: a bug in Kelp, not bad input
    err << "kelp: error: internal error: " << one_line(e.what()) << "\n";
    return static_cast<int>(ExitCode::internal_error);
  } catch (const Error& e) {
    err << "kelp: error: " << one_line(e.what()) << "\n";
    return static_cast<int>(ExitCode::bad_input);
  } catch (const std::bad_alloc& e) {
    return out_of_memory(err, e.what());
  } catch (const std::exception& e) {
    // Kokkos reports a failed View allocation as a std::runtime_error that names the View.
    if (std::string(e.what()).rfind("Kokkos failed to allocate memory", 0) == 0) return out_of_memory(err, e.what());
    err << "kelp: error: internal error: " << one_line(e.what()) << "\n";
    return static_cast<int>(ExitCode::internal_error);
  } catch (...) {
    err << "kelp: error: internal error: unknown exception\n";
    return static_cast<int>(ExitCode::internal_error);
  }
}

}  // namespace

int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  // The error lines are written in one piece at the end: under mpirun every rank reports the same
  // collective error, and piecewise writes of several ranks ran together on one line.
  std::ostringstream buffered;
  const int code = run_command_line_to(args, out, buffered);
  const std::string text = buffered.str();
  err.write(text.data(), static_cast<std::streamsize>(text.size()));
  err.flush();
  return code;
}

}  // namespace kelp::solvers
