#pragma once
/// What the run driver needs from any iterative solver built from a configuration: separate
/// setup phases (so that a values-only re-setup is reachable), solve, a monitor and a summary.
///
///   auto solver = solver_registry().build<double>(spec, op, NamedMatrix<double>{A, "A.mtx"});
///   solver->setup_symbolic(A);             // pattern: the preconditioner's symbolic setup
///   for (int step = 0; step < num_steps; ++step) {
///     update_values(A);                    // same pattern, new values
///     solver->setup_numeric(A);            // values only
///     solver->solve(b, x);                 // x: initial guess on entry
///   }

#include <memory>
#include <string>

#include "kelp/apps/driver/registry/config_types.hpp"
#include "kelp/solvers/solve_result.hpp"

namespace kelp::solvers {

template <class Scalar>
class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  /// Pattern-only setup (the preconditioner's setup_symbolic). Call again when the pattern of A
  /// changes. @throws DimensionMismatch for a non-square A
  virtual void setup_symbolic(const ConfigMatrix<Scalar>& A) = 0;
  /// Value setup (the preconditioner's setup_numeric); call again whenever the values of A
  /// change. @throws InvalidState before setup_symbolic or when the pattern of A changed
  virtual void setup_numeric(const ConfigMatrix<Scalar>& A) = 0;
  /// Solves A x = b; x holds the initial guess on entry.
  /// @throws InvalidState before setup_numeric
  virtual SolveResult solve(ConstConfigVector<Scalar> b, ConfigVector<Scalar> x) const = 0;
  /// Called after every iteration (see IterationMonitor).
  virtual void set_monitor(IterationMonitor monitor) = 0;
  /// One line naming the method, its main parameters and its preconditioner.
  virtual std::string summary() const = 0;
};

}  // namespace kelp::solvers
