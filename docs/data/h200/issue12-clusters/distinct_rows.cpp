// Scratch: how many distinct V rows an aligned block of S rows gathers, per gather, for orders.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>
#include <unordered_set>
#include "kelp/kernels/generators/hamiltonians.hpp"
#include "kelp/kernels/graph/locality_order.hpp"
using C = Kokkos::complex<double>;
template <class M>
void report(const char* name, const M& H, std::vector<std::int64_t> order, std::int64_t S, std::int64_t W) {
  std::int64_t n = H.num_rows();
  std::vector<std::int64_t> new_of_old(n);
  if (order.empty()) { order.resize(n); for (std::int64_t i = 0; i < n; ++i) order[i] = i; }
  for (std::int64_t i = 0; i < n; ++i) new_of_old[order[i]] = i;
  auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.row_map());
  auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.entries());
  std::vector<int> stamp(n, -1), wstamp(n, -1);
  double uniq = 0, g = 0, wuniq = 0; long long blk = 0, win = 0;
  for (std::int64_t b = 0; b * S < n; ++b, ++blk) {
    for (std::int64_t i = b * S; i < std::min(n, (b + 1) * S); ++i) {
      std::int64_t old = order[i];
      for (auto k = rm(old); k < rm(old + 1); ++k) {
        std::int64_t j = new_of_old[en(k)]; ++g;
        if (stamp[j] != b) { stamp[j] = b; ++uniq; }
        std::int64_t w = i / W;
        if (wstamp[j] != w) { wstamp[j] = w; ++wuniq; }
      }
    }
  }
  std::printf("%-28s S=%lld: distinct/gather %.3f (L1 hit bound %.3f); window %lld: distinct rows / n per product %.3f\n",
              name, (long long)S, uniq / g, 1 - uniq / g, (long long)W, wuniq / n);
}
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    kelp::generators::TopologicalInsulatorParams p; p.nx = p.ny = 100; p.nz = 25; p.disorder = 1.0;
    auto H = kelp::generators::topological_insulator<C>(p);
    std::int64_t S = argc > 1 ? atoll(argv[1]) : 32, W = argc > 2 ? atoll(argv[2]) : 8448;
    auto rm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.row_map());
    auto en = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), H.entries());
    report("natural", H, {}, S, W);
    for (long long part : {32768LL, 8192LL}) {
      report("locality part", H, kelp::kernels::locality_order(H.num_rows(), rm, en, part), S, W);
      for (long long c : {32LL, 64LL, 128LL}) {
        char nm[64]; std::snprintf(nm, 64, "part %lld cluster %lld", part, c);
        report(nm, H, kelp::kernels::locality_order(H.num_rows(), rm, en, part, c), S, W);
      }
    }
    report("locality part=32", H, kelp::kernels::locality_order(H.num_rows(), rm, en, 32), S, W);
  }
  Kokkos::finalize();
}
