#include "kelp/apps/driver/registry/solver_registry.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

#include "kelp/precond/identity.hpp"

namespace kelp::solvers {

using config::Bounds;
using config::FieldVisitor;

void cg_fields(FieldVisitor& v, CgParams& params) {
  v.field("max_iterations", params.max_iterations, Bounds::at_least(0));
  v.field("relative_tolerance", params.relative_tolerance, Bounds::at_least(0));
  v.field("absolute_tolerance", params.absolute_tolerance, Bounds::at_least(0));
}

void jacobi_fields(FieldVisitor& v, precond::JacobiParams& params) {
  v.field("damping", params.damping, Bounds::open_closed(0, 2));
}

void cg_config_fields(FieldVisitor& v, CgConfig& config) {
  cg_fields(v, config.params);
  v.component("preconditioner", config.preconditioner);
}

namespace {

/// The live names of name_matrix, keyed by the matrix's arrays and sizes.
struct MatrixNames {
  struct Entry {
    const void* row_map;
    const void* values;
    long long num_rows;
    long long num_cols;
    std::string label;
    const void* owner;  // the handle's token, to remove exactly this entry
  };
  std::mutex mutex;
  std::vector<Entry> entries;
};

MatrixNames& matrix_names() {
  static MatrixNames* names = new MatrixNames;  // never destroyed: handles may outlive statics
  return *names;
}

bool same_matrix(const MatrixNames::Entry& e, const ConfigMatrix& A) {
  return e.row_map == A.row_map().data() && e.values == A.values().data() &&
         e.num_rows == A.num_rows() && e.num_cols == A.num_cols();
}

/// Removes its entry when the last copy of the handle goes.
struct MatrixNameHandle {
  MatrixNameHandle() = default;
  MatrixNameHandle(const MatrixNameHandle&) = delete;
  MatrixNameHandle& operator=(const MatrixNameHandle&) = delete;
  ~MatrixNameHandle() {
    MatrixNames& names = matrix_names();
    std::lock_guard<std::mutex> lock(names.mutex);
    names.entries.erase(std::remove_if(names.entries.begin(), names.entries.end(),
                                       [this](const MatrixNames::Entry& e) { return e.owner == this; }),
                        names.entries.end());
  }
};

}  // namespace

std::shared_ptr<const void> name_matrix(const ConfigMatrix& A, std::string label) {
  auto handle = std::make_shared<const MatrixNameHandle>();
  MatrixNames& names = matrix_names();
  std::lock_guard<std::mutex> lock(names.mutex);
  names.entries.push_back({A.row_map().data(), A.values().data(), A.num_rows(), A.num_cols(),
                           std::move(label), handle.get()});
  return handle;
}

std::string matrix_name(const ConfigMatrix& A) {
  MatrixNames& names = matrix_names();
  std::lock_guard<std::mutex> lock(names.mutex);
  for (auto it = names.entries.rbegin(); it != names.entries.rend(); ++it) {
    if (same_matrix(*it, A)) return it->label;
  }
  return {};
}

namespace {

void register_preconditioners(PreconditionerRegistry& registry) {
  registry.add<NoParams>(
      "identity", "no preconditioning, M^{-1} = I", no_fields,
      [](const NoParams&, const ConfigMatrix& A) -> std::shared_ptr<const ConfigOperator> {
        auto M = std::make_shared<precond::Identity<ConfigMatrix>>();
        M->setup(A);
        return M;
      });
  registry.add<precond::JacobiParams>(
      "jacobi", "point Jacobi, M^{-1} = damping * D^{-1}", jacobi_fields,
      [](const precond::JacobiParams& params,
         const ConfigMatrix& A) -> std::shared_ptr<const ConfigOperator> {
        auto M = std::make_shared<precond::Jacobi<ConfigMatrix>>(params, matrix_name(A));
        M->setup(A);
        return M;
      });
}

void register_solvers(SolverRegistry& registry) {
  registry.add<CgConfig>(
      "cg", "preconditioned conjugate gradients (A and M Hermitian positive definite)",
      cg_config_fields,
      [](const CgConfig& config, std::shared_ptr<const ConfigOperator> A,
         const ConfigMatrix& matrix) -> std::shared_ptr<LinearSolver> {
        auto M = preconditioner_registry().build(config.preconditioner, matrix);
        auto cg = std::make_shared<Cg<ConfigScalar, ConfigDevice>>(std::move(A), std::move(M),
                                                                   config.params);
        return std::make_shared<SolverAdapter<Cg<ConfigScalar, ConfigDevice>>>(std::move(cg));
      });
}

}  // namespace

PreconditionerRegistry& preconditioner_registry() {
  static PreconditionerRegistry registry("preconditioner");
  static const bool registered = (register_preconditioners(registry), true);
  (void)registered;
  return registry;
}

SolverRegistry& solver_registry() {
  static SolverRegistry registry("solver");
  static const bool registered = (register_solvers(registry), true);
  (void)registered;
  return registry;
}

}  // namespace kelp::solvers
