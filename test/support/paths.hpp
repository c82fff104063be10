#pragma once
// Where tests find the real matrices (test/data/matrices) and the tiny files in test/data.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace kelp::test {

/// Folder of the shared Matrix Market collection (test/data/matrices; env KELP_MATRICES_DIR wins).
inline std::string matrices_dir() {
  if (const char* env = std::getenv("KELP_MATRICES_DIR")) return env;
  return KELP_MATRICES_DIR_DEFAULT;
}
inline std::string matrix_path(const std::string& name) {
  return matrices_dir() + "/" + name + ".mtx.gz";
}
inline std::string oracle_path(const std::string& name) {
  return matrices_dir() + "/oracles/" + name + ".json";
}
inline std::string data_path(const std::string& file) {
  return std::string(KELP_TEST_DATA_DIR) + "/" + file;
}

/// Names (without .mtx.gz) of the shared matrices that have an oracle JSON beside them, sorted.
inline std::vector<std::string> shared_matrix_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(matrices_dir() + "/oracles", ec)) {
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace kelp::test
