// Exploration microbenchmark (not part of Kelp): variants of the blocked augmented KPM step on a
// TI-like lattice (4 orbitals per site, ~13 nonzeros per row), model bytes as kelp-bench-kpm.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("cuda %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(1);} } while (0)

template <bool LDG> __device__ __forceinline__ double2 ld(const double2* p) { if (LDG) return __ldg(p); return *p; }

template <int R, int U, bool LDG, bool SHFL, bool STRIDE = false, bool CS = false, int MINB = 1>
__global__ void __launch_bounds__(256, MINB) step(long long n, const long long* __restrict__ rp, const int* __restrict__ ci,
    const double2* __restrict__ va, const double2* __restrict__ V, double2* __restrict__ W, double alpha, double beta,
    double gamma, double* partials, long long rows_per_block) {
  const int lane = threadIdx.x % R;
  const int sub = threadIdx.x / R;
  constexpr int subs = 256 / R;
  const long long first = STRIDE ? (long long)blockIdx.x * subs : blockIdx.x * rows_per_block;
  const long long last = STRIDE ? n : min(n, first + rows_per_block);
  const long long step_rows = STRIDE ? (long long)gridDim.x * subs : subs;
  double vv = 0, wv = 0;
  for (long long i = first + sub; i < last; i += step_rows) {
    const long long b = rp[i], e = rp[i + 1];
    const double2 vi = ld<LDG>(V + i * R + lane);
    const double2 wi = CS ? __ldcs(W + i * R + lane) : W[i * R + lane];
    double hr[U], hi[U];
#pragma unroll
    for (int u = 0; u < U; ++u) hr[u] = hi[u] = 0;
    if (!SHFL) {
      long long k = b;
      for (; k + U <= e; k += U) {
        int j[U]; double2 a[U], x[U];
#pragma unroll
        for (int u = 0; u < U; ++u) { j[u] = CS ? __ldcs(ci + k + u) : ci[k + u]; a[u] = CS ? __ldcs(va + k + u) : va[k + u]; }
#pragma unroll
        for (int u = 0; u < U; ++u) x[u] = ld<LDG>(V + (long long)j[u] * R + lane);
#pragma unroll
        for (int u = 0; u < U; ++u) { hr[u] += a[u].x * x[u].x - a[u].y * x[u].y; hi[u] += a[u].x * x[u].y + a[u].y * x[u].x; }
      }
      for (; k < e; ++k) { const int j = CS ? __ldcs(ci + k) : ci[k]; const double2 a = CS ? __ldcs(va + k) : va[k]; const double2 x = ld<LDG>(V + (long long)j * R + lane);
        hr[0] += a.x * x.x - a.y * x.y; hi[0] += a.x * x.y + a.y * x.x; }
    } else {
      const unsigned mask = 0xffffffffu;
      for (long long c0 = b; c0 < e; c0 += R) {
        const int cnt = (int)min((long long)R, e - c0);
        int myj = 0; double2 mya = make_double2(0, 0);
        if (lane < cnt) { myj = ci[c0 + lane]; mya = va[c0 + lane]; }
        int u0 = 0;
        for (; u0 + U <= cnt; u0 += U) {
          int j[U]; double2 a[U], x[U];
#pragma unroll
          for (int u = 0; u < U; ++u) { j[u] = __shfl_sync(mask, myj, u0 + u, R); a[u].x = __shfl_sync(mask, mya.x, u0 + u, R); a[u].y = __shfl_sync(mask, mya.y, u0 + u, R); }
#pragma unroll
          for (int u = 0; u < U; ++u) x[u] = ld<LDG>(V + (long long)j[u] * R + lane);
#pragma unroll
          for (int u = 0; u < U; ++u) { hr[u] += a[u].x * x[u].x - a[u].y * x[u].y; hi[u] += a[u].x * x[u].y + a[u].y * x[u].x; }
        }
        for (; u0 < cnt; ++u0) { const int j = __shfl_sync(mask, myj, u0, R); double2 a; a.x = __shfl_sync(mask, mya.x, u0, R); a.y = __shfl_sync(mask, mya.y, u0, R);
          const double2 x = ld<LDG>(V + (long long)j * R + lane); hr[0] += a.x * x.x - a.y * x.y; hi[0] += a.x * x.y + a.y * x.x; }
      }
    }
    double sr = 0, si = 0;
#pragma unroll
    for (int u = 0; u < U; ++u) { sr += hr[u]; si += hi[u]; }
    double2 w;
    w.x = alpha * sr + beta * vi.x - gamma * wi.x;
    w.y = alpha * si + beta * vi.y - gamma * wi.y;
    if (CS) __stcs(W + i * R + lane, w); else W[i * R + lane] = w;
    vv += vi.x * vi.x + vi.y * vi.y;
    wv += w.x * vi.x + w.y * vi.y;
  }
  __shared__ double red[2][256];
  red[0][threadIdx.x] = vv; red[1][threadIdx.x] = wv;
  __syncthreads();
  if (threadIdx.x < R) {
    double a = 0, c = 0;
    for (int s = 0; s < subs; ++s) { a += red[0][s * R + threadIdx.x]; c += red[1][s * R + threadIdx.x]; }
    partials[(long long)blockIdx.x * 2 * R + threadIdx.x] = a;
    partials[(long long)blockIdx.x * 2 * R + R + threadIdx.x] = c;
  }
}

__global__ void triad(long long n, double* a, const double* b, const double* c, double s) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) a[i] = b[i] + s * c[i];
}

struct Mat { long long n, nnz; long long* rp; int* ci; double2* va; };

// TI-like: site (x,y,z), orbital a; diag + for each of 6 neighbours two orbitals (a, a^1);
// periodic in x, y; open in z. Columns sorted.
Mat make(int nx, int ny, int nz, bool shuffle_rows) {
  const long long sites = (long long)nx * ny * nz, n = 4 * sites;
  std::vector<long long> rp(n + 1, 0); std::vector<int> ci; std::vector<double2> va; ci.reserve(13 * n); va.reserve(13 * n);
  std::mt19937 g(1); std::uniform_real_distribution<double> d(-1, 1);
  for (int z = 0; z < nz; ++z) for (int y = 0; y < ny; ++y) for (int x = 0; x < nx; ++x) for (int a = 0; a < 4; ++a) {
    const long long s = x + (long long)nx * (y + (long long)ny * z), row = 4 * s + a;
    std::vector<int> cols; cols.push_back((int)row);
    long long nb[6] = { ((x + 1) % nx) + (long long)nx * (y + (long long)ny * z), ((x + nx - 1) % nx) + (long long)nx * (y + (long long)ny * z),
                        x + (long long)nx * (((y + 1) % ny) + (long long)ny * z), x + (long long)nx * (((y + ny - 1) % ny) + (long long)ny * z),
                        z + 1 < nz ? s + (long long)nx * ny : -1, z > 0 ? s - (long long)nx * ny : -1 };
    for (int q = 0; q < 6; ++q) if (nb[q] >= 0) { cols.push_back((int)(4 * nb[q] + a)); cols.push_back((int)(4 * nb[q] + (a ^ 1))); }
    std::sort(cols.begin(), cols.end());
    for (int c : cols) { ci.push_back(c); va.push_back(make_double2(d(g) * 0.1, d(g) * 0.1)); }
    rp[row + 1] = ci.size();
  }
  (void)shuffle_rows;
  Mat m; m.n = n; m.nnz = ci.size();
  CK(cudaMalloc(&m.rp, sizeof(long long) * (n + 1))); CK(cudaMalloc(&m.ci, sizeof(int) * m.nnz)); CK(cudaMalloc(&m.va, sizeof(double2) * m.nnz));
  CK(cudaMemcpy(m.rp, rp.data(), sizeof(long long) * (n + 1), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(m.ci, ci.data(), sizeof(int) * m.nnz, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(m.va, va.data(), sizeof(double2) * m.nnz, cudaMemcpyHostToDevice));
  return m;
}

static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
static double g_triad = 0;

template <int R, int U, bool LDG, bool SHFL, bool STRIDE = false, bool CS = false, int MINB = 1>
void run(const Mat& m, const char* name, double2* V, double2* W, double* partials, int waves = 8) {
  auto k = step<R, U, LDG, SHFL, STRIDE, CS, MINB>;
  cudaFuncAttributes at; CK(cudaFuncGetAttributes(&at, k));
  int per_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 256, 0));
  int sms = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  constexpr int subs = 256 / R;
  const long long passes = (m.n + subs - 1) / subs;
  const long long grid = std::min<long long>(passes, (long long)waves * sms * per_sm);
  const long long rpb = ((passes + grid - 1) / grid) * subs;
  const long long blocks = STRIDE ? grid : (m.n + rpb - 1) / rpb;
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<double> t;
  for (int rep = 0; rep < 25; ++rep) {
    cudaEventRecord(a);
    for (int it = 0; it < 10; ++it) k<<<blocks, 256>>>(m.n, m.rp, m.ci, m.va, (it & 1) ? W : V, (it & 1) ? V : W, 1.0, 0.1, 1.0, partials, rpb);
    cudaEventRecord(b); CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms / 1e3 / 10);
  }
  CK(cudaGetLastError());
  const double s = median(t);
  const double bytes = (m.nnz * 20.0 + 8.0 * m.n) + 48.0 * m.n * R;  // per product of the block
  const double flops = (m.nnz * 8.0 + m.n * (7.0 + 27.0)) * R;
  const double bmin = (260.0 / R + 48.0) / 138.0;
  printf("{\"cs\":%d,\"minb\":%d,\"waves\":%d,\"stride\":%d,\"variant\":\"%s\",\"R\":%d,\"U\":%d,\"ldg\":%d,\"shfl\":%d,\"regs\":%d,\"blocks_per_sm\":%d,\"s_per_vec\":%.4g,\"gbs\":%.1f,\"frac_of_roof\":%.3f}\n",
         (int)CS, MINB, waves, (int)STRIDE, name, R, U, (int)LDG, (int)SHFL, at.numRegs, per_sm, s / R, bytes / s / 1e9, flops / s / 1e9 / (g_triad / bmin));
}

template <int R>
void all(const Mat& m, double2* V, double2* W, double* partials) {
  for (int rep = 0; rep < 2; ++rep) {
    run<R, 1, false, false>(m, "base", V, W, partials);
    run<R, 1, false, false, false, true>(m, "base_cs", V, W, partials);
    run<R, 1, false, false, false, true, 5>(m, "base_cs_minb5", V, W, partials);
    run<R, 1, false, false, false, false, 5>(m, "base_minb5", V, W, partials);
    run<R, 1, false, false, true>(m, "stride8", V, W, partials, 8);
    run<R, 1, false, false, true, true>(m, "stride8_cs", V, W, partials, 8);
    run<R, 1, false, false, true, true>(m, "stride1_cs", V, W, partials, 1);
  }
}

int main(int argc, char** argv) {
  const int nx = argc > 1 ? atoi(argv[1]) : 100, ny = argc > 2 ? atoi(argv[2]) : 100, nz = argc > 3 ? atoi(argv[3]) : 25;
  {  // triad, 1 GiB arrays
    const long long N = 128LL << 20; double *a, *b, *c; CK(cudaMalloc(&a, 8 * N)); CK(cudaMalloc(&b, 8 * N)); CK(cudaMalloc(&c, 8 * N));
    cudaMemset(b, 0, 8 * N); cudaMemset(c, 0, 8 * N);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1); std::vector<double> t;
    for (int r = 0; r < 12; ++r) { cudaEventRecord(e0); triad<<<132 * 16, 256>>>(N, a, b, c, 1.5); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms / 1e3); }
    g_triad = 24.0 * N / median(t) / 1e9; printf("{\"triad_gbs\":%.1f}\n", g_triad); cudaFree(a); cudaFree(b); cudaFree(c);
  }
  Mat m = make(nx, ny, nz, false);
  printf("{\"n\":%lld,\"nnz\":%lld}\n", m.n, m.nnz);
  double2 *V, *W; double* partials;
  CK(cudaMalloc(&V, sizeof(double2) * m.n * 32)); CK(cudaMalloc(&W, sizeof(double2) * m.n * 32)); CK(cudaMalloc(&partials, 8 * 64 * 100000));
  CK(cudaMemset(V, 0, sizeof(double2) * m.n * 32)); CK(cudaMemset(W, 0, sizeof(double2) * m.n * 32));
  const char* only = getenv("MB_R");
  if (only && atoi(only) == 32) { all<32>(m, V, W, partials); return 0; }
  if (only && atoi(only) == 1) { all<1>(m, V, W, partials); return 0; }
  all<1>(m, V, W, partials); all<2>(m, V, W, partials); all<4>(m, V, W, partials); all<8>(m, V, W, partials); all<16>(m, V, W, partials); all<32>(m, V, W, partials);
  return 0;
}
