#pragma once
// A run configuration from YAML text, for the tests of the run driver's configuration (test/apps).
#include <gtest/gtest.h>

#include <string>

#include "kelp/apps/driver/run/run.hpp"

namespace kelp::test {

/// Parses `text` as the file "text.yaml" (error messages name it); relative paths in it are
/// resolved against `base_dir`.
inline solvers::RunConfig parse_config(const std::string& text, const std::string& base_dir = "") {
  return solvers::parse_run_config(
      config::ConfigDocument::from_string(text, "text.yaml", base_dir).root());
}

/// `text` with the first `from` replaced by `to`; a `from` that is not there fails the test.
inline std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "test bug: '" << from << "' not in the text";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace kelp::test
