// Standalone copy of the host blocked KPM row loop (R complex vectors, SSE2 pairs), no Kokkos,
// on a TI-like pattern (13 nonzeros a row: the site itself and the x, y, z neighbours of two
// other orbitals of an L x L x L lattice of 4-orbital sites, periodic). Record of issue 12's
// staging and prefetch tries (docs/performance.md); not part of the build.
//   g++ -O3 -std=c++17 -DCH=4 -DPFD=2 kpm_row_loop.cpp -o loop && ./loop L VAR REPEATS
// VAR 0: the committed loop of fe826d1 (each chunk reloads and scales the row's values);
// VAR 1: the row's gathered addresses and scaled values staged once per row.
// PFD > 0: prefetch every line of the V rows that row i + PFD gathers. LOCAL=1 in the
// environment replaces each column by the row itself or its neighbour row (no far gathers).
// Prints the median time of a sweep and Gflop/s (8 flops per complex entry and nonzero, and
// the paper's 138 flops per row and vector).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cstring>
#include <algorithm>
typedef double V2 __attribute__((vector_size(16), aligned(8)));
typedef double V2a __attribute__((vector_size(16)));
struct C { double re, im; };
#ifndef R
#define R 32
#endif
constexpr int D = 2 * R, P = D / 2;
#ifndef PFD
#define PFD 0
#endif
#ifndef PFL
#define PFL 3
#endif
#ifndef CH
#define CH 4
#endif
int n; std::vector<int> rm, ci; std::vector<C> val;
double *Vd, *Wd;
double alpha = 0.15, beta = 0.1, gamma_ = 0.5;
static inline const V2* rowv(long i) { return reinterpret_cast<const V2*>(Vd + i * D); }

// VAR 0: as committed
__attribute__((noinline)) void step0(double* sums) {
  for (long i = 0; i < n; ++i) {
    if (PFD > 0 && i + PFD < n) {
      for (int k = rm[i + PFD]; k < rm[i + PFD + 1]; ++k) {
        const char* q = reinterpret_cast<const char*>(rowv(ci[k]));
        for (int l = 0; l < D * 8; l += 64) __builtin_prefetch(q + l, 0, PFL);
      }
    }
    const V2* v_i = rowv(i);
    V2* w_i = reinterpret_cast<V2*>(Wd + i * D);
    const int begin = rm[i], end = rm[i + 1];
    for (int p0 = 0; p0 < P; p0 += CH) {
      V2 direct[CH];
      for (int p = 0; p < CH; ++p) { direct[p] = beta * v_i[p0 + p]; if (gamma_ != 0.0) direct[p] -= gamma_ * w_i[p0 + p]; }
      V2 crossed[CH] = {};
      for (int k = begin; k < end; ++k) {
        const V2* v_j = rowv(ci[k]) + p0;
        const double a_re = alpha * val[k].re, a_im = alpha * val[k].im;
        for (int p = 0; p < CH; ++p) { direct[p] += a_re * v_j[p]; crossed[p] += a_im * v_j[p]; }
      }
      for (int p = 0; p < CH; ++p) { V2 w; w[0] = direct[p][0] - crossed[p][1]; w[1] = direct[p][1] + crossed[p][0]; w_i[p0 + p] = w; }
    }
    V2* vv = reinterpret_cast<V2*>(sums); V2* wv = vv + P;
    for (int p = 0; p < P; ++p) { vv[p] += v_i[p] * v_i[p]; wv[p] += w_i[p] * v_i[p]; }
  }
}
// VAR 1: per row, stage pointers and broadcast (alpha*a) pairs on the stack once; chunks read them
__attribute__((noinline)) void step1(double* sums) {
  constexpr int MAXNZ = 64;
  const V2* ptr[MAXNZ]; V2a are[MAXNZ], aim[MAXNZ];
  for (long i = 0; i < n; ++i) {
    const V2* v_i = rowv(i);
    V2* w_i = reinterpret_cast<V2*>(Wd + i * D);
    const int begin = rm[i], end = rm[i + 1];
    const int nnz = end - begin;  // assume <= MAXNZ in harness
    if (PFD > 0 && i + PFD < n) {
      for (int k = rm[i + PFD]; k < rm[i + PFD + 1]; ++k) {
        const char* q = reinterpret_cast<const char*>(rowv(ci[k]));
        for (int l = 0; l < D * 8; l += 64) __builtin_prefetch(q + l, 0, PFL);
      }
    }
    for (int k = 0; k < nnz; ++k) {
      ptr[k] = rowv(ci[begin + k]);
      const double r = alpha * val[begin + k].re, m = alpha * val[begin + k].im;
      are[k] = V2a{r, r}; aim[k] = V2a{m, m};
    }
    for (int p0 = 0; p0 < P; p0 += CH) {
      V2 direct[CH];
      for (int p = 0; p < CH; ++p) { direct[p] = beta * v_i[p0 + p]; if (gamma_ != 0.0) direct[p] -= gamma_ * w_i[p0 + p]; }
      V2 crossed[CH] = {};
      for (int k = 0; k < nnz; ++k) {
        const V2* v_j = ptr[k] + p0;
        const V2a a_re = are[k], a_im = aim[k];
        for (int p = 0; p < CH; ++p) { direct[p] += a_re * v_j[p]; crossed[p] += a_im * v_j[p]; }
      }
      for (int p = 0; p < CH; ++p) { V2 w; w[0] = direct[p][0] - crossed[p][1]; w[1] = direct[p][1] + crossed[p][0]; w_i[p0 + p] = w; }
    }
    V2* vv = reinterpret_cast<V2*>(sums); V2* wv = vv + P;
    for (int p = 0; p < P; ++p) { vv[p] += v_i[p] * v_i[p]; wv[p] += w_i[p] * v_i[p]; }
  }
}
int main(int argc, char** argv) {
  int L = argc > 1 ? atoi(argv[1]) : 40; int var = argc > 2 ? atoi(argv[2]) : 0; int reps = argc > 3 ? atoi(argv[3]) : 10;
  n = L * L * L * 4; rm.assign(n + 1, 0);
  auto id = [&](int x, int y, int z, int o) { x = (x + L) % L; y = (y + L) % L; z = (z + L) % L; return ((z * L + y) * L + x) * 4 + o; };
  for (int z = 0; z < L; ++z) for (int y = 0; y < L; ++y) for (int x = 0; x < L; ++x) for (int o = 0; o < 4; ++o) {
    std::vector<int> cols;
    cols.push_back(id(x, y, z, o)); // diag
    int o2 = o ^ 1; cols.push_back(id(x - 1, y, z, o2)); cols.push_back(id(x + 1, y, z, o2)); cols.push_back(id(x, y - 1, z, o2)); cols.push_back(id(x, y + 1, z, o2));
    cols.push_back(id(x, y, z - 1, o2)); cols.push_back(id(x, y, z + 1, o2));
    int o3 = o ^ 2; cols.push_back(id(x - 1, y, z, o3)); cols.push_back(id(x + 1, y, z, o3)); cols.push_back(id(x, y - 1, z, o3)); cols.push_back(id(x, y + 1, z, o3));
    cols.push_back(id(x, y, z - 1, o3)); cols.push_back(id(x, y, z + 1, o3));
    if (getenv("LOCAL")) for (auto& c : cols) c = id(x, y, z, o) ^ (c & 1);
    std::sort(cols.begin(), cols.end());
    for (int c : cols) { ci.push_back(c); val.push_back({0.1 * (c % 7) - 0.3, 0.05 * (c % 5) - 0.1}); }
    rm[id(x, y, z, o) + 1] = ci.size();
  }
  Vd = (double*)aligned_alloc(64, sizeof(double) * D * (size_t)n); Wd = (double*)aligned_alloc(64, sizeof(double) * D * (size_t)n);
  for (size_t j = 0; j < (size_t)D * n; ++j) { Vd[j] = ((j * 2654435761u) % 1000) * 1e-3 - 0.5; Wd[j] = ((j * 40503u) % 1000) * 1e-3 - 0.5; }
  std::vector<double> sums(2 * D, 0.0);
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    if (var == 0) step0(sums.data()); else step1(sums.data());
    std::swap(Vd, Wd);
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  std::sort(times.begin(), times.end());
  double t = times[times.size() / 2];
  double nnz = ci.size();
  double flops = (8.0 * nnz + 34.0 * 0 + 0) * R;  // count matvec flops only: 8 per complex entry-nz
  double flops_model = 138.0 / 13.0 * nnz * R;
  printf("L=%d R=%d CH=%d var=%d: %.3e s, %.2f Gflop/s (matvec), %.2f (model 138/row) checksum %.6e\n", L, R, CH, var, t, flops / t * 1e-9, flops_model / t * 1e-9, sums[0] + sums[D + 3]);
}
