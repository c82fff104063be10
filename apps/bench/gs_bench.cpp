// kelp-bench-gs: the Gauss-Seidel family against Jacobi as CG preconditioners: time per
// application (one symmetric sweep from x = 0), setup time, and PCG time to solution (relative
// residual 1e-8, b = ones) with each variant, on a model problem or a Matrix Market file.
//
// JSON lines (apps/bench/bench_common.hpp):
//   {"kind":"config", ...}   matrix, sizes, threads, execution space
//   {"kind":"variant", ...}  one per preconditioner: colors, setup seconds (symbolic + numeric,
//                            median), apply seconds (median), PCG iterations, median seconds to
//                            solution, and speedup_vs_jacobi (Jacobi-PCG time / this time),
//                            seconds_per_iteration; multicolor_eisenstat: the multicolor symmetric
//                            sweep fused with CG by Eisenstat's trick (solvers::EisenstatCg; its
//                            apply_s is the sweep's, its setup_s includes building the split)
//
// Usage: kelp-bench-gs [--generator laplace3d|laplace2d] [--n 100] [--matrix FILE.mtx]
//                      [--repeats 3] [--apply-repeats 20] [--variants jacobi,multicolor,...]

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/kernels/core/crs_matrix.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/io/matrix_market.hpp"
#include "kelp/kernels/spmv/matrix_operator.hpp"
#include "kelp/precond/gauss_seidel/gauss_seidel.hpp"
#include "kelp/precond/jacobi/jacobi.hpp"
#include "kelp/solvers/cg/cg.hpp"
#include "kelp/solvers/cg/eisenstat_cg.hpp"
#ifdef KELP_HAVE_KOKKOSKERNELS
#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_gauss_seidel.hpp>
#endif

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Exec = kelp::DefaultExecutionSpace;
using Matrix = kelp::CrsMatrix<double>;
using Vector = kelp::VectorView<double>;
using kelp::precond::GaussSeidelParams;
using kelp::precond::GaussSeidelVariant;

struct Options {
  std::string generator = "laplace3d";
  int n = 100;
  std::string matrix;  // a Matrix Market file instead of the generator
  int repeats = 3;
  int apply_repeats = 20;
  std::vector<std::string> variants = {"jacobi",           "multicolor",       "multicolor_eisenstat",
                                       "multicolor_speculative",
                                       "cluster",          "cluster8",         "two_stage_classic",
                                       "two_stage_compact"};
};

#ifdef KELP_HAVE_KOKKOSKERNELS
/// The peer: one symmetric sweep of Kokkos Kernels' Gauss-Seidel (GS_DEFAULT: point multicolor
/// on hosts) from x = 0, as a Kelp preconditioner, so that Kelp's Cg runs it like the others
/// (variant kk_symmetric_gs). KK's apply takes rank-2 vectors: unmanaged n x 1 views of Kelp's.
class KkSymmetricGs final : public kelp::precond::Preconditioner<Matrix> {
 public:
  using Handle = KokkosKernels::Experimental::KokkosKernelsHandle<kelp::Offset, kelp::Ordinal, double, Exec,
                                                                  Matrix::memory_space, Matrix::memory_space>;
  std::string summary() const override { return "kokkos kernels symmetric gauss_seidel (GS_DEFAULT, 1 sweep)"; }

 protected:
  const char* name() const override { return "kelp-bench-gs::KkSymmetricGs"; }
  void setup_symbolic_impl(const Matrix& A) override {
    handle_ = std::make_unique<Handle>();
    handle_->create_gs_handle(KokkosSparse::GS_DEFAULT);
    KokkosSparse::Experimental::gauss_seidel_symbolic(handle_.get(), A.num_rows(), A.num_cols(), A.row_map(),
                                                      A.entries(), true);
  }
  void setup_numeric_impl(const Matrix& A) override {
    A_ = A;
    KokkosSparse::Experimental::gauss_seidel_numeric(handle_.get(), A.num_rows(), A.num_cols(), A.row_map(),
                                                     A.entries(), A.values(), true);
    work_ = Vector("kelp-bench-gs::kk_work", A.num_rows());
  }
  void apply_impl(const_vector_type x, vector_type y, double alpha, double beta, kelp::OperatorMode) const override {
    using Out = Kokkos::View<double**, Kokkos::LayoutLeft, Matrix::device_type, Kokkos::MemoryUnmanaged>;
    using In = Kokkos::View<const double**, Kokkos::LayoutLeft, Matrix::device_type, Kokkos::MemoryUnmanaged>;
    const kelp::Ordinal n = A_.num_rows();
    const bool direct = alpha == 1.0 && beta == 0.0;
    Out out(direct ? y.data() : work_.data(), n, 1);
    KokkosSparse::Experimental::symmetric_gauss_seidel_apply(handle_.get(), n, n, A_.row_map(), A_.entries(),
                                                             A_.values(), out, In(x.data(), n, 1), true, true,
                                                             1.0, 1);
    if (!direct) kelp::kernels::axpby(alpha, work_, beta, y);
  }

 private:
  Matrix A_;
  std::unique_ptr<Handle> handle_;  // KK's apply takes a non-const handle
  Vector work_;
};
#endif

/// The preconditioner called `name`, not yet set up.
std::shared_ptr<kelp::precond::Preconditioner<Matrix>> make(const std::string& name) {
  if (name == "jacobi") return std::make_shared<kelp::precond::Jacobi<Matrix>>();
#ifdef KELP_HAVE_KOKKOSKERNELS
  if (name == "kk_symmetric_gs") return std::make_shared<KkSymmetricGs>();
#endif
  GaussSeidelParams p;
  if (name == "multicolor" || name == "multicolor_speculative" || name == "multicolor_eisenstat") {
    p.variant = GaussSeidelVariant::multicolor;
    if (name == "multicolor_speculative") p.coloring = kelp::precond::GaussSeidelColoring::speculative;
  } else if (name == "cluster" || name == "cluster8") {
    p.variant = GaussSeidelVariant::cluster;
    p.cluster_size = name == "cluster8" ? 8 : 0;
  } else if (name == "two_stage_classic" || name == "two_stage_compact") {
    p.variant = GaussSeidelVariant::two_stage;
    p.inner_sweeps = 1;
    p.form = name == "two_stage_classic" ? kelp::precond::TwoStageForm::classic
                                         : kelp::precond::TwoStageForm::compact;
  } else {
    KELP_THROW(InvalidArgument, "kelp-bench-gs: unknown variant '" << name << "'");
  }
  return std::make_shared<kelp::precond::GaussSeidel<Matrix>>(p);
}

int run(const Options& options) {
  const Matrix A = !options.matrix.empty() ? kelp::io::read_matrix_market<double>(options.matrix)
                   : options.generator == "laplace2d"
                       ? kelp::generators::laplace2d<double>(options.n, options.n)
                       : kelp::generators::laplace3d<double>(options.n, options.n, options.n);
  const std::string label =
      !options.matrix.empty() ? options.matrix : options.generator + "_" + std::to_string(options.n);
  print_json_line(Json{{"bench", "gs"},
                       {"kind", "config"},
                       {"matrix", label},
                       {"num_rows", static_cast<long long>(A.num_rows())},
                       {"nnz", static_cast<long long>(A.nnz())},
                       {"execution_space", Exec::name()},
                       {"threads", Exec().concurrency()},
                       {"cpu", kelp::bench::cpu_model()}});
  auto Aop = std::make_shared<kelp::MatrixOperator<Matrix>>(A);
  Vector b("b", A.num_rows()), x("x", A.num_rows()), z("z", A.num_rows());
  Kokkos::deep_copy(b, 1.0);
  double jacobi_seconds = 0;
  bool jacobi_converged = false;
  for (const auto& name : options.variants) {
    auto M = make(name);
    const bool eisenstat = name == "multicolor_eisenstat";
    using Gs = kelp::precond::GaussSeidel<Matrix>;
    std::vector<double> setup, apply, solve;
    kelp::solvers::CgParams params;
    params.max_iterations = 5000;
    params.relative_tolerance = 1e-8;
    std::unique_ptr<kelp::solvers::EisenstatCg<double>> fused;
    for (int rep = 0; rep < options.repeats; ++rep) {
      Kokkos::fence();
      const auto start = kelp::bench::Clock::now();
      M->setup(A);
      if (eisenstat) {
        fused = std::make_unique<kelp::solvers::EisenstatCg<double>>(A, std::static_pointer_cast<Gs>(M), params);
      }
      Kokkos::fence();
      setup.push_back(kelp::bench::seconds_since(start));
    }
    M->apply(b, z);  // warm-up
    for (int rep = 0; rep < options.repeats; ++rep) {
      Kokkos::fence();
      const auto start = kelp::bench::Clock::now();
      for (int k = 0; k < options.apply_repeats; ++k) M->apply(b, z);
      Kokkos::fence();
      apply.push_back(kelp::bench::seconds_since(start) / options.apply_repeats);
    }
    kelp::solvers::Cg<double> cg(Aop, M, params);
    kelp::solvers::SolveResult result;
    for (int rep = 0; rep < options.repeats + 1; ++rep) {
      Kokkos::fence();
      const auto start = kelp::bench::Clock::now();
      result = eisenstat ? fused->solve(b, x, kelp::InitialGuess::zero) : cg.solve(b, x, kelp::InitialGuess::zero);
      Kokkos::fence();
      if (rep > 0) solve.push_back(kelp::bench::seconds_since(start));  // the first one warms up
    }
    const double t = median(solve);
    if (name == "jacobi") {
      jacobi_seconds = t;
      jacobi_converged = result.converged();
    }
    // Times to solution compare only where both runs reached it.
    const bool comparable = jacobi_seconds > 0 && jacobi_converged && result.converged() && t > 0;
    const auto* gs = dynamic_cast<const kelp::precond::GaussSeidel<Matrix>*>(M.get());
    print_json_line(Json{{"bench", "gs"},
                         {"kind", "variant"},
                         {"matrix", label},
                         {"preconditioner", name},
                         {"summary", eisenstat ? fused->summary() : M->summary()},
                         {"colors", gs ? gs->num_colors() : 0},
                         {"setup_s", number_or_null(median(setup))},
                         {"apply_s", number_or_null(median(apply))},
                         {"converged", result.converged()},
                         {"iterations", result.iterations},
                         {"solve_s", number_or_null(t)},
                         {"seconds_per_iteration", number_or_null(result.iterations > 0 ? t / result.iterations : 0)},
                         {"speedup_vs_jacobi", comparable ? Json(jacobi_seconds / t) : Json(nullptr)}});
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return kelp::bench::bench_main(
      argc, argv, "gs",
      "kelp-bench-gs: Gauss-Seidel variants vs Jacobi as CG preconditioners (apply time, time to solution)",
      [&](CLI::App& app) {
        app.add_option("--generator", options.generator, "laplace3d or laplace2d")
            ->check(CLI::IsMember({"laplace3d", "laplace2d"}))
            ->capture_default_str();
        app.add_option("--n", options.n, "grid points per dimension")->check(CLI::Range(1, 2000))->capture_default_str();
        app.add_option("--matrix", options.matrix, "a Matrix Market file (SPD) instead of the generator");
        app.add_option("--repeats", options.repeats, "timed setups and solves")
            ->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_option("--apply-repeats", options.apply_repeats, "applications per apply sample")
            ->check(CLI::Range(1, 100000))->capture_default_str();
        app.add_option("--variants", options.variants,
                       "jacobi, multicolor, multicolor_eisenstat, multicolor_speculative, cluster, cluster8, "
                       "two_stage_classic, two_stage_compact, kk_symmetric_gs (KELP_ENABLE_PEERS builds)")
            ->delimiter(',')
            ->check(CLI::IsMember({"jacobi", "multicolor", "multicolor_eisenstat", "multicolor_speculative",
#ifdef KELP_HAVE_KOKKOSKERNELS
                                   "kk_symmetric_gs",
#endif
                                   "cluster",
                                   "cluster8", "two_stage_classic", "two_stage_compact"}));
      },
      [&] { return run(options); });
}
