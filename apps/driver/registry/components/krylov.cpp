#include "kelp/apps/driver/registry/components/krylov.hpp"

#include "kelp/apps/driver/registry/components/gauss_seidel.hpp"
#include "kelp/apps/driver/registry/components/stopping.hpp"

namespace kelp::solvers::components {

const config::Choices<Orthogonalization>& orthogonalizations() {
  static const config::Choices<Orthogonalization> choices{{Orthogonalization::cgs2, "cgs2"},
                                                          {Orthogonalization::mgs, "mgs"},
                                                          {Orthogonalization::cgs, "cgs"},
                                                          {Orthogonalization::cgs_refine_if_needed,
                                                           "cgs_refine_if_needed"}};
  return choices;
}

const config::Choices<PreconditionerSide>& preconditioner_sides() {
  static const config::Choices<PreconditionerSide> choices{{PreconditionerSide::right, "right"},
                                                           {PreconditionerSide::left, "left"}};
  return choices;
}

void gmres_config_fields(config::FieldVisitor& v, GmresConfig& config) {
  v.field("restart", config.params.restart, config::Bounds::at_least(1));
  v.field("orthogonalization", config.params.orthogonalization, orthogonalizations());
  v.field("side", config.params.side, preconditioner_sides());
  stopping_fields(v, config.params);
  v.component("preconditioner", config.preconditioner);
  v.require(!asks_for_eisenstat(config.preconditioner), "preconditioner", eisenstat_elsewhere);
}

void bicgstab_config_fields(config::FieldVisitor& v, BicgstabConfig& config) {
  stopping_fields(v, config.params);
  v.component("preconditioner", config.preconditioner);
  v.require(!asks_for_eisenstat(config.preconditioner), "preconditioner", eisenstat_elsewhere);
}

namespace {

/// A Krylov solver whose preconditioner is built unset (as CgSolver in cg.cpp): setup_symbolic
/// sets up M's pattern and makes the solver (whose constructor checks M's size and, for plain
/// GMRES and BiCGStab, that M is not variable); setup_numeric is M's value setup.
template <class Scalar, template <class, class, class> class Method, class Params>
class KrylovSolver final : public LinearSolver<Scalar> {
 public:
  using Solver = Method<Scalar, ConfigDevice, LocalReduction>;
  KrylovSolver(OperatorArgument<Scalar> A, PreconditionerPointer<Scalar> M, Params params,
               std::string name)
      : A_(std::move(A)), M_(std::move(M)), params_(params), name_(std::move(name)) {}

  void setup_symbolic(const ConfigMatrix<Scalar>& A) override {
    M_->setup_symbolic(A);
    solver_ = std::make_unique<Solver>(A_, M_, params_);
    if (monitor_) solver_->set_monitor(monitor_);
  }
  void setup_numeric(const ConfigMatrix<Scalar>& A) override {
    KELP_REQUIRE(solver_ != nullptr, InvalidState,
                 "kelp::solvers::" << name_ << "::setup_numeric: called before setup_symbolic");
    M_->setup_numeric(A);
  }
  SolveResult solve(ConstConfigVector<Scalar> b, ConfigVector<Scalar> x) const override {
    KELP_REQUIRE(solver_ != nullptr && M_->is_set_up(), InvalidState,
                 "kelp::solvers::" << name_ << "::solve: called before "
                                   << (solver_ == nullptr ? "setup_symbolic" : "setup_numeric"));
    return solver_->solve(b, x);
  }
  void set_monitor(IterationMonitor monitor) override {
    monitor_ = std::move(monitor);
    if (solver_) solver_->set_monitor(monitor_);
  }
  std::string summary() const override {
    if (solver_) return solver_->summary();
    return name_ + " (not set up) preconditioned by " + M_->summary();
  }

 private:
  OperatorArgument<Scalar> A_;
  PreconditionerPointer<Scalar> M_;
  Params params_;
  std::string name_;
  IterationMonitor monitor_;
  std::unique_ptr<Solver> solver_;
};

template <bool flexible>
void add_gmres(SolverRegistry& registry, const char* type, const char* description) {
  registry.add<GmresConfig>(
      type, description, gmres_config_fields, [](const GmresConfig& config, auto A, const auto& matrix) {
        using Scalar = typename std::decay_t<decltype(matrix)>::scalar_type;
        auto M = preconditioner_registry().build<Scalar>(config.preconditioner, matrix);
        GmresParams params = config.params;
        params.flexible = flexible;
        return LinearSolverPointer<Scalar>(std::make_shared<KrylovSolver<Scalar, Gmres, GmresParams>>(
            std::move(A), std::move(M), params, flexible ? "Fgmres" : "Gmres"));
      });
}

}  // namespace

void register_krylov(SolverRegistry& registry) {
  add_gmres<false>(registry, "gmres",
                   "restarted GMRES(m), right- or left-preconditioned (any square A)");
  add_gmres<true>(registry, "fgmres",
                  "flexible GMRES(m): the preconditioner may vary (an inner solver)");
  registry.add<BicgstabConfig>(
      "bicgstab", "BiCGStab, right-preconditioned (any square A)", bicgstab_config_fields,
      [](const BicgstabConfig& config, auto A, const auto& matrix) {
        using Scalar = typename std::decay_t<decltype(matrix)>::scalar_type;
        auto M = preconditioner_registry().build<Scalar>(config.preconditioner, matrix);
        return LinearSolverPointer<Scalar>(
            std::make_shared<KrylovSolver<Scalar, Bicgstab, BicgstabParams>>(
                std::move(A), std::move(M), config.params, "Bicgstab"));
      });
}

}  // namespace kelp::solvers::components
