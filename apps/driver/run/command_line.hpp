#pragma once
/// The `kelp` command line, as a library function so that tests can run it in-process:
///
///   kelp run CONFIG.yaml [--set dotted.path=value]... [--print-config] [--report FILE]
///
/// Exit codes (ExitCode): 0 converged (or output.fail_on_no_convergence: false), 2 bad input
/// (usage, configuration, unreadable or malformed files, dimension mismatches), 3 not converged,
/// 1 unexpected internal error. Every error is one line "kelp: error: ..." on `err`.

#include <iosfwd>
#include <string>
#include <vector>

namespace kelp::solvers {

/// The usage text.
std::string command_line_usage();

/// Runs the command line `args` (without the program name; Kokkos arguments already removed).
/// Regular output goes to `out`, errors and usage after an error to `err`.
/// @return the process exit code
int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace kelp::solvers
