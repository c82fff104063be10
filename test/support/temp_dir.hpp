#pragma once
// A scratch folder per test, removed at the end of it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace kelp::test {

/// A folder of its own under the temporary directory, named after the running test (and the
/// process, so parallel ctest runs never share one), removed with everything in it at the end.
class TempDir {
 public:
  /// @param[in] purpose  tells apart the folders of one test
  explicit TempDir(const std::string& purpose = "files") {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("kelp_test_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" +
             info->name() + "_" + purpose);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Writes `text` to `name` in the folder and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file) << text;
    return file.string();
  }
  /// Path of `name` in the folder (not created).
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace kelp::test
