#pragma once
/// The `kelp` command line, as a library function so that tests can run it in-process:
///
///   kelp run CONFIG.yaml [--set dotted.path=value]... [--print-config] [--report FILE]
///   kelp info            (same as kelp --version)
///   kelp --help          kelp run --help
///
/// Parsed with CLI11: options may come before or after CONFIG.yaml, `--set` repeats (one
/// PATH=VALUE per --set), `--set=PATH=VALUE` and `--report=FILE` work too.
/// Exit codes (ExitCode): 0 converged (or output.fail_on_no_convergence: false), 2 bad input
/// (usage, configuration, unreadable or malformed files, dimension mismatches, an output file
/// that cannot be written), 3 not converged, 1 unexpected internal error. Every error is one line
/// "kelp: error: ..." on `err`; command-line errors are followed by the short usage.

#include <iosfwd>
#include <string>
#include <vector>

namespace kelp::solvers {

/// The short usage (two lines), printed after a command-line error.
std::string command_line_usage();

/// The full help of `kelp --help`.
std::string command_line_help();

/// Runs the command line `args` (without the program name; Kokkos arguments already removed).
/// Regular output (help, version, monitor lines) goes to `out`, errors and usage after an error
/// to `err`. Kokkos must be initialized.
/// @return the process exit code
int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace kelp::solvers
