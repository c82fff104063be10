#pragma once
/// Runs a per-problem operation over a batch in one of the three modes. The operation is a
/// functor with  template <class Ctx> KOKKOS_INLINE_FUNCTION void operator()(const Ctx&, int p)
/// (functors, not lambdas: generic extended lambdas are not allowed by nvcc).

#include <type_traits>

#include "kelp/kernels/batched/batched_types.hpp"
#include "kelp/kernels/batched/impl/contexts.hpp"

namespace kelp::kernels::batched::impl {

template <class Op>
struct SerialLaunch {
  Op op;
  KOKKOS_INLINE_FUNCTION void operator()(const int p) const { op(SerialContext{}, p); }
};

template <class ExecSpace, class Op>
struct TeamLaunch {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Op op;
  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    op(TeamContext<member_type>{member}, member.league_rank());
  }
};

template <class ExecSpace, class Op>
struct TeamVectorLaunch {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Op op;
  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    op(TeamVectorContext<member_type>{member}, member.league_rank());
  }
};

/// Vector lanes for a problem of dimension n: the power of two covering n, at most 32 (a warp)
/// and at most what the execution space allows.
template <class ExecSpace>
int vector_length_for(int n) {
  const int max_length = Kokkos::TeamPolicy<ExecSpace>::vector_length_max();
  int length = 1;
  while (length < n && length < 32 && 2 * length <= max_length) length *= 2;
  return length;
}

/// op(ctx, p) for every problem p < batch; n (the problem dimension) sizes teams on devices.
template <class ExecSpace, class Op>
void launch(const char* label, Mode mode, int batch, int n, const Op& op) {
  if (batch == 0) return;
  constexpr bool host = std::is_same<ExecSpace, Kokkos::DefaultHostExecutionSpace>::value;
  switch (mode) {
    case Mode::serial:
      Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, batch), SerialLaunch<Op>{op});
      return;
    case Mode::team: {
      const TeamLaunch<ExecSpace, Op> functor{op};
      if (host) {
        Kokkos::parallel_for(label, Kokkos::TeamPolicy<ExecSpace>(batch, Kokkos::AUTO), functor);
      } else {
        // One thread per row, rounded to a warp: AUTO would give small problems 256 idle threads.
        Kokkos::TeamPolicy<ExecSpace> probe(batch, 1);
        const int max_size = probe.team_size_max(functor, Kokkos::ParallelForTag());
        int size = ((n + 31) / 32) * 32;
        size = size < 32 ? 32 : (size > max_size ? max_size : size);
        Kokkos::parallel_for(label, Kokkos::TeamPolicy<ExecSpace>(batch, size), functor);
      }
      return;
    }
    case Mode::team_vector: {
      const TeamVectorLaunch<ExecSpace, Op> functor{op};
      const int lanes = vector_length_for<ExecSpace>(n);
      if (host) {
        Kokkos::parallel_for(label, Kokkos::TeamPolicy<ExecSpace>(batch, Kokkos::AUTO, lanes), functor);
      } else {
        Kokkos::TeamPolicy<ExecSpace> probe(batch, 1, lanes);
        const int max_size = probe.team_size_max(functor, Kokkos::ParallelForTag());
        int size = n < 1 ? 1 : n;
        size = size > max_size ? max_size : size;
        Kokkos::parallel_for(label, Kokkos::TeamPolicy<ExecSpace>(batch, size, lanes), functor);
      }
      return;
    }
  }
}

}  // namespace kelp::kernels::batched::impl
