#pragma once
/// Helpers shared by the graph kernels: input checks, integer hashing, bit tricks.

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <utility>

#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/graph/graph_types.hpp"

namespace kelp::kernels::impl {

/// Checks, in one parallel pass, that g is a well-formed CRS graph (row_map starts at 0, is
/// monotone and ends at nnz; columns in [0, num_cols)), and when `square` that it is square.
/// Throws DimensionMismatch / InvalidArgument naming `where`. Cost: reads row_map and entries once.
template <class Device>
void require_valid_graph(const Graph<Device>& g, const char* where, bool square) {
  using Exec = typename Device::execution_space;
  const Ordinal n = g.num_rows(), m = g.num_cols();
  KELP_REQUIRE(!square || n == m, DimensionMismatch,
               where << ": the graph must be square: it is " << n << " x " << m);
  KELP_REQUIRE(n < std::numeric_limits<Ordinal>::max() && m < std::numeric_limits<Ordinal>::max(),
               InvalidArgument,
               where << ": " << n << " x " << m << " is over the index range (at most "
                     << std::numeric_limits<Ordinal>::max() - 1 << " vertices)");
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  const Offset nnz = static_cast<Offset>(entries.extent(0));
  // Two flat passes (row_map, then entries as one array) rather than one per row: the entries
  // pass vectorizes, about as fast as reading them once.
  // first_bad: the first bad row (n for a bad row_map(n)); the Min identity (above n) when good.
  Ordinal first_bad = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::graph::require_valid_graph::row_map", Kokkos::RangePolicy<Exec>(0, n + 1),
      KOKKOS_LAMBDA(const Ordinal i, Ordinal& bad) {
        const Offset begin = row_map(i);
        bool ok = (i != 0 || begin == 0) && (i != n || begin == nnz) && begin >= 0 && begin <= nnz;
        if (i < n) ok = ok && begin <= row_map(i + 1);
        if (!ok && i < bad) bad = i;
      },
      Kokkos::Min<Ordinal>(first_bad));
  KELP_REQUIRE(first_bad > n, InvalidArgument,
               where << ": malformed graph at row " << first_bad << " (" << n << " x " << m
                     << ", nnz " << nnz << "): row_map must start at 0, be monotone and end at nnz");
  // One unsigned compare per column (negative ones wrap above m): a plain sum that vectorizes.
  Offset bad_columns = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::graph::require_valid_graph::entries", Kokkos::RangePolicy<Exec>(0, nnz),
      KOKKOS_LAMBDA(const Offset k, Offset& bad) {
        bad += static_cast<std::uint32_t>(entries(k)) >= static_cast<std::uint32_t>(m) ? 1 : 0;
      },
      bad_columns);
  if (bad_columns > 0) {
    // Rare path: find the first bad row to name it and its column.
    Ordinal bad_row = 0;
    Kokkos::parallel_reduce(
        "kelp::kernels::graph::require_valid_graph::find", Kokkos::RangePolicy<Exec>(0, n),
        KOKKOS_LAMBDA(const Ordinal i, Ordinal& bad) {
          for (Offset k = row_map(i); k < row_map(i + 1); ++k) {
            if ((entries(k) < 0 || entries(k) >= m) && i < bad) bad = i;
          }
        },
        Kokkos::Min<Ordinal>(bad_row));
    auto row_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(row_map, std::make_pair(bad_row, bad_row + 2)));
    auto entries_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(entries, std::make_pair(row_h(0), row_h(1))));
    Ordinal bad_column = 0;
    for (std::size_t k = 0; k < entries_h.extent(0); ++k) {
      if (entries_h(k) < 0 || entries_h(k) >= m) {
        bad_column = entries_h(k);
        break;
      }
    }
    KELP_THROW(InvalidArgument, where << ": malformed graph at row " << bad_row << " (" << n << " x " << m
                                      << ", nnz " << nnz << "): column " << bad_column
                                      << " outside [0, " << m << ")");
  }
}

/// A well-mixed 32-bit hash of (value, seed) (the finalizer of MurmurHash3).
KOKKOS_INLINE_FUNCTION std::uint32_t hash32(std::uint32_t value, std::uint32_t seed) {
  std::uint32_t h = value ^ (seed * 0x9e3779b9u);
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/// Index of the lowest set bit of x (x != 0).
KOKKOS_INLINE_FUNCTION int lowest_set_bit(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

/// Number of set bits of x.
KOKKOS_INLINE_FUNCTION int popcount(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(static_cast<unsigned long long>(x));
#else
  return __builtin_popcountll(x);
#endif
}

/// Guards the round loops of the graph kernels against hangs. Every round-based kernel here
/// provably makes progress each round (the highest-priority, or smallest, undecided vertex always
/// keeps its decision), so the work left must shrink every round and the rounds are at most the
/// work at the start. A round that leaves the work unchanged (a stale read, a broken priority
/// rule or a device hazard) throws InvalidState at once, naming the kernel and the round, instead
/// of looping forever; so does a count beyond the cap.
class RoundGuard {
 public:
  /// where: the kernel, for the message; cap: the most rounds allowed (the provable bound).
  RoundGuard(const char* where, long long cap) : where_(where), cap_(cap) {}

  /// Records a finished round that left `remaining` units of work (vertices or edges) and made
  /// `progress` units of progress (work done, or windows moved, ...); throws if it made none
  /// while work is left, or the round count passed the cap.
  void record(long long remaining, long long progress) {
    ++rounds_;
    KELP_REQUIRE(progress > 0 || remaining == 0, InvalidState,
                 where_ << ": no progress in round " << rounds_ << " (" << remaining
                        << " left); the kernel would not terminate (internal error)");
    KELP_REQUIRE(rounds_ <= cap_, InvalidState,
                 where_ << ": " << rounds_ << " rounds, over the bound of " << cap_ << " (" << remaining
                        << " left; internal error)");
  }

  int rounds() const { return static_cast<int>(rounds_); }

 private:
  const char* where_;
  long long cap_;
  long long rounds_ = 0;
};

/// Host copy of a device scalar (a worklist length): one small transfer.
template <class T, class Device>
T read_scalar(const Kokkos::View<T, Device>& value) {
  T host{};
  Kokkos::deep_copy(host, value);
  return host;
}

}  // namespace kelp::kernels::impl
