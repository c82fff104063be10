#pragma once
/// Sorting the CRS rows that are too long for a team's scratch (more than bitonic_max_length
/// entries) with the whole device instead of one team each.
///
/// The long rows are first listed on the device (a count, one fence of the instance for the host
/// to size the list, a scan that writes the list). Then, by the backend:
///  - GPU backends: a global-memory bitonic network over all long rows at once. Each row is
///    padded virtually to a power of two P (positions >= its length hold "+infinity"); every step
///    of the network is one RangePolicy launch over the P/2 comparator pairs of every long row, so
///    a single row of 10^6 entries still occupies the whole GPU. log2(P)(log2(P)+1)/2 launches.
///    The network is the variant in which every comparator puts the smaller key at the lower
///    index (the first step of each stage compares mirrored positions instead of reversing the
///    direction), which is what makes virtual padding free: a comparator that touches a padded
///    position never swaps, so the padding needs no memory and no writes.
///  - CPU backends: a bottom-up merge sort of each long row by one thread (rows in parallel),
///    O(n log n) with a buffer of the long rows' entries: the "radix/merge fallback". (The
///    bitonic network does O(n log^2 n) work, which only pays where thousands of threads run.)
/// Both are selectable explicitly (tests run the GPU network on the host too).

#include <Kokkos_Core.hpp>

#include "kelp/kernels/sparse/impl/sort_segments.hpp"

namespace kelp::kernels::impl {

/// How rows longer than bitonic_max_length are sorted.
enum class LongRowSort {
  automatic,  ///< bitonic network on GPU backends, merge sort on CPU backends
  bitonic,    ///< the global-memory bitonic network (all long rows, all threads, every step)
  merge,      ///< one thread per long row, bottom-up merge sort through a buffer
  heap,       ///< one thread per long row, in-place heapsort (the old fallback; a benchmark baseline)
};

template <class Exec>
LongRowSort resolve_long_row_sort(LongRowSort choice) {
  if (choice != LongRowSort::automatic) return choice;
  return Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible ? LongRowSort::merge
                                                                         : LongRowSort::bitonic;
}

/// Smallest power of two >= n (n >= 1).
KOKKOS_INLINE_FUNCTION long long next_power_of_two(long long n) {
  long long p = 1;
  while (p < n) p *= 2;
  return p;
}

/// Counts the long rows and the longest row length (one reduction).
template <class RowMap>
struct CountLongRows {
  RowMap row_map;
  long long min_length;
  KOKKOS_INLINE_FUNCTION void operator()(const long long i, long long& count, long long& longest) const {
    const long long n = static_cast<long long>(row_map(i + 1) - row_map(i));
    if (n > min_length) {
      ++count;
      if (n > longest) longest = n;
    }
  }
};

/// Writes the indices of the long rows, in row order, into `rows` (an exclusive scan of the
/// long-row flags).
template <class RowMap, class RowList>
struct ListLongRows {
  RowMap row_map;
  RowList rows;
  long long min_length;
  KOKKOS_INLINE_FUNCTION void operator()(const long long i, long long& pos, const bool final) const {
    if (static_cast<long long>(row_map(i + 1) - row_map(i)) > min_length) {
      if (final) rows(pos) = i;
      ++pos;
    }
  }
};

/// offsets(r) = sum over long rows q < r of weight(q), where the weight is the row's length
/// (merge buffers) or half its padded length (the bitonic network's comparators); offsets has
/// one more element than rows, the last one the total.
template <class RowMap, class RowList, class Offsets>
struct LongRowOffsets {
  RowMap row_map;
  RowList rows;
  Offsets offsets;
  long long count;
  bool pairs;
  KOKKOS_INLINE_FUNCTION void operator()(const long long r, long long& sum, const bool final) const {
    if (final) offsets(r) = sum;
    if (r < count) {
      const long long n = static_cast<long long>(row_map(rows(r) + 1) - row_map(rows(r)));
      sum += pairs ? next_power_of_two(n) / 2 : n;
    }
  }
};

/// Index of the long row that owns flat index t: the last r with offsets(r) <= t (binary search
/// over the few long rows; rows with no pairs never own one).
template <class Offsets>
KOKKOS_INLINE_FUNCTION long long owner_of(const Offsets& offsets, long long count, long long t) {
  long long lo = 0;
  long long hi = count;  // offsets(lo) <= t < offsets(hi)
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    if (offsets(mid) <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/// One step of the global bitonic network: comparator t of the step (stage `size`, distance
/// `stride`; `mirror` for the first step of a stage) over every long row at once.
template <class RowMap, class Entries, class Values, class RowList, class Offsets>
struct BitonicGlobalStep {
  RowMap row_map;
  Entries entries;
  Values values;
  bool has_values;
  RowList rows;
  Offsets pair_offsets;
  long long count;
  long long size;
  long long stride;
  bool mirror;

  KOKKOS_INLINE_FUNCTION void operator()(const long long t) const {
    const long long r = owner_of(pair_offsets, count, t);
    const long long row = rows(r);
    const long long begin = static_cast<long long>(row_map(row));
    const long long n = static_cast<long long>(row_map(row + 1)) - begin;
    const long long local = t - pair_offsets(r);
    // A row whose padded length is below this stage is sorted already.
    if (size > 2 * (pair_offsets(r + 1) - pair_offsets(r))) return;
    long long lo;
    long long hi;
    if (mirror) {
      const long long half = size / 2;
      const long long block = local / half;
      const long long j = local % half;
      lo = block * size + j;
      hi = block * size + size - 1 - j;
    } else {
      lo = 2 * stride * (local / stride) + local % stride;
      hi = lo + stride;
    }
    // Positions >= n are virtual +infinity: such a comparator never swaps.
    if (hi >= n) return;
    if (entries(begin + hi) < entries(begin + lo)) swap_entries(entries, values, has_values, begin + lo, begin + hi);
  }
};

/// Restores the max-heap of entries[begin, begin + size) below `root`.
template <class Entries, class Values>
KOKKOS_INLINE_FUNCTION void sift_down(const Entries& entries, const Values& values, bool has_values,
                                      long long begin, long long root, long long size) {
  while (2 * root + 1 < size) {
    long long child = 2 * root + 1;
    if (child + 1 < size && entries(begin + child) < entries(begin + child + 1)) ++child;
    if (!(entries(begin + root) < entries(begin + child))) return;
    swap_entries(entries, values, has_values, begin + root, begin + child);
    root = child;
  }
}

/// Heapsort of entries[begin, end) (with values) by one thread, in place: the fallback that
/// sort_rows used before the device-wide pass, kept as the benchmark's baseline.
template <class Entries, class Values>
KOKKOS_INLINE_FUNCTION void heapsort_segment(const Entries& entries, const Values& values,
                                             bool has_values, long long begin, long long end) {
  const long long n = end - begin;
  for (long long start = n / 2; start-- > 0;) sift_down(entries, values, has_values, begin, start, n);
  for (long long size = n; size-- > 1;) {
    swap_entries(entries, values, has_values, begin, begin + size);
    sift_down(entries, values, has_values, begin, 0LL, size);
  }
}

template <class RowMap, class Entries, class Values, class RowList>
struct HeapsortLongRows {
  RowMap row_map;
  Entries entries;
  Values values;
  bool has_values;
  RowList rows;
  KOKKOS_INLINE_FUNCTION void operator()(const long long r) const {
    heapsort_segment(entries, values, has_values, static_cast<long long>(row_map(rows(r))),
                     static_cast<long long>(row_map(rows(r) + 1)));
  }
};

/// Bottom-up merge sort of each long row by one thread, through buffers of the long rows'
/// entries (keys_buf/vals_buf at buffer_offsets(r)); ends with the sorted row in place.
template <class RowMap, class Entries, class Values, class RowList, class Offsets, class KeyBuf,
          class ValBuf>
struct MergeSortLongRows {
  RowMap row_map;
  Entries entries;
  Values values;
  bool has_values;
  RowList rows;
  Offsets buffer_offsets;
  KeyBuf keys_buf;
  ValBuf vals_buf;

  /// Merges runs [lo, mid) and [mid, hi) of (src_k, src_v) starting at src0 into dst at dst0.
  template <class SK, class SV, class DK, class DV>
  KOKKOS_INLINE_FUNCTION void merge_runs(const SK& sk, const SV& sv, long long s0, const DK& dk,
                                         const DV& dv, long long d0, long long lo, long long mid,
                                         long long hi) const {
    long long a = lo;
    long long b = mid;
    for (long long out = lo; out < hi; ++out) {
      const bool take_a = a < mid && (b >= hi || !(sk(s0 + b) < sk(s0 + a)));
      const long long from = take_a ? a++ : b++;
      dk(d0 + out) = sk(s0 + from);
      if (has_values) dv(d0 + out) = sv(s0 + from);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const long long r) const {
    const long long row = rows(r);
    const long long begin = static_cast<long long>(row_map(row));
    const long long n = static_cast<long long>(row_map(row + 1)) - begin;
    const long long buf = buffer_offsets(r);
    // Runs of insertion_max_length first (insertion sort in place), then doubling merges that
    // alternate between the row and the buffer.
    for (long long lo = 0; lo < n; lo += insertion_max_length) {
      const long long hi = lo + insertion_max_length < n ? lo + insertion_max_length : n;
      insertion_sort_segment(entries, values, has_values, begin + lo, begin + hi);
    }
    bool in_buffer = false;
    for (long long width = insertion_max_length; width < n; width *= 2) {
      for (long long lo = 0; lo < n; lo += 2 * width) {
        const long long mid = lo + width < n ? lo + width : n;
        const long long hi = lo + 2 * width < n ? lo + 2 * width : n;
        if (in_buffer) {
          merge_runs(keys_buf, vals_buf, buf, entries, values, begin, lo, mid, hi);
        } else {
          merge_runs(entries, values, begin, keys_buf, vals_buf, buf, lo, mid, hi);
        }
      }
      in_buffer = !in_buffer;
    }
    if (in_buffer) {
      for (long long k = 0; k < n; ++k) {
        entries(begin + k) = keys_buf(buf + k);
        if (has_values) values(begin + k) = vals_buf(buf + k);
      }
    }
  }
};

/// Sorts (entries, values) of every row of (row_map, num_rows) longer than `min_length`, by
/// `method`, on exec. Rows of at most min_length entries are left alone. Fences exec (the host
/// needs the number of long rows; the temporaries must outlive the launches), so all work that
/// was queued on exec before is finished on return too. Returns the number of long rows.
template <class Exec, class RowMap, class Entries, class Values>
long long sort_long_rows(const Exec& exec, long long num_rows, const RowMap& row_map,
                         const Entries& entries, const Values& values, bool has_values,
                         long long min_length, LongRowSort method = LongRowSort::automatic) {
  using Device = typename Entries::device_type;
  using RowList = Kokkos::View<long long*, Device>;
  if (num_rows == 0) return 0;
  long long count = 0;
  long long longest = 0;
  Kokkos::parallel_reduce("kelp::kernels::sort_rows(count long rows)",
                          Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
                          CountLongRows<RowMap>{row_map, min_length}, count,
                          Kokkos::Max<long long>(longest));
  exec.fence();
  if (count == 0) return 0;
  RowList rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::sort_rows::long_rows"),
               count);
  Kokkos::parallel_scan("kelp::kernels::sort_rows(list long rows)",
                        Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
                        ListLongRows<RowMap, RowList>{row_map, rows, min_length});
  method = resolve_long_row_sort<Exec>(method);
  if (method == LongRowSort::heap) {
    Kokkos::parallel_for("kelp::kernels::sort_rows(heapsort long rows)",
                         Kokkos::RangePolicy<Exec>(exec, 0, count),
                         HeapsortLongRows<RowMap, Entries, Values, RowList>{row_map, entries, values,
                                                                            has_values, rows});
    exec.fence();  // the temporary list must outlive the launch
    return count;
  }
  const bool bitonic = method == LongRowSort::bitonic;
  RowList offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::sort_rows::long_offsets"),
                  count + 1);
  long long total = 0;
  Kokkos::parallel_scan("kelp::kernels::sort_rows(long row offsets)",
                        Kokkos::RangePolicy<Exec>(exec, 0, count + 1),
                        LongRowOffsets<RowMap, RowList, RowList>{row_map, rows, offsets, count, bitonic},
                        total);
  if (bitonic) {
    using Step = BitonicGlobalStep<RowMap, Entries, Values, RowList, RowList>;
    const long long padded = next_power_of_two(longest);
    for (long long size = 2; size <= padded; size *= 2) {
      for (long long stride = size / 2; stride > 0; stride /= 2) {
        Kokkos::parallel_for("kelp::kernels::sort_rows(bitonic step)",
                             Kokkos::RangePolicy<Exec>(exec, 0, total),
                             Step{row_map, entries, values, has_values, rows, offsets, count, size,
                                  stride, stride == size / 2});
      }
    }
    exec.fence();  // the temporary list must outlive the launches
    return count;
  }
  using KeyBuf = Kokkos::View<typename Entries::non_const_value_type*, Device>;
  using ValBuf = Kokkos::View<typename Values::non_const_value_type*, Device>;
  KeyBuf keys_buf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::sort_rows::key_buffer"),
                  total);
  ValBuf vals_buf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::sort_rows::value_buffer"),
                  has_values ? total : 0);
  Kokkos::parallel_for("kelp::kernels::sort_rows(merge long rows)",
                       Kokkos::RangePolicy<Exec>(exec, 0, count),
                       MergeSortLongRows<RowMap, Entries, Values, RowList, RowList, KeyBuf, ValBuf>{
                           row_map, entries, values, has_values, rows, offsets, keys_buf, vals_buf});
  exec.fence();  // the temporary buffers must outlive the launch
  return count;
}

}  // namespace kelp::kernels::impl
