#include "kelp/apps/driver/registry/components/nested_solver.hpp"

#include "kelp/kernels/blas1/axpby.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"

namespace kelp::solvers::components {

void nested_solver_fields(config::FieldVisitor& v, NestedSolverParams& params) {
  v.component("solver", params.solver);
}

namespace {

/// y = alpha * S(x) + beta * y where S(x) is the inner solver's answer to A s = x from s = 0.
/// The inner solver's setup phases follow the preconditioner's.
template <class Scalar>
class SolverPreconditioner final : public ConfigPreconditioner<Scalar> {
 public:
  using Base = ConfigPreconditioner<Scalar>;
  explicit SolverPreconditioner(LinearSolverPointer<Scalar> inner) : inner_(std::move(inner)) {}

  std::string summary() const override { return "solver [" + inner_->summary() + "]"; }
  /// Run to a tolerance: not a fixed linear operator.
  bool is_variable() const override { return true; }

 protected:
  const char* name() const override { return "kelp::solvers::SolverPreconditioner"; }
  void setup_symbolic_impl(const ConfigMatrix<Scalar>& A) override { inner_->setup_symbolic(A); }
  void setup_numeric_impl(const ConfigMatrix<Scalar>& A) override { inner_->setup_numeric(A); }
  void apply_impl(typename Base::const_vector_type x, typename Base::vector_type y, Scalar alpha,
                  Scalar beta, OperatorMode) const override {
    if (solution_.extent(0) != x.extent(0)) {
      solution_ = ConfigVector<Scalar>("kelp::solvers::SolverPreconditioner::solution", x.extent(0));
    }
    kernels::fill(solution_, Scalar(0));
    inner_->solve(x, solution_);
    kernels::axpby(alpha, solution_, beta, y);
  }

 private:
  LinearSolverPointer<Scalar> inner_;
  mutable ConfigVector<Scalar> solution_;  // not for concurrent use
};

}  // namespace

void register_nested_solver(PreconditionerRegistry& registry) {
  registry.add<NestedSolverParams>(
      "solver", "a configured solver as the preconditioner (variable: for fgmres)",
      nested_solver_fields, [](const NestedSolverParams& params, const auto& A) {
        using Matrix = typename std::decay_t<decltype(A)>::matrix_type;
        using Scalar = typename Matrix::scalar_type;
        auto op = std::make_shared<MatrixOperator<Matrix>>(A.matrix);
        auto inner = solver_registry().build<Scalar>(params.solver, op, A);
        return PreconditionerPointer<Scalar>(std::make_shared<SolverPreconditioner<Scalar>>(inner));
      });
}

}  // namespace kelp::solvers::components
