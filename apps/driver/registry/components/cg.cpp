#include "kelp/apps/driver/registry/components/cg.hpp"

#include <string>

#include "kelp/apps/driver/registry/components/gauss_seidel.hpp"

namespace kelp::solvers::components {

using config::Bounds;

const config::Choices<CgVariant>& cg_variants() {
  static const config::Choices<CgVariant> choices{{CgVariant::standard, "standard"},
                                                  {CgVariant::single_reduction, "single_reduction"},
                                                  {CgVariant::flexible, "flexible"}};
  return choices;
}

void cg_fields(config::FieldVisitor& v, CgParams& params) {
  v.field("max_iterations", params.max_iterations, Bounds::at_least(0));
  v.field("relative_tolerance", params.relative_tolerance, Bounds::closed_open(0, 1));  // 1: x = 0 "converges"
  v.field("absolute_tolerance", params.absolute_tolerance, Bounds::at_least(0));
  v.field("variant", params.variant, cg_variants());
}

void cg_config_fields(config::FieldVisitor& v, CgConfig& config) {
  cg_fields(v, config.params);
  v.component("preconditioner", config.preconditioner);
  // EisenstatCg is the standard recurrence (the builder below checks it again for C++ callers).
  v.require(!asks_for_eisenstat(config.preconditioner) || config.params.variant == CgVariant::standard, "variant",
            "variant " + std::string(to_string(config.params.variant)) +
                " with preconditioner gauss_seidel fused: eisenstat; expected variant standard");
  // A one-sided sweep is not symmetric: CG would run, but its residual can grow (bcsstk14 ended
  // 23 times above its start). Flexible CG's orthogonalisation does not need M symmetric.
  v.require(!is_one_sided_sweep(config.preconditioner) || config.params.variant == CgVariant::flexible,
            "preconditioner",
            "gauss_seidel with a one-sided direction (forward or backward) is not a symmetric "
            "preconditioner, which cg needs; expected direction: symmetric, cg variant: flexible, "
            "or solver gmres or bicgstab");
}

namespace {

/// CG (Method: Cg, CgSingleReduction or FlexibleCg) with a preconditioner that is built unset:
/// setup_symbolic sets up M's pattern and then makes the solver (whose constructor checks M's
/// size, known only after setup_symbolic, and, unless flexible, that M is fixed); setup_numeric
/// is M's value setup, repeatable.
template <class Scalar, template <class, class, class> class Method>
class CgSolver final : public LinearSolver<Scalar> {
 public:
  CgSolver(OperatorArgument<Scalar> A, PreconditionerPointer<Scalar> M, CgParams params)
      : A_(std::move(A)), M_(std::move(M)), params_(params) {}

  void setup_symbolic(const ConfigMatrix<Scalar>& A) override {
    M_->setup_symbolic(A);
    cg_ = std::make_unique<Method<Scalar, ConfigDevice, LocalReduction>>(A_, M_, params_);
    if (monitor_) cg_->set_monitor(monitor_);
  }
  void setup_numeric(const ConfigMatrix<Scalar>& A) override {
    KELP_REQUIRE(cg_ != nullptr, InvalidState,
                 "kelp::solvers::CgSolver::setup_numeric: called before setup_symbolic");
    M_->setup_numeric(A);
  }
  SolveResult solve(ConstConfigVector<Scalar> b, ConfigVector<Scalar> x) const override {
    KELP_REQUIRE(cg_ != nullptr && M_->is_set_up(), InvalidState,
                 "kelp::solvers::CgSolver::solve: called before "
                     << (cg_ == nullptr ? "setup_symbolic" : "setup_numeric"));
    return cg_->solve(b, x);
  }
  void set_monitor(IterationMonitor monitor) override {
    monitor_ = std::move(monitor);
    if (cg_) cg_->set_monitor(monitor_);
  }
  std::string summary() const override {
    if (cg_) return cg_->summary();
    return "cg (not set up) preconditioned by " + M_->summary();
  }

 private:
  OperatorArgument<Scalar> A_;
  PreconditionerPointer<Scalar> M_;
  CgParams params_;
  IterationMonitor monitor_;
  std::unique_ptr<Method<Scalar, ConfigDevice, LocalReduction>> cg_;
};

/// CG with Eisenstat's trick (EisenstatCg): the preconditioner is a multicolor GaussSeidel with
/// `fused: eisenstat`; setup_numeric sets it up and (re)builds the fused solver's split of A.
template <class Scalar>
class EisenstatCgSolver final : public LinearSolver<Scalar> {
 public:
  using Gs = precond::GaussSeidel<ConfigMatrix<Scalar>>;
  EisenstatCgSolver(std::shared_ptr<Gs> M, CgParams params) : M_(std::move(M)), params_(params) {}

  void setup_symbolic(const ConfigMatrix<Scalar>& A) override {
    M_->setup_symbolic(A);
    cg_.reset();
  }
  void setup_numeric(const ConfigMatrix<Scalar>& A) override {
    M_->setup_numeric(A);
    if (cg_) {
      cg_->setup(A);
    } else {
      cg_ = std::make_unique<EisenstatCg<Scalar, ConfigDevice>>(A, M_, params_);
      if (monitor_) cg_->set_monitor(monitor_);
    }
  }
  SolveResult solve(ConstConfigVector<Scalar> b, ConfigVector<Scalar> x) const override {
    KELP_REQUIRE(cg_ != nullptr, InvalidState,
                 "kelp::solvers::EisenstatCgSolver::solve: called before setup_numeric");
    return cg_->solve(b, x);
  }
  void set_monitor(IterationMonitor monitor) override {
    monitor_ = std::move(monitor);
    if (cg_) cg_->set_monitor(monitor_);
  }
  std::string summary() const override {
    if (cg_) return cg_->summary();
    return "cg (eisenstat, not set up) preconditioned by " + M_->summary();
  }

 private:
  std::shared_ptr<Gs> M_;
  CgParams params_;
  IterationMonitor monitor_;
  std::unique_ptr<EisenstatCg<Scalar, ConfigDevice>> cg_;
};

/// The preconditioner as a GaussSeidel asking for Eisenstat's trick, or null.
template <class Scalar>
std::shared_ptr<precond::GaussSeidel<ConfigMatrix<Scalar>>> eisenstat_request(
    const PreconditionerPointer<Scalar>& M) {
  auto gs = std::dynamic_pointer_cast<precond::GaussSeidel<ConfigMatrix<Scalar>>>(M);
  if (gs == nullptr || gs->params().fused != precond::GaussSeidelFusion::eisenstat) return nullptr;
  return gs;
}

}  // namespace

void register_cg(SolverRegistry& registry) {
  registry.add<CgConfig>(
      "cg",
      "preconditioned conjugate gradients (A and M Hermitian positive definite); variant "
      "standard, single_reduction or flexible (M may vary: inner solvers)",
      cg_config_fields, [](const CgConfig& config, auto A, const auto& matrix) {
        using Scalar = typename std::decay_t<decltype(matrix)>::scalar_type;
        auto M = preconditioner_registry().build<Scalar>(config.preconditioner, matrix);
        if (auto gs = eisenstat_request<Scalar>(M)) {
          KELP_REQUIRE(config.params.variant == CgVariant::standard, InvalidArgument,
                       "solver cg: preconditioner gauss_seidel with fused: eisenstat needs variant "
                       "standard, got "
                           << to_string(config.params.variant));
          return LinearSolverPointer<Scalar>(
              std::make_shared<EisenstatCgSolver<Scalar>>(std::move(gs), config.params));
        }
        switch (config.params.variant) {
          case CgVariant::single_reduction:
            return LinearSolverPointer<Scalar>(std::make_shared<CgSolver<Scalar, CgSingleReduction>>(
                std::move(A), std::move(M), config.params));
          case CgVariant::flexible:
            return LinearSolverPointer<Scalar>(std::make_shared<CgSolver<Scalar, FlexibleCg>>(
                std::move(A), std::move(M), config.params));
          case CgVariant::standard: break;
        }
        return LinearSolverPointer<Scalar>(
            std::make_shared<CgSolver<Scalar, Cg>>(std::move(A), std::move(M), config.params));
      });
}

}  // namespace kelp::solvers::components
