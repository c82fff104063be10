#!/usr/bin/env python3
"""scipy LOBPCG peer of kelp-bench-lobpcg: the 5 smallest eigenpairs of the 7-point n^3
Dirichlet Laplacian to 1e-6 (absolute), from random starts (seeds 1..SEEDS), without a
preconditioner ("none") or with the degree-D Chebyshev polynomial on [lmax/1000, lmax], lmax the
Gershgorin bound ("chebD"; the same polynomial the peer harness's lobpcg_bench.py applies).
usage: scipy_lobpcg.py N PRECS SEEDS      e.g. scipy_lobpcg.py 64 cheb8,none 3"""
import json, sys, time
import numpy as np, scipy, scipy.sparse as sp, scipy.sparse.linalg as sla


def laplace3d(n):
    T = sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1])
    I = sp.identity(n)
    return (sp.kron(sp.kron(T, I), I) + sp.kron(sp.kron(I, T), I) + sp.kron(sp.kron(I, I), T)).tocsr()


def exact(n, k):
    s = 4.0 * np.sin(np.arange(1, n + 1) * np.pi / (2 * (n + 1))) ** 2
    m = min(n, k + 3)
    return np.sort((s[:m, None, None] + s[None, :m, None] + s[None, None, :m]).ravel())[:k]


def chebyshev(A, degree, ratio=1000.0):
    b = float(abs(A).sum(axis=1).max())
    a = b / ratio
    theta, delta = 0.5 * (b + a), 0.5 * (b - a)
    sigma = theta / delta

    def apply(R):
        rho = 1.0 / sigma
        Z = R / theta
        D = Z.copy()
        Rk = R - A @ Z
        for _ in range(degree - 1):
            rho_new = 1.0 / (2.0 * sigma - rho)
            D = rho_new * rho * D + (2.0 * rho_new / delta) * Rk
            Z = Z + D
            Rk = Rk - A @ D
            rho = rho_new
        return Z

    return sla.LinearOperator(A.shape, matvec=apply, matmat=apply, dtype=float)


n, precs, seeds = int(sys.argv[1]), sys.argv[2].split(','), int(sys.argv[3])
A = laplace3d(n)
want = exact(n, 5)
for kind in precs:
    for seed in range(1, seeds + 1):
        X0 = np.random.default_rng(seed).standard_normal((A.shape[0], 5))
        t0 = time.perf_counter()
        M = None if kind == "none" else chebyshev(A, int(kind[4:] or 8))
        t1 = time.perf_counter()
        vals, vecs, hist = sla.lobpcg(A, X0, M=M, tol=1e-6, maxiter=2000, largest=False,
                                      retResidualNormsHistory=True)
        t2 = time.perf_counter()
        vals = np.sort(vals)
        print("RESULT " + json.dumps({"peer": "scipy", "scipy": scipy.__version__, "numpy": np.__version__,
                                      "n": n, "pc": kind, "seed": seed, "iters": len(hist) - 1,
                                      "setup_s": t1 - t0, "solve_s": t2 - t1,
                                      "max_eig_relerr": float(np.max(np.abs(vals - want) / want))}), flush=True)
