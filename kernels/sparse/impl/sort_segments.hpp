#pragma once
/// Sorting one CRS row (a segment of entries, optionally with its values) by column, inside a
/// team: insertion sort for very short rows and a team-level bitonic sort in scratch memory for
/// rows up to bitonic_max_length. Longer rows are left to the device-wide pass of
/// impl/sort_long_rows.hpp (a team, let alone one thread, is too small for a row of 10^5 entries).

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

/// Sorts entries[begin, end) (and values alongside when has_values) by the team `member`.
/// `keys`/`vals` are team scratch arrays of bitonic_max_length elements. Rows longer than
/// bitonic_max_length are skipped (sort_long_rows sorts them).
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
  if (n > bitonic_max_length) return;
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
