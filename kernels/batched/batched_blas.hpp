#pragma once
/// Batched small dense BLAS: the same operation on every problem of a batch, in one kernel.
///
///   set_identity(mode, A)                 A_p = I
///   scale(mode, alpha, A)                 A_p = alpha A_p
///   copy(mode, A, B)                      B_p = A_p
///   gemm(mode, alpha, A, B, beta, C)      C_p = alpha A_p B_p + beta C_p
///   gemv(mode, alpha, A, x, beta, y)      y_p = alpha A_p x_p + beta y_p
///   trsm(mode, uplo, diag, A, B)          B_p = tri(A_p)^{-1} B_p   (left side, in place)
///   trsv(mode, uplo, diag, A, b)          b_p = tri(A_p)^{-1} b_p
///   trmm(mode, uplo, diag, alpha, A, B)   B_p = alpha tri(A_p) B_p   (left side, in place)
///   trtri(mode, uplo, diag, A, status)    tri(A_p) = tri(A_p)^{-1} in place; status p = k + 1
///                                         for a zero diagonal entry k (sequential per problem)
///
/// Batches are views of batched_types.hpp (A(p, i, j), x(p, i)); the mode picks serial, team or
/// team_vector execution (batched_types.hpp). beta = 0 never reads the output. Shapes are checked
/// here (DimensionMismatch naming the operand); the per-problem bodies are in impl/dense_blas.hpp.
///
/// Example (16,384 products of 5 x 5 matrices, one team per product on a GPU):
///   BatchMatrices<double> A("A", 16384, 5, 5), B("B", 16384, 5, 5), C("C", 16384, 5, 5);
///   batched::gemm(Mode::team_vector, 1.0, A, B, 0.0, C);

#include <string>

#include "kelp/kernels/batched/impl/dense_blas.hpp"
#include "kelp/kernels/batched/impl/launch.hpp"
#include "kelp/kernels/core/eti.hpp"

namespace kelp::kernels::batched {

namespace impl {
inline void require(bool ok, const char* where, const std::string& what) {
  KELP_REQUIRE(ok, DimensionMismatch, "kelp::kernels::batched::" << where << ": " << what);
}
inline std::string shape(std::size_t a, std::size_t b, std::size_t c) {
  return std::to_string(a) + " x " + std::to_string(b) + " x " + std::to_string(c);
}
inline std::string shape(std::size_t a, std::size_t b) {
  return std::to_string(a) + " x " + std::to_string(b);
}
template <class A>
std::string shape_of(const A& a) {
  return A::rank == 3 ? shape(a.extent(0), a.extent(1), a.extent(2)) : shape(a.extent(0), a.extent(1));
}

template <class AView>
struct SetIdentityOp {
  AView A;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    set_identity(ctx, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()));
  }
};
template <class Scalar, class AView>
struct ScaleOp {
  Scalar alpha;
  AView A;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    scale(ctx, alpha, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()));
  }
};
template <class AView>
struct CopyOp {
  AView A, B;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    copy(ctx, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()),
         Kokkos::subview(B, p, Kokkos::ALL(), Kokkos::ALL()));
  }
};
template <class Scalar, class AView>
struct GemmOp {
  Scalar alpha;
  AView A, B;
  Scalar beta;
  AView C;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    gemm(ctx, alpha, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()),
         Kokkos::subview(B, p, Kokkos::ALL(), Kokkos::ALL()), beta,
         Kokkos::subview(C, p, Kokkos::ALL(), Kokkos::ALL()));
  }
};
template <class Scalar, class AView, class XView>
struct GemvOp {
  Scalar alpha;
  AView A;
  XView x;
  Scalar beta;
  XView y;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    gemv(ctx, alpha, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()),
         Kokkos::subview(x, p, Kokkos::ALL()), beta, Kokkos::subview(y, p, Kokkos::ALL()));
  }
};
template <class AView>
struct TrsmOp {
  Uplo uplo;
  Diag diag;
  AView A, B;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    trsm(ctx, uplo, diag, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()),
         Kokkos::subview(B, p, Kokkos::ALL(), Kokkos::ALL()));
  }
};
template <class AView, class XView>
struct TrsvOp {
  Uplo uplo;
  Diag diag;
  AView A;
  XView b;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    trsv(ctx, uplo, diag, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()),
         Kokkos::subview(b, p, Kokkos::ALL()));
  }
};
template <class Scalar, class AView>
struct TrmmOp {
  Uplo uplo;
  Diag diag;
  Scalar alpha;
  AView A, B;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    trmm(ctx, uplo, diag, alpha, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()),
         Kokkos::subview(B, p, Kokkos::ALL(), Kokkos::ALL()));
  }
};
template <class AView, class StatusView>
struct TrtriOp {
  Uplo uplo;
  Diag diag;
  AView A;
  StatusView status;
  template <class Ctx>
  KOKKOS_INLINE_FUNCTION void operator()(const Ctx& ctx, const int p) const {
    const int s = trtri(ctx, uplo, diag, Kokkos::subview(A, p, Kokkos::ALL(), Kokkos::ALL()));
    ctx.single([&]() { status(p) = s; });
  }
};
}  // namespace impl

template <class Scalar, class Device>
void set_identity(Mode mode, const BatchMatrices<Scalar, Device>& A) {
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::set_identity", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::SetIdentityOp<BatchMatrices<Scalar, Device>>{A});
}

template <class Scalar, class Device>
void scale(Mode mode, Scalar alpha, const BatchMatrices<Scalar, Device>& A) {
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::scale", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::ScaleOp<Scalar, BatchMatrices<Scalar, Device>>{alpha, A});
}

template <class Scalar, class Device>
void copy(Mode mode, const BatchMatrices<Scalar, Device>& A, const BatchMatrices<Scalar, Device>& B) {
  impl::require(A.extent(0) == B.extent(0) && A.extent(1) == B.extent(1) && A.extent(2) == B.extent(2),
                "copy", "A is " + impl::shape_of(A) + ", B is " + impl::shape_of(B) + ", expected equal shapes");
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::copy", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::CopyOp<BatchMatrices<Scalar, Device>>{A, B});
}

template <class Scalar, class Device>
void gemm(Mode mode, Scalar alpha, const BatchMatrices<Scalar, Device>& A,
          const BatchMatrices<Scalar, Device>& B, Scalar beta, const BatchMatrices<Scalar, Device>& C) {
  impl::require(A.extent(0) == B.extent(0) && A.extent(0) == C.extent(0), "gemm",
                "batch sizes differ: A " + impl::shape_of(A) + ", B " + impl::shape_of(B) + ", C " +
                    impl::shape_of(C));
  impl::require(A.extent(2) == B.extent(1) && C.extent(1) == A.extent(1) && C.extent(2) == B.extent(2),
                "gemm", "shapes do not conform for C = A B: A " + impl::shape_of(A) + ", B " +
                            impl::shape_of(B) + ", C " + impl::shape_of(C));
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::gemm", mode, int(C.extent(0)), int(C.extent(1)),
                     impl::GemmOp<Scalar, BatchMatrices<Scalar, Device>>{alpha, A, B, beta, C});
}

template <class Scalar, class Device>
void gemv(Mode mode, Scalar alpha, const BatchMatrices<Scalar, Device>& A,
          const BatchVectors<Scalar, Device>& x, Scalar beta, const BatchVectors<Scalar, Device>& y) {
  impl::require(A.extent(0) == x.extent(0) && A.extent(0) == y.extent(0) &&
                    A.extent(2) == x.extent(1) && A.extent(1) == y.extent(1),
                "gemv", "shapes do not conform for y = A x: A " + impl::shape_of(A) + ", x " +
                            impl::shape_of(x) + ", y " + impl::shape_of(y));
  using Exec = typename Device::execution_space;
  impl::launch<Exec>(
      "kelp::kernels::batched::gemv", mode, int(A.extent(0)), int(A.extent(1)),
      impl::GemvOp<Scalar, BatchMatrices<Scalar, Device>, BatchVectors<Scalar, Device>>{alpha, A, x, beta, y});
}

template <class Scalar, class Device>
void trsm(Mode mode, Uplo uplo, Diag diag, const BatchMatrices<Scalar, Device>& A,
          const BatchMatrices<Scalar, Device>& B) {
  impl::require(A.extent(0) == B.extent(0) && A.extent(1) == A.extent(2) && B.extent(1) == A.extent(1),
                "trsm", "expected square A and B with as many rows: A " + impl::shape_of(A) + ", B " +
                            impl::shape_of(B));
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::trsm", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::TrsmOp<BatchMatrices<Scalar, Device>>{uplo, diag, A, B});
}

template <class Scalar, class Device>
void trsv(Mode mode, Uplo uplo, Diag diag, const BatchMatrices<Scalar, Device>& A,
          const BatchVectors<Scalar, Device>& b) {
  impl::require(A.extent(0) == b.extent(0) && A.extent(1) == A.extent(2) && b.extent(1) == A.extent(1),
                "trsv", "expected square A and b with as many rows: A " + impl::shape_of(A) + ", b " +
                            impl::shape_of(b));
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::trsv", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::TrsvOp<BatchMatrices<Scalar, Device>, BatchVectors<Scalar, Device>>{uplo, diag, A, b});
}

template <class Scalar, class Device>
void trmm(Mode mode, Uplo uplo, Diag diag, Scalar alpha, const BatchMatrices<Scalar, Device>& A,
          const BatchMatrices<Scalar, Device>& B) {
  impl::require(A.extent(0) == B.extent(0) && A.extent(1) == A.extent(2) && B.extent(1) == A.extent(1),
                "trmm", "expected square A and B with as many rows: A " + impl::shape_of(A) + ", B " +
                            impl::shape_of(B));
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::trmm", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::TrmmOp<Scalar, BatchMatrices<Scalar, Device>>{uplo, diag, alpha, A, B});
}

template <class Scalar, class Device>
void trtri(Mode mode, Uplo uplo, Diag diag, const BatchMatrices<Scalar, Device>& A,
           const BatchStatus<Device>& status) {
  impl::require(A.extent(1) == A.extent(2), "trtri", "expected square matrices, A is " + impl::shape_of(A));
  impl::require(A.extent(0) == status.extent(0), "trtri",
                "batch sizes differ: A has " + std::to_string(A.extent(0)) + " problems, status has " +
                    std::to_string(status.extent(0)));
  using Exec = typename Device::execution_space;
  impl::launch<Exec>("kelp::kernels::batched::trtri", mode, int(A.extent(0)), int(A.extent(1)),
                     impl::TrtriOp<BatchMatrices<Scalar, Device>, BatchStatus<Device>>{uplo, diag, A, status});
}

// Compiled once for the standard scalars on the default device, in kernels/batched/eti/.
#define KELP_BATCHED_BLAS_ETI(PREFIX, S)                                                            \
  PREFIX template void set_identity(Mode, const BatchMatrices<S, DefaultDevice>&);                  \
  PREFIX template void scale(Mode, S, const BatchMatrices<S, DefaultDevice>&);                      \
  PREFIX template void copy(Mode, const BatchMatrices<S, DefaultDevice>&,                           \
                            const BatchMatrices<S, DefaultDevice>&);                                \
  PREFIX template void gemm(Mode, S, const BatchMatrices<S, DefaultDevice>&,                        \
                            const BatchMatrices<S, DefaultDevice>&, S,                              \
                            const BatchMatrices<S, DefaultDevice>&);                                \
  PREFIX template void gemv(Mode, S, const BatchMatrices<S, DefaultDevice>&,                        \
                            const BatchVectors<S, DefaultDevice>&, S,                               \
                            const BatchVectors<S, DefaultDevice>&);                                 \
  PREFIX template void trsm(Mode, Uplo, Diag, const BatchMatrices<S, DefaultDevice>&,               \
                            const BatchMatrices<S, DefaultDevice>&);                                \
  PREFIX template void trsv(Mode, Uplo, Diag, const BatchMatrices<S, DefaultDevice>&,               \
                            const BatchVectors<S, DefaultDevice>&);                                 \
  PREFIX template void trmm(Mode, Uplo, Diag, S, const BatchMatrices<S, DefaultDevice>&,            \
                            const BatchMatrices<S, DefaultDevice>&);                                \
  PREFIX template void trtri(Mode, Uplo, Diag, const BatchMatrices<S, DefaultDevice>&,              \
                             const BatchStatus<DefaultDevice>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_BATCHED_BLAS_ETI, extern)

}  // namespace kelp::kernels::batched
