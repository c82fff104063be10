#pragma once
/// SpGEMM with the hashmap accumulator (after Deveci, Trott, Rajamanickam, "Multithreaded sparse
/// matrix-matrix multiplication for many-core and GPU architectures", Parallel Computing 2018):
/// one team per row of C; the team's threads split the row's items (B rows) and insert columns
/// into an open-addressing table (linear probing, atomic compare-and-swap on the key). The
/// table is allocated for the longest row (a power of two of at least twice its product count,
/// at most twice C's width); each row uses the power-of-two prefix of at least twice its own
/// product count, so probes stay short and short rows clear and scan only a small table. It lives in team-shared scratch (level 0) when it
/// fits there and in per-team global scratch (level 1) otherwise.
///  - symbolic count: the team counts its successful inserts;
///  - symbolic fill: the table's keys go to C's row (then sort_rows orders them);
///  - numeric: C's row is sorted and known, so each product finds its column by binary search
///    and adds atomically (plain adds for one-thread teams).

#include "kelp/kernels/spgemm/impl/spgemm_rows.hpp"

namespace kelp::kernels::impl {

/// Table slots for a longest row of `max_row_products` products in a C of `width` columns.
inline int spgemm_hash_capacity(long long max_row_products, long long width) {
  const long long distinct = max_row_products < width ? max_row_products : width;
  long long capacity = 2;
  while (capacity < 2 * distinct) capacity *= 2;
  return static_cast<int>(capacity);
}

template <class Exec, class Matrix, bool Fill>
struct SpgemmHashSymbolic {
  using OrdinalT = typename Matrix::ordinal_type;
  using OffsetT = typename Matrix::offset_type;
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Table = Kokkos::View<OrdinalT*, typename Exec::scratch_memory_space, Kokkos::MemoryUnmanaged>;

  SpgemmOperands<Matrix> ops;
  int capacity;  // power of two
  int level;     // scratch level of the table
  Kokkos::View<OffsetT*, typename Matrix::device_type> counts;  // count pass
  typename Matrix::row_map_type c_row_map;                       // fill pass
  typename Matrix::entries_type c_entries;                       // fill pass

  /// The table plus one slot for the fill cursor.
  static std::size_t scratch_bytes(int capacity) { return Table::shmem_size(capacity + 1); }

  KOKKOS_INLINE_FUNCTION static unsigned slot_of(OrdinalT j, unsigned mask) {
    return (static_cast<unsigned>(j) * 2654435761u) & mask;  // Knuth's multiplicative hash
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const OrdinalT i = member.league_rank();
    Table table(member.team_scratch(level), capacity + 1);
    // This row's table: the smallest power of two >= twice its distinct-column bound, so a row
    // of a few products does not clear and scan the table sized for the longest row.
    const OffsetT bound = ops.row_products(i);
    int row_capacity = 2;
    while (row_capacity < capacity && row_capacity < 2 * bound) row_capacity *= 2;
    const unsigned mask = static_cast<unsigned>(row_capacity) - 1;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, row_capacity),
                         [&](const int s) { table(s) = OrdinalT(-1); });
    Kokkos::single(Kokkos::PerTeam(member), [&]() { table(capacity) = OrdinalT(0); });
    member.team_barrier();
    OffsetT count = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(member, ops.num_items(i)),
        [&](const OffsetT t, OffsetT& inserted) {
          const OrdinalT r = ops.item_row(i, t);
          for (OffsetT p = ops.b_row_map(r); p < ops.b_row_map(r + 1); ++p) {
            const OrdinalT j = ops.b_entries(p);
            unsigned s = slot_of(j, mask);
            while (true) {
              const OrdinalT old = Kokkos::atomic_compare_exchange(&table(s), OrdinalT(-1), j);
              if (old == OrdinalT(-1)) {
                ++inserted;
                break;
              }
              if (old == j) break;
              s = (s + 1) & mask;
            }
          }
        },
        count);
    if (Fill) {
      member.team_barrier();
      const OffsetT out = c_row_map(i);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, row_capacity), [&](const int s) {
        const OrdinalT j = table(s);
        if (j != OrdinalT(-1)) {
          const OrdinalT position = Kokkos::atomic_fetch_add(&table(capacity), OrdinalT(1));
          c_entries(out + position) = j;
        }
      });
    } else {
      Kokkos::single(Kokkos::PerTeam(member), [&]() { counts(i) = count; });
    }
  }
};

template <class Exec, class Matrix>
struct SpgemmHashNumeric {
  using Scalar = typename Matrix::scalar_type;
  using OrdinalT = typename Matrix::ordinal_type;
  using OffsetT = typename Matrix::offset_type;
  using member_type = typename Kokkos::TeamPolicy<Exec>::member_type;

  SpgemmOperands<Matrix> ops;
  typename Matrix::row_map_type c_row_map;
  typename Matrix::entries_type c_entries;
  typename Matrix::values_type c_values;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const OrdinalT i = member.league_rank();
    const OffsetT begin = c_row_map(i);
    const OffsetT end = c_row_map(i + 1);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, begin, end),
                         [&](const OffsetT k) { c_values(k) = Scalar(0); });
    member.team_barrier();
    const bool shared = member.team_size() > 1;  // one-thread teams own their row: no atomics
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, ops.num_items(i)), [&](const OffsetT t) {
      const OrdinalT r = ops.item_row(i, t);
      const Scalar factor = ops.item_factor(i, t);
      for (OffsetT p = ops.b_row_map(r); p < ops.b_row_map(r + 1); ++p) {
        const OffsetT k = lower_bound(c_entries, begin, end, ops.b_entries(p));
        const Scalar update = factor * ops.b_values(p);
        if (shared) {
          Kokkos::atomic_add(&c_values(k), update);
        } else {
          c_values(k) += update;
        }
      }
    });
  }
};

}  // namespace kelp::kernels::impl
