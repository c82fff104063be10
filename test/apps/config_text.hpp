#pragma once
// A run configuration from YAML text, for the tests of the run driver's configuration (test/apps).
#include <string>

#include "kelp/apps/driver/run/run.hpp"

namespace kelp::test {

/// Parses `text` as the file "text.yaml" (error messages name it); relative paths in it are
/// resolved against `base_dir`.
inline solvers::RunConfig parse_config(const std::string& text, const std::string& base_dir = "") {
  return solvers::parse_run_config(
      config::ConfigDocument::from_string(text, "text.yaml", base_dir).root());
}

}  // namespace kelp::test
