#pragma once
/// The parameters of GMRES(m) and FGMRES(m).

#include <string>

#include "kelp/solvers/stopping.hpp"

namespace kelp::solvers {

/// How each new Krylov vector is orthogonalised against the basis.
enum class Orthogonalization {
  cgs2,  ///< classical Gram-Schmidt applied twice: 3 reductions and 3 sweeps over the basis per step
  mgs,   ///< modified Gram-Schmidt: j + 1 dot products + 1 norm in step j (more messages)
  /// classical Gram-Schmidt once: 2 reductions, 2 sweeps over the basis; loses orthogonality
  /// when w lies nearly in span(V) (cancellation), so GMRES may need more iterations then
  cgs,
  /// classical Gram-Schmidt with a second pass only when the first cancelled much of w
  /// (||w_after|| < eta ||w_before||, eta = 1/sqrt(2), Daniel-Gragg-Kaufman-Stewart 1976): as
  /// cheap as cgs while nothing cancels, as robust as cgs2 when it does (the idea of PETSc's
  /// KSP_GMRES_CGS_REFINE_IFNEEDED; PETSc's default is one pass, KSP_GMRES_CGS_REFINE_NEVER)
  cgs_refine_if_needed,
};

inline std::string to_string(Orthogonalization o) {
  switch (o) {
    case Orthogonalization::cgs2: return "cgs2";
    case Orthogonalization::mgs: return "mgs";
    case Orthogonalization::cgs: return "cgs";
    case Orthogonalization::cgs_refine_if_needed: return "cgs_refine_if_needed";
  }
  return "unknown";
}

/// Which side of A the preconditioner M is applied on.
enum class PreconditionerSide {
  right,  ///< A M^{-1} u = b, x = M^{-1} u: minimises the true residual ||b - A x||
  left,   ///< M^{-1} A x = M^{-1} b: minimises the preconditioned residual ||M^{-1} (b - A x)||
};

inline std::string to_string(PreconditionerSide side) {
  return side == PreconditionerSide::right ? "right" : "left";
}

/// Stopping rules plus the restart length, the orthogonalisation and flexibility.
struct GmresParams : StoppingRules {
  /// Krylov vectors per cycle (m of GMRES(m)), >= 1. Memory: m + 1 vectors (2m + 1 flexible).
  int restart = 30;
  /// Default cgs2: orthogonal to working precision whatever A does (Giraud et al. 2005), at one
  /// sweep over the basis more than cgs_refine_if_needed while that needs no refinement.
  Orthogonalization orthogonalization = Orthogonalization::cgs2;
  /// FGMRES (Saad 1993): keeps Z_j = M_j^{-1} v_j, so M may change between applications (an
  /// inner solver run to a tolerance). Required for variable preconditioners.
  bool flexible = false;
  /// Right (default): the stopping test and the history use the true residual. Left: they use
  /// the preconditioned residual ||M^{-1} r|| (SolveResult::stopping_norm says so), relative to
  /// ||M^{-1} b|| or ||M^{-1} r_0||; the true residual is recomputed and reported at the end.
  /// Left needs a fixed M: flexible GMRES is right-preconditioned by construction.
  PreconditionerSide side = PreconditionerSide::right;
};

}  // namespace kelp::solvers
