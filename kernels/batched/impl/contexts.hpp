#pragma once
/// Execution contexts for one small dense problem: the per-problem routines (dense_blas.hpp,
/// dense_lu.hpp) are written once against this small interface and run serially, on a team, or
/// on a team with vector lanes.
///
///   for_range(n, f):    f(i) for i in [0, n), split over the context's threads
///   for_2d(m, n, f):    f(i, j) for the m x n index space (team: rows over threads; team_vector:
///                       rows over threads and columns over vector lanes)
///   barrier():          every thread of the context sees the writes made before it
///   single(f):          f() once per problem (a team's writes of shared results)

#include <Kokkos_Core.hpp>

namespace kelp::kernels::batched::impl {

struct SerialContext {
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_range(int n, const F& f) const {
    for (int i = 0; i < n; ++i) f(i);
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_2d(int m, int n, const F& f) const {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) f(i, j);
    }
  }
  KOKKOS_INLINE_FUNCTION void barrier() const {}
  template <class F>
  KOKKOS_INLINE_FUNCTION void single(const F& f) const {
    f();
  }
};

template <class Member>
struct TeamContext {
  const Member& member;
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_range(int n, const F& f) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, n), f);
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_2d(int m, int n, const F& f) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, m), [&](const int i) {
      for (int j = 0; j < n; ++j) f(i, j);
    });
  }
  KOKKOS_INLINE_FUNCTION void barrier() const { member.team_barrier(); }
  template <class F>
  KOKKOS_INLINE_FUNCTION void single(const F& f) const {
    Kokkos::single(Kokkos::PerTeam(member), f);
  }
};

template <class Member>
struct TeamVectorContext {
  const Member& member;
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_range(int n, const F& f) const {
    Kokkos::parallel_for(Kokkos::TeamVectorRange(member, n), f);
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_2d(int m, int n, const F& f) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, m), [&](const int i) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, n), [&](const int j) { f(i, j); });
    });
  }
  KOKKOS_INLINE_FUNCTION void barrier() const { member.team_barrier(); }
  template <class F>
  KOKKOS_INLINE_FUNCTION void single(const F& f) const {
    Kokkos::single(Kokkos::PerTeam(member), f);
  }
};

}  // namespace kelp::kernels::batched::impl
