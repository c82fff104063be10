// kernels/core/huge_pages.hpp: which part of a range is advised (whole 2 MiB pages inside it),
// that Linux records the advice on that part (the "hg" flag of its mapping in /proc/self/smaps),
// that the contents do not change, and that small or device arrays are left alone.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "kelp/kernels/core/huge_pages.hpp"

namespace kelp::huge_pages_test {
namespace {

constexpr std::size_t MiB = std::size_t(1) << 20;
constexpr std::uintptr_t page = impl::huge_page_bytes;

const void* address(std::uintptr_t a) { return reinterpret_cast<const void*>(a); }

TEST(HugePages, RangeIsTheWholeHugePagesInside) {
  // Starts 100 bytes into a huge page, ends 5 bytes into the fourth page after it.
  auto r = impl::huge_page_range(address(7 * page + 100), 4 * page - 95);
  EXPECT_EQ(r.offset, page - 100);
  EXPECT_EQ(r.bytes, 3 * page);
  // Already aligned at both ends: all of it.
  r = impl::huge_page_range(address(8 * page), 2 * page);
  EXPECT_EQ(r.offset, 0u);
  EXPECT_EQ(r.bytes, 2 * page);
  // A range of more than a huge page that holds no whole one, one too small, empty, null.
  EXPECT_EQ(impl::huge_page_range(address(8 * page + 1), page + page / 2).bytes, 0u);
  EXPECT_EQ(impl::huge_page_range(address(8 * page), page - 1).bytes, 0u);
  EXPECT_EQ(impl::huge_page_range(address(8 * page), 0).bytes, 0u);
  EXPECT_EQ(impl::huge_page_range(nullptr, 4 * page).bytes, 0u);
  // A range that would wrap around the address space.
  EXPECT_EQ(impl::huge_page_range(address(UINTPTR_MAX - page), 4 * page).bytes, 0u);
}

/// The VmFlags line of the mapping that holds address a in /proc/self/smaps ("" if none).
std::string vm_flags_of(const void* a) {
  std::ifstream smaps("/proc/self/smaps");
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (line.find("VmFlags:") == 0) {
      if (inside) return line;
    } else if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= x && x < hi;
    }
  }
  return "";
}

bool linux_has_transparent_huge_pages() {
  return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good();
}

TEST(HugePages, AdvisesTheRangeAndKeepsItsContents) {
  const std::size_t bytes = 9 * MiB;
  std::unique_ptr<unsigned char[]> buffer(new unsigned char[bytes]);
  for (std::size_t i = 0; i < bytes; ++i) buffer[i] = static_cast<unsigned char>(i * 31 + 7);
  const auto r = impl::huge_page_range(buffer.get(), bytes);
  ASSERT_GE(r.bytes, 3 * MiB);  // 9 MiB hold at least 3 whole huge pages (6 MiB)
  const std::size_t advised = impl::advise_huge_pages(buffer.get(), bytes);
  for (std::size_t i = 0; i < bytes; ++i) {
    ASSERT_EQ(buffer[i], static_cast<unsigned char>(i * 31 + 7)) << "byte " << i << " changed";
  }
  if (!linux_has_transparent_huge_pages()) {
    EXPECT_EQ(advised, 0u);
    GTEST_SKIP() << "no transparent huge pages here: nothing to check beyond the contents";
  }
  EXPECT_EQ(advised, r.bytes);
  const std::string flags = vm_flags_of(buffer.get() + r.offset);
  ASSERT_FALSE(flags.empty()) << "no mapping of the advised range in /proc/self/smaps";
  EXPECT_NE((flags + " ").find(" hg "), std::string::npos) << flags;
}

TEST(HugePages, ViewsOfHostMemoryOnly) {
  Kokkos::View<double*, Kokkos::HostSpace> big("big", 5 * MiB / sizeof(double));
  Kokkos::View<double*, Kokkos::HostSpace> small("small", 1000);
  EXPECT_EQ(impl::advise_huge_pages(small), 0u);
  const std::size_t advised = impl::advise_huge_pages(big);
  EXPECT_EQ(advised, linux_has_transparent_huge_pages()
                         ? impl::huge_page_range(big.data(), big.span() * sizeof(double)).bytes
                         : 0u);
  for (std::size_t i = 0; i < big.extent(0); i += 4096) ASSERT_EQ(big(i), 0.0);
#ifdef KOKKOS_ENABLE_CUDA
  Kokkos::View<double*, Kokkos::CudaSpace> device("device", 5 * MiB / sizeof(double));
  EXPECT_EQ(impl::advise_huge_pages(device), 0u);
#endif
}

}  // namespace
}  // namespace kelp::huge_pages_test
