// kelp-bench-graph: time and quality of the graph kernels (distance-1 coloring, speculative and
// deterministic and edge-based; distance-2 coloring, vertex- and net-based; MIS-2; MIS-2 aggregation) on a generated Laplacian and,
// optionally, the repository's real matrices (symmetrized pattern).
//
// JSON lines (apps/bench/bench_common.hpp):
//   {"kind":"triad", ...}    the STREAM triad of the same run (context for the bandwidth below)
//   {"kind":"config", ...}   threads, execution space, CPU, repeats
//   {"kind":"graph", ...}    one per graph: vertices, stored edges, max degree
//   {"kind":"result", ...}   one per kernel and graph: median and min wall ms over the repeats
//                            (each a whole call, allocation and input check included), median
//                            process CPU ms (all threads; steadier on a shared machine), colors / set size / aggregates,
//                            rounds, whether the checker accepted the result, and the adjacency
//                            bandwidth: (8 (n + 1) + 4 nnz) bytes / median time, the bytes of one
//                            pass over the graph (the kernels make several).
// The Kokkos Kernels peer is not run by this benchmark (see docs/performance.md, issue 9).
//
// Usage: kelp-bench-graph [--generator laplace3d|laplace3d_27pt|laplace2d] [--n 100]
//                         [--repeats 11] [--matrices]
//                         [--kernels d1,d1_deterministic,d1_edge_based,d2,d2_net_based,mis2,aggregate]

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/graph.hpp"
#include "kelp/kernels/io/matrix_market.hpp"

namespace {

using kelp::bench::Json;
using kelp::bench::median;
using kelp::bench::minimum;
using kelp::bench::number_or_null;
using kelp::bench::print_json_line;
using Exec = kelp::DefaultExecutionSpace;
using Graph = kelp::kernels::Graph<>;

struct Options {
  std::string generator = "laplace3d";
  int n = 100;
  int repeats = 11;
  bool matrices = false;
  std::string matrices_dir = KELP_BENCH_DEFAULT_MATRICES_DIR;
  std::vector<std::string> kernels = {"d1", "d1_deterministic", "d1_edge_based", "d2", "d2_net_based", "mis2", "aggregate"};
};

Graph generate(const std::string& generator, long long n) {
  if (generator == "laplace3d") return kelp::generators::laplace3d<double>(n, n, n).graph();
  if (generator == "laplace3d_27pt") return kelp::generators::laplace3d_27pt<double>(n, n, n).graph();
  return kelp::generators::laplace2d<double>(n, n).graph();
}

/// The symmetrized pattern of a square Matrix Market file.
Graph read_graph(const std::string& path) {
  const auto coo = kelp::io::read_matrix_market_coo(path);
  const kelp::Ordinal n = static_cast<kelp::Ordinal>(coo.info.num_rows);
  Graph::row_map_type row_map("row_map", n + 1);
  auto row_map_h = Kokkos::create_mirror_view(row_map);
  for (const auto r : coo.rows) ++row_map_h(r + 1);
  for (kelp::Ordinal i = 0; i < n; ++i) row_map_h(i + 1) += row_map_h(i);
  Graph::entries_type entries("entries", coo.rows.size());
  auto entries_h = Kokkos::create_mirror_view(entries);
  std::vector<kelp::Offset> cursor(row_map_h.data(), row_map_h.data() + n);
  for (std::size_t k = 0; k < coo.rows.size(); ++k) entries_h(cursor[coo.rows[k]]++) = static_cast<kelp::Ordinal>(coo.cols[k]);
  Kokkos::deep_copy(row_map, row_map_h);
  Kokkos::deep_copy(entries, entries_h);
  return kelp::kernels::symmetrize(Graph(n, n, row_map, entries));
}

struct Outcome {
  long long quality = 0;  // colors, set size or aggregates
  int rounds = 0;
  bool valid = false;
};

/// Runs `kernel` once untimed (its outcome is checked), then `repeats` timed calls.
template <class Kernel>
void measure(const Options& options, const std::string& graph_name, const Graph& g,
             const std::string& name, const std::string& quality_name, const Kernel& kernel) {
  const Outcome outcome = kernel(true);
  std::vector<double> seconds, cpu_samples;
  for (int r = 0; r < options.repeats; ++r) {
    Kokkos::fence();
    const double cpu_start = kelp::bench::cpu_seconds();
    const auto start = kelp::bench::Clock::now();
    (void)kernel(false);
    Kokkos::fence();
    seconds.push_back(kelp::bench::seconds_since(start));
    cpu_samples.push_back(kelp::bench::cpu_seconds() - cpu_start);
  }
  const double bytes = 8.0 * (g.num_rows() + 1) + 4.0 * static_cast<double>(g.nnz());
  print_json_line(Json{{"bench", "graph"},
                       {"kind", "result"},
                       {"graph", graph_name},
                       {"kernel", name},
                       {"median_ms", number_or_null(1e3 * median(seconds))},
                       {"min_ms", number_or_null(1e3 * minimum(seconds))},
                       {"median_cpu_ms", number_or_null(1e3 * median(cpu_samples))},
                       {quality_name, outcome.quality},
                       {"rounds", outcome.rounds},
                       {"valid", outcome.valid},
                       {"adjacency_gbytes_per_s", number_or_null(bytes / median(seconds) / 1e9)}});
}

void run_graph(const Options& options, const std::string& graph_name, const Graph& g) {
  namespace k = kelp::kernels;
  auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g.row_map());
  long long max_degree = 0;
  for (kelp::Ordinal i = 0; i < g.num_rows(); ++i) max_degree = std::max<long long>(max_degree, row_map(i + 1) - row_map(i));
  print_json_line(Json{{"bench", "graph"}, {"kind", "graph"}, {"graph", graph_name},
                       {"num_vertices", g.num_rows()}, {"nnz", static_cast<long long>(g.nnz())},
                       {"max_degree", max_degree}});
  const auto wants = [&](const std::string& name) {
    return std::find(options.kernels.begin(), options.kernels.end(), name) != options.kernels.end();
  };
  for (const std::string variant : {"d1", "d1_deterministic", "d1_edge_based"}) {
    if (!wants(variant)) continue;
    k::Color1Params params;
    params.algorithm = variant == "d1"                 ? k::Color1Algorithm::speculative
                       : variant == "d1_deterministic" ? k::Color1Algorithm::deterministic
                                                       : k::Color1Algorithm::edge_based;
    measure(options, graph_name, g, variant, "colors", [&](bool check) {
      const auto c = k::color_distance1(g, params);
      return Outcome{c.num_colors, c.rounds, check && k::is_valid_coloring_distance1(g, c.colors).valid};
    });
  }
  for (const std::string variant : {"d2", "d2_net_based"}) {
    if (!wants(variant)) continue;
    const k::Color2Params params{variant == "d2" ? k::Color2Algorithm::vertex_based : k::Color2Algorithm::net_based};
    measure(options, graph_name, g, variant, "colors", [&](bool check) {
      const auto c = k::color_distance2(g, params);
      return Outcome{c.num_colors, c.rounds, check && k::is_valid_coloring_distance2(g, c.colors).valid};
    });
  }
  if (wants("mis2")) {
    measure(options, graph_name, g, "mis2", "set_size", [&](bool check) {
      const auto s = k::mis2(g);
      return Outcome{s.size, s.rounds, check && k::is_mis2(g, s.vertices).valid};
    });
  }
  if (wants("aggregate")) {
    measure(options, graph_name, g, "aggregate", "aggregates", [&](bool check) {
      const auto a = k::mis2_aggregate(g);
      return Outcome{a.num_aggregates, 0,
                     check && k::is_valid_aggregation(g, a.aggregates, a.num_aggregates).valid};
    });
  }
}

int run(const Options& options) {
  (void)kelp::bench::measure_triad("graph", 0, 10);
  print_json_line(Json{{"bench", "graph"},
                       {"kind", "config"},
                       {"generator", options.generator},
                       {"n", options.n},
                       {"repeats", options.repeats},
                       {"execution_space", Exec::name()},
                       {"threads", Exec().concurrency()},
                       {"cpu", kelp::bench::cpu_model()}});
  run_graph(options, options.generator + "_" + std::to_string(options.n), generate(options.generator, options.n));
  if (options.matrices) {
    for (const char* name : {"wing", "astro-ph", "PGPgiantcompo", "bcsstk13", "wiki-Vote"}) {
      const std::string path = options.matrices_dir + "/" + name + ".mtx.gz";
      run_graph(options, name, read_graph(path));
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  return kelp::bench::bench_main(
      argc, argv, "graph",
      "kelp-bench-graph: coloring, MIS-2 and aggregation time and quality",
      [&](CLI::App& app) {
        app.add_option("--generator", options.generator, "laplace3d, laplace3d_27pt or laplace2d")
            ->check(CLI::IsMember({"laplace3d", "laplace3d_27pt", "laplace2d"}))
            ->capture_default_str();
        app.add_option("--n", options.n, "grid points per dimension")->check(CLI::Range(1, 2000))->capture_default_str();
        app.add_option("--repeats", options.repeats, "timed calls per kernel")->check(CLI::Range(1, 1000))->capture_default_str();
        app.add_flag("--matrices", options.matrices, "also run five real matrices (symmetrized pattern)");
        app.add_option("--matrices-dir", options.matrices_dir, "folder of the .mtx.gz files")->capture_default_str();
        app.add_option("--kernels", options.kernels, "kernels to run")
            ->delimiter(',')
            ->check(CLI::IsMember({"d1", "d1_deterministic", "d1_edge_based", "d2", "d2_net_based", "mis2", "aggregate"}))
            ->capture_default_str();
      },
      [&] { return run(options); });
}
