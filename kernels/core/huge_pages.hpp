#pragma once
/// advise_huge_pages: ask the operating system to back a large host array with huge pages
/// (Linux transparent huge pages, 2 MiB) before it is first written.
///
/// Why: a product that gathers rows of a large block (the KPM blocks of R vectors, hundreds of MB)
/// touches a new 4 KiB page with almost every far gather, and the page walks cost more than the
/// cache misses in a virtual machine (nested paging). Many Linux systems, Debian's default among
/// them, give huge pages only to memory that asks for them (transparent_hugepage=madvise).
/// It is advice: contents and meaning do not change, and where the system says no (or is not
/// Linux) nothing happens.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>

namespace kelp::impl {

/// The huge-page size advised on (2 MiB).
constexpr std::size_t huge_page_bytes = std::size_t(2) << 20;

/// The part of [data, data + bytes) that advise_huge_pages advises on: whole huge pages inside
/// it (an offset from data and a length, both 0 when the range holds no whole huge page).
struct HugePageRange {
  std::size_t offset = 0;
  std::size_t bytes = 0;
};
HugePageRange huge_page_range(const void* data, std::size_t bytes);

/// Advises huge pages on the whole huge pages inside [data, data + bytes); returns the bytes
/// advised (0 when none, when the system refused, or off Linux). Never throws.
std::size_t advise_huge_pages(void* data, std::size_t bytes) noexcept;

/// The same for a view's span when its memory is host memory (nothing for device memory).
template <class View>
std::size_t advise_huge_pages(const View& v) noexcept {
  using Space = typename View::memory_space;
  if constexpr (std::is_same<Space, Kokkos::HostSpace>::value) {
    return advise_huge_pages(static_cast<void*>(v.data()), v.span() * sizeof(typename View::value_type));
  } else {
    return 0;
  }
}

}  // namespace kelp::impl
