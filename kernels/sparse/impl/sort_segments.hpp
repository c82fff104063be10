#pragma once
/// Sorting one CRS row (a segment of entries, optionally with its values) by column, inside a
/// team: insertion sort for very short rows, a team-level bitonic sort in scratch memory for
/// rows up to bitonic_max_length, and an in-place heapsort by one thread for longer rows (no
/// scratch, O(n log n), so any row length works on any backend).

#include <Kokkos_Core.hpp>

namespace kelp::kernels::impl {

/// Longest row the bitonic path sorts (its scratch holds keys and values of this many entries).
constexpr int bitonic_max_length = 1024;
/// Rows up to this length are insertion-sorted by one thread (fewer steps than the network).
constexpr int insertion_max_length = 16;

template <class Entries, class Values, class OffsetT>
KOKKOS_INLINE_FUNCTION void swap_entries(const Entries& entries, const Values& values,
                                         bool has_values, OffsetT a, OffsetT b) {
  const auto key = entries(a);
  entries(a) = entries(b);
  entries(b) = key;
  if (has_values) {
    const auto value = values(a);
    values(a) = values(b);
    values(b) = value;
  }
}

template <class Entries, class Values, class OffsetT>
KOKKOS_INLINE_FUNCTION void insertion_sort_segment(const Entries& entries, const Values& values,
                                                   bool has_values, OffsetT begin, OffsetT end) {
  for (OffsetT k = begin + 1; k < end; ++k) {
    for (OffsetT m = k; m > begin && entries(m - 1) > entries(m); --m) {
      swap_entries(entries, values, has_values, m - 1, m);
    }
  }
}

/// Heapsort of entries[begin, end) (with values): the fallback for rows too long for scratch.
template <class Entries, class Values, class OffsetT>
KOKKOS_INLINE_FUNCTION void heapsort_segment(const Entries& entries, const Values& values,
                                             bool has_values, OffsetT begin, OffsetT end) {
  const OffsetT n = end - begin;
  auto sift_down = [&](OffsetT root, OffsetT size) {
    while (2 * root + 1 < size) {
      OffsetT child = 2 * root + 1;
      if (child + 1 < size && entries(begin + child) < entries(begin + child + 1)) ++child;
      if (!(entries(begin + root) < entries(begin + child))) return;
      swap_entries(entries, values, has_values, begin + root, begin + child);
      root = child;
    }
  };
  for (OffsetT start = n / 2; start-- > 0;) sift_down(start, n);
  for (OffsetT size = n; size-- > 1;) {
    swap_entries(entries, values, has_values, begin, begin + size);
    sift_down(OffsetT(0), size);
  }
}

/// Sorts entries[begin, end) (and values alongside when has_values) by the team `member`.
/// `keys`/`vals` are team scratch arrays of bitonic_max_length elements.
template <class Member, class Entries, class Values, class KeyScratch, class ValueScratch,
          class OffsetT>
KOKKOS_INLINE_FUNCTION void team_sort_segment(const Member& member, const Entries& entries,
                                              const Values& values, bool has_values,
                                              const KeyScratch& keys, const ValueScratch& vals,
                                              OffsetT begin, OffsetT end) {
  using Key = typename KeyScratch::non_const_value_type;
  using Value = typename ValueScratch::non_const_value_type;
  const OffsetT n = end - begin;
  if (n <= insertion_max_length) {
    Kokkos::single(Kokkos::PerTeam(member),
                   [&]() { insertion_sort_segment(entries, values, has_values, begin, end); });
    return;
  }
  if (n > bitonic_max_length) {
    Kokkos::single(Kokkos::PerTeam(member),
                   [&]() { heapsort_segment(entries, values, has_values, begin, end); });
    return;
  }
  int padded = 1;
  while (padded < n) padded *= 2;
  // Padding with the largest key keeps the padding at the end after an ascending sort.
  const Key pad = Kokkos::reduction_identity<Key>::min();
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, padded), [&](const int t) {
    keys(t) = t < n ? entries(begin + t) : pad;
    if (has_values) vals(t) = t < n ? values(begin + t) : Value();
  });
  member.team_barrier();
  // Bitonic network: stage `size` merges bitonic runs of that size; each step compares pairs
  // `stride` apart, ascending where bit `size` of the lower index is 0.
  for (int size = 2; size <= padded; size *= 2) {
    for (int stride = size / 2; stride > 0; stride /= 2) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, padded / 2), [&](const int t) {
        const int lo = 2 * stride * (t / stride) + t % stride;
        const int hi = lo + stride;
        const bool ascending = (lo & size) == 0;
        if ((keys(lo) > keys(hi)) == ascending) {
          const Key key = keys(lo);
          keys(lo) = keys(hi);
          keys(hi) = key;
          if (has_values) {
            const Value value = vals(lo);
            vals(lo) = vals(hi);
            vals(hi) = value;
          }
        }
      });
      member.team_barrier();
    }
  }
  Kokkos::parallel_for(Kokkos::TeamThreadRange(member, static_cast<int>(n)), [&](const int t) {
    entries(begin + t) = keys(t);
    if (has_values) values(begin + t) = vals(t);
  });
  member.team_barrier();
}

}  // namespace kelp::kernels::impl
