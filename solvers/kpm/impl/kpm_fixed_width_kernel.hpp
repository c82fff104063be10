#pragma once
/// The host (CPU) blocked augmented SpMMV with the block width R a compile-time constant:
///   W <- alpha H V + beta V - gamma W,   and the 2R dots <V_c|V_c>, Re <W_c|V_c>
/// as KpmBlockedAugmentedSpmmv (kpm_kernels.hpp) computes them, written so that a compiler
/// vectorises the loops over the R vectors with the baseline instruction set.
///
/// Why: in a generic x86-64 build (SSE2: no addsubpd, no FMA) KpmBlockedAugmentedSpmmv's loop over
/// a runtime R of Kokkos::complex<double> spends 7 vector ops per complex multiply-add (the
/// missing addsubpd becomes a shuffle, a subtract, an add and a blend) and keeps W(i, c) in memory;
/// on the project's 2-core Xeon it ran at 0.3-0.45 of min(memory roof, measured flop peak) from
/// R = 8 on (docs/performance.md, "Issue 12: the host blocked KPM kernel vectorised"). Here
///  - R is a template argument (kpm_fixed_width_step dispatches 1, 2, 4, ..., 64), and a block
///    row is read in SIMD registers of N doubles (GCC's and Clang's vector extension): N = 2 in a
///    generic build (a complex entry (re, im) or two real entries a register), 4 with AVX, 8 with
///    AVX-512 (kpm_simd_doubles);
///  - a row is done in chunks of 4 registers whose accumulators stay in registers over the row's
///    nonzeros; the complex products a v are summed as two element-wise products that need no
///    shuffle inside the loop over the nonzeros:
///      direct += Re(a) (re v, im v),   crossed += Im(a) (re v, im v),
///    and once per chunk W = (direct_re - crossed_im, direct_im + crossed_re);
///  - from 8 chunks a row on, the row's gathered V rows and scaled values are staged once for
///    all its chunks, and from 512-byte block rows on, the V rows that row i + 2 gathers are
///    prefetched while row i computes (see prefetch_neighbours, stage_rows);
///  - a staged row also spends fewer vector ops outside that loop, which on a 2-vCPU Emerald
///    Rapids VM made R = 32 (13 nonzeros a row, L3-resident) 7 % faster (docs/performance.md,
///    "Issue 12 on the CPU, fourth session"): its values carry Im(a) as (Im(a), -Im(a)), so the
///    chunk's W is direct + swapped crossed (a shuffle and an add a register); beta is folded
///    into the diagonal's staged value (alpha a_ii + beta), so beta V costs nothing; the sums
///    start from the first nonzero's products (a multiply without an add); and gamma = 1, every
///    Chebyshev step after the first, subtracts W without a multiply (see Join);
///  - the dots are reduced per double, not per vector (sums[x] += v_x^2, sums[D + x] +=
///    w_x v_x, D doubles per row): vertical adds only; blocked_step_fixed_width adds the parts.
/// Same traffic (N_nzr (S_d + S_i) + 3 R S_d per row), at most the same flops, and the same
/// moments up to rounding (partial sums are added in another order, and alpha a_ii + beta is
/// rounded before it multiplies V).
///
/// Host spaces only: R accumulators of a thread are a GPU thread's local memory; on GPUs the
/// team kernel (kpm_team_kernel.hpp) runs. Included only by solvers/kpm/impl/kpm_impl.hpp.

#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/solvers/kpm/impl/kpm_kernels.hpp"

namespace kelp::solvers::impl {

// GCC's and Clang's vector extension: portable SIMD without intrinsics (SSE2 on x86-64, NEON on
// AArch64). Left out under nvcc, whose builds run the blocked kernel on the GPU.
#if defined(__GNUC__) && !defined(__CUDACC__)
#define KELP_KPM_FIXED_WIDTH_KERNEL 1

/// 2, 4 or 8 doubles in one SIMD register: complex entries (re, im) or real entries. aligned(8)
/// because a thread's reduction array (sums) and a block row need not be aligned to the vector.
typedef double KpmDoubles2 __attribute__((vector_size(2 * sizeof(double)), aligned(sizeof(double))));
typedef double KpmDoubles4 __attribute__((vector_size(4 * sizeof(double)), aligned(sizeof(double))));
typedef double KpmDoubles8 __attribute__((vector_size(8 * sizeof(double)), aligned(sizeof(double))));
template <int N> struct KpmDoublesOf;
template <> struct KpmDoublesOf<2> { using type = KpmDoubles2; };
template <> struct KpmDoublesOf<4> { using type = KpmDoubles4; };
template <> struct KpmDoublesOf<8> { using type = KpmDoubles8; };

/// Doubles per register of this build's instruction set: 2 in a generic x86-64 (SSE2) or AArch64
/// build, 4 with AVX, 8 with AVX-512 (an opt-in -march=native build).
#if defined(__AVX512F__)
constexpr int kpm_simd_doubles = 8;
#elif defined(__AVX__)
constexpr int kpm_simd_doubles = 4;
#else
constexpr int kpm_simd_doubles = 2;
#endif

template <class Matrix, class Block, int R, int N = kpm_simd_doubles>
struct KpmBlockedSpmmvFixedWidth {
  using Scalar = typename Matrix::scalar_type;
  static constexpr bool is_complex = ScalarTraits<Scalar>::is_complex;
  static_assert(std::is_same<typename ScalarTraits<Scalar>::magnitude_type, double>::value,
                "KpmBlockedSpmmvFixedWidth: the block rows are read as doubles");
  /// Doubles per block row, doubles per register (N, or the whole row when it is shorter), and
  /// registers per row.
  static constexpr int D = is_complex ? 2 * R : R;
  static constexpr int L = D < N ? D : N;
  static constexpr int P = D / L;
  static_assert(D % 2 == 0 && D % L == 0, "KpmBlockedSpmmvFixedWidth: a block row must be whole registers");
  using Vec = typename KpmDoublesOf<L>::type;
  /// Registers per chunk of a row: the 2 x 4 accumulators of a complex chunk, Re(a), Im(a) and a
  /// loaded register fit the 16 SSE2 or AVX registers (32 with AVX-512), so the accumulators stay
  /// in registers over the row's nonzeros. In a standalone copy of this loop (R = 32, 13
  /// nonzeros a row, SSE2, one core of the project's 2-core Xeon, L3-resident): 2, 4 and 8 pairs
  /// a chunk gave 10.6, 13.0 and 11.6 Gflop/s, a whole row of accumulators (on the stack) 6.3-6.9.
  static constexpr int C = P < 4 ? P : 4;
  using value_type = double[];
  using size_type = std::size_t;
  size_type value_count = 2 * D;  // sums[x] += v_x^2, sums[D + x] += w_x v_x
  typename Matrix::row_map_type::const_type row_map;
  typename Matrix::entries_type::const_type entries;
  typename Matrix::values_type::const_type values;
  Block V;
  Block W;
  double alpha, beta, gamma;

  /// w += (x1, x0, x3, x2, ...): one shuffle and one add. (w by reference, not a returned
  /// vector: see Unstaged on the ABI of 4- and 8-double vectors.)
  static void add_swapped_pairs(Vec& w, const Vec& x) {
#if defined(__clang__)
    if constexpr (L == 2) {
      w += __builtin_shufflevector(x, x, 1, 0);
    } else if constexpr (L == 4) {
      w += __builtin_shufflevector(x, x, 1, 0, 3, 2);
    } else {
      w += __builtin_shufflevector(x, x, 1, 0, 3, 2, 5, 4, 7, 6);
    }
#else
    typedef long long Mask2 __attribute__((vector_size(2 * sizeof(long long))));
    typedef long long Mask4 __attribute__((vector_size(4 * sizeof(long long))));
    typedef long long Mask8 __attribute__((vector_size(8 * sizeof(long long))));
    if constexpr (L == 2) {
      w += __builtin_shuffle(x, Mask2{1, 0});
    } else if constexpr (L == 4) {
      w += __builtin_shuffle(x, Mask4{1, 0, 3, 2});
    } else {
      w += __builtin_shuffle(x, Mask8{1, 0, 3, 2, 5, 4, 7, 6});
    }
#endif
  }

  /// Row i as P registers: rows of an unpadded LayoutRight block are contiguous, and a
  /// Kokkos::complex<double> is its real part followed by its imaginary part.
  const Vec* row_of_v(const size_type i) const { return reinterpret_cast<const Vec*>(V.data() + i * R); }

  /// Rows ahead whose gathered V rows are prefetched, and from which block-row size on. A wide
  /// block row's neighbours lie far apart in V (a lattice's z neighbours: 4 nx ny rows of
  /// 16 R bytes away), and the hardware prefetchers, which follow a few sequential streams,
  /// leave those gathers waiting on L3 and memory. Asking for the neighbour rows of row i + 2
  /// while row i computes (about half a microsecond a row at R = 32) hides that wait. Measured
  /// on the project's 2-core EPYC VM (docs/performance.md, "Issue 12: the host blocked KPM
  /// kernel stages a row's nonzeros and prefetches its gathers"): with the staging below,
  /// R = 32 and 64 complex ran 1.1-1.7 times as fast; narrower rows, which stay in L2, showed
  /// no gain within that machine's noise, so they are left as they were.
  static constexpr size_type prefetch_rows_ahead = 2;
  static constexpr bool prefetch_neighbours = D * sizeof(double) >= 512;

  /// Asks for the cache lines of every V row that row r gathers (a prefetch never faults; only
  /// called for r < num_rows).
  void prefetch_gathers_of(const size_type r) const {
    const size_type begin = row_map(r), end = row_map(r + 1);
    for (size_type k = begin; k < end; ++k) {
      const char* row = reinterpret_cast<const char*>(row_of_v(static_cast<size_type>(entries(k))));
      for (int byte = 0; byte < D * static_cast<int>(sizeof(double)); byte += 64) __builtin_prefetch(row + byte, 0, 3);
      // GCC 12 deletes a loop whose body is only prefetches (no side effect, finite): this
      // empty statement that "uses" row keeps the loop, and constrains nothing else.
      __asm__ volatile("" : : "r"(row));
    }
  }

  /// Nonzeros a row stages at a time (longer rows are done in segments), and whether rows are
  /// staged: from 8 chunks a row on (R >= 32 complex with 2 doubles a register).
  static constexpr int stage_capacity = 32;
  static constexpr bool stage_rows = P / C >= 8;
  /// A segment of a row's nonzeros as the chunk loop reads them: the gathered V rows and
  /// alpha Re(a), alpha Im(a) (alpha a for real H) already in both lanes of a register. Unstaged,
  /// every chunk of the row reloads each column index and value, scales it by alpha and
  /// broadcasts it: 4 scalar or shuffle instructions per nonzero on the floating-point ports
  /// beside the chunk's 16 products and sums; staged, a chunk reads two registers. A row of
  /// few chunks would spend more on staging than it saves.
  struct Staged {
    /// im holds (Im(a), -Im(a)) in each pair of lanes, so that the crossed sums need one
    /// swap and one add per register to join the direct ones (add_swapped_pairs).
    static constexpr bool signed_im = true;
    const Vec* row[stage_capacity];
    Vec re[stage_capacity];
    Vec im[stage_capacity];
    const Vec* gathered(const int k) const { return row[k]; }
    const Vec& scaled_re(const int k) const { return re[k]; }
    const Vec& scaled_im(const int k) const { return im[k]; }
  };
  /// The same, read from H at every chunk: alpha Re(a) as a double, which the products
  /// broadcast. (Doubles and references only: a function returning a 4- or 8-double vector by
  /// value would have an AVX-dependent ABI, which GCC warns about in generic builds.)
  struct Unstaged {
    static constexpr bool signed_im = false;
    const KpmBlockedSpmmvFixedWidth& f;
    size_type first;
    const Vec* gathered(const int k) const { return f.row_of_v(static_cast<size_type>(f.entries(first + k))); }
    double scaled_re(const int k) const { return f.alpha * ScalarTraits<Scalar>::real(f.values(first + k)); }
    double scaled_im(const int k) const { return f.alpha * ScalarTraits<Scalar>::imag(f.values(first + k)); }
  };

  /// Stages count nonzeros from first. The value of column fold_row (the row's diagonal, for
  /// its first segment) becomes alpha a + beta, so that the beta V term of the recurrence costs
  /// nothing (true when it was found; a row without a stored diagonal adds beta V itself).
  bool stage(const size_type first, const int count, Staged& s, const size_type fold_row) const {
    const Unstaged h{*this, first};
    bool folded = false;
    for (int k = 0; k < count; ++k) {
      s.row[k] = h.gathered(k);
      double re = h.scaled_re(k);
      const double im = is_complex ? h.scaled_im(k) : 0.0;
      if (!folded && static_cast<size_type>(entries(first + k)) == fold_row) {
        re += beta;
        folded = true;
      }
      for (int q = 0; q < L; ++q) {
        s.re[k][q] = re;
        s.im[k][q] = q % 2 == 0 ? im : -im;
      }
    }
    return folded;
  }

  /// What a segment's products join in the W row: the first segment of a row beta V - gamma W
  /// (first) or only - gamma W when stage folded beta into the diagonal (first_folded), a later
  /// segment the W row the earlier ones wrote (later): the sums are linear, so adding them per
  /// segment gives the same row.
  enum class Join { first, first_folded, later };

  /// w (C registers of the row) += the Join term, from the row's v and old w registers.
  void join(Vec* w, const Join how, const Vec* v, const Vec* w_old) const {
    if (how == Join::later) {
      for (int p = 0; p < C; ++p) w[p] += w_old[p];
      return;
    }
    if (how == Join::first) {
      for (int p = 0; p < C; ++p) w[p] += beta * v[p];
    }
    subtract_gamma_w(w, w_old);
  }

  /// w (C registers) -= gamma w_old.
  void subtract_gamma_w(Vec* w, const Vec* w_old) const {
    if (gamma == 1.0) {  // every Chebyshev step after the first: no multiply
      for (int p = 0; p < C; ++p) w[p] -= w_old[p];
    } else if (gamma != 0.0) {  // gamma = 0: W may hold garbage, and is not read
      for (int p = 0; p < C; ++p) w[p] -= gamma * w_old[p];
    }
  }

  /// w (C registers of the row) = the Join term: the start of an unstaged row's sums.
  void join_start(Vec* w, const Join how, const Vec* v, const Vec* w_old) const {
    if (how == Join::later) {
      for (int p = 0; p < C; ++p) w[p] = w_old[p];
      return;
    }
    if (how == Join::first) {
      for (int p = 0; p < C; ++p) w[p] = beta * v[p];
    } else {
      for (int p = 0; p < C; ++p) w[p] = Vec{};
    }
    subtract_gamma_w(w, w_old);
  }

  /// W row i (+)= alpha (count nonzeros of H from s) V (+ the Join term), as chunks of C registers
  /// whose sums stay in registers over the nonzeros. A staged row's sums start from the first
  /// nonzero's products: a multiply without an add.
  template <class Source>
  void add_segment(const Vec* v_i, Vec* w_i, const Source& s, const int count, const Join how) const {
    for (int p0 = 0; p0 < P; p0 += C) {
      // Staged rows start the sums from the first nonzero's products and add the Join term
      // last; unstaged (narrower) rows start from the Join term, which measured faster there.
      constexpr bool peel = Source::signed_im;
      Vec direct[C] = {};   // Re(a) (re v, im v), or a v for real H, summed over the segment
      Vec crossed[C] = {};  // Im(a) (re v, im v) (complex H), summed over the segment
      if constexpr (peel) {
        if (count > 0) {
          const Vec* v_j = s.gathered(0) + p0;
          const auto& a_re = s.scaled_re(0);  // a Vec (staged) or a double (broadcast)
          for (int p = 0; p < C; ++p) direct[p] = a_re * v_j[p];
          if constexpr (is_complex) {
            const auto& a_im = s.scaled_im(0);
            for (int p = 0; p < C; ++p) crossed[p] = a_im * v_j[p];
          }
        }
      } else {
        join_start(direct, how, v_i + p0, w_i + p0);
      }
      for (int k = peel ? 1 : 0; k < count; ++k) {
        const Vec* v_j = s.gathered(k) + p0;
        const auto& a_re = s.scaled_re(k);
        for (int p = 0; p < C; ++p) direct[p] += a_re * v_j[p];
        if constexpr (is_complex) {
          const auto& a_im = s.scaled_im(k);
          for (int p = 0; p < C; ++p) crossed[p] += a_im * v_j[p];
        }
      }
      Vec w[C];
      for (int p = 0; p < C; ++p) {  // a v = (Re(a) re v - Im(a) im v, Re(a) im v + Im(a) re v)
        if constexpr (!is_complex) {
          w[p] = direct[p];
        } else if constexpr (Source::signed_im) {  // crossed = (Im(a) re v, -Im(a) im v)
          w[p] = direct[p];
          add_swapped_pairs(w[p], crossed[p]);
        } else {
          for (int q = 0; q < L; q += 2) {
            w[p][q] = direct[p][q] - crossed[p][q + 1];
            w[p][q + 1] = direct[p][q + 1] + crossed[p][q];
          }
        }
      }
      if constexpr (peel) join(w, how, v_i + p0, w_i + p0);
      for (int p = 0; p < C; ++p) w_i[p0 + p] = w[p];
    }
  }

  // Host only (kpm_fixed_width_step): a plain member function, not KOKKOS_INLINE_FUNCTION.
  void operator()(const size_type i, value_type sums) const {
    if constexpr (prefetch_neighbours) {
      if (i + prefetch_rows_ahead + 1 < row_map.extent(0)) prefetch_gathers_of(i + prefetch_rows_ahead);
    }
    const Vec* v_i = row_of_v(i);
    Vec* w_i = reinterpret_cast<Vec*>(W.data() + i * R);
    const size_type begin = row_map(i), end = row_map(i + 1);
    if constexpr (stage_rows) {
      Staged staged;
      size_type first = begin;
      do {  // once for an empty row: W = beta V - gamma W
        const size_type left = end - first, most = stage_capacity;
        const int count = static_cast<int>(left < most ? left : most);
        const bool first_segment = first == begin;
        const bool folded = stage(first, count, staged, first_segment ? i : ~size_type(0));
        add_segment(v_i, w_i, staged, count,
                    !first_segment ? Join::later : folded ? Join::first_folded : Join::first);
        first += static_cast<size_type>(count);
      } while (first < end);
    } else {
      add_segment(v_i, w_i, Unstaged{*this, begin}, static_cast<int>(end - begin), Join::first);
    }
    Vec* vv = reinterpret_cast<Vec*>(sums);
    Vec* wv = vv + P;
    for (int p = 0; p < P; ++p) {
      vv[p] += v_i[p] * v_i[p];
      wv[p] += w_i[p] * v_i[p];
    }
  }
  void init(value_type sums) const {
    for (size_type j = 0; j < value_count; ++j) sums[j] = 0.0;
  }
  void join(volatile value_type dst, const volatile value_type src) const {
    for (size_type j = 0; j < value_count; ++j) dst[j] += src[j];
  }
};

/// One blocked step by KpmBlockedSpmmvFixedWidth<R, N>; sums[2c] = <V_c|V_c>,
/// sums[2c + 1] = Re <W_c|V_c> as in blocked_step. N (doubles per register) is the build's
/// kpm_simd_doubles; the tests also run the other widths.
template <int R, class Scalar, int N = kpm_simd_doubles>
void blocked_step_fixed_width(const CrsMatrix<Scalar>& H,
                              const MultiVectorView<Scalar, Kokkos::LayoutRight>& V,
                              const MultiVectorView<Scalar, Kokkos::LayoutRight>& W, double alpha,
                              double beta, double gamma, double* sums) {
  using Exec = typename CrsMatrix<Scalar>::execution_space;
  using Functor =
      KpmBlockedSpmmvFixedWidth<CrsMatrix<Scalar>, MultiVectorView<Scalar, Kokkos::LayoutRight>, R, N>;
  constexpr int D = Functor::D;
  Functor f;
  set_step_fields(f, H, alpha, beta, gamma);
  f.V = V;
  f.W = W;
  double per_double[2 * D];
  Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> result(per_double, 2 * D);
  Kokkos::parallel_reduce("kelp::solvers::kpm(blocked fixed width)",
                          Kokkos::RangePolicy<Exec>(0, H.num_rows()), f, result);
  Exec().fence();
  constexpr int parts = Functor::is_complex ? 2 : 1;  // doubles per vector entry
  for (int c = 0; c < R; ++c) {
    double vv = 0, wv = 0;
    for (int p = 0; p < parts; ++p) {
      vv += per_double[parts * c + p];
      wv += per_double[D + parts * c + p];
    }
    sums[2 * c] = vv;
    sums[2 * c + 1] = wv;
  }
}

#endif  // defined(__GNUC__) && !defined(__CUDACC__)

/// blocked_step by the fixed-width kernel when this is a host space, R is one of 1, 2, 4, ..., 64
/// and the block rows are contiguous; false (nothing done) otherwise: the caller then runs the
/// runtime-R kernel. Widths are powers of two: the block sizes used in practice (32 is the
/// default), and each width is one more instantiation per scalar type.
template <class Scalar>
bool kpm_fixed_width_step(const CrsMatrix<Scalar>& H,
                          const MultiVectorView<Scalar, Kokkos::LayoutRight>& V,
                          const MultiVectorView<Scalar, Kokkos::LayoutRight>& W, double alpha,
                          double beta, double gamma, double* sums) {
#ifdef KELP_KPM_FIXED_WIDTH_KERNEL
  using Exec = typename CrsMatrix<Scalar>::execution_space;
  if constexpr (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible) {
    // The functor reads row i at data() + i R: no padding between rows.
    const bool contiguous = V.span() == V.extent(0) * V.extent(1) &&
                            W.span() == W.extent(0) * W.extent(1);
    if (!contiguous) return false;
    switch (V.extent(1)) {
      case 1:
        if constexpr (ScalarTraits<Scalar>::is_complex) {
          blocked_step_fixed_width<1>(H, V, W, alpha, beta, gamma, sums);
          return true;
        } else {
          return false;  // a real row of one double is no pair
        }
      case 2: blocked_step_fixed_width<2>(H, V, W, alpha, beta, gamma, sums); return true;
      case 4: blocked_step_fixed_width<4>(H, V, W, alpha, beta, gamma, sums); return true;
      case 8: blocked_step_fixed_width<8>(H, V, W, alpha, beta, gamma, sums); return true;
      case 16: blocked_step_fixed_width<16>(H, V, W, alpha, beta, gamma, sums); return true;
      case 32: blocked_step_fixed_width<32>(H, V, W, alpha, beta, gamma, sums); return true;
      case 64: blocked_step_fixed_width<64>(H, V, W, alpha, beta, gamma, sums); return true;
      default: return false;
    }
  }
#endif
  (void)H, (void)V, (void)W, (void)alpha, (void)beta, (void)gamma, (void)sums;
  return false;
}

}  // namespace kelp::solvers::impl
