# SMPI settings shared by every simulated run (sourced by run-sweep.sh and the tests).
# Why each one: /work/shared/notes/smpi.md and apps/smpi/README.md.
#   shared-malloc:local        SMPI_SHARED_MALLOC blocks shared per call site (global mode costs GBs)
#   simulate-computation:no    compute is charged explicitly (cblas_dgemm -> smpi_execute_flops)
#   wtime:0                    MPI_Wtime itself costs no simulated time
#   lat-factor 0:1             links are end-to-end values: the platform's alpha/beta are the model's
#   (no bw-factor)             the bandwidth factor is the callback of apps/smpi/glue/onnode_cost.cpp,
#                              linked into every SMPI binary: 1 off-node (as bw-factor 0:1), the node's
#                              share of its memory bandwidth on-node (SimGrid refuses both at once)
#   allreduce rdb              the default is a LINEAR reduce + bcast: its root waits on P-1 requests and
#                              SimGrid scans the root's activity list per arrival, P^2 host time (at 16384
#                              ranks a root held a 10k-entry list for minutes; 4096 ranks: 100 s -> 76 s)
#   barrier/reduce/allgather(v) the defaults are slow on the host at large P (default allgather:
#                              one 256-rank MPI_Allgather of 1 int did not end in 40 s; rdb: 1 s;
#                              default allgatherv is linear: P^2 messages, hours at 1536 ranks)
#   contexts/stack-size 256KiB one user-level stack per simulated rank; guard pages off (map count)
HYMPI_SMPI_FLAGS=(
  --cfg=smpi/shared-malloc:local
  --cfg=smpi/simulate-computation:no
  --cfg=smpi/wtime:0
  --cfg=smpi/lat-factor:0:1
  --cfg=smpi/barrier:ompi_recursivedoubling
  --cfg=smpi/reduce:binomial
  --cfg=smpi/allreduce:rdb
  --cfg=smpi/allgather:rdb
  --cfg=smpi/allgatherv:ompi_bruck
  --cfg=contexts/stack-size:256
  --cfg=contexts/guard-size:0
  --log=smpi_mpi.thres:error
  --log=root.thres:error
)
