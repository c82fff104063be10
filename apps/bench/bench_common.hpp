#pragma once
/// What the benchmarks share: wall and CPU clocks, the median, one JSON line per result, a
/// description of the machine, and the command line (CLI11, as the kelp app's
/// apps/driver/run/command_line.cpp; Kokkos sees only the --kokkos-* arguments, as in
/// apps/kelp/main.cpp).
///
/// JSON lines are written with nlohmann::json, keys in insertion order. JSON has no NaN or
/// infinity: a non-finite number (a median of no samples, a ratio of zero times) is written as
/// null (number_or_null), never as a bare NaN token that parsers reject. Strings are escaped by
/// the library; invalid UTF-8 (a file name) is replaced by U+FFFD rather than failing.

#include <time.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kelp::bench {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

/// Wall seconds since `start` (the caller fences device work first).
inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// CPU time of this process (user + system, all threads), which other jobs on a shared machine
/// disturb far less than wall time.
inline double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

/// The median (mean of the two middle values for an even count); NaN for no values.
inline double median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 == 1 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

/// The smallest value; NaN for no values.
inline double minimum(const std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return *std::min_element(values.begin(), values.end());
}

/// Wall and CPU seconds of repeated runs of one function.
struct Samples {
  std::vector<double> wall;
  std::vector<double> cpu;
};

/// Runs `function` `repeat` times, timing each run by wall and by CPU clock.
template <class Function>
Samples time_runs(int repeat, const Function& function) {
  Samples samples;
  for (int r = 0; r < repeat; ++r) {
    const double cpu_start = cpu_seconds();
    const auto start = Clock::now();
    function();
    samples.wall.push_back(seconds_since(start));
    samples.cpu.push_back(cpu_seconds() - cpu_start);
  }
  return samples;
}

/// `value` as JSON, or null when it is NaN or infinite.
inline Json number_or_null(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

/// Prints `line` as one line of compact JSON and flushes, so that a crash later loses nothing.
inline void print_json_line(const Json& line, std::ostream& out = std::cout) {
  out << line.dump(-1, ' ', false, Json::error_handler_t::replace) << std::endl;
}

/// The CPU model from /proc/cpuinfo ("model name"), or "unknown".
inline std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      const auto start = colon == std::string::npos ? colon : line.find_first_not_of(" \t", colon + 1);
      if (start != std::string::npos) return line.substr(start);
    }
  }
  return "unknown";
}

// ---- Command lines -------------------------------------------------------------------------

/// Exit status of a bad command line (both benchmarks).
constexpr int kExitBadCommandLine = 2;

/// argv split as apps/kelp/main.cpp splits it: Kokkos sees only argv[0] and the --kokkos-*
/// arguments (it would also act on unprefixed ones such as --help, printing its own help first),
/// the benchmark's command line gets all the others.
class SplitArguments {
 public:
  // (1, argv[0]), not {argv[0]}: nvcc rewrites the braced list as {{argv[0]}}, which clang as its
  // host compiler warns about (-Wbraced-scalar-init).
  SplitArguments(int argc, char** argv) : kokkos_argv_(1, argv[0]) {
    for (int i = 1; i < argc; ++i) {
      if (std::string(argv[i]).rfind("--kokkos-", 0) == 0) {
        kokkos_argv_.push_back(argv[i]);
      } else {
        args_.emplace_back(argv[i]);
      }
    }
    kokkos_argc_ = static_cast<int>(kokkos_argv_.size());
    kokkos_argv_.push_back(nullptr);
  }
  SplitArguments(const SplitArguments&) = delete;
  SplitArguments& operator=(const SplitArguments&) = delete;

  /// For kelp::ScopeGuard (Kokkos::initialize), which removes the arguments it understood.
  int& kokkos_argc() { return kokkos_argc_; }
  char** kokkos_argv() { return kokkos_argv_.data(); }

  /// The benchmark's arguments, followed by what Kokkos left (not one of its options: the
  /// command line reports it as unknown). Call after Kokkos is initialized.
  std::vector<std::string> args() const {
    std::vector<std::string> args = args_;
    for (int i = 1; i < kokkos_argc_; ++i) args.emplace_back(kokkos_argv_[i]);
    return args;
  }

 private:
  std::vector<char*> kokkos_argv_;
  int kokkos_argc_ = 0;
  std::vector<std::string> args_;
};

/// CLI11 check: the value is an integer (the message names the value; CLI11 puts the option
/// before it).
inline CLI::Validator integer_value() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        long long value = 0;
        return CLI::detail::lexical_cast(text, value) ? "" : "'" + text + "' is not an integer";
      },
      "");
}

/// CLI11 check: the value is a number.
inline CLI::Validator number_value() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double value = 0;
        return CLI::detail::lexical_cast(text, value) ? "" : "'" + text + "' is not a number";
      },
      "");
}

/// CLI11 check: the value is a finite number in [low, high] (CLI::Range lets nan through: every
/// comparison with it is false).
inline CLI::Validator finite_range(double low, double high) {
  const auto show = [](double x) {
    std::ostringstream text;
    text << x;
    return text.str();
  };
  const std::string range = "[" + show(low) + ", " + show(high) + "]";
  return CLI::Validator(
      [range, low, high](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value)) return "'" + text + "' is not a finite number";
        return value < low || value > high ? "'" + text + "' is outside " + range : "";
      },
      "FLOAT in " + range);
}

/// CLI11 check: a comma-separated list whose every item is one of `allowed` (a typo would
/// otherwise be measured as some other item, under its own name).
inline CLI::Validator comma_list_of(std::vector<std::string> allowed) {
  std::string names;
  for (const auto& name : allowed) names += (names.empty() ? "" : ", ") + name;
  return CLI::Validator(
      [allowed, names](std::string& text) -> std::string {
        std::stringstream list(text);
        for (std::string item; std::getline(list, item, ',');) {
          if (std::find(allowed.begin(), allowed.end(), item) == allowed.end()) {
            return "unknown item '" + item + "'; allowed: " + names;
          }
        }
        return "";
      },
      "");
}

namespace detail {

/// One line: newlines in messages would break "one error, one line".
inline std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

/// CLI11's message for an option without its value is "--n: 1 required INT missing".
inline std::string describe(const CLI::ParseError& e) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) != nullptr &&
      what.find("missing") != std::string::npos && what.find(':') != std::string::npos) {
    return "option " + what.substr(0, what.find(':')) + " needs a value";
  }
  return what;
}

}  // namespace detail

/// Parses `args` (the arguments after the program name) into the options of `app`. Returns -1
/// when the benchmark is to run; otherwise the exit status: 0 after --help (the help on `out`),
/// kExitBadCommandLine after one line "NAME: error: ..." and `usage` on `err`.
/// Unknown arguments are collected (allow_extras), not rejected by CLI11, so that the error can
/// say whether an option or a stray argument was not understood.
inline int parse_command_line(CLI::App& app, const std::vector<std::string>& args,
                              const std::string& usage, std::ostream& out = std::cout,
                              std::ostream& err = std::cerr) {
  const auto fail = [&](const std::string& message) {
    err << app.get_name() << ": error: " << detail::one_line(message) << "\n" << usage;
    return kExitBadCommandLine;
  };
  app.allow_extras();
  // "--option=" is "--option ''": CLI11 would take the next argument as its value.
  std::vector<std::string> reversed;  // CLI11 pops from the back
  for (auto arg = args.rbegin(); arg != args.rend(); ++arg) {
    if (arg->size() > 3 && arg->rfind("--", 0) == 0 && arg->find('=') == arg->size() - 1) {
      reversed.emplace_back();
      reversed.push_back(arg->substr(0, arg->size() - 1));
    } else {
      reversed.push_back(*arg);
    }
  }
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    return fail(detail::describe(e));
  }
  const std::vector<std::string> extra = app.remaining();
  for (const std::string& arg : extra) {
    if (arg.size() > 1 && arg[0] == '-') return fail("unknown option '" + arg + "'");
  }
  if (!extra.empty()) return fail("unexpected argument '" + extra.front() + "'");
  return -1;
}

}  // namespace kelp::bench
