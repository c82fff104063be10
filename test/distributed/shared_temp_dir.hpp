#pragma once
// A scratch folder that every rank sees (the ranks of these tests share one machine's /tmp):
// rank 0 names and creates it, broadcasts the name, and removes it at the end.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace kelp::test {

class SharedTempDir {
 public:
  SharedTempDir() {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::string name;
    if (rank == 0) {
      const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
      name = (std::filesystem::temp_directory_path() /
              ("kelp_dist_test_" + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name()))
                 .string();
      std::filesystem::create_directories(name);
    }
    long long length = static_cast<long long>(name.size());
    MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    name.resize(static_cast<std::size_t>(length));
    MPI_Bcast(name.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
    path_ = name;
    rank_ = rank;
  }
  ~SharedTempDir() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_ == 0) {
      std::error_code ec;
      std::filesystem::remove_all(path_, ec);
    }
  }
  SharedTempDir(const SharedTempDir&) = delete;
  SharedTempDir& operator=(const SharedTempDir&) = delete;

  /// Rank 0 writes `text` to `name` (gzip-compressed when the name ends in .gz); all ranks wait
  /// for it and get the path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::string file = path_ + "/" + name;
    if (rank_ == 0) {
      if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) {
        gzFile out = gzopen(file.c_str(), "wb");
        gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
        gzclose(out);
      } else {
        std::ofstream(file, std::ios::binary) << text;
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return file;
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
  int rank_ = 0;
};

}  // namespace kelp::test
