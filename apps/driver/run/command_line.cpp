#include "kelp/apps/driver/run/command_line.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <ostream>

#include "kelp/apps/driver/run/run.hpp"

namespace kelp::solvers {

std::string command_line_usage() {
  return "usage: kelp run CONFIG.yaml [--set dotted.path=value]... [--print-config] "
         "[--report FILE]\n"
         "\n"
         "  run CONFIG.yaml     build the problem and the solver CONFIG.yaml describes, solve,\n"
         "                      print monitor lines and a summary\n"
         "  --set path=value    override one value, validated like the file; e.g.\n"
         "                        --set solver.max_iterations=200\n"
         "                        --set solver.preconditioner={type: jacobi, damping: 0.8}\n"
         "                      a value of ~ removes the key (its default applies)\n"
         "  --print-config      print the effective configuration (all defaults filled in) and\n"
         "                      exit without solving (output.print_config: true prints it and runs)\n"
         "  --report FILE       write a JSON report (same as --set output.report=FILE)\n"
         "  -h, --help          print this text\n"
         "\n"
         "exit codes: 0 converged, 2 bad input, 3 not converged (output.fail_on_no_convergence),\n"
         "            1 internal error\n";
}

namespace {

/// One line: newlines in messages would break "one error, one line".
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

int usage_error(std::ostream& err, const std::string& message) {
  err << "kelp: error: " << message << "\n" << command_line_usage();
  return static_cast<int>(ExitCode::bad_input);
}

struct Arguments {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string report;
  bool print_config = false;
};

}  // namespace

int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) return usage_error(err, "missing command");
  if (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    out << command_line_usage();
    return static_cast<int>(ExitCode::success);
  }
  if (args[0] != "run") return usage_error(err, "unknown command '" + args[0] + "'");

  Arguments arguments;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value_of = [&](const std::string& flag, std::string& value) {
      if (arg.rfind(flag + "=", 0) == 0) {
        value = arg.substr(flag.size() + 1);
        return true;
      }
      if (arg != flag) return false;
      if (i + 1 >= args.size()) throw std::invalid_argument("option " + flag + " needs a value");
      value = args[++i];
      return true;
    };
    try {
      std::string value;
      if (arg == "-h" || arg == "--help") {
        out << command_line_usage();
        return static_cast<int>(ExitCode::success);
      } else if (arg == "--print-config") {
        arguments.print_config = true;
      } else if (value_of("--set", value)) {
        arguments.overrides.push_back(value);
      } else if (value_of("--report", value)) {
        arguments.report = value;
      } else if (arg.size() > 1 && arg[0] == '-') {
        return usage_error(err, "unknown option '" + arg + "'");
      } else if (arguments.config_path.empty()) {
        arguments.config_path = arg;
      } else {
        return usage_error(err, "more than one configuration file ('" + arguments.config_path +
                                    "' and '" + arg + "')");
      }
    } catch (const std::invalid_argument& e) {
      return usage_error(err, e.what());
    }
  }
  if (arguments.config_path.empty()) return usage_error(err, "missing configuration file");

  try {
    auto document = config::ConfigDocument::from_file(arguments.config_path);
    for (const auto& assignment : arguments.overrides) document.apply_override(assignment);
    if (!arguments.report.empty()) {
      document.set_string("output.report", arguments.report, "--report " + arguments.report);
    }
    const RunConfig config = parse_run_config(document.root());
    if (arguments.print_config) {
      out << effective_config(config);
      return static_cast<int>(ExitCode::success);
    }
    const RunResult result = run(config, out);
    if (result.exit_code == ExitCode::not_converged) {
      char relative_residual[32];
      std::snprintf(relative_residual, sizeof relative_residual, "%.3e",
                    result.true_relative_residual);
      err << "kelp: error: not converged: the solver stopped with "
          << to_string(result.solve.reason) << " after " << result.solve.iterations
          << " iterations, true relative residual " << relative_residual
          << " (set output.fail_on_no_convergence: false to accept)\n";
    }
    return static_cast<int>(result.exit_code);
  } catch (const InvalidState& e) {  // calls out of order: a bug in Kelp, not bad input
    err << "kelp: error: internal error: " << one_line(e.what()) << "\n";
    return static_cast<int>(ExitCode::internal_error);
  } catch (const Error& e) {
    err << "kelp: error: " << one_line(e.what()) << "\n";
    return static_cast<int>(ExitCode::bad_input);
  } catch (const std::exception& e) {
    err << "kelp: error: internal error: " << one_line(e.what()) << "\n";
    return static_cast<int>(ExitCode::internal_error);
  } catch (...) {
    err << "kelp: error: internal error: unknown exception\n";
    return static_cast<int>(ExitCode::internal_error);
  }
}

}  // namespace kelp::solvers
