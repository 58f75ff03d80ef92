#!/usr/bin/env python3
"""A stand-in for a hympi app, for testing the harness without MPI code.

Every rank parses the hympi option style; rank 0 appends one CSV row (header first) holding
the world size it sees and every option it got. Test hooks:
  --fail          exit 3 after writing a partial row (the harness must drop it)
  $FAKE_FAIL_SIZE fail the same way when --size has this value
  --sleep S       sleep S seconds first (timeouts)
  --count FILE    append one line per run to FILE (how often a point really ran)
  --time T        the row's time_s (default 1.0), times 1 + U(0, --spread) (default 0: exact)
  --env-file FILE append the OMPI_MCA_coll_tuned_* and FAKE_ENV_* variables it got to FILE
The row also shows the thread counts and any emulated-layout variables the run inherited.
"""
import os
import random
import sys
import time

LAYOUT_ENV = ("HYMPI_RANKS_PER_NODE", "HYMPI_NODE_SIZES", "HYMPI_PLACEMENT")


def world(var_names, default):
    for name in var_names:
        if name in os.environ:
            return int(os.environ[name])
    return default


def main(argv):
    opts, i = {}, 0
    while i < len(argv):
        key = argv[i]
        if not key.startswith("--"):
            print(f"fake_app: unexpected argument '{key}'", file=sys.stderr)
            return 2
        if i + 1 < len(argv) and not argv[i + 1].startswith("--"):
            opts[key[2:]] = argv[i + 1]
            i += 2
        else:
            opts[key[2:]] = "1"
            i += 1
    rank = world(("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"), 0)
    size = world(("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"), 1)
    if "sleep" in opts:
        time.sleep(float(opts["sleep"]))
    seconds = float(opts.get("time", "1.0")) * (1 + random.uniform(0, float(opts.get("spread", "0"))))
    if rank != 0:
        return 0
    if "env-file" in opts:
        with open(opts["env-file"], "a") as f:
            wanted = ("OMPI_MCA_coll_tuned_", "FAKE_ENV_")
            f.write(" ".join(f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith(wanted)) + "\n")
    if "count" in opts:
        with open(opts["count"], "a") as f:
            f.write(" ".join(argv) + "\n")
    csv = opts.get("csv")
    if csv:
        new = not os.path.exists(csv)
        with open(csv, "a") as f:
            if new:
                f.write("world_size,options,omp_threads,blas_threads,layout_env,time_s\n")
            shown = {k: v for k, v in opts.items() if k not in ("csv", "count", "env-file")}
            layout = " ".join(f"{k}={v}" for k, v in sorted(os.environ.items()) if k in LAYOUT_ENV)
            f.write(f"{size},\"{' '.join(f'{k}={v}' for k, v in sorted(shown.items()))}\","
                    f"{os.environ.get('OMP_NUM_THREADS', '')},{os.environ.get('OPENBLAS_NUM_THREADS', '')},"
                    f"\"{layout}\",{seconds!r}\n")
    if "fail" in opts or opts.get("size", "-") == os.environ.get("FAKE_FAIL_SIZE"):
        print("fake_app: failing on purpose", file=sys.stderr)
        print("fake_app: last words", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
