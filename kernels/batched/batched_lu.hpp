#pragma once
/// Batched LU factorizations, solves and inverses of small dense matrices.
///
///   lu_nopivot(mode, A, status)              A_p = L_p U_p in place, no pivoting
///   lu_factor(mode, A, piv, status)          P_p A_p = L_p U_p in place, partial pivoting
///   lu_solve(mode, LU, piv, b)               b_p = A_p^{-1} b_p (b a batch of vectors or of
///                                            n x nrhs matrices)
///   lu_factor_solve(mode, A, piv, b, status) both in ONE kernel (fused: A_p stays in cache /
///                                            registers between the steps); failed problems
///                                            keep their b_p
///   inverse(mode, LU, piv, Ainv)             Ainv_p = A_p^{-1}
///
/// A status per problem (batched_types.hpp: 0, +k zero pivot at column k, -k non-finite pivot),
/// never a crash and never a silent NaN: a pivot of magnitude <= tiny (default 0) or not finite
/// stops that problem's factorization; failed_problems(status) lists them. The solves assume
/// successful factors (call them only for problems whose status is 0).
///
/// Example:
///   batched::lu_factor_solve(Mode::team_vector, A, piv, b, status);
///   for (int p : batched::failed_problems(status)) std::cerr << "problem " << p << " singular\n";

#include "kelp/kernels/batched/batched_blas.hpp"
#include "kelp/kernels/batched/impl/dense_lu.hpp"

namespace kelp::kernels::batched {

template <class Scalar>
using Magnitude = typename ScalarTraits<Scalar>::magnitude_type;

namespace impl {
template <class AView, class StatusView, class Mag>
struct LuNopivotOp {
  AView A;
  StatusView status;
  Mag tiny;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    const int s = lu_nopivot(ctx, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()), tiny);
    ctx.single([&]() { status(p) = s; });
  }
};
template <class AView, class PivView, class StatusView, class Mag>
struct LuFactorOp {
  AView A;
  PivView piv;
  StatusView status;
  Mag tiny;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    const int s = lu_pivot(ctx, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()),
                           Kokkos::subview(piv, p, Kokkos::ALL()), tiny);
    ctx.single([&]() { status(p) = s; });
  }
};
template <class AView, class PivView, class XView>
struct LuSolveOp {
  AView LU;
  PivView piv;
  XView b;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    lu_solve(ctx, Kokkos::subview(LU, p, Kokkos::ALL(), Kokkos::ALL()), Kokkos::subview(piv, p, Kokkos::ALL()),
             Kokkos::subview(b, p, Kokkos::ALL()));
  }
};
template <class AView, class PivView>
struct LuSolveMultiOp {
  AView LU;
  PivView piv;
  AView B;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    lu_solve_multi(ctx, Kokkos::subview(LU, p, Kokkos::ALL(), Kokkos::ALL()),
                   Kokkos::subview(piv, p, Kokkos::ALL()), Kokkos::subview(B, p, Kokkos::ALL(), Kokkos::ALL()));
  }
};
template <class AView, class PivView, class XView, class StatusView, class Mag>
struct LuFactorSolveOp {
  AView A;
  PivView piv;
  XView b;
  StatusView status;
  Mag tiny;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    const auto Ap = Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL());
    const auto pivp = Kokkos::subview(piv, p, Kokkos::ALL());
    const int s = lu_pivot(ctx, Ap, pivp, tiny);
    if (s == 0) lu_solve(ctx, Ap, pivp, Kokkos::subview(b, p, Kokkos::ALL()));
    ctx.single([&]() { status(p) = s; });
  }
};
template <class AView, class PivView>
struct InverseOp {
  AView LU;
  PivView piv;
  AView Ainv;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    lu_inverse(ctx, Kokkos::subview(LU, p, Kokkos::ALL(), Kokkos::ALL()), Kokkos::subview(piv, p, Kokkos::ALL()),
               Kokkos::subview(Ainv, p, Kokkos::ALL(), Kokkos::ALL()));
  }
};

template <class A>
void require_square(const A& a, const char* where) {
  require(a.extent(1) == a.extent(2), where, "expected square matrices, A is " + shape_of(a));
}
template <class A, class B>
void require_batch(const A& a, const B& b, const char* where, const char* name) {
  require(a.extent(0) == b.extent(0), where,
          std::string("batch sizes differ: A has ") + std::to_string(a.extent(0)) + " problems, " +
              name + " has " + std::to_string(b.extent(0)));
}
template <class A, class P>
void require_pivots(const A& a, const P& piv, const char* where) {
  require_batch(a, piv, where, "piv");
  require(piv.extent(1) == a.extent(1), where,
          "piv is " + shape_of(piv) + ", expected " + shape(a.extent(0), a.extent(1)));
}
}  // namespace impl

template <class Scalar, class Device>
void lu_nopivot(Mode mode, const BatchMatrices<Scalar, Device>& A, const BatchStatus<Device>& status,
                Magnitude<Scalar> tiny = 0) {
  impl::require_square(A, "lu_nopivot");
  impl::require_batch(A, status, "lu_nopivot", "status");
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::lu_nopivot", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::LuNopivotOp<BatchMatrices<Scalar, Device>, BatchStatus<Device>, Magnitude<Scalar>>{
                         A, status, tiny});
}

template <class Scalar, class Device>
void lu_factor(Mode mode, const BatchMatrices<Scalar, Device>& A, const BatchPivots<Device>& piv,
               const BatchStatus<Device>& status, Magnitude<Scalar> tiny = 0) {
  impl::require_square(A, "lu_factor");
  impl::require_pivots(A, piv, "lu_factor");
  impl::require_batch(A, status, "lu_factor", "status");
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::lu_factor", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::LuFactorOp<BatchMatrices<Scalar, Device>, BatchPivots<Device>,
                                      BatchStatus<Device>, Magnitude<Scalar>>{A, piv, status, tiny});
}

template <class Scalar, class Device>
void lu_solve(Mode mode, const BatchMatrices<Scalar, Device>& LU, const BatchPivots<Device>& piv,
              const BatchVectors<Scalar, Device>& b) {
  impl::require_square(LU, "lu_solve");
  impl::require_pivots(LU, piv, "lu_solve");
  impl::require(LU.extent(0) == b.extent(0) && b.extent(1) == LU.extent(1), "lu_solve",
                "b is " + impl::shape_of(b) + ", expected " + impl::shape(LU.extent(0), LU.extent(1)));
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::lu_solve", mode, int(LU.extent(0)), int(LU.extent(1)),
                     impl::LuSolveOp<BatchMatrices<Scalar, Device>, BatchPivots<Device>,
                                     BatchVectors<Scalar, Device>>{LU, piv, b});
}

template <class Scalar, class Device>
void lu_solve(Mode mode, const BatchMatrices<Scalar, Device>& LU, const BatchPivots<Device>& piv,
              const BatchMatrices<Scalar, Device>& B) {
  impl::require_square(LU, "lu_solve");
  impl::require_pivots(LU, piv, "lu_solve");
  impl::require(LU.extent(0) == B.extent(0) && B.extent(1) == LU.extent(1), "lu_solve",
                "B is " + impl::shape_of(B) + ", expected " + std::to_string(LU.extent(0)) + " x " +
                    std::to_string(LU.extent(1)) + " x nrhs");
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::lu_solve", mode, int(LU.extent(0)), int(LU.extent(1)),
                     impl::LuSolveMultiOp<BatchMatrices<Scalar, Device>, BatchPivots<Device>>{LU, piv, B});
}

template <class Scalar, class Device>
void lu_factor_solve(Mode mode, const BatchMatrices<Scalar, Device>& A, const BatchPivots<Device>& piv,
                     const BatchVectors<Scalar, Device>& b, const BatchStatus<Device>& status,
                     Magnitude<Scalar> tiny = 0) {
  impl::require_square(A, "lu_factor_solve");
  impl::require_pivots(A, piv, "lu_factor_solve");
  impl::require_batch(A, status, "lu_factor_solve", "status");
  impl::require(A.extent(0) == b.extent(0) && b.extent(1) == A.extent(1), "lu_factor_solve",
                "b is " + impl::shape_of(b) + ", expected " + impl::shape(A.extent(0), A.extent(1)));
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::lu_factor_solve", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::LuFactorSolveOp<BatchMatrices<Scalar, Device>, BatchPivots<Device>,
                                           BatchVectors<Scalar, Device>, BatchStatus<Device>,
                                           Magnitude<Scalar>>{A, piv, b, status, tiny});
}

template <class Scalar, class Device>
void inverse(Mode mode, const BatchMatrices<Scalar, Device>& LU, const BatchPivots<Device>& piv,
             const BatchMatrices<Scalar, Device>& Ainv) {
  impl::require_square(LU, "inverse");
  impl::require_pivots(LU, piv, "inverse");
  impl::require(LU.extent(0) == Ainv.extent(0) && LU.extent(1) == Ainv.extent(1) &&
                    LU.extent(2) == Ainv.extent(2),
                "inverse", "Ainv is " + impl::shape_of(Ainv) + ", expected " + impl::shape_of(LU));
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::inverse", mode, int(LU.extent(0)), int(LU.extent(1)),
                     impl::InverseOp<BatchMatrices<Scalar, Device>, BatchPivots<Device>>{LU, piv, Ainv});
}

#define KELP_BATCHED_LU_ETI(PREFIX, S)                                                              \
  PREFIX template void lu_nopivot(Mode, const BatchMatrices<S, DefaultDevice>&,                     \
                                  const BatchStatus<DefaultDevice>&, Magnitude<S>);                 \
  PREFIX template void lu_factor(Mode, const BatchMatrices<S, DefaultDevice>&,                      \
                                 const BatchPivots<DefaultDevice>&, const BatchStatus<DefaultDevice>&, \
                                 Magnitude<S>);                                                     \
  PREFIX template void lu_solve(Mode, const BatchMatrices<S, DefaultDevice>&,                       \
                                const BatchPivots<DefaultDevice>&, const BatchVectors<S, DefaultDevice>&); \
  PREFIX template void lu_solve(Mode, const BatchMatrices<S, DefaultDevice>&,                       \
                                const BatchPivots<DefaultDevice>&, const BatchMatrices<S, DefaultDevice>&); \
  PREFIX template void lu_factor_solve(Mode, const BatchMatrices<S, DefaultDevice>&,                \
                                       const BatchPivots<DefaultDevice>&,                           \
                                       const BatchVectors<S, DefaultDevice>&,                       \
                                       const BatchStatus<DefaultDevice>&, Magnitude<S>);            \
  PREFIX template void inverse(Mode, const BatchMatrices<S, DefaultDevice>&,                        \
                               const BatchPivots<DefaultDevice>&, const BatchMatrices<S, DefaultDevice>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_BATCHED_LU_ETI, extern)

}  // namespace kelp::kernels::batched
