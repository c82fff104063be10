#pragma once
/// Sorting the rows of a CRS matrix or graph by column index, values alongside.
///
/// One team per row. Rows of at most 16 entries: insertion sort by one thread; up to 1024
/// entries: a team-level bitonic sort in scratch memory. Longer rows are then listed and sorted
/// by a device-wide pass (impl/sort_long_rows.hpp): a global-memory bitonic network over all
/// long rows at once on GPUs, a merge sort per row on CPU backends. Duplicate columns stay
/// (adjacent, in no particular order); the sort is not stable.
///
///   kernels::sort_rows(A);          // default instance of A's execution space
///   kernels::sort_rows(exec, A);    // everything on `exec` (which it fences, see below)

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/sparse/impl/row_scan.hpp"
#include "kelp/kernels/sparse/impl/sort_long_rows.hpp"
#include "kelp/kernels/sparse/impl/sort_segments.hpp"

namespace kelp::kernels {

namespace impl {
/// The team functor behind sort_rows; Values may be an empty view (has_values = false).
template <class Exec, class RowMap, class Entries, class Values>
struct SortRowsFunctor {
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using key_type = typename Entries::non_const_value_type;
  using value_type = typename Values::non_const_value_type;
  using scratch_space = typename Exec::scratch_memory_space;
  using KeyScratch = Kokkos::View<key_type*, scratch_space, Kokkos::MemoryUnmanaged>;
  using ValueScratch = Kokkos::View<value_type*, scratch_space, Kokkos::MemoryUnmanaged>;

  RowMap row_map;
  Entries entries;
  Values values;
  bool has_values;

  static std::size_t scratch_bytes() {
    return KeyScratch::shmem_size(bitonic_max_length) + ValueScratch::shmem_size(bitonic_max_length);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const auto i = member.league_rank();
    KeyScratch keys(member.team_scratch(0), bitonic_max_length);
    ValueScratch vals(member.team_scratch(0), bitonic_max_length);
    team_sort_segment(member, entries, values, has_values, keys, vals, row_map(i), row_map(i + 1));
  }
};

/// Sorts rows [0, num_rows) of (row_map, entries[, values]) on exec: rows up to
/// bitonic_max_length by teams, longer ones by the device-wide pass (`long_rows` picks its
/// algorithm; tests force each). Fences exec (the host sizes the list of long rows).
template <class Exec, class RowMap, class Entries, class Values>
void sort_crs_rows(const Exec& exec, long long num_rows, const RowMap& row_map,
                   const Entries& entries, const Values& values, bool has_values,
                   LongRowSort long_rows = LongRowSort::automatic) {
  if (num_rows == 0) return;
  using Functor = SortRowsFunctor<Exec, RowMap, Entries, Values>;
  Kokkos::TeamPolicy<Exec> policy(exec, static_cast<int>(num_rows), sparse_team_size<Exec>());
  Kokkos::parallel_for("kelp::kernels::sort_rows",
                       policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes())),
                       Functor{row_map, entries, values, has_values});
  sort_long_rows(exec, num_rows, row_map, entries, values, has_values, bitonic_max_length, long_rows);
}

/// Sorts the rows of a graph given as (row_map, entries), without values.
template <class Exec, class RowMap, class Entries>
void sort_graph_rows(const Exec& exec, long long num_rows, const RowMap& row_map,
                     const Entries& entries) {
  using NoValues = Kokkos::View<char*, typename Entries::device_type>;
  sort_crs_rows(exec, num_rows, row_map, entries, NoValues(), false);
}
}  // namespace impl

/// Sorts every row of A by column index, permuting the values alongside (in place), on the
/// execution-space instance `exec`.
///
/// @param[in] exec   instance all the work runs on; it is fenced (to size the list of rows
///                   longer than a team sorts), so on return the rows are sorted
/// @param[in,out] A  any CRS matrix; its pattern (row_map) is unchanged, entries/values permuted
/// Cost: O(row log row) per row (O(row log^2 row) work for the bitonic networks); allocation:
/// team scratch, plus the list of long rows and (CPU) a buffer of their entries.
template <class Matrix>
void sort_rows(const typename Matrix::execution_space& exec, const Matrix& A) {
  impl::sort_crs_rows(exec, A.num_rows(), A.row_map(), A.entries(), A.values(), true);
}

/// sort_rows on a default instance of A's execution space.
template <class Matrix>
void sort_rows(const Matrix& A) {
  sort_rows(typename Matrix::execution_space(), A);
}

namespace impl {
/// Counts the out-of-order or repeated neighbours of rows_sorted_unique (a named functor: that
/// check is instantiated in several test files; docs/conventions.md on nvcc's lambdas).
template <class RowMap, class Entries>
struct CountUnsortedPairs {
  using value_type = long long;
  using OffsetT = typename RowMap::non_const_value_type;
  RowMap row_map;
  Entries entries;
  KOKKOS_INLINE_FUNCTION void operator()(const long long i, long long& count) const {
    for (OffsetT k = row_map(i) + 1; k < row_map(i + 1); ++k) {
      if (!(entries(k - 1) < entries(k))) ++count;
    }
  }
};
}  // namespace impl

/// Whether every row of A is sorted by column with no duplicates (a check for tests and
/// preconditions; one pass).
template <class Matrix>
bool rows_sorted_unique(const Matrix& A) {
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  long long bad = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::rows_sorted_unique",
      Kokkos::RangePolicy<typename Matrix::execution_space>(0, A.num_rows()),
      impl::CountUnsortedPairs<std::decay_t<decltype(row_map)>, std::decay_t<decltype(entries)>>{
          row_map, entries},
      bad);
  return bad == 0;
}

#define KELP_SORT_ROWS_ETI(PREFIX, S) \
  PREFIX template void sort_rows<CrsMatrix<S>>(const CrsMatrix<S>::execution_space&, \
                                              const CrsMatrix<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_SORT_ROWS_ETI, extern)

}  // namespace kelp::kernels
