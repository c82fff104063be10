#pragma once
/// Parameters of the Gauss-Seidel family (precond/gauss_seidel/gauss_seidel.hpp).

#include <string>

namespace kelp::precond {

/// How the rows are made independent so that a sweep runs in parallel.
enum class GaussSeidelVariant {
  multicolor,  ///< rows colored at distance 1; one parallel pass per color
  cluster,     ///< clusters of rows colored; rows inside a cluster swept sequentially
  two_stage,   ///< natural order; the triangular solve replaced by inner Jacobi-Richardson sweeps
};

/// How the rows (multicolor) or clusters (cluster) are colored.
enum class GaussSeidelColoring {
  speculative,        ///< parallel (kernels::color_distance1); few colors, may vary with threads
  deterministic,      ///< parallel priority rounds: reproducible, more colors (slower convergence)
  sequential_greedy,  ///< greedy in natural order on the host: reproducible, red-black on grids
};

/// Order of a sweep: forward (colors / rows ascending), backward, or symmetric (forward then
/// backward: the symmetric operator that CG needs).
enum class GaussSeidelDirection { forward, backward, symmetric };

/// Two-stage forms (same operator in exact arithmetic, different kernels), approximating the SOR
/// sweep x += (D / omega + L)^{-1} (b - A x) (L: strict lower triangle; upper for backward):
///  classic: r = b - A x (one SpMV), g = omega D^{-1} r, then inner sweeps
///           g = omega D^{-1} (r - L g), x += g (work: r and two g vectors);
///  compact: no residual: y = x, then (inner sweeps + 1) passes
///           y = x + omega D^{-1} (b - L y - (D + U) x), x = y (work: two y vectors).
enum class TwoStageForm { classic, compact };

/// How a CG solver built from YAML uses a Gauss-Seidel preconditioner: none = Cg applies the
/// sweeps; eisenstat = solvers::EisenstatCg fuses the symmetric sweep with the product (Eisenstat's
/// trick: same iterates, about one pass over A per iteration; multicolor, symmetric, 1 sweep
/// only). The preconditioner itself ignores it (apply and smooth are the same either way).
enum class GaussSeidelFusion { none, eisenstat };

inline std::string to_string(GaussSeidelVariant v) {
  return v == GaussSeidelVariant::multicolor ? "multicolor"
         : v == GaussSeidelVariant::cluster  ? "cluster"
                                             : "two_stage";
}
inline std::string to_string(GaussSeidelDirection d) {
  return d == GaussSeidelDirection::forward    ? "forward"
         : d == GaussSeidelDirection::backward ? "backward"
                                               : "symmetric";
}
inline std::string to_string(GaussSeidelColoring c) {
  return c == GaussSeidelColoring::speculative     ? "speculative"
         : c == GaussSeidelColoring::deterministic ? "deterministic"
                                                   : "sequential_greedy";
}
inline std::string to_string(TwoStageForm f) {
  return f == TwoStageForm::classic ? "classic" : "compact";
}

struct GaussSeidelParams {
  GaussSeidelVariant variant = GaussSeidelVariant::multicolor;
  /// symmetric (the default) keeps CG valid on a symmetric / Hermitian matrix.
  GaussSeidelDirection direction = GaussSeidelDirection::symmetric;
  /// Sweeps per apply (as an operator); >= 1. A symmetric sweep counts once.
  int sweeps = 1;
  /// SOR damping, 0 < omega < 2 (1: plain Gauss-Seidel).
  double omega = 1.0;
  /// Multicolor and cluster: the coloring algorithm. Fewer colors converge faster on the
  /// Laplacians (red-black PCG matches natural-order GS; the deterministic coloring's 4-6 colors
  /// and the speculative one's 3-4 on several threads take 1.5x the iterations), so the default is
  /// the reproducible host greedy (O(nnz), once per pattern); speculative is the parallel
  /// setup (on one thread it equals sequential_greedy).
  GaussSeidelColoring coloring = GaussSeidelColoring::sequential_greedy;
  /// Multicolor: rows with more stored entries than this get a team of threads each, so one dense
  /// row does not serialise its color. 0: never.
  long long long_row_threshold = 1024;
  /// Cluster: 0 = the MIS-2 aggregates of the matrix graph; k > 0 = consecutive rows in clusters
  /// of k (balanced).
  int cluster_size = 0;
  /// Two-stage: inner Jacobi-Richardson sweeps (0: the triangular solve is D^{-1}, i.e. Jacobi).
  int inner_sweeps = 1;
  TwoStageForm form = TwoStageForm::classic;
  /// Read by the YAML cg solver only (see GaussSeidelFusion).
  GaussSeidelFusion fused = GaussSeidelFusion::none;
};

}  // namespace kelp::precond
