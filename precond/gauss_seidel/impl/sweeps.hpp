#pragma once
/// The Gauss-Seidel kernels: one color of rows (a thread per row, or a team per long row), one
/// color of clusters, and the two-stage passes. Free functions: CUDA extended lambdas cannot live
/// in protected member functions.
///
/// Every row update is x(i) += omega * inv(i) * (b(i) - sum_j a_ij x(j)) with the whole row
/// (diagonal included), so it needs neither sorted rows nor a separately stored diagonal entry.

#include <Kokkos_Core.hpp>

#include "kelp/kernels/core/types.hpp"

namespace kelp::precond::impl {

/// Rows rows(k), k in [begin, end), pairwise independent (one color): updated in parallel.
/// The rows are stored in sweep order (row_map, entries, values indexed by the position k, so one
/// color is one contiguous block of the matrix: a half pass over a red-black matrix reads half
/// of it, not every other row's cache lines); b, x and inv are in the original order.
template <class RowMap, class Entries, class Values, class Rows, class Inv, class B, class X, class Scalar>
void gs_color_rows(const RowMap& row_map, const Entries& entries, const Values& values,
                   const Rows& rows, Ordinal begin, Ordinal end, const Inv& inv, const B& b,
                   const X& x, Scalar omega) {
  if (end <= begin) return;
  using Exec = typename X::execution_space;
  Kokkos::parallel_for(
      "kelp::precond::GaussSeidel::color", Kokkos::RangePolicy<Exec>(begin, end),
      KOKKOS_LAMBDA(const Ordinal k) {
        const Ordinal i = rows(k);
        Scalar sum = b(i);
        for (Offset p = row_map(k); p < row_map(k + 1); ++p) sum -= values(p) * x(entries(p));
        x(i) += omega * inv(i) * sum;
      });
}

/// The body of gather_rows: a named functor, since gathering the entries is instantiated
/// identically in every scalar's ETI file, where nvcc's extended lambdas are unsafe
/// (docs/conventions.md section 11).
template <class SrcRowMap, class Src, class Rows, class DstRowMap, class Dst>
struct GatherRows {
  SrcRowMap src_row_map;
  Src src;
  Rows rows;
  DstRowMap dst_row_map;
  Dst dst;
  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal k) const {
    const Ordinal i = rows(k);
    const Offset first = src_row_map(i), target = dst_row_map(k);
    for (Offset p = 0; p < src_row_map(i + 1) - first; ++p) dst(target + p) = src(first + p);
  }
};

/// dst row k = src row rows(k) (entries or values), for the matrix stored in sweep order.
template <class SrcRowMap, class Src, class Rows, class DstRowMap, class Dst>
void gather_rows(const SrcRowMap& src_row_map, const Src& src, const Rows& rows,
                 const DstRowMap& dst_row_map, const Dst& dst) {
  using Exec = typename Dst::execution_space;
  Kokkos::parallel_for("kelp::precond::GaussSeidel::gather_rows",
                       Kokkos::RangePolicy<Exec>(0, rows.extent(0)),
                       GatherRows<SrcRowMap, Src, Rows, DstRowMap, Dst>{src_row_map, src, rows,
                                                                        dst_row_map, dst});
}

/// The first color of a sweep from x = 0: every x(j) read would be 0, so x(i) = omega b(i) / a_ii
/// without reading the rows.
template <class Rows, class Inv, class B, class X, class Scalar>
void gs_color_rows_from_zero(const Rows& rows, Ordinal begin, Ordinal end, const Inv& inv,
                             const B& b, const X& x, Scalar omega) {
  if (end <= begin) return;
  using Exec = typename X::execution_space;
  Kokkos::parallel_for(
      "kelp::precond::GaussSeidel::color_from_zero", Kokkos::RangePolicy<Exec>(begin, end),
      KOKKOS_LAMBDA(const Ordinal k) {
        const Ordinal i = rows(k);
        x(i) = omega * inv(i) * b(i);
      });
}

/// The long rows of one color: a team per row reduces the row, one thread updates x(i).
template <class Matrix, class Rows, class Inv, class B, class X, class Scalar>
void gs_color_long_rows(const Matrix& A, const Rows& rows, Ordinal begin, Ordinal end,
                        const Inv& inv, const B& b, const X& x, Scalar omega) {
  if (end <= begin) return;
  using Exec = typename Matrix::execution_space;
  using Policy = Kokkos::TeamPolicy<Exec>;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto values = A.values();
  Kokkos::parallel_for(
      "kelp::precond::GaussSeidel::long_rows", Policy(end - begin, Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        const Ordinal i = rows(begin + team.league_rank());
        Scalar ax = Scalar(0);
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, row_map(i), row_map(i + 1)),
            [&](const Offset p, Scalar& partial) { partial += values(p) * x(entries(p)); }, ax);
        Kokkos::single(Kokkos::PerTeam(team), [&]() { x(i) += omega * inv(i) * (b(i) - ax); });
      });
}

/// Clusters c in [begin, end) of one color (no edges between them): a thread per cluster sweeps
/// its rows cluster_rows(cluster_ptr(c) ..) in order (reverse: backward).
template <class Matrix, class Ptr, class Rows, class Inv, class B, class X, class Scalar>
void gs_color_clusters(const Matrix& A, const Ptr& cluster_ptr, const Rows& cluster_rows,
                       Ordinal begin, Ordinal end, bool reverse, const Inv& inv, const B& b,
                       const X& x, Scalar omega) {
  if (end <= begin) return;
  using Exec = typename Matrix::execution_space;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto values = A.values();
  Kokkos::parallel_for(
      "kelp::precond::GaussSeidel::clusters", Kokkos::RangePolicy<Exec>(begin, end),
      KOKKOS_LAMBDA(const Ordinal c) {
        const Ordinal first = cluster_ptr(c), last = cluster_ptr(c + 1);
        for (Ordinal t = 0; t < last - first; ++t) {
          const Ordinal i = cluster_rows(reverse ? last - 1 - t : first + t);
          Scalar sum = b(i);
          for (Offset p = row_map(i); p < row_map(i + 1); ++p) sum -= values(p) * x(entries(p));
          x(i) += omega * inv(i) * sum;
        }
      });
}

/// Two-stage, classic form, first pass: r = b - A x and g = omega D^{-1} r.
template <class Matrix, class Inv, class B, class X, class R, class G, class Scalar>
void two_stage_residual(const Matrix& A, const Inv& inv, const B& b, const X& x, const R& r,
                        const G& g, Scalar omega) {
  using Exec = typename Matrix::execution_space;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto values = A.values();
  Kokkos::parallel_for(
      "kelp::precond::GaussSeidel::two_stage_residual", Kokkos::RangePolicy<Exec>(0, A.num_rows()),
      KOKKOS_LAMBDA(const Ordinal i) {
        Scalar sum = b(i);
        for (Offset p = row_map(i); p < row_map(i + 1); ++p) sum -= values(p) * x(entries(p));
        r(i) = sum;
        g(i) = omega * inv(i) * sum;
      });
}

/// Two-stage, classic form, one inner Jacobi-Richardson sweep on (D / omega + T) g = r, T the
/// strict lower (upper = false) or upper triangle: g_out = omega D^{-1} (r - T g_in). When
/// `last`, writes x += g_out instead of g_out (fused final update).
template <class Matrix, class Inv, class R, class G, class X, class Scalar>
void two_stage_inner(const Matrix& A, const Inv& inv, bool upper, const R& r, const G& g_in,
                     const G& g_out, bool last, const X& x, Scalar omega) {
  using Exec = typename Matrix::execution_space;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto values = A.values();
  Kokkos::parallel_for(
      "kelp::precond::GaussSeidel::two_stage_inner", Kokkos::RangePolicy<Exec>(0, A.num_rows()),
      KOKKOS_LAMBDA(const Ordinal i) {
        Scalar sum = r(i);
        for (Offset p = row_map(i); p < row_map(i + 1); ++p) {
          const Ordinal j = entries(p);
          if (upper ? j > i : j < i) sum -= values(p) * g_in(j);
        }
        const Scalar value = omega * inv(i) * sum;
        if (last) {
          x(i) += value;
        } else {
          g_out(i) = value;
        }
      });
}

/// x += g (the classic form without inner sweeps).
template <class G, class X>
void two_stage_update(const G& g, const X& x) {
  using Exec = typename X::execution_space;
  Kokkos::parallel_for(
      "kelp::precond::GaussSeidel::two_stage_update", Kokkos::RangePolicy<Exec>(0, x.extent(0)),
      KOKKOS_LAMBDA(const Ordinal i) { x(i) += g(i); });
}

/// Two-stage, compact form, one pass: the SOR row update with the solved triangle T (lower for
/// forward sweeps) read from y_in and the rest from x, the sweep's starting point:
/// y_out(i) = x(i) + omega / a_ii (b(i) - sum_{j in T} a_ij y_in(j) - sum_{j not in T} a_ij x(j)).
/// x is read by other rows, so the caller copies y into x at the end. The first pass has y_in = x.
template <class Matrix, class Inv, class B, class X, class Y, class Scalar>
void two_stage_compact_pass(const Matrix& A, const Inv& inv, bool upper, const B& b, const X& x,
                            const Y& y_in, const Y& y_out, Scalar omega) {
  using Exec = typename Matrix::execution_space;
  const auto row_map = A.row_map();
  const auto entries = A.entries();
  const auto values = A.values();
  Kokkos::parallel_for(
      "kelp::precond::GaussSeidel::two_stage_compact", Kokkos::RangePolicy<Exec>(0, A.num_rows()),
      KOKKOS_LAMBDA(const Ordinal i) {
        Scalar sum = b(i);
        for (Offset p = row_map(i); p < row_map(i + 1); ++p) {
          const Ordinal j = entries(p);
          const bool solved = upper ? j > i : j < i;  // in the triangle being solved
          sum -= values(p) * (solved ? y_in(j) : x(j));
        }
        y_out(i) = x(i) + omega * inv(i) * sum;
      });
}

}  // namespace kelp::precond::impl
