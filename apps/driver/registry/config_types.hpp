#pragma once
/// The scalar a configuration computes in (`problem.scalar`) and the types built for it.
///
///   problem:
///     scalar: complex            # float | double (default) | complex = Kokkos::complex<double>
///
/// Everything the registries build is templated on Scalar and compiled once for each of the three
/// standard scalars, in the .cpp file of the component; dispatch_scalar turns the run-time choice
/// into the compile-time type:
///
///   dispatch_scalar(config.problem.scalar, [&](auto tag) {
///     using Scalar = typename decltype(tag)::type;
///     auto problem = build_problem<Scalar>(config.problem);
///   });

#include <Kokkos_Core.hpp>
#include <string>

#include "kelp/apps/driver/config/fields.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/kernels/core/types.hpp"
#include "kelp/precond/preconditioner.hpp"

namespace kelp::solvers {

/// The scalars a configuration can choose.
enum class ScalarKind { real_float, real_double, complex_double };

/// Names of ScalarKind in configurations and reports: float, double, complex.
const config::Choices<ScalarKind>& scalar_kinds();
/// "float", "double" or "complex".
std::string to_string(ScalarKind kind);

/// A type as a value: dispatch_scalar passes ScalarTag<Scalar>{} to its function.
template <class T>
struct ScalarTag {
  using type = T;
};

/// The ScalarKind of a standard scalar type.
template <class Scalar>
constexpr ScalarKind scalar_kind_of() {
  if constexpr (std::is_same<Scalar, float>::value) {
    return ScalarKind::real_float;
  } else if constexpr (std::is_same<Scalar, double>::value) {
    return ScalarKind::real_double;
  } else {
    static_assert(std::is_same<Scalar, Kokkos::complex<double>>::value,
                  "scalar_kind_of: Scalar must be float, double or Kokkos::complex<double>");
    return ScalarKind::complex_double;
  }
}

/// Calls f(ScalarTag<S>{}) with the standard scalar S that `kind` names; returns what f returns.
template <class F>
decltype(auto) dispatch_scalar(ScalarKind kind, F&& f) {
  switch (kind) {
    case ScalarKind::real_float: return f(ScalarTag<float>{});
    case ScalarKind::complex_double: return f(ScalarTag<Kokkos::complex<double>>{});
    case ScalarKind::real_double: break;
  }
  return f(ScalarTag<double>{});
}

/// Device, matrix, operator, vector and preconditioner types of everything built from a
/// configuration with scalar Scalar.
using ConfigDevice = DefaultDevice;
template <class Scalar>
using ConfigMatrix = CrsMatrix<Scalar, Ordinal, Offset, ConfigDevice>;
template <class Scalar>
using ConfigOperator = Operator<Scalar, ConfigDevice>;
template <class Scalar>
using ConfigVector = VectorView<Scalar, ConfigDevice>;
template <class Scalar>
using ConstConfigVector = ConstVectorView<Scalar, ConfigDevice>;
template <class Scalar>
using ConfigPreconditioner = precond::Preconditioner<ConfigMatrix<Scalar>>;

/// A matrix with the name of its source (a file name or a generator summary), so that components
/// that can fail on its values (Jacobi on a zero diagonal) say which matrix it is.
template <class Scalar>
struct NamedMatrix {
  using scalar_type = Scalar;
  using matrix_type = ConfigMatrix<Scalar>;
  ConfigMatrix<Scalar> matrix;
  std::string name;
};

}  // namespace kelp::solvers
