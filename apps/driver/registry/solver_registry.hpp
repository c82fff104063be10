#pragma once
/// The registries of solvers and preconditioners that configurations choose from.
///
///   solver:
///     type: cg                                   # solver_registry()
///     max_iterations: 1000
///     preconditioner: {type: jacobi, damping: 1.0}   # preconditioner_registry()
///
/// Everything built from a configuration works in double precision on the default device.
/// A new method registers itself by adding one entry in solver_registry.cpp (or by calling
/// add() on the registry from its own file before the configuration is parsed).

#include <memory>
#include <string>

#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/core/operator.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/apps/driver/registry/registry.hpp"
#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers {

/// Scalar, device, matrix, operator and vector types of everything built from a configuration.
using ConfigScalar = double;
using ConfigDevice = DefaultDevice;
using ConfigMatrix = CrsMatrix<ConfigScalar, Ordinal, Offset, ConfigDevice>;
using ConfigOperator = Operator<ConfigScalar, ConfigDevice>;
using ConfigVector = VectorView<ConfigScalar, ConfigDevice>;
using ConstConfigVector = ConstVectorView<ConfigScalar, ConfigDevice>;

/// What the run driver needs from any iterative solver: solve, a monitor and a summary.
class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  /// Solves A x = b; x holds the initial guess on entry.
  virtual SolveResult solve(ConstConfigVector b, ConfigVector x) const = 0;
  /// Called after every iteration (see IterationMonitor).
  virtual void set_monitor(IterationMonitor monitor) = 0;
  /// One line naming the method, its main parameters and its preconditioner.
  virtual std::string summary() const = 0;
};

/// LinearSolver over any solver class with solve(b, x), set_monitor(m) and summary().
template <class Solver>
class SolverAdapter final : public LinearSolver {
 public:
  explicit SolverAdapter(std::shared_ptr<Solver> solver) : solver_(std::move(solver)) {}
  SolveResult solve(ConstConfigVector b, ConfigVector x) const override {
    return solver_->solve(b, x);
  }
  void set_monitor(IterationMonitor monitor) override { solver_->set_monitor(std::move(monitor)); }
  std::string summary() const override { return solver_->summary(); }
  const std::shared_ptr<Solver>& solver() const { return solver_; }

 private:
  std::shared_ptr<Solver> solver_;
};

/// A matrix with the name of its source (a file name or a generator summary), so that builders
/// that can fail on its values (Jacobi on a zero diagonal) say which matrix it is.
struct NamedMatrix {
  ConfigMatrix matrix;
  std::string name;
};

/// Builds a preconditioner for A, set up (setup_symbolic + setup_numeric) and ready to apply.
using PreconditionerRegistry = Registry<std::shared_ptr<const ConfigOperator>, const NamedMatrix&>;
/// Builds a solver for the operator A (first argument) whose matrix is the second argument
/// (what preconditioners are built from).
using SolverRegistry = Registry<std::shared_ptr<LinearSolver>, std::shared_ptr<const ConfigOperator>,
                                const NamedMatrix&>;

/// Types: identity, jacobi.
PreconditionerRegistry& preconditioner_registry();
/// Types: cg.
SolverRegistry& solver_registry();

/// Params with no fields (identity, rhs ones, ...).
struct NoParams {};
inline void no_fields(config::FieldVisitor&, NoParams&) {}

/// Keys of CgParams: max_iterations (>= 0), relative_tolerance (>= 0), absolute_tolerance (>= 0).
void cg_fields(config::FieldVisitor& v, CgParams& params);
/// Keys of JacobiParams: damping (0 < damping <= 2).
void jacobi_fields(config::FieldVisitor& v, precond::JacobiParams& params);

/// The `solver` node of type cg: CgParams plus the preconditioner.
struct CgConfig {
  CgParams params;
  /// solver.preconditioner; default identity (plain, unpreconditioned CG).
  ComponentSpec preconditioner = preconditioner_registry().make("identity");
};
void cg_config_fields(config::FieldVisitor& v, CgConfig& config);

}  // namespace kelp::solvers
