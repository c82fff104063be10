#pragma once
/// Parallel Gauss-Seidel / SOR: multicolor, cluster and two-stage, as a smoother (smooth), as a
/// preconditioner (apply: `sweeps` sweeps from x = 0) and, through solvers::stationary_solve, as
/// a stationary solver.

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/diagonal.hpp"
#include "kelp/kernels/core/eti.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/precond/gauss_seidel/gauss_seidel_params.hpp"
#include "kelp/precond/gauss_seidel/impl/ordering.hpp"
#include "kelp/precond/gauss_seidel/impl/sweeps.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/precond/smoother.hpp"

namespace kelp::precond {

/// One sweep updates every row i once: x_i += omega (b_i - sum_j a_ij x_j) / a_ii.
///  - multicolor: the rows are colored at distance 1 (kernels::color_distance1 on the pattern of
///    A + A^T); a forward sweep visits the colors in order, each color in parallel (a thread per
///    row, a team per row longer than long_row_threshold). It is sequential Gauss-Seidel in the
///    color-by-color ordering, exactly (rows of one color do not read each other).
///  - cluster: clusters of rows (MIS-2 aggregates or consecutive blocks) colored on the cluster
///    graph; clusters of one color run in parallel, the rows of a cluster sequentially. Again
///    sequential Gauss-Seidel in the order forward_order().
///  - two_stage: natural order; the triangular solve of a sweep is approximated by inner
///    Jacobi-Richardson sweeps (no coloring, only row-parallel passes: for GPUs).
/// Backward sweeps reverse the colors (and the rows in a cluster, and use the upper triangle for
/// two-stage); symmetric = forward then backward, a symmetric operator when A is symmetric
/// (Hermitian), so apply() preconditions CG.
///
/// Setup: setup_symbolic colors / clusters the pattern (the expensive part); setup_numeric takes
/// the values and the inverted diagonal (zero or non-finite diagonal: NumericalError naming the
/// row), so a values-only change needs setup_numeric only. The matrix is kept by (shallow) copy.
/// Memory: the inverted diagonal, the ordering (about 2n ordinals); multicolor: a copy of A in
/// sweep order (entries and values, rows grouped by color); two-stage: three vectors.
/// Not for concurrent use of one object (two-stage keeps work vectors).
/// Apply semantics (Kokkos Kernels' gauss_seidel_apply has init_zero_x_vector and
/// update_y_vector, the latter to reuse a permuted copy of b when only x changed): smooth takes
/// InitialGuess::zero (x not read) or provided; there is no right-hand side to cache, as every
/// variant reads b in place, in the original order (the multicolor copy of A is in sweep order,
/// b and x are not), so nothing about b is prepared between calls (test/precond/
/// gauss_seidel_rhs_test.cpp checks that repeated calls give identical results).
///
/// Example:
///   precond::GaussSeidelParams p;            // multicolor, symmetric, 1 sweep, omega 1
///   auto M = std::make_shared<precond::GaussSeidel<CrsMatrix<double>>>(p);
///   M->setup(A);
///   M->smooth(b, x, 3);                      // three symmetric sweeps on x
///   solvers::Cg<double> cg(A_op, M, cg_params);  // symmetric GS-preconditioned CG
template <class Matrix>
class GaussSeidel : public Smoother<Matrix> {
 public:
  using Scalar = typename Matrix::scalar_type;
  using Device = typename Matrix::device_type;
  using Base = Smoother<Matrix>;
  using vector_type = typename Base::vector_type;
  using const_vector_type = typename Base::const_vector_type;

  /// @throws InvalidArgument for sweeps < 1, omega outside (0, 2), inner_sweeps < 0,
  ///         cluster_size < 0 or long_row_threshold < 0 (the message names the value)
  explicit GaussSeidel(GaussSeidelParams params = {}, std::string matrix_label = {})
      : Base(checked(params).sweeps), params_(params), matrix_label_(std::move(matrix_label)) {}

  const GaussSeidelParams& params() const { return params_; }
  std::string summary() const override {
    std::ostringstream out;
    out << "gauss_seidel (" << to_string(params_.variant) << ", " << to_string(params_.direction)
        << ", " << params_.sweeps << (params_.sweeps == 1 ? " sweep" : " sweeps") << ", omega " << params_.omega;
    if (params_.variant == GaussSeidelVariant::two_stage) {
      out << ", " << to_string(params_.form) << ", " << params_.inner_sweeps << (params_.inner_sweeps == 1 ? " inner sweep" : " inner sweeps");
    } else if (this->num_rows() > 0 || ordering_.num_colors > 0) {
      out << ", " << ordering_.num_colors << " colors";
    }
    out << ")";
    return out.str();
  }
  /// Colors of the symbolic setup (0 for two-stage).
  Ordinal num_colors() const { return ordering_.num_colors; }
  /// Multicolor and cluster: the color of each row (of its cluster), after setup_symbolic; the
  /// color-by-color split that EisenstatCg (solvers/cg/eisenstat_cg.hpp) builds on.
  Kokkos::View<const Ordinal*, Device> row_colors() const { return ordering_.row_colors; }
  /// Cluster variant: the number of clusters.
  Ordinal num_clusters() const { return ordering_.num_clusters; }
  /// The rows in the order a forward sweep updates them (natural order for two-stage), on the
  /// host: multicolor and cluster sweeps equal sequential Gauss-Seidel in this order.
  std::vector<Ordinal> forward_order() const {
    if (params_.variant != GaussSeidelVariant::two_stage) return ordering_.forward_order;
    std::vector<Ordinal> order(this->num_rows());
    for (Ordinal i = 0; i < this->num_rows(); ++i) order[i] = i;
    return order;
  }

 protected:
  const char* name() const override { return "kelp::precond::GaussSeidel"; }

  void setup_symbolic_impl(const Matrix& A) override {
    ordering_ = {};
    sweep_values_ = {};
    if (params_.variant == GaussSeidelVariant::multicolor) {
      ordering_ = impl::multicolor_ordering(A, params_.coloring, params_.long_row_threshold);
    } else if (params_.variant == GaussSeidelVariant::cluster) {
      ordering_ = impl::cluster_ordering(A, params_.cluster_size, params_.coloring);
    } else {
      work1_ = vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::GaussSeidel::work1"),
                           A.num_rows());
      work2_ = vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::GaussSeidel::work2"),
                           A.num_rows());
      work3_ = vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::GaussSeidel::work3"),
                           A.num_rows());
    }
    inverse_diagonal_ = vector_type(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::GaussSeidel::inverse_diagonal"),
        A.num_rows());
  }

  void setup_numeric_impl(const Matrix& A) override {
    kernels::extract_diagonal(A, inverse_diagonal_);
    const long long first_bad = impl::invert_diagonal(inverse_diagonal_, Scalar(1));
    if (first_bad < A.num_rows()) {
      Scalar bad{};
      Kokkos::deep_copy(bad, Kokkos::subview(inverse_diagonal_, first_bad));
      std::ostringstream value;
      value << bad;
      const bool zero = bad == Scalar(0);
      KELP_THROW(NumericalError,
                 "kelp::precond::GaussSeidel::setup_numeric: "
                     << (zero ? "zero" : "non-finite") << " diagonal entry "
                     << (zero ? std::string() : "(" + value.str() + ") ") << "at row "
                     << first_bad + 1 << " (1-based)"
                     << (matrix_label_.empty() ? "" : " of matrix '" + matrix_label_ + "'")
                     << (zero ? " (absent or stored as 0)" : "")
                     << "; Gauss-Seidel needs a nonzero, finite diagonal");
    }
    A_ = A;
    if (params_.variant == GaussSeidelVariant::multicolor) {
      if (sweep_values_.extent(0) != ordering_.sweep_entries.extent(0)) {
        sweep_values_ = typename Matrix::values_type(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::precond::GaussSeidel::sweep_values"),
            ordering_.sweep_entries.extent(0));
      }
      impl::gather_rows(A.row_map(), A.values(), ordering_.short_rows, ordering_.sweep_row_map, sweep_values_);
    }
  }

  void smooth_impl(const_vector_type b, vector_type x, int sweeps, InitialGuess guess) const override {
    if (guess == InitialGuess::zero) kernels::fill(x, Scalar(0));
    if (params_.variant == GaussSeidelVariant::multicolor) {
      multicolor_sweeps(b, x, sweeps, guess == InitialGuess::zero);
      return;
    }
    for (int s = 0; s < sweeps; ++s) {
      if (params_.direction != GaussSeidelDirection::backward) sweep(b, x, false);
      if (params_.direction != GaussSeidelDirection::forward) sweep(b, x, true);
    }
  }

 private:
  static const GaussSeidelParams& checked(const GaussSeidelParams& p) {
    KELP_REQUIRE(p.sweeps >= 1, InvalidArgument,
                 "kelp::precond::GaussSeidel: sweeps = " << p.sweeps << ", expected >= 1");
    KELP_REQUIRE(p.omega > 0 && p.omega < 2, InvalidArgument,
                 "kelp::precond::GaussSeidel: omega = " << p.omega << ", expected 0 < omega < 2");
    KELP_REQUIRE(p.inner_sweeps >= 0, InvalidArgument,
                 "kelp::precond::GaussSeidel: inner_sweeps = " << p.inner_sweeps << ", expected >= 0");
    KELP_REQUIRE(p.cluster_size >= 0, InvalidArgument,
                 "kelp::precond::GaussSeidel: cluster_size = " << p.cluster_size
                                                               << ", expected >= 0 (0: MIS-2 aggregates)");
    KELP_REQUIRE(p.long_row_threshold >= 0, InvalidArgument,
                 "kelp::precond::GaussSeidel: long_row_threshold = " << p.long_row_threshold
                                                                     << ", expected >= 0 (0: never)");
    return p;
  }

  /// Multicolor sweeps, with two shortcuts that change nothing but rounding:
  ///  - from x = 0, the first color reads only zeros: x_i = omega b_i / a_ii, rows not read;
  ///  - with omega = 1, a color just updated has a zero residual on its rows (they do not read
  ///    each other), so updating it again at once is a no-op: the turn of a symmetric sweep
  ///    (last color forward = first color backward) and the seam between sweeps are skipped.
  ///    On a red-black (2-color) matrix a symmetric sweep then costs 1.5 passes over A, not 2.
  void multicolor_sweeps(const_vector_type b, vector_type x, int sweeps, bool from_zero) const {
    const Scalar omega(params_.omega);
    const bool skip_repeats = params_.omega == 1.0;
    const Ordinal colors = ordering_.num_colors;
    Ordinal last = -1;  // the color updated last
    const auto visit = [&](Ordinal c) {
      if (skip_repeats && c == last) return;
      if (from_zero) {
        impl::gs_color_rows_from_zero(ordering_.short_rows, ordering_.short_ptr[c], ordering_.short_ptr[c + 1],
                                      inverse_diagonal_, b, x, omega);
        impl::gs_color_rows_from_zero(ordering_.long_rows, ordering_.long_ptr[c], ordering_.long_ptr[c + 1],
                                      inverse_diagonal_, b, x, omega);
        from_zero = false;
      } else {
        impl::gs_color_rows(ordering_.sweep_row_map, ordering_.sweep_entries, sweep_values_,
                            ordering_.short_rows, ordering_.short_ptr[c], ordering_.short_ptr[c + 1],
                            inverse_diagonal_, b, x, omega);
        impl::gs_color_long_rows(A_, ordering_.long_rows, ordering_.long_ptr[c], ordering_.long_ptr[c + 1],
                                 inverse_diagonal_, b, x, omega);
      }
      last = c;
    };
    for (int s = 0; s < sweeps; ++s) {
      if (params_.direction != GaussSeidelDirection::backward) {
        for (Ordinal c = 0; c < colors; ++c) visit(c);
      }
      if (params_.direction != GaussSeidelDirection::forward) {
        for (Ordinal c = colors - 1; c >= 0; --c) visit(c);
      }
    }
  }

  /// One forward (backward = false) or backward sweep on x (cluster and two-stage).
  void sweep(const_vector_type b, vector_type x, bool backward) const {
    const Scalar omega(params_.omega);
    const Ordinal colors = ordering_.num_colors;
    switch (params_.variant) {
      case GaussSeidelVariant::multicolor:
        return;  // multicolor_sweeps
      case GaussSeidelVariant::cluster:
        for (Ordinal t = 0; t < colors; ++t) {
          const Ordinal c = backward ? colors - 1 - t : t;
          impl::gs_color_clusters(A_, ordering_.cluster_ptr, ordering_.cluster_rows, ordering_.color_ptr[c],
                                  ordering_.color_ptr[c + 1], backward, inverse_diagonal_, b, x, omega);
        }
        return;
      case GaussSeidelVariant::two_stage:
        if (params_.form == TwoStageForm::classic) {
          two_stage_classic(b, x, backward, omega);
        } else {
          two_stage_compact(b, x, backward, omega);
        }
        return;
    }
  }

  /// SOR's triangular system (D / omega + T) g = r, r = b - A x, solved approximately:
  /// g = omega D^{-1} r, inner_sweeps times g = omega D^{-1} (r - T g), then x += g.
  void two_stage_classic(const_vector_type b, vector_type x, bool upper, Scalar omega) const {
    const auto r = work1_;
    auto g = work2_, g_next = work3_;
    impl::two_stage_residual(A_, inverse_diagonal_, b, x, r, g, omega);
    if (params_.inner_sweeps == 0) {
      impl::two_stage_update(g, x);
      return;
    }
    for (int k = 0; k < params_.inner_sweeps; ++k) {
      const bool last = k + 1 == params_.inner_sweeps;
      impl::two_stage_inner(A_, inverse_diagonal_, upper, r, g, g_next, last, x, omega);
      std::swap(g, g_next);
    }
  }

  /// The same operator without the residual vector: y = x, then (inner_sweeps + 1) passes of the
  /// SOR row update with T read from y and the rest from x, then x = y.
  void two_stage_compact(const_vector_type b, vector_type x, bool upper, Scalar omega) const {
    auto y = work2_, y_next = work3_;
    impl::two_stage_compact_pass(A_, inverse_diagonal_, upper, b, x, x, y, omega);
    for (int k = 0; k < params_.inner_sweeps; ++k) {
      impl::two_stage_compact_pass(A_, inverse_diagonal_, upper, b, x, y, y_next, omega);
      std::swap(y, y_next);
    }
    Kokkos::deep_copy(x, y);
  }

  GaussSeidelParams params_;
  std::string matrix_label_;
  Matrix A_;
  impl::GsOrdering<Device> ordering_;
  vector_type inverse_diagonal_;
  vector_type work1_, work2_, work3_;  // two-stage only
  typename Matrix::values_type sweep_values_;  // multicolor: the short rows' values in sweep order
};

// Compiled once for the standard scalars, in precond/eti/ (see kernels/core/eti.hpp).
#define KELP_GAUSS_SEIDEL_ETI(PREFIX, S) PREFIX template class GaussSeidel<CrsMatrix<S>>;
KELP_ETI_FOR_EACH_SCALAR(KELP_GAUSS_SEIDEL_ETI, extern)

}  // namespace kelp::precond
