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
// Built with KELP_ENABLE_PEERS (KELP_HAVE_KOKKOSKERNELS: Debian's Serial Kokkos), the same
// graphs also go through Kokkos Kernels' graph_color (default and VBBIT, EB), graph_color_distance2
// (default, NB_BIT) and graph_d2_mis (MIS2_FAST, MIS2_QUALITY): kernels "kk_..." with the same
// fields ("peer" names the Trilinos version); their outcome goes through Kelp's checkers too.
//
// Usage: kelp-bench-graph [--generator laplace3d|laplace3d_27pt|laplace2d] [--n 100]
//                         [--repeats 11] [--matrices]
//                         [--kernels d1,d1_deterministic,d1_edge_based,d2,d2_net_based,mis2,aggregate,
//                                    aggregate_one_pass (MIS-2 aggregation without the second pass),
//                                    kk_d1,kk_d1_vbbit,kk_d1_eb,kk_d2,kk_d2_nb,kk_mis2,kk_mis2_quality]
// (the kk_ kernels run only in a KELP_ENABLE_PEERS build)

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "kelp/apps/bench/bench_common.hpp"
#include "kelp/apps/bench/bench_main.hpp"
#include "kelp/apps/bench/triad.hpp"
#include "kelp/kernels/generators/generators.hpp"
#include "kelp/kernels/graph.hpp"
#include "kelp/kernels/io/matrix_market.hpp"

#if defined(KELP_HAVE_KOKKOSKERNELS)
#include <KokkosGraph_Distance1Color.hpp>
#include <KokkosGraph_Distance2Color.hpp>
#include <KokkosGraph_MIS2.hpp>
#include <KokkosKernels_Handle.hpp>
#include <Trilinos_version.h>
#endif

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
  std::vector<std::string> kernels = {"d1",    "d1_deterministic", "d1_edge_based", "d2",   "d2_net_based",
                                      "mis2",  "aggregate",        "kk_d1",         "kk_d1_vbbit", "kk_d1_eb",
                                      "kk_d2", "kk_d2_nb",         "kk_mis2",       "kk_mis2_quality"};
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
  for (const std::string variant : {"aggregate", "aggregate_one_pass"}) {
    if (!wants(variant)) continue;
    k::Mis2AggregateParams params;
    params.second_pass = variant == "aggregate";
    measure(options, graph_name, g, variant, "aggregates", [&](bool check) {
      const auto a = k::mis2_aggregate(g, params);
      return Outcome{a.num_aggregates, 0,
                     check && k::is_valid_aggregation(g, a.aggregates, a.num_aggregates).valid};
    });
  }
}

#if defined(KELP_HAVE_KOKKOSKERNELS)
using Memory = kelp::DefaultDevice::memory_space;
using PeerHandle = KokkosKernels::Experimental::KokkosKernelsHandle<kelp::Offset, kelp::Ordinal, double, Exec,
                                                                   Memory, Memory>;

/// Kokkos Kernels' 1-based colors as Kelp's 0-based ones (for the checkers).
template <class Colors>
Kokkos::View<kelp::Ordinal*> zero_based(const Colors& colors) {
  Kokkos::View<kelp::Ordinal*> out("colors", colors.extent(0));
  Kokkos::parallel_for(
      "graph_bench::zero_based", Kokkos::RangePolicy<Exec>(0, static_cast<kelp::Ordinal>(colors.extent(0))),
      KOKKOS_LAMBDA(const kelp::Ordinal v) { out(v) = colors(v) - 1; });
  return out;
}

/// The Kokkos Kernels peer on the same graph (kernels kk_d1, kk_d1_vbbit, kk_d1_eb, kk_d2,
/// kk_d2_nb, kk_mis2, kk_mis2_quality; a call includes the handle's creation).
void run_peer(const Options& options, const std::string& graph_name, const Graph& g) {
  namespace k = kelp::kernels;
  const auto wants = [&](const std::string& name) {
    return std::find(options.kernels.begin(), options.kernels.end(), name) != options.kernels.end();
  };
  const kelp::Ordinal n = g.num_rows();
  const auto row_map = g.row_map();
  const auto entries = g.entries();
  const std::pair<const char*, KokkosGraph::ColoringAlgorithm> d1_variants[] = {
      {"kk_d1", KokkosGraph::COLORING_DEFAULT}, {"kk_d1_vbbit", KokkosGraph::COLORING_VBBIT},
      {"kk_d1_eb", KokkosGraph::COLORING_EB}};
  for (const auto& [name, algorithm] : d1_variants) {
    if (!wants(name)) continue;
    measure(options, graph_name, g, name, "colors", [&, algorithm = algorithm](bool check) {
      PeerHandle handle;
      handle.create_graph_coloring_handle(algorithm);
      KokkosGraph::Experimental::graph_color(&handle, n, n, row_map, entries);
      auto* coloring = handle.get_graph_coloring_handle();
      const Outcome outcome{coloring->get_num_colors(), coloring->get_num_phases(),
                            check && k::is_valid_coloring_distance1(g, zero_based(coloring->get_vertex_colors())).valid};
      handle.destroy_graph_coloring_handle();
      return outcome;
    });
  }
  const std::pair<const char*, KokkosGraph::GraphColoringAlgorithmDistance2> d2_variants[] = {
      {"kk_d2", KokkosGraph::COLORING_D2_DEFAULT}, {"kk_d2_nb", KokkosGraph::COLORING_D2_NB_BIT}};
  for (const auto& [name, algorithm] : d2_variants) {
    if (!wants(name)) continue;
    measure(options, graph_name, g, name, "colors", [&, algorithm = algorithm](bool check) {
      PeerHandle handle;
      handle.create_distance2_graph_coloring_handle(algorithm);
      KokkosGraph::Experimental::graph_color_distance2(&handle, n, row_map, entries);
      auto* coloring = handle.get_distance2_graph_coloring_handle();
      const Outcome outcome{coloring->get_num_colors(), coloring->get_num_phases(),
                            check && k::is_valid_coloring_distance2(g, zero_based(coloring->get_vertex_colors())).valid};
      handle.destroy_distance2_graph_coloring_handle();
      return outcome;
    });
  }
  const std::pair<const char*, KokkosGraph::MIS2_Algorithm> mis2_variants[] = {
      {"kk_mis2", KokkosGraph::MIS2_FAST}, {"kk_mis2_quality", KokkosGraph::MIS2_QUALITY}};
  for (const auto& [name, algorithm] : mis2_variants) {
    if (!wants(name)) continue;
    measure(options, graph_name, g, name, "set_size", [&, algorithm = algorithm](bool check) {
      const auto set = KokkosGraph::Experimental::graph_d2_mis<kelp::DefaultDevice>(row_map, entries, algorithm);
      Kokkos::View<kelp::Ordinal*> vertices("vertices", set.extent(0));
      Kokkos::deep_copy(vertices, set);
      return Outcome{static_cast<long long>(set.extent(0)), 0, check && k::is_mis2(g, vertices).valid};
    });
  }
}
#endif

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
#if defined(KELP_HAVE_KOKKOSKERNELS)
  print_json_line(Json{{"bench", "graph"}, {"kind", "peer"},
                       {"peer", std::string("KokkosKernels (Trilinos ") + TRILINOS_VERSION_STRING + ")"}});
  const auto run_both = [&](const std::string& name, const Graph& g) {
    run_graph(options, name, g);
    run_peer(options, name, g);
  };
#else
  const auto run_both = [&](const std::string& name, const Graph& g) { run_graph(options, name, g); };
#endif
  run_both(options.generator + "_" + std::to_string(options.n), generate(options.generator, options.n));
  if (options.matrices) {
    for (const char* name : {"wing", "astro-ph", "PGPgiantcompo", "bcsstk13", "wiki-Vote"}) {
      const std::string path = options.matrices_dir + "/" + name + ".mtx.gz";
      run_both(name, read_graph(path));
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
            ->check(CLI::IsMember({"d1", "d1_deterministic", "d1_edge_based", "d2", "d2_net_based", "mis2",
                                   "aggregate", "aggregate_one_pass", "kk_d1", "kk_d1_vbbit", "kk_d1_eb", "kk_d2", "kk_d2_nb",
                                   "kk_mis2", "kk_mis2_quality"}))
            ->capture_default_str();
      },
      [&] { return run(options); });
}
