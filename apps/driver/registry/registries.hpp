#pragma once
/// The registries that configurations choose components from, and what they build.
///
///   problem:
///     generator: {type: laplace3d, nx: 100, ny: 100, nz: 100}   # generator_registry()
///     rhs: {type: ones}                                          # rhs_registry()
///     initial_guess: {type: zero}                                # initial_guess_registry()
///   solver:
///     type: cg                                                   # solver_registry()
///     preconditioner: {type: jacobi, damping: 1.0}               # preconditioner_registry()
///
/// Every product depends on the scalar (problem.scalar), so every registry is a ScalarRegistry:
/// registry.build<Scalar>(spec, args...). Each component (its params, its `fields` function and
/// its registration) lives in one file under registry/components/; a new method adds its file
/// and one register_* call in registries.cpp.

#include <memory>
#include <string>

#include "kelp/apps/driver/registry/config_types.hpp"
#include "kelp/apps/driver/registry/linear_solver.hpp"
#include "kelp/apps/driver/registry/registry.hpp"

namespace kelp::solvers {

/// Build arguments and products, as templates of the scalar (see ScalarRegistry).
template <class Scalar>
using MatrixArgument = const ConfigMatrix<Scalar>&;
template <class Scalar>
using NamedMatrixArgument = const NamedMatrix<Scalar>&;
template <class Scalar>
using OperatorArgument = std::shared_ptr<const ConfigOperator<Scalar>>;
template <class Scalar>
using PreconditionerPointer = std::shared_ptr<ConfigPreconditioner<Scalar>>;
template <class Scalar>
using LinearSolverPointer = std::shared_ptr<LinearSolver<Scalar>>;

/// Generators build a matrix from their params alone (real values, converted to Scalar).
using GeneratorRegistry = ScalarRegistry<ConfigMatrix, ScalarTag>;
/// Vectors (right-hand sides, initial guesses) are built for a matrix: length num_rows.
using VectorRegistry = ScalarRegistry<ConfigVector, MatrixArgument>;
/// Builds a preconditioner for a matrix WITHOUT setting it up: the caller runs setup_symbolic
/// and setup_numeric (the matrix is passed for its name; its values may still change).
using PreconditionerRegistry = ScalarRegistry<PreconditionerPointer, NamedMatrixArgument>;
/// Builds a solver for the operator A (first argument) whose matrix is the second argument
/// (what its preconditioner is set up from), not set up (see LinearSolver).
using SolverRegistry = ScalarRegistry<LinearSolverPointer, OperatorArgument, NamedMatrixArgument>;

/// Types: laplace1d, laplace2d, laplace2d_9pt, laplace3d, laplace3d_27pt, anisotropic2d,
/// convection_diffusion (components/generators.hpp).
GeneratorRegistry& generator_registry();
/// Types: ones, random, file, A_times_ones (components/vectors.hpp).
VectorRegistry& rhs_registry();
/// Types: zero, file (components/vectors.hpp).
VectorRegistry& initial_guess_registry();
/// Types: identity, jacobi, block_jacobi, chebyshev, solver (components/identity.hpp, jacobi.hpp,
/// block_jacobi.hpp, chebyshev.hpp, nested_solver.hpp).
PreconditionerRegistry& preconditioner_registry();
/// Types: cg, gmres, fgmres, bicgstab (components/cg.hpp, components/krylov.hpp).
SolverRegistry& solver_registry();

/// Params with no fields (identity, rhs ones, ...).
struct NoParams {};
inline void no_fields(config::FieldVisitor&, NoParams&) {}

}  // namespace kelp::solvers
