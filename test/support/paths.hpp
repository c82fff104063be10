#pragma once
// Where tests find the real matrices (test/data/matrices) and the tiny files in test/data.
#include <cstdlib>
#include <string>

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

}  // namespace kelp::test
