#include "kelp/kernels/core/huge_pages.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace kelp::impl {

HugePageRange huge_page_range(const void* data, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t page = huge_page_bytes;
  if (data == nullptr || bytes < huge_page_bytes || begin > UINTPTR_MAX - bytes) return {};
  const std::uintptr_t first = (begin + page - 1) / page * page;  // round up
  const std::uintptr_t last = (begin + bytes) / page * page;       // round down
  if (last <= first) return {};
  return {static_cast<std::size_t>(first - begin), static_cast<std::size_t>(last - first)};
}

std::size_t advise_huge_pages(void* data, std::size_t bytes) noexcept {
  const HugePageRange r = huge_page_range(data, bytes);
  if (r.bytes == 0) return 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (madvise(static_cast<char*>(data) + r.offset, r.bytes, MADV_HUGEPAGE) == 0) return r.bytes;
#endif
  return 0;
}

}  // namespace kelp::impl
