#pragma once
/// The blocked augmented SpMMV for GPUs (Kreutzer et al., IPDPS 2015, the GPU kernel): a group of
/// vector lanes per row, the R vectors of the row-major block across the lanes.
///
/// Why not KpmBlockedAugmentedSpmmv (kpm_kernels.hpp) on a GPU: it gives a row one thread that
/// loops over R, so neighbouring threads read V rows R * S_d bytes apart (no coalescing), and its
/// 2R-wide array reduction needs 2R doubles of shared memory per thread (R = 32: 0.27x the naive
/// version on the H100). Here, per row:
///   - lane c of the row's group handles vectors c, c + L, ... (L lanes, L = R rounded up to a
///     power of two, at most 32; R / P rounded up for the paired (P = 2) and quad (P = 4)
///     instantiations, whose lane c takes c, c + R / P, ... in one pass): V(j, c) of the
///     row-major block is read by consecutive lanes from consecutive addresses (coalesced);
///     for small R several rows share a warp;
///   - the row's matrix entries are read once per group (the same address for every lane: one
///     broadcast load) and the recurrence update is fused;
///   - the two dots per vector accumulate in team scratch (one slot per team member and vector,
///     no atomics), are summed over the members in a fixed order once per team, and the per-team
///     partials are reduced once at the end by KpmSumPartials. The result does not depend on
///     timing: the same configuration gives the same bits run to run.
/// On host spaces the CPU kernel stays the default (kpm_blocked_uses_team); the team kernel runs
/// there only when asked for (KpmBlockedKernel::team, used by the tests), with one lane.
/// Included by solvers/kpm/impl/kpm_impl.hpp (compiled in solvers/eti/kpm_*.cpp), and by
/// test/solvers/kpm_team_rows_test.cpp for the row layouts (kpm_interleaved_rows, kpm_range_rows).

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "kelp/kernels/core/readonly_load.hpp"
#include "kelp/kernels/core/team_occupancy.hpp"
#include "kelp/solvers/kpm/impl/kpm_kernels.hpp"
#include "kelp/solvers/kpm/kpm_params.hpp"

namespace kelp::solvers::impl {

/// True for execution spaces whose threads run in warps (CUDA): there the team kernel is the
/// default of the blocked implementation.
template <class Exec>
constexpr bool kpm_is_warp_space() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<Exec, Kokkos::Cuda>::value) return true;
#endif
  return false;
}

template <class Exec>
bool kpm_blocked_uses_team(KpmBlockedKernel kernel) {
  if (kernel == KpmBlockedKernel::automatic) return kpm_is_warp_space<Exec>();
  return kernel == KpmBlockedKernel::team;
}

/// W <- alpha H V + beta V - gamma W on the team's rows, and partials(league_rank, c) = <V_c|V_c>,
/// partials(league_rank, R + c) = Re <W_c|V_c> over them. Team l's member t takes rows
/// l * team_offset + t, then every row_step rows after it, below min(l * team_offset + team_span, n):
/// a contiguous range per team (team_offset = team_span = rows per team, row_step = members) or
/// rows interleaved over the league (team_offset = members, team_span = n, row_step = league *
/// members); KpmTeamRows holds the three numbers.
///
/// Gathers: entries of a row whose V gathers are issued before their products (loads in flight
/// per lane). EarlyRowLoads: V(i, c) and W(i, c) are loaded before the gathers as well (more in
/// flight, more registers). VectorsPerLane = P > 1 (R a multiple of P): a lane takes vectors c,
/// c + R / P, ... of a row in one pass, so each broadcast load of an entry's column and value
/// serves P gathers (update_row_group). Which combination is fastest depends on R:
/// KpmTeamKernelNarrow, ...Wide, ...Paired, ...Quad. Every variant sums a row in entry order.
template <class Matrix, class Block, int Gathers, bool EarlyRowLoads, int VectorsPerLane = 1>
struct KpmBlockedTeamSpmmv {
  static_assert(Gathers >= 1, "KpmBlockedTeamSpmmv: at least one gather in flight");
  static_assert(VectorsPerLane >= 1, "KpmBlockedTeamSpmmv: at least one vector per lane");
  static constexpr int vectors_per_lane = VectorsPerLane;
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  using Accumulators = Kokkos::View<double**, Kokkos::LayoutRight, typename Exec::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Partials = Kokkos::View<double**, Kokkos::LayoutLeft, typename Matrix::device_type>;

  typename Matrix::row_map_type::const_type row_map;
  typename Matrix::entries_type::const_type entries;
  typename Matrix::values_type::const_type values;
  Block V;
  Block W;
  Partials partials;
  double alpha = 0, beta = 0, gamma = 0;
  long long num_rows = 0;
  long long team_offset = 0;  ///< first row of team l: l * team_offset (+ member rank)
  long long team_span = 0;    ///< team l's rows lie below l * team_offset + team_span
  long long row_step = 1;     ///< a member's next row
  int lanes = 1;  ///< vector lanes per team member (KpmTeamShape::vector_length)
  int scratch_level = 0;

  /// Team scratch of a team of `team_size` members: one accumulator pair per member and vector.
  static std::size_t scratch_bytes(int team_size, int num_vectors) {
    return Accumulators::shmem_size(team_size, 2 * num_vectors);
  }

  /// (H V)(i, c), summed in entry order. H and V are not written during the product, so they
  /// are read through the read-only path; the gathers of `Gathers` entries at a time are issued
  /// before their products (a lane that waits for each gather in turn leaves the kernel
  /// latency-bound: docs/performance.md, issue 12).
  KOKKOS_INLINE_FUNCTION Scalar row_product(const long long i, const int c) const {
    using kelp::impl::readonly_load;
    const auto begin = row_map(i);
    const auto end = row_map(i + 1);
    Scalar hv(0);
    auto k = begin;
    if constexpr (Gathers > 1) {
      for (; k + Gathers <= end; k += Gathers) {
        Scalar x[Gathers];
        for (int u = 0; u < Gathers; ++u) x[u] = readonly_load(&V(readonly_load(&entries(k + u)), c));
        for (int u = 0; u < Gathers; ++u) hv += readonly_load(&values(k + u)) * x[u];
      }
    }
    for (; k < end; ++k) hv += readonly_load(&values(k)) * readonly_load(&V(readonly_load(&entries(k)), c));
    return hv;
  }

  /// Row i, vector c: W(i, c) = alpha (H V)(i, c) + beta V(i, c) - gamma W(i, c); vv += |V(i, c)|^2,
  /// wv += Re conj(W(i, c)) V(i, c). The row's entries are the same for every lane (broadcast).
  /// gamma = 0 (the first step): W is not read, it may hold garbage.
  KOKKOS_INLINE_FUNCTION void update_row(const long long i, const int c, double& vv, double& wv) const {
    Scalar vi, wi, w_old(0);
    if constexpr (EarlyRowLoads) {
      vi = kelp::impl::readonly_load(&V(i, c));
      if (gamma != 0.0) w_old = W(i, c);
      wi = alpha * row_product(i, c) + beta * vi;
    } else {
      const Scalar hv = row_product(i, c);
      vi = V(i, c);
      if (gamma != 0.0) w_old = W(i, c);
      wi = alpha * hv + beta * vi;
    }
    if (gamma != 0.0) wi -= gamma * w_old;
    W(i, c) = wi;
    vv += kpm_real_dot(vi, vi);
    wv += kpm_real_dot(wi, vi);
  }

  /// The two dots of VectorsPerLane vectors (one lane's share of a row group).
  struct GroupDots {
    double vv[VectorsPerLane];
    double wv[VectorsPerLane];
  };

  /// update_row for the vectors c, c + stride, ..., c + (VectorsPerLane - 1) stride of row i at
  /// once: each entry's column and value are loaded once for all their gathers. With two
  /// vectors a lane, on an H200 at R = 32, this took the L1 data-stage wavefronts of a product
  /// from 76 % to 60 % of their peak (docs/performance.md, issue 12, 2026-11-29). The loads are
  /// issued in the measured order: the columns and gathers of `Gathers` entries, then their
  /// values and products.
  KOKKOS_INLINE_FUNCTION void update_row_group(const long long i, const int c, const int stride,
                                               GroupDots& dots) const {
    using kelp::impl::readonly_load;
    constexpr int P = VectorsPerLane;
    const auto begin = row_map(i);
    const auto end = row_map(i + 1);
    Scalar hv[P];
    for (int p = 0; p < P; ++p) hv[p] = Scalar(0);
    auto k = begin;
    for (; k + Gathers <= end; k += Gathers) {
      Scalar x[Gathers][P];
      for (int u = 0; u < Gathers; ++u) {
        const auto j = readonly_load(&entries(k + u));
        for (int p = 0; p < P; ++p) x[u][p] = readonly_load(&V(j, c + p * stride));
      }
      for (int u = 0; u < Gathers; ++u) {
        const Scalar a = readonly_load(&values(k + u));
        for (int p = 0; p < P; ++p) hv[p] += a * x[u][p];
      }
    }
    for (; k < end; ++k) {
      const auto j = readonly_load(&entries(k));
      Scalar x[P];
      for (int p = 0; p < P; ++p) x[p] = readonly_load(&V(j, c + p * stride));
      const Scalar a = readonly_load(&values(k));
      for (int p = 0; p < P; ++p) hv[p] += a * x[p];
    }
    Scalar v[P], w[P];
    for (int p = 0; p < P; ++p) {
      v[p] = V(i, c + p * stride);
      w[p] = alpha * hv[p] + beta * v[p];
    }
    if (gamma != 0.0) {  // gamma = 0: W is not read, it may hold garbage
      for (int p = 0; p < P; ++p) w[p] -= gamma * W(i, c + p * stride);
    }
    for (int p = 0; p < P; ++p) {
      W(i, c + p * stride) = w[p];
      dots.vv[p] += kpm_real_dot(v[p], v[p]);
      dots.wv[p] += kpm_real_dot(w[p], v[p]);
    }
  }

  /// The member's rows with vectors in groups (c, c + s, ..., s = R / VectorsPerLane): with
  /// s <= lanes one group per lane, its sums in registers over all the rows; otherwise (one lane
  /// on host spaces, R > 32 VectorsPerLane on GPUs) row by row, the sums in the member's scratch
  /// slots (zeroed by the caller).
  KOKKOS_INLINE_FUNCTION void grouped_rows(const Member& team, const Accumulators& acc, const long long first,
                                           const long long last) const {
    constexpr int P = VectorsPerLane;
    const int R = static_cast<int>(V.extent(1));
    const int stride = R / P;
    const int t = team.team_rank();
    if (stride <= lanes) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, stride), [&](const int c) {
        GroupDots dots;
        for (int p = 0; p < P; ++p) dots.vv[p] = dots.wv[p] = 0.0;
        for (long long i = first + t; i < last; i += row_step) update_row_group(i, c, stride, dots);
        for (int p = 0; p < P; ++p) {
          acc(t, c + p * stride) = dots.vv[p];
          acc(t, R + c + p * stride) = dots.wv[p];
        }
      });
    } else {
      for (long long i = first + t; i < last; i += row_step) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, stride), [&](const int c) {
          GroupDots dots;
          for (int p = 0; p < P; ++p) {
            dots.vv[p] = acc(t, c + p * stride);
            dots.wv[p] = acc(t, R + c + p * stride);
          }
          update_row_group(i, c, stride, dots);
          for (int p = 0; p < P; ++p) {
            acc(t, c + p * stride) = dots.vv[p];
            acc(t, R + c + p * stride) = dots.wv[p];
          }
        });
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int R = static_cast<int>(V.extent(1));
    const int members = team.team_size();
    const int t = team.team_rank();
    Accumulators acc(team.team_scratch(scratch_level), members, 2 * R);
    const bool grouped = VectorsPerLane > 1 && R % VectorsPerLane == 0;
    // Each lane zeroes and later updates the same slots (c and R + c): no cross-lane hazard.
    if (R > (grouped ? VectorsPerLane * lanes : lanes)) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, R), [&](const int c) {
        acc(t, c) = 0.0;
        acc(t, R + c) = 0.0;
      });
      // Grouped, lane c % lanes updates slots c + p stride, which another lane may have zeroed.
      if (grouped && lanes > 1) team.team_barrier();
    }
    const long long first = team.league_rank() * team_offset;
    const long long last = first + team_span < num_rows ? first + team_span : num_rows;
    if (grouped) {
      grouped_rows(team, acc, first, last);
    } else if (R <= lanes) {
      // One vector per lane: its two sums stay in registers over all the member's rows, and
      // the scratch slots are written once (instead of a shared-memory update per row).
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, R), [&](const int c) {
        double vv = 0, wv = 0;
        for (long long i = first + t; i < last; i += row_step) update_row(i, c, vv, wv);
        acc(t, c) = vv;
        acc(t, R + c) = wv;
      });
    } else {
      for (long long i = first + t; i < last; i += row_step) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, R), [&](const int c) {
          update_row(i, c, acc(t, c), acc(t, R + c));
        });
      }
    }
    team.team_barrier();
    // Members summed in a fixed order: the partials do not depend on scheduling.
    const int league = team.league_rank();
    Kokkos::parallel_for(Kokkos::TeamVectorRange(team, 2 * R), [&](const int j) {
      double sum = 0;
      for (int m = 0; m < members; ++m) sum += acc(m, j);
      partials(league, j) = sum;
    });
  }
};

/// sums(step, j) = sum over teams l of partials(l, j), one team per j (a fixed-shape tree: the
/// same bits every run). sums holds several steps so that they come to the host in one copy.
template <class Partials, class Sums>
struct KpmSumPartials {
  using Exec = typename Partials::execution_space;
  using Member = typename Kokkos::TeamPolicy<Exec>::member_type;
  Partials partials;
  Sums sums;
  int step = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int j = team.league_rank();
    const int teams = static_cast<int>(partials.extent(0));
    double sum = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, teams), [&](const int l, double& s) { s += partials(l, j); }, sum);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { sums(step, j) = sum; });
  }
};

/// Which rows the teams take (KpmBlockedTeamSpmmv::team_offset, team_span, row_step): member t
/// of team l takes rows l * team_offset + t, l * team_offset + t + row_step, ... below
/// min(l * team_offset + team_span, n). Every row in [0, n) goes to exactly one (team, member).
struct KpmTeamRows {
  int league_size = 1;        ///< teams (= number of partials)
  long long team_offset = 0;
  long long team_span = 0;
  long long row_step = 1;
};

/// Rows interleaved over `teams` teams of `team_size` members: pass p of team l takes rows
/// (p * league + l) * team_size + t. At most one team per pass of team_size rows.
inline KpmTeamRows kpm_interleaved_rows(long long num_rows, int team_size, long long teams) {
  const long long passes = (num_rows + team_size - 1) / team_size;  // rows / members, rounded up
  KpmTeamRows r;
  r.league_size = static_cast<int>(std::max<long long>(1, std::min(passes, teams)));
  r.team_offset = team_size;
  r.team_span = std::max<long long>(1, num_rows);
  r.row_step = static_cast<long long>(r.league_size) * team_size;
  return r;
}

/// A contiguous range of whole passes (team_size rows each) per team, at most `max_teams` teams;
/// n = 0 gives one idle team.
inline KpmTeamRows kpm_range_rows(long long num_rows, int team_size, long long max_teams) {
  const long long passes = (num_rows + team_size - 1) / team_size;
  const long long league = std::max<long long>(1, std::min(passes, max_teams));
  const long long rows_per_team = std::max<long long>(1, (passes + league - 1) / league) * team_size;
  KpmTeamRows r;
  r.league_size = static_cast<int>(std::max<long long>(1, (num_rows + rows_per_team - 1) / rows_per_team));
  r.team_offset = r.team_span = rows_per_team;
  r.row_step = team_size;
  return r;
}

/// Threads per team on GPUs (KpmTeamPolicyWide's launch bound).
constexpr int kpm_team_threads = 256;

/// The team kernel's three instantiations on GPUs, by R (measured on an H100 and an H200:
/// docs/performance.md, "Issue 12: loads in flight and warps in flight" and "Issue 12 on the H200:
/// where the R = 32 kernel is bound; two vectors per lane").
///   - Narrow (R <= kpm_team_narrow_max_vectors): one or two lanes per row, so a thread does a
///     whole row; 8 gathers and the row's own V and W loads in flight per thread pay most.
///   - Paired (the even R from kpm_team_paired_min_vectors to kpm_team_paired_max_vectors that
///     are not multiples of 4, since Quad was measured faster on those that are): R / 2
///     lanes per row, two vectors a lane, 2 gathers (4 loads) in flight, 4 teams of 256 threads
///     per SM (64 registers). The kernel is bound by L1 throughput, and the broadcast column
///     and value loads were about a third of its L1 wavefronts and half of its register
///     writebacks; sharing them between two gathers made R = 8 ... 64 run 1.1-1.2 times as
///     fast on the H200.
///   - Quad (R a multiple of 4 from kpm_team_paired_min_vectors to kpm_team_paired_max_vectors):
///     R / 4 lanes per row, four vectors a lane, 2 gathers (8 loads) in flight, 2 teams of 256
///     threads per SM (up to 128 registers, no spills). Sharing each column and value load
///     between four gathers made R = 8 ... 64 run 1.04-1.13 times as fast as Paired on an H200
///     (same window, both row orders); with 3 or 4 teams per SM it spills and loses.
///   - Wide (the other R): a warp's gathers are already 32 lanes wide; what pays is more warps
///     per SM. The launch bound (5 teams of 256 threads per SM) caps the kernel at 48 registers
///     instead of the 64 it takes on its own (4 teams per SM).
template <class Matrix, class Block>
using KpmTeamKernelNarrow = KpmBlockedTeamSpmmv<Matrix, Block, 8, true>;
template <class Matrix, class Block>
using KpmTeamKernelWide = KpmBlockedTeamSpmmv<Matrix, Block, 4, false>;
template <class Matrix, class Block>
using KpmTeamKernelPaired = KpmBlockedTeamSpmmv<Matrix, Block, 2, false, 2>;
template <class Matrix, class Block>
using KpmTeamKernelQuad = KpmBlockedTeamSpmmv<Matrix, Block, 2, false, 4>;
template <class Exec>
using KpmTeamPolicyNarrow = Kokkos::TeamPolicy<Exec>;
template <class Exec>
using KpmTeamPolicyWide = Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<kpm_team_threads, 5>>;
template <class Exec>
using KpmTeamPolicyPaired = Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<kpm_team_threads, 4>>;
template <class Exec>
using KpmTeamPolicyQuad = Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<kpm_team_threads, 2>>;
constexpr int kpm_team_narrow_max_vectors = 2;
constexpr int kpm_team_paired_min_vectors = 8;  // R = 4 measured no faster paired (H200)
constexpr int kpm_team_paired_max_vectors = 64;  // the widths measured

/// Which instantiation the blocked team step runs for R vectors.
enum class KpmTeamKernelKind { narrow, wide, paired, quad };
inline KpmTeamKernelKind kpm_team_kernel_kind(int num_vectors) {
  if (num_vectors <= kpm_team_narrow_max_vectors) return KpmTeamKernelKind::narrow;
  if (num_vectors % 2 == 0 && num_vectors >= kpm_team_paired_min_vectors &&
      num_vectors <= kpm_team_paired_max_vectors) {
    return num_vectors % 4 == 0 ? KpmTeamKernelKind::quad : KpmTeamKernelKind::paired;
  }
  return KpmTeamKernelKind::wide;
}

/// How the team kernel is launched for R vectors on n rows.
struct KpmTeamShape {
  int vector_length = 1;  ///< lanes per row
  int team_size = 1;      ///< rows in flight per team
  KpmTeamRows rows;       ///< the teams' rows; rows.league_size teams
  int scratch_level = 0;
  std::size_t scratch_bytes = 0;
  kelp::impl::TeamKernelOccupancy occupancy;  ///< GPU: teams resident at once, L1 carveout
};

/// GPU: L = R / Functor::vectors_per_lane rounded up to a power of two (at most 32) lanes per row
/// and kpm_team_threads / L rows per team
/// (fewer when the 2R accumulators per row would take more than 16 KiB of shared memory), and
/// as many teams as are resident at once (kelp::impl::team_kernel_occupancy), the rows
/// interleaved over them: pass p of team l takes rows (p * league + l) * team_size + t. So the
/// rows in flight at any time are one contiguous window of league * team_size rows that sweeps
/// the matrix once, and the rows of V its rows gather (neighbours a few hundred or thousand rows
/// away, closer with KpmRowOrder::locality) are still in L2 when the window passes them again.
/// (Contiguous row ranges per team over 8 waves, the earlier shape, keep one row per team in
/// flight across the whole resident range: at R = 32 V was read about three times per product.)
/// Host: one lane, up to 4 members (the OpenMP pool limits it), 4 teams per thread, each a
/// contiguous range of rows (the CPU prefetchers follow it).
/// The shape depends only on (n, R, the device): the partials are summed in a fixed order, so a
/// run gives the same bits every time on the same device.
template <class Functor, class Policy = Kokkos::TeamPolicy<typename Functor::Exec>>
KpmTeamShape kpm_team_shape(long long num_rows, int num_vectors, const Functor& functor) {
  using Exec = typename Functor::Exec;
  KpmTeamShape s;
  const int R = std::max(1, num_vectors);
  long long max_league = 1;
  if constexpr (kpm_is_warp_space<Exec>()) {
    const int width = (R + Functor::vectors_per_lane - 1) / Functor::vectors_per_lane;  // lanes a row needs
    while (s.vector_length < width && s.vector_length < 32) s.vector_length *= 2;
    s.team_size = kpm_team_threads / s.vector_length;
    while (s.team_size > 1 && Functor::scratch_bytes(s.team_size, R) > 16384) s.team_size /= 2;
    const int limit = Policy(1, 1, s.vector_length).team_size_max(functor, Kokkos::ParallelForTag());
    s.team_size = std::max(1, std::min(s.team_size, limit));
  } else {
    const int limit = Kokkos::TeamPolicy<Exec>(1, 1).team_size_max(functor, Kokkos::ParallelForTag());
    s.team_size = std::max(1, std::min(4, limit));
    max_league = 4 * static_cast<long long>(std::max(1, Exec().concurrency()));
  }
  s.scratch_bytes = Functor::scratch_bytes(s.team_size, R);
  // Beyond ~40 KiB per team (R in the thousands) the accumulators go to level-1 (global) scratch.
  s.scratch_level = s.scratch_bytes > 40960 ? 1 : 0;
  if constexpr (kpm_is_warp_space<Exec>()) {
    s.occupancy = kelp::impl::team_kernel_occupancy<Functor>(
        Policy(1, s.team_size, s.vector_length), s.scratch_level == 0 ? s.scratch_bytes : 0);
    const long long resident = s.occupancy.known
                                   ? s.occupancy.resident_teams()
                                   : Exec().concurrency() / (s.team_size * s.vector_length);
    s.rows = kpm_interleaved_rows(num_rows, s.team_size, resident);
  } else {
    s.rows = kpm_range_rows(num_rows, s.team_size, max_league);
  }
  return s;
}

}  // namespace kelp::solvers::impl
