#!/usr/bin/env sh
# One GPU per MPI rank: each rank sees only GPU number OMPI_COMM_WORLD_LOCAL_RANK (Open MPI sets
# it; MPI_LOCALRANKID / SLURM_LOCALID for other launchers), then runs the command.
#   mpiexec -n 2 scripts/gpu_per_rank.sh build-gpu/apps/bench/kelp-bench-dist --n 200
local_rank=${OMPI_COMM_WORLD_LOCAL_RANK:-${MPI_LOCALRANKID:-${SLURM_LOCALID:-0}}}
export CUDA_VISIBLE_DEVICES=$local_rank
exec "$@"
