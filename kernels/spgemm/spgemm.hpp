#pragma once
/// Sparse matrix-matrix product (SpGEMM), with symbolic and numeric phases:
///
///   C = A · B                       spgemm_symbolic / spgemm_numeric
///   C = (I − ω D⁻¹ A) · P           jacobi_spgemm_symbolic / jacobi_spgemm_numeric
///                                   (D = diag(A); the smoothed-aggregation prolongator, in one
///                                   pass over A instead of forming D⁻¹A and a second product)
///
/// Real and complex scalars, rectangular shapes, empty rows and columns. C's rows come out
/// sorted by column with unique columns (structural zeros from cancellation are kept, so the
/// pattern does not depend on values). The symbolic phase allocates C (row_map, entries,
/// uninitialised values); the numeric phase only writes C's values, so it can run again
/// whenever A's and B's values change (see SpgemmHandle for the contract and its checks).
///
/// Example:
///   kernels::SpgemmHandle<Matrix> handle;
///   Matrix C;
///   kernels::spgemm_symbolic(handle, A, B, C);
///   kernels::spgemm_numeric(handle, A, B, C);
///   update_values(A);
///   kernels::spgemm_numeric(handle, A, B, C);   // values only
///
/// Algorithms: SpgemmAlgorithm (dense or hashmap accumulator), spgemm_handle.hpp.
/// Reference: F. Gustavson, "Two fast algorithms for sparse matrices: multiplication and permuted
/// transposition", ACM TOMS 4 (1978); Deveci et al., Parallel Computing 78 (2018).

#include <string>

#include "kelp/kernels/core/diagonal.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/sparse/impl/row_scan.hpp"
#include "kelp/kernels/sparse/sort_rows.hpp"
#include "kelp/kernels/spgemm/impl/spgemm_dense.hpp"
#include "kelp/kernels/spgemm/impl/spgemm_hash.hpp"
#include "kelp/kernels/spgemm/spgemm_handle.hpp"

namespace kelp::kernels {

namespace impl {

/// Bytes the dense accumulator may take (all concurrent threads together).
constexpr long long spgemm_dense_budget_bytes = 256LL << 20;
/// Most bytes an explicitly requested dense accumulator may take: a GPU runs ~10^5 threads at
/// once, so a dense row per thread of a wide C does not fit (125 GB for a 57k-column C on the H100).
constexpr long long spgemm_dense_limit_bytes = 4LL << 30;
/// Largest hash table kept in team-shared scratch (level 0); larger ones go to level 1.
constexpr std::size_t spgemm_hash_level0_bytes = 32 << 10;

inline std::string shape_string(long long rows, long long cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

inline std::string fingerprint_string(const PatternFingerprint& f) {
  return shape_string(f.num_rows, f.num_cols) + " with " + std::to_string(f.nnz) + " entries";
}

/// Symbolic phase shared by the plain and the Jacobi-fused product.
template <class Matrix>
void spgemm_symbolic_body(const typename Matrix::execution_space& exec, const char* where,
                          SpgemmHandle<Matrix>& handle, const Matrix& A, const Matrix& B, Matrix& C,
                          bool jacobi) {
  using Exec = typename Matrix::execution_space;
  using OrdinalT = typename Matrix::ordinal_type;
  using OffsetT = typename Matrix::offset_type;
  using Device = typename Matrix::device_type;
  auto& state = handle.state();
  state = typename SpgemmHandle<Matrix>::Symbolic();
  const OrdinalT num_rows = A.num_rows();
  const OrdinalT width = B.num_cols();
  const SpgemmOperands<Matrix> ops(A, B, jacobi);

  long long max_products = 0;
  long long products = 0;
  Kokkos::parallel_reduce(
      "kelp::kernels::spgemm_symbolic(products)", Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
      KOKKOS_LAMBDA(const OrdinalT i, long long& row_max, long long& sum) {
        const long long n = ops.row_products(i);
        if (n > row_max) row_max = n;
        sum += n;
      },
      Kokkos::Max<long long>(max_products), products);

  SpgemmAlgorithm algorithm = handle.requested_algorithm();
  using Token = typename SpgemmDenseNumeric<Exec, Matrix>::Token;
  const Token token(exec);
  const long long dense_bytes =
      static_cast<long long>(token.size()) * width * static_cast<long long>(sizeof(long long));
  if (algorithm == SpgemmAlgorithm::automatic) {
    algorithm = dense_bytes <= spgemm_dense_budget_bytes ? SpgemmAlgorithm::dense : SpgemmAlgorithm::hash;
  }
  KELP_REQUIRE(algorithm != SpgemmAlgorithm::dense || dense_bytes <= spgemm_dense_limit_bytes,
               InvalidArgument,
               where << ": the dense accumulator would take " << (dense_bytes >> 20) << " MiB ("
                     << token.size() << " concurrent threads x " << width
                     << " columns of C), over the limit of " << (spgemm_dense_limit_bytes >> 20)
                     << " MiB; use the hash accumulator (or automatic, which picks it)");

  Kokkos::View<OffsetT*, Device> counts(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spgemm::row_counts"), num_rows);
  // Zeroed on exec (a labelled allocation would zero it on the default instance).
  typename Matrix::row_map_type row_map(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spgemm::row_map"),
      static_cast<std::size_t>(num_rows) + 1);
  Kokkos::deep_copy(exec, row_map, OffsetT(0));
  typename Matrix::entries_type entries;
  if (algorithm == SpgemmAlgorithm::dense) {
    state.accumulator = typename SpgemmHandle<Matrix>::accumulator_type(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spgemm::accumulator"),
        static_cast<std::size_t>(token.size()) * static_cast<std::size_t>(width));
    Kokkos::deep_copy(exec, state.accumulator, -1LL);
    Kokkos::parallel_for("kelp::kernels::spgemm_symbolic(dense count)",
                         Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
                         SpgemmDenseSymbolic<Exec, Matrix, false>{ops, state.accumulator, width,
                                                                   token, counts, {}, {}});
    const long long nnz = counts_to_row_map(exec, where, counts, row_map, num_rows);
    entries = typename Matrix::entries_type(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spgemm::entries"), nnz);
    Kokkos::parallel_for("kelp::kernels::spgemm_symbolic(dense fill)",
                         Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
                         SpgemmDenseSymbolic<Exec, Matrix, true>{ops, state.accumulator, width,
                                                                  token, counts, row_map, entries});
  } else if (num_rows > 0) {
    const int capacity = spgemm_hash_capacity(max_products, width);
    state.hash_capacity = capacity;
    using Count = SpgemmHashSymbolic<Exec, Matrix, false>;
    using Fill = SpgemmHashSymbolic<Exec, Matrix, true>;
    const std::size_t bytes = Count::scratch_bytes(capacity);
    const int level = bytes <= spgemm_hash_level0_bytes ? 0 : 1;
    Kokkos::TeamPolicy<Exec> policy(exec, num_rows, sparse_team_size<Exec>());
    policy.set_scratch_size(level, Kokkos::PerTeam(bytes));
    Kokkos::parallel_for("kelp::kernels::spgemm_symbolic(hash count)", policy,
                         Count{ops, capacity, level, counts, {}, {}});
    const long long nnz = counts_to_row_map(exec, where, counts, row_map, num_rows);
    entries = typename Matrix::entries_type(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spgemm::entries"), nnz);
    Kokkos::parallel_for("kelp::kernels::spgemm_symbolic(hash fill)", policy,
                         Fill{ops, capacity, level, counts, row_map, entries});
  }
  sort_graph_rows(exec, num_rows, row_map, entries);
  typename Matrix::values_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::spgemm::values"),
      entries.extent(0));
  exec.fence();

  state.jacobi = jacobi;
  state.algorithm = algorithm;
  state.a = pattern_fingerprint(exec, A);
  state.b = pattern_fingerprint(exec, B);
  state.row_map = row_map;
  state.entries = entries;
  state.c_num_rows = num_rows;
  state.c_num_cols = width;
  state.max_row_products = max_products;
  state.products = products;
  state.done = true;
  C = Matrix(num_rows, width, row_map, entries, values);
}

/// Checks of the numeric phase: order, shapes and patterns against the symbolic phase, and C.
template <class Matrix>
void check_spgemm_numeric(const typename Matrix::execution_space& exec, const char* where,
                          const SpgemmHandle<Matrix>& handle, const Matrix& A, const Matrix& B,
                          const Matrix& C, bool jacobi) {
  const auto& state = handle.state();
  const char* symbolic_name = jacobi ? "jacobi_spgemm_symbolic" : "spgemm_symbolic";
  KELP_REQUIRE(state.done, InvalidState,
               where << ": called before " << symbolic_name << " (the handle has no symbolic phase)");
  KELP_REQUIRE(state.jacobi == jacobi, InvalidState,
               where << ": the handle's symbolic phase was "
                     << (state.jacobi ? "jacobi_spgemm_symbolic" : "spgemm_symbolic")
                     << ", expected " << symbolic_name);
  const PatternFingerprint a = pattern_fingerprint(exec, A);
  const PatternFingerprint b = pattern_fingerprint(exec, B);
  const char* b_name = jacobi ? "P" : "B";
  KELP_REQUIRE(a.num_rows == state.a.num_rows && a.num_cols == state.a.num_cols &&
                   b.num_rows == state.b.num_rows && b.num_cols == state.b.num_cols,
               DimensionMismatch,
               where << ": dimension mismatch: A is " << shape_string(a.num_rows, a.num_cols) << ", "
                     << b_name << " is " << shape_string(b.num_rows, b.num_cols) << "; the symbolic phase saw A "
                     << shape_string(state.a.num_rows, state.a.num_cols) << ", " << b_name << " "
                     << shape_string(state.b.num_rows, state.b.num_cols));
  KELP_REQUIRE(a == state.a, InvalidState,
               where << ": A's pattern differs from the one the symbolic phase saw: A is now "
                     << fingerprint_string(a) << ", was " << fingerprint_string(state.a)
                     << " (run " << symbolic_name << " again for a new pattern)");
  KELP_REQUIRE(b == state.b, InvalidState,
               where << ": " << b_name << "'s pattern differs from the one the symbolic phase saw: "
                     << b_name << " is now " << fingerprint_string(b) << ", was "
                     << fingerprint_string(state.b) << " (run " << symbolic_name
                     << " again for a new pattern)");
  KELP_REQUIRE(C.num_rows() == state.c_num_rows && C.num_cols() == state.c_num_cols &&
                   C.entries().data() == state.entries.data() &&
                   C.values().extent(0) == state.entries.extent(0),
               InvalidArgument,
               where << ": C (" << shape_string(C.num_rows(), C.num_cols()) << " with " << C.nnz()
                     << " entries) is not the matrix that " << symbolic_name << " produced ("
                     << shape_string(state.c_num_rows, state.c_num_cols) << " with "
                     << state.entries.extent(0) << " entries)");
}

/// Numeric phase shared by the plain and the Jacobi-fused product (delta empty for the plain).
template <class Matrix>
void spgemm_numeric_body(const typename Matrix::execution_space& exec, SpgemmHandle<Matrix>& handle,
                         const Matrix& A, const Matrix& B, const Matrix& C, bool jacobi,
                         typename Matrix::values_type delta) {
  using Exec = typename Matrix::execution_space;
  const auto& state = handle.state();
  const SpgemmOperands<Matrix> ops(A, B, jacobi, delta);
  const auto num_rows = A.num_rows();
  if (state.algorithm == SpgemmAlgorithm::dense) {
    using Functor = SpgemmDenseNumeric<Exec, Matrix>;
    const typename Functor::Token token(exec);
    Kokkos::parallel_for("kelp::kernels::spgemm_numeric(dense)",
                         Kokkos::RangePolicy<Exec>(exec, 0, num_rows),
                         Functor{ops, state.accumulator, static_cast<long long>(state.c_num_cols),
                                 token, C.row_map(), C.entries(), C.values()});
  } else if (num_rows > 0) {
    Kokkos::parallel_for("kelp::kernels::spgemm_numeric(hash)",
                         Kokkos::TeamPolicy<Exec>(exec, num_rows, sparse_team_size<Exec>()),
                         SpgemmHashNumeric<Exec, Matrix>{ops, C.row_map(), C.entries(), C.values()});
  }
  exec.fence();
}

}  // namespace impl

/// Symbolic phase of C = A·B: C's pattern (row sizes, row_map, sorted entries) and the
/// accumulator choice, kept in `handle`; allocates C (values uninitialised).
///
/// @param[in,out] handle  records the analysis (SpgemmHandle)
/// @param[in] A, B        A is m x k, B is k x n; rows need not be sorted
/// @param[out] C          becomes an m x n matrix with sorted, unique columns in each row
/// @param[in] exec        the instance all the work runs on (fenced before returning); the
///                        overloads without it use a default instance
/// @throws DimensionMismatch when A's columns differ from B's rows, or when nnz(C) exceeds the
///         offset type
template <class Matrix>
void spgemm_symbolic(const typename Matrix::execution_space& exec, SpgemmHandle<Matrix>& handle,
                     const Matrix& A, const Matrix& B, Matrix& C) {
  constexpr const char* where = "kelp::kernels::spgemm_symbolic";
  KELP_REQUIRE(A.num_cols() == B.num_rows(), DimensionMismatch,
               where << ": dimension mismatch: A is " << impl::shape_string(A.num_rows(), A.num_cols())
                     << ", B is " << impl::shape_string(B.num_rows(), B.num_cols())
                     << "; A's columns must equal B's rows");
  impl::spgemm_symbolic_body(exec, where, handle, A, B, C, false);
}

template <class Matrix>
void spgemm_symbolic(SpgemmHandle<Matrix>& handle, const Matrix& A, const Matrix& B, Matrix& C) {
  spgemm_symbolic(typename Matrix::execution_space(), handle, A, B, C);
}

/// Numeric phase of C = A·B: C's values, with the pattern from spgemm_symbolic.
///
/// @param[in] A, B  the patterns (shapes, row_map, entries) that spgemm_symbolic saw; any values
/// @param[in,out] C the matrix spgemm_symbolic produced; its values are overwritten
/// @throws InvalidState before spgemm_symbolic or when a pattern changed; DimensionMismatch when
///         a shape changed; InvalidArgument when C is another matrix. Messages name both sides.
template <class Matrix>
void spgemm_numeric(const typename Matrix::execution_space& exec, SpgemmHandle<Matrix>& handle,
                    const Matrix& A, const Matrix& B, Matrix& C) {
  constexpr const char* where = "kelp::kernels::spgemm_numeric";
  impl::check_spgemm_numeric(exec, where, handle, A, B, C, false);
  impl::spgemm_numeric_body(exec, handle, A, B, C, false, typename Matrix::values_type());
}

template <class Matrix>
void spgemm_numeric(SpgemmHandle<Matrix>& handle, const Matrix& A, const Matrix& B, Matrix& C) {
  spgemm_numeric(typename Matrix::execution_space(), handle, A, B, C);
}

/// Symbolic phase of the Jacobi-fused product C = (I − ω D⁻¹ A)·P: pattern(C) = pattern(P) ∪
/// pattern(A·P) row by row.
///
/// @param[in] A  square n x n; P  n x m
/// @throws DimensionMismatch when A is not square or P has other than n rows
template <class Matrix>
void jacobi_spgemm_symbolic(const typename Matrix::execution_space& exec,
                            SpgemmHandle<Matrix>& handle, const Matrix& A, const Matrix& P,
                            Matrix& C) {
  constexpr const char* where = "kelp::kernels::jacobi_spgemm_symbolic";
  KELP_REQUIRE(A.num_rows() == A.num_cols() && A.num_cols() == P.num_rows(), DimensionMismatch,
               where << ": dimension mismatch: A is " << impl::shape_string(A.num_rows(), A.num_cols())
                     << ", P is " << impl::shape_string(P.num_rows(), P.num_cols())
                     << "; A must be square with as many rows as P");
  impl::spgemm_symbolic_body(exec, where, handle, A, P, C, true);
}

template <class Matrix>
void jacobi_spgemm_symbolic(SpgemmHandle<Matrix>& handle, const Matrix& A, const Matrix& P,
                            Matrix& C) {
  jacobi_spgemm_symbolic(typename Matrix::execution_space(), handle, A, P, C);
}

/// Numeric phase of C = (I − ω D⁻¹ A)·P (values only), one pass over A's rows.
///
/// @param[in] omega  damping ω (4/3 / λ_max(D⁻¹A) for smoothed aggregation)
/// @throws as spgemm_numeric, and NumericalError when A has a zero (or missing) diagonal entry
template <class Matrix>
void jacobi_spgemm_numeric(const typename Matrix::execution_space& exec,
                           SpgemmHandle<Matrix>& handle, typename Matrix::scalar_type omega,
                           const Matrix& A, const Matrix& P, Matrix& C) {
  using Scalar = typename Matrix::scalar_type;
  using Exec = typename Matrix::execution_space;
  constexpr const char* where = "kelp::kernels::jacobi_spgemm_numeric";
  impl::check_spgemm_numeric(exec, where, handle, A, P, C, true);
  typename Matrix::values_type delta(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::jacobi_spgemm::delta"),
      A.num_rows());
  extract_diagonal(exec, A, delta);
  long long zero_row = -1;
  Kokkos::parallel_reduce(
      "kelp::kernels::jacobi_spgemm_numeric(delta)", Kokkos::RangePolicy<Exec>(exec, 0, A.num_rows()),
      KOKKOS_LAMBDA(const long long i, long long& first_zero) {
        const Scalar d = delta(i);
        if (d == Scalar(0)) {
          if (i > first_zero) first_zero = i;
        } else {
          delta(i) = -omega / d;
        }
      },
      Kokkos::Max<long long>(zero_row));
  // The last zero row is reported (any one would do for the message).
  KELP_REQUIRE(zero_row < 0, NumericalError,
               where << ": A has a zero or missing diagonal entry in row " << zero_row
                     << " (D⁻¹A needs every diagonal entry)");
  impl::spgemm_numeric_body(exec, handle, A, P, C, true, delta);
}

template <class Matrix>
void jacobi_spgemm_numeric(SpgemmHandle<Matrix>& handle, typename Matrix::scalar_type omega,
                           const Matrix& A, const Matrix& P, Matrix& C) {
  jacobi_spgemm_numeric(typename Matrix::execution_space(), handle, omega, A, P, C);
}

/// C = A·B in one call on exec (symbolic and numeric with a temporary handle).
template <class Matrix>
Matrix spgemm(const typename Matrix::execution_space& exec, const Matrix& A, const Matrix& B,
              SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic) {
  SpgemmHandle<Matrix> handle(algorithm);
  Matrix C;
  spgemm_symbolic(exec, handle, A, B, C);
  spgemm_numeric(exec, handle, A, B, C);
  return C;
}

/// C = A·B in one call (symbolic and numeric with a temporary handle).
template <class Matrix>
Matrix spgemm(const Matrix& A, const Matrix& B,
              SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic) {
  return spgemm(typename Matrix::execution_space(), A, B, algorithm);
}

#define KELP_SPGEMM_ETI(PREFIX, S)                                                                  \
  PREFIX template void spgemm_symbolic<CrsMatrix<S>>(const CrsMatrix<S>::execution_space&,          \
                                                     SpgemmHandle<CrsMatrix<S>>&,                   \
                                                     const CrsMatrix<S>&, const CrsMatrix<S>&,      \
                                                     CrsMatrix<S>&);                                \
  PREFIX template void spgemm_numeric<CrsMatrix<S>>(const CrsMatrix<S>::execution_space&,           \
                                                    SpgemmHandle<CrsMatrix<S>>&,                    \
                                                    const CrsMatrix<S>&, const CrsMatrix<S>&,       \
                                                    CrsMatrix<S>&);                                 \
  PREFIX template void jacobi_spgemm_symbolic<CrsMatrix<S>>(const CrsMatrix<S>::execution_space&,   \
                                                            SpgemmHandle<CrsMatrix<S>>&,            \
                                                            const CrsMatrix<S>&,                    \
                                                            const CrsMatrix<S>&, CrsMatrix<S>&);    \
  PREFIX template void jacobi_spgemm_numeric<CrsMatrix<S>>(const CrsMatrix<S>::execution_space&,    \
                                                           SpgemmHandle<CrsMatrix<S>>&, S,          \
                                                           const CrsMatrix<S>&,                     \
                                                           const CrsMatrix<S>&, CrsMatrix<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_SPGEMM_ETI, extern)

}  // namespace kelp::kernels
