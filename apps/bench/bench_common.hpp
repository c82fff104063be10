#pragma once
/// What the benchmarks share: wall and CPU clocks, the median, one JSON line per result, and a
/// description of the machine.
///
/// JSON lines are written with nlohmann::json, keys in insertion order. JSON has no NaN or
/// infinity: a non-finite number (a median of no samples, a ratio of zero times) is written as
/// null (number_or_null), never as a bare NaN token that parsers reject. Strings are escaped by
/// the library; invalid UTF-8 (a file name) is replaced by U+FFFD rather than failing.

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
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

}  // namespace kelp::bench
