#pragma once
/// A known null space of a singular operator (constants for pure-Neumann problems, rigid-body
/// modes for floating elasticity), projected out of a Krylov iteration.
///
/// For Hermitian A with null space span(Z), A x = b has a solution only when Z^H b = 0, and then
/// many; projecting the residuals and preconditioned residuals onto the complement of span(Z)
/// makes CG converge to the solution orthogonal to span(Z). The basis is copied and
/// orthonormalised (modified Gram-Schmidt, twice) at construction, through the reduction policy,
/// so a distributed null space works the same way.
///
///   auto Z = std::make_shared<solvers::NullSpace<double>>(
///       solvers::NullSpace<double>::constants(A.num_rows()));
///   cg.set_null_space(Z);          // b must satisfy |Z^H b| <= tolerance * |b|
///   auto result = cg.solve(b, x);  // x comes back orthogonal to the constants

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "kelp/kernels/blas1.hpp"
#include "kelp/kernels/core/error.hpp"
#include "kelp/kernels/core/scalar_traits.hpp"
#include "kelp/kernels/core/types.hpp"
#include "kelp/solvers/reduction.hpp"

namespace kelp::solvers {

namespace impl {
/// The row loop of subtract_combination (a named functor: it is instantiated in several .cpp
/// files, where nvcc's extended lambdas are unsafe; docs/conventions.md).
template <class Z, class C, class X>
struct SubtractCombination {
  using Scalar = typename X::non_const_value_type;
  Z z;
  C c;
  X x;
  std::size_t p;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    Scalar sum = Scalar(0);
    for (std::size_t j = 0; j < p; ++j) sum += z(i, j) * c(j);
    x(i) -= sum;
  }
};

/// x(i) -= sum_j z(i, j) c(j): removes the combination with coefficients c (a device view).
template <class Z, class C, class X>
void subtract_combination(const Z& z, const C& c, const X& x) {
  Kokkos::parallel_for("kelp::solvers::NullSpace::project",
                       Kokkos::RangePolicy<typename X::execution_space>(0, x.extent(0)),
                       SubtractCombination<Z, C, X>{z, c, x, z.extent(1)});
}
}  // namespace impl

template <class Scalar, class Device = DefaultDevice>
class NullSpace {
 public:
  using basis_type = MultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using const_basis_type = ConstMultiVectorView<Scalar, Kokkos::LayoutLeft, Device>;
  using vector_type = VectorView<Scalar, Device>;
  using const_vector_type = ConstVectorView<Scalar, Device>;
  using Magnitude = typename ScalarTraits<Scalar>::magnitude_type;

  /// Copies `basis` (n x p, p >= 1 linearly independent columns) and orthonormalises it.
  /// @param[in] compatibility_tolerance  b counts as compatible when |Z^H b| <= this * |b|;
  ///            default (negative): sqrt(epsilon) of Scalar (1.5e-8 for double, 3.5e-4 for
  ///            float), loose enough for right-hand sides assembled in floating point.
  /// @throws InvalidArgument when p = 0 or a column is zero, not finite, or (nearly) a
  ///         combination of the columns before it
  template <class Reduction = LocalReduction>
  explicit NullSpace(const_basis_type basis, double compatibility_tolerance = -1,
                     const Reduction& reduce = {})
      : compatibility_tolerance_(compatibility_tolerance >= 0
                                     ? compatibility_tolerance
                                     : std::sqrt(std::numeric_limits<Magnitude>::epsilon())) {
    KELP_REQUIRE(basis.extent(1) >= 1, InvalidArgument,
                 "kelp::solvers::NullSpace: the basis has no columns");
    basis_ = basis_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kelp::NullSpace::basis"),
                        basis.extent(0), basis.extent(1));
    Kokkos::deep_copy(basis_, basis);
    orthonormalise(reduce);
    coefficients_ = Kokkos::View<Scalar*, Device>("kelp::NullSpace::coefficients", dimension());
  }

  /// The constant vector of length num_rows: the null space of a pure-Neumann Laplacian.
  /// On several ranks, num_rows is the local length and `reduce` the MPI policy.
  template <class Reduction = LocalReduction>
  static NullSpace constants(Ordinal num_rows, const Reduction& reduce = {}) {
    basis_type ones("kelp::NullSpace::constants", num_rows, 1);
    Kokkos::deep_copy(ones, Scalar(1));
    return NullSpace(ones, -1, reduce);
  }

  Ordinal num_rows() const { return static_cast<Ordinal>(basis_.extent(0)); }
  int dimension() const { return static_cast<int>(basis_.extent(1)); }
  /// The orthonormal basis Z (Z^H Z = I up to rounding).
  const_basis_type basis() const { return basis_; }
  double compatibility_tolerance() const { return compatibility_tolerance_; }

  /// |Z^H x|: the size of x's component in the null space.
  template <class Reduction>
  double component_norm(const_vector_type x, const Reduction& reduce) const {
    auto c = coefficients(x, reduce);
    double sum = 0;
    for (std::size_t j = 0; j < c.extent(0); ++j) sum += ScalarTraits<Scalar>::abs2(c(j));
    return std::sqrt(sum);
  }

  /// True when b is compatible: |Z^H b| <= compatibility_tolerance * |b|.
  template <class Reduction>
  bool is_compatible(const_vector_type b, double b_norm, const Reduction& reduce) const {
    return component_norm(b, reduce) <= compatibility_tolerance_ * b_norm;
  }

  /// x <- x - Z Z^H x. Not for concurrent use (shares a small coefficient buffer).
  template <class Reduction>
  void project(vector_type x, const Reduction& reduce) const {
    check_length("project", x.extent(0));
    const auto c = coefficients(x, reduce);
    Kokkos::deep_copy(coefficients_, c);
    impl::subtract_combination(basis_, coefficients_, x);
  }

 private:
  /// c = Z^H x on the host.
  template <class Reduction>
  auto coefficients(const_vector_type x,
                                                         const Reduction& reduce) const {
    check_length("coefficients", x.extent(0));
    // One reduction (one allreduce when distributed) for all p coefficients: x seen as n x 1.
    const const_basis_type x_block(x.data(), x.extent(0), 1);
    Kokkos::View<Scalar**, Kokkos::LayoutLeft, Kokkos::HostSpace> c("kelp::NullSpace::coefficients",
                                                                     dimension(), 1);
    reduce.gram(basis_, x_block, c);
    return Kokkos::subview(c, Kokkos::ALL, 0);
  }

  void check_length(const char* what, std::size_t n) const {
    KELP_REQUIRE(n == basis_.extent(0), DimensionMismatch,
                 "kelp::solvers::NullSpace::" << what << ": vector has " << n
                                              << " rows, the null space basis " << basis_.extent(0));
  }

  vector_type column(int j) const { return Kokkos::subview(basis_, Kokkos::ALL, j); }

  /// Modified Gram-Schmidt, each column twice ("twice is enough": Giraud et al. 2005).
  template <class Reduction>
  void orthonormalise(const Reduction& reduce) {
    for (int j = 0; j < dimension(); ++j) {
      const vector_type zj = column(j);
      const double original = reduce.norm2(zj);
      KELP_REQUIRE(std::isfinite(original) && original > 0, InvalidArgument,
                   "kelp::solvers::NullSpace: basis column " << j << " is "
                       << (original > 0 ? "not finite" : "zero"));
      for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < j; ++i) {
          const Scalar c = reduce.dot(column(i), zj);
          kernels::axpby(-c, column(i), Scalar(1), zj);
        }
      }
      const double remaining = reduce.norm2(zj);
      KELP_REQUIRE(remaining > 1e3 * std::numeric_limits<Magnitude>::epsilon() * original,
                   InvalidArgument,
                   "kelp::solvers::NullSpace: basis column " << j
                       << " is (nearly) a combination of the columns before it");
      kernels::scal(Scalar(1 / remaining), zj);
    }
  }

  basis_type basis_;
  double compatibility_tolerance_;
  mutable Kokkos::View<Scalar*, Device> coefficients_;
};

}  // namespace kelp::solvers
