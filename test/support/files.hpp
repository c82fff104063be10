#pragma once
// Reading whole files in tests.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace kelp::test {

/// The bytes of a file ("" when it cannot be opened).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The number of entries in a folder.
inline std::size_t count_entries(const std::filesystem::path& folder) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(folder),
                                                std::filesystem::directory_iterator()));
}

}  // namespace kelp::test
