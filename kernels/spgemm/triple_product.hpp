#pragma once
/// Galerkin triple product C = Pᵀ·A·P (the AMG coarse operator) through two SpGEMMs:
/// AP = A·P, then C = Pᵀ·AP. Pᵀ is the plain transpose (no conjugation, also for complex P).
/// The symbolic phase builds Pᵀ's pattern once, together with a permutation (for each entry of
/// Pᵀ, the index of its source entry in P), and both products keep their symbolic handles, so
/// triple_product_numeric after a change of A's (or P's) values only gathers Pᵀ's values
/// through the permutation and runs the two numeric phases: no allocation, no sort.

#include "kelp/kernels/sparse/impl/row_scan.hpp"
#include "kelp/kernels/sparse/sort_rows.hpp"
#include "kelp/kernels/spgemm/spgemm.hpp"

namespace kelp::kernels {

namespace impl {
/// Pattern-transpose helpers as named functors: the index views have the same types for every
/// scalar, so these are instantiated identically in several ETI files, where nvcc's extended
/// lambdas are unsafe (docs/conventions.md).
template <class Entries, class Counts>
struct CountColumns {
  Entries entries;
  Counts counts;
  KOKKOS_INLINE_FUNCTION void operator()(const long long k) const {
    Kokkos::atomic_increment(&counts(entries(k)));
  }
};

/// Scatters each entry k of row i of P to the next free slot of row entries(k) of Pᵀ,
/// recording the row i and the source index k.
template <class RowMap, class Entries, class Cursor, class OutEntries, class Permutation>
struct ScatterTransposePattern {
  RowMap row_map;
  Entries entries;
  Cursor cursor;
  OutEntries out_entries;
  Permutation source;
  KOKKOS_INLINE_FUNCTION void operator()(const long long i) const {
    using OffsetT = typename Cursor::non_const_value_type;
    for (OffsetT k = row_map(i); k < row_map(i + 1); ++k) {
      const OffsetT slot = Kokkos::atomic_fetch_add(&cursor(entries(k)), OffsetT(1));
      out_entries(slot) = static_cast<typename OutEntries::non_const_value_type>(i);
      source(slot) = k;
    }
  }
};

/// out(s) = in(source(s)): Pᵀ's values from P's through the cached permutation.
template <class OutValues, class InValues, class Permutation>
struct GatherValues {
  OutValues out;
  InValues in;
  Permutation source;
  KOKKOS_INLINE_FUNCTION void operator()(const long long s) const { out(s) = in(source(s)); }
};
}  // namespace impl

/// Symbolic state of Pᵀ·A·P: the two SpGEMM handles, the intermediate AP and Pᵀ, and the
/// permutation that gives Pᵀ's values from P's.
/// Contract as SpgemmHandle: the numeric phase takes A and P with the patterns the symbolic
/// phase saw (checked, errors name both). Movable, not copyable.
template <class Matrix>
class TripleProductHandle {
 public:
  explicit TripleProductHandle(SpgemmAlgorithm algorithm = SpgemmAlgorithm::automatic)
      : ap_(algorithm), rap_(algorithm) {}
  TripleProductHandle(const TripleProductHandle&) = delete;
  TripleProductHandle& operator=(const TripleProductHandle&) = delete;
  TripleProductHandle(TripleProductHandle&&) = default;
  TripleProductHandle& operator=(TripleProductHandle&&) = default;

  bool has_symbolic() const { return ap_.has_symbolic() && rap_.has_symbolic(); }
  SpgemmHandle<Matrix>& ap_handle() { return ap_; }
  SpgemmHandle<Matrix>& rap_handle() { return rap_; }
  Matrix& ap() { return ap_matrix_; }
  Matrix& restriction() { return restriction_; }
  /// For each entry s of Pᵀ (restriction()), the index in P's arrays of the entry it copies.
  using permutation_type = Kokkos::View<typename Matrix::offset_type*, typename Matrix::device_type>;
  permutation_type& restriction_source() { return restriction_source_; }

 private:
  SpgemmHandle<Matrix> ap_;
  SpgemmHandle<Matrix> rap_;
  Matrix ap_matrix_;
  Matrix restriction_;
  permutation_type restriction_source_;
};

namespace impl {
/// Pᵀ's values from P's (values only; the pattern and permutation of the symbolic phase).
template <class Matrix>
void gather_restriction_values(const typename Matrix::execution_space& exec,
                               TripleProductHandle<Matrix>& handle, const Matrix& P) {
  using Exec = typename Matrix::execution_space;
  const auto values = handle.restriction().values();
  const auto source = handle.restriction_source();
  Kokkos::parallel_for("kelp::kernels::triple_product(gather restriction)",
                       Kokkos::RangePolicy<Exec, Kokkos::IndexType<long long>>(
                           exec, 0, static_cast<long long>(source.extent(0))),
                       GatherValues<decltype(values), typename Matrix::values_type, decltype(source)>{
                           values, P.values(), source});
}

/// Pᵀ's pattern (sorted rows) and, for each of its entries, the index of its source in P:
/// count per column, prefix sum, scatter (atomics), then sort each row by column with the
/// source indices alongside. Values are left to gather_restriction_values.
template <class Matrix>
void build_restriction_pattern(const typename Matrix::execution_space& exec,
                               TripleProductHandle<Matrix>& handle, const Matrix& P) {
  using Exec = typename Matrix::execution_space;
  using OffsetT = typename Matrix::offset_type;
  using Policy = Kokkos::RangePolicy<Exec, Kokkos::IndexType<long long>>;
  const long long num_rows = P.num_rows();
  const long long num_cols = P.num_cols();
  const long long nnz = static_cast<long long>(P.nnz());
  Kokkos::View<OffsetT*, typename Matrix::device_type> cursor("kelp::kernels::triple_product::cursor",
                                                              static_cast<std::size_t>(num_cols) + 1);
  Kokkos::parallel_for("kelp::kernels::triple_product(count columns)", Policy(exec, 0, nnz),
                       CountColumns<typename Matrix::entries_type, decltype(cursor)>{P.entries(), cursor});
  typename Matrix::row_map_type row_map("kelp::kernels::triple_product::restriction_row_map",
                                        static_cast<std::size_t>(num_cols) + 1);
  counts_to_row_map(exec, "kelp::kernels::triple_product", cursor, row_map, num_cols);
  Kokkos::deep_copy(exec, cursor, row_map);
  typename Matrix::entries_type entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::triple_product::restriction_entries"),
      static_cast<std::size_t>(nnz));
  typename TripleProductHandle<Matrix>::permutation_type source(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::triple_product::restriction_source"),
      static_cast<std::size_t>(nnz));
  Kokkos::parallel_for("kelp::kernels::triple_product(scatter pattern)", Policy(exec, 0, num_rows),
                       ScatterTransposePattern<typename Matrix::row_map_type, typename Matrix::entries_type,
                                               decltype(cursor), decltype(entries), decltype(source)>{
                           P.row_map(), P.entries(), cursor, entries, source});
  sort_crs_rows(exec, num_cols, row_map, entries, source, true);
  exec.fence();
  typename Matrix::values_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::kernels::triple_product::restriction_values"),
      static_cast<std::size_t>(nnz));
  handle.restriction() = Matrix(static_cast<typename Matrix::ordinal_type>(num_cols),
                                static_cast<typename Matrix::ordinal_type>(num_rows), row_map, entries, values);
  handle.restriction_source() = source;
}
}  // namespace impl

/// Symbolic phase of C = Pᵀ·A·P; allocates C (m x m for an n x m P).
/// @throws DimensionMismatch when A is not square or P has other than n rows
/// (exec: the instance all the work runs on; the overload without it uses a default instance)
template <class Matrix>
void triple_product_symbolic(const typename Matrix::execution_space& exec,
                             TripleProductHandle<Matrix>& handle, const Matrix& A,
                             const Matrix& P, Matrix& C) {
  KELP_REQUIRE(A.num_rows() == A.num_cols() && A.num_cols() == P.num_rows(), DimensionMismatch,
               "kelp::kernels::triple_product_symbolic: dimension mismatch: A is "
                   << impl::shape_string(A.num_rows(), A.num_cols()) << ", P is "
                   << impl::shape_string(P.num_rows(), P.num_cols())
                   << "; A must be square with as many rows as P");
  impl::build_restriction_pattern(exec, handle, P);
  impl::gather_restriction_values(exec, handle, P);
  spgemm_symbolic(exec, handle.ap_handle(), A, P, handle.ap());
  spgemm_symbolic(exec, handle.rap_handle(), handle.restriction(), handle.ap(), C);
}

template <class Matrix>
void triple_product_symbolic(TripleProductHandle<Matrix>& handle, const Matrix& A,
                             const Matrix& P, Matrix& C) {
  triple_product_symbolic(typename Matrix::execution_space(), handle, A, P, C);
}

/// Numeric phase of C = Pᵀ·A·P (values only; the patterns of the symbolic phase).
/// The checks fingerprint A and P once; the intermediates AP and Pᵀ belong to the handle and
/// keep the patterns their handles saw, so their numeric phases run without re-checking them
/// (this keeps the reuse cheap: fingerprints of P twice, Pᵀ and AP cost about as much as the
/// gather and a numeric phase).
/// @throws InvalidState before the symbolic phase or for changed patterns of A or P;
///         DimensionMismatch for other shapes; InvalidArgument for a C the symbolic phase did not
///         produce (errors name both the operand now and what the symbolic phase saw)
template <class Matrix>
void triple_product_numeric(const typename Matrix::execution_space& exec,
                            TripleProductHandle<Matrix>& handle, const Matrix& A,
                            const Matrix& P, Matrix& C) {
  const char* where = "kelp::kernels::triple_product_numeric";
  KELP_REQUIRE(handle.has_symbolic(), InvalidState, where << ": called before triple_product_symbolic");
  const auto& ap = handle.ap_handle().state();
  const auto& rap = handle.rap_handle().state();
  const PatternFingerprint a = pattern_fingerprint(exec, A);
  const PatternFingerprint p = pattern_fingerprint(exec, P);
  KELP_REQUIRE(a.num_rows == ap.a.num_rows && a.num_cols == ap.a.num_cols && p.num_rows == ap.b.num_rows &&
                   p.num_cols == ap.b.num_cols,
               DimensionMismatch,
               where << ": dimension mismatch: A is " << impl::shape_string(a.num_rows, a.num_cols) << ", P is "
                     << impl::shape_string(p.num_rows, p.num_cols) << "; the symbolic phase saw A "
                     << impl::shape_string(ap.a.num_rows, ap.a.num_cols) << ", P "
                     << impl::shape_string(ap.b.num_rows, ap.b.num_cols));
  KELP_REQUIRE(a == ap.a, InvalidState,
               where << ": A's pattern differs from the one the symbolic phase saw: A is now "
                     << impl::fingerprint_string(a) << ", was " << impl::fingerprint_string(ap.a)
                     << " (run triple_product_symbolic again for a new pattern)");
  // P's pattern must be the one the cached permutation was made for: the gather reads P through it.
  KELP_REQUIRE(p == ap.b, InvalidState,
               where << ": P's pattern differs from the one the symbolic phase saw: P is now "
                     << impl::fingerprint_string(p) << ", was " << impl::fingerprint_string(ap.b)
                     << " (run triple_product_symbolic again for a new pattern)");
  KELP_REQUIRE(C.num_rows() == rap.c_num_rows && C.num_cols() == rap.c_num_cols &&
                   C.entries().data() == rap.entries.data() && C.values().extent(0) == rap.entries.extent(0),
               InvalidArgument,
               where << ": C (" << impl::shape_string(C.num_rows(), C.num_cols()) << " with " << C.nnz()
                     << " entries) is not the matrix that triple_product_symbolic produced ("
                     << impl::shape_string(rap.c_num_rows, rap.c_num_cols) << " with " << rap.entries.extent(0)
                     << " entries)");
  impl::spgemm_numeric_body(exec, handle.ap_handle(), A, P, handle.ap(), false, typename Matrix::values_type());
  // Pᵀ's values follow P's; its pattern (sorted rows) is the one the second handle saw.
  impl::gather_restriction_values(exec, handle, P);
  impl::spgemm_numeric_body(exec, handle.rap_handle(), handle.restriction(), handle.ap(), C, false,
                            typename Matrix::values_type());
}

template <class Matrix>
void triple_product_numeric(TripleProductHandle<Matrix>& handle, const Matrix& A,
                            const Matrix& P, Matrix& C) {
  triple_product_numeric(typename Matrix::execution_space(), handle, A, P, C);
}

#define KELP_TRIPLE_PRODUCT_ETI(PREFIX, S)                                                  \
  PREFIX template void triple_product_symbolic<CrsMatrix<S>>(                               \
      const CrsMatrix<S>::execution_space&,                                                 \
      TripleProductHandle<CrsMatrix<S>>&, const CrsMatrix<S>&, const CrsMatrix<S>&,         \
      CrsMatrix<S>&);                                                                       \
  PREFIX template void triple_product_numeric<CrsMatrix<S>>(                                \
      const CrsMatrix<S>::execution_space&,                                                 \
      TripleProductHandle<CrsMatrix<S>>&, const CrsMatrix<S>&, const CrsMatrix<S>&,         \
      CrsMatrix<S>&);
KELP_ETI_FOR_EACH_SCALAR(KELP_TRIPLE_PRODUCT_ETI, extern)

}  // namespace kelp::kernels
