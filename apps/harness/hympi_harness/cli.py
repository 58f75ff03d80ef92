"""Command line of hympi-harness."""
import argparse
import json
import os
import shlex
import shutil
import signal
import sys

from .arguments import count, number
from .booleans import is_set
from .experiment import Experiment, ExperimentError
from .full_node import job_end_time, detect_cores_per_node
from .launchers import BINDINGS, LAUNCHERS, THREAD_ENV, LaunchError, Launcher, slurm_hosts
from .manifest import build_manifest, write_manifest
from .loadguard import BUSY_SHARE, MIN_SAMPLE, wait_until_quiet
from .plan import plan_lines
from .repetitions import Plan
from .run_dirs import RUNS, run_dir
from .runner import Sweep
from .schema import markdown_table
from .store import StoreError

EPILOG = """\
examples:
  hympi-harness results/experiments/laptop/zhou-fig7.toml
  hympi-harness --repeat 3 --ci-width 5 --max-repeat 12 results/experiments/laptop/zhou-fig7.toml
  hympi-harness compare results/runs/2026-11-25-vm-28bef2f/ results/
  hympi-harness quiet --wait 120
  hympi-harness --dry-run results/experiments/laptop/*.toml
  hympi-harness --launcher srun --srun-mpi pmix --max-nodes $SLURM_JOB_NUM_NODES \\
                results/experiments/cluster/zhou-fig8.toml
  hympi-harness --tiny --set ranks=2 results/experiments/cluster/summa-fig11.toml
  hympi-harness --plan --nodes 64 --cores-per-node 128 results/experiments/cluster/zhou-fig*.toml
  hympi-harness --dry-run --launcher srun --nodes 8 --cores-per-node 128 results/experiments/cluster/zhou-fig9.toml

Without --results-dir (or $HYMPI_RESULTS) a run goes into its own directory
results/runs/<date>-<host>-<revision>/ (ignored by git; same layout as results/);
--update-reference writes into results/ itself, replacing the committed references.
Each experiment writes <output>.csv (app rows + point_id, launcher, hosts, experiment,
slurm_job_id, binding, bound_to, threads), <output>.state.json (done points; a rerun skips
them), <output>.index.csv (every attempt with status, exit code and stderr tail),
<output>.logs/ and <output>.lock under the results directory, and <output>.stats.csv
(per point and row: median, IQR, 95% interval of the median over the launches, launches
made and cap, load average, CPU share of other processes, busy flag), and each batch
job, srun/mpirun run or run directory a manifest manifests/job-<SLURM_JOB_ID>.json (nodes,
partition, modules, environment, versions, revision + dirty flag).
With --repeat or --ci-width, points differing only in the experiment's last axis (e.g.
policy) take turns launch by launch, so their ratio shares the machine's noise.
The point id covers the launcher, binding, partition and thread settings: a rerun with other
settings measures new points instead of resuming old ones.
Python: 3.6 or newer, with tomllib (3.11+) or the tomli package.
Subcommands: `compare RUN REFERENCE` (within the reference's intervals? see compare --help),
`quiet [--wait S]` (exit 0 once the machine is quiet), `run-dir` (prints the default run directory),
`keys` (every key of an experiment file with its type: unknown keys and wrong types are errors).
Exit status: 0 all points ok (or done before); 1 some point failed (the sweep went on); 2 bad
usage or input, before or instead of a sweep: an option, an experiment file (its file:line and
key named: unknown keys, wrong types, a NUL character, values nested too deeply, more than
2147483647 ranks, a layout that cannot be or whose ranks, nodes, ranks_per_node and node_sizes
disagree), an app, launcher or metric not found, a results directory or --output that cannot be written
(read-only, full, a directory); 130 interrupted by Ctrl-C or SIGTERM at any step (one line, no traceback;
finished points are kept).
"""


def load_config(script_dir):
    """Defaults written by CMake next to the script (build dir or install prefix)."""
    path = os.path.join(script_dir, "hympi-harness.json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def find_app(name, config, app_dirs, script_dir):
    if os.sep in name:
        return name if os.access(name, os.X_OK) else None
    for d in app_dirs:
        candidate = os.path.join(d, name)
        if os.access(candidate, os.X_OK):
            return candidate
    built = config.get("apps", {}).get(name)
    if built and os.access(built, os.X_OK):
        return built
    for d in config.get("app_dirs", []) + [script_dir]:
        candidate = os.path.join(d, name)
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which(name)


def _int_env(name):
    text = os.environ.get(name, "")
    return int(text) if text.isdigit() else None


def _error(text):
    print(f"hympi-harness: error: {text}", file=sys.stderr)
    return 2


def _check_allocation(args):
    """Refuses runs that would land on the wrong machine or layout; returns an error text or None."""
    in_job = "SLURM_JOB_ID" in os.environ or "PBS_JOBID" in os.environ
    if args.launcher == "local" and (_int_env("SLURM_JOB_NUM_NODES") or 1) > 1:
        return (f"--launcher local (from {'$HYMPI_LAUNCHER' if os.environ.get('HYMPI_LAUNCHER') else 'the default'}) "
                f"would run every point oversubscribed on this one node of a {os.environ['SLURM_JOB_NUM_NODES']}-node "
                "job; use --launcher srun or mpirun")
    if args.launcher != "local" and not in_job and not args.hosts and not args.outside_allocation:
        return (f"--launcher {args.launcher} outside a batch job (no $SLURM_JOB_ID): this looks like a login node. "
                "Submit a jobscript (jobscripts/README.md), or look first with --dry-run / --plan / --list, "
                "or pass --outside-allocation")
    return None


def _default_results_dir(config, script_dir):
    if config.get("results_dir"):
        return config["results_dir"]
    source_results = os.path.normpath(os.path.join(script_dir, "..", "..", "results"))
    if os.path.isdir(os.path.join(source_results, "experiments")):
        return source_results  # run from the source tree
    return "results"


def parse_args(argv, config, script_dir):
    env = os.environ.get
    ap = argparse.ArgumentParser(
        prog="hympi-harness", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG,
        description="Sweep hympi experiments (one TOML file per figure) through an MPI launcher, "
                    "resumably, appending CSV rows with run metadata.")
    ap.add_argument("experiments", nargs="+", metavar="EXPERIMENT.toml", help="experiment files to run, in order")
    ap.add_argument("--launcher", choices=LAUNCHERS, default=env("HYMPI_LAUNCHER", "local"),
                    help="local: mpirun on this machine with emulated nodes; mpirun: real nodes; "
                         "srun: Slurm/Cray (default $HYMPI_LAUNCHER or local)")
    ap.add_argument("--emulate-nodes", action="store_true", default=is_set(env("HYMPI_EMULATE_NODES")),
                    help="run every point on the ranks the launcher gives and emulate its nodes in the app "
                         "(implied by local; $HYMPI_EMULATE_NODES=1)")
    ap.add_argument("--mpiexec", default=env("HYMPI_MPIEXEC", config.get("mpiexec")),
                    help="mpirun/mpiexec to use (default: the one the build found)")
    ap.add_argument("--mpi-family", choices=("openmpi", "mpich", "other"),
                    default=env("HYMPI_MPI_FAMILY", config.get("mpi_family")),
                    help="how to spell launcher options (default: from the build, else detected)")
    ap.add_argument("--srun-mpi", default=env("HYMPI_SRUN_MPI"),
                    help="srun --mpi=NAME (e.g. pmix for Open MPI; default $HYMPI_SRUN_MPI or srun's default)")
    ap.add_argument("--launcher-args", default=env("HYMPI_LAUNCHER_ARGS", ""),
                    help="extra launcher arguments, shell-quoted (default $HYMPI_LAUNCHER_ARGS)")
    ap.add_argument("--hosts", default=env("HYMPI_HOSTS"),
                    help="comma-separated hosts for real-node layouts (default: the Slurm allocation)")
    ap.add_argument("--results-dir", default=env("HYMPI_RESULTS"),
                    help="where experiment outputs go (default $HYMPI_RESULTS, else a new run directory "
                         "results/runs/<date>-<host>-<revision>/)")
    ap.add_argument("--update-reference", action="store_true",
                    help="write into the committed reference results (the source tree's results/) instead of a "
                         "run directory")
    ap.add_argument("--repeat", type=int, default=1,
                    help="launches of every point (with --ci-width: the fewest); statistics over them go into "
                         "<output>.stats.csv (default 1)")
    ap.add_argument("--ci-width", type=number(above=0), metavar="PCT",
                    help="adaptive: launch a point again until the 95%% interval of the median of each of its rows "
                         "is within PCT percent of the median (needs >= 6 launches), or --max-repeat is reached")
    ap.add_argument("--max-repeat", type=int, default=20, help="the cap of launches per point with --ci-width "
                                                                "(default 20; recorded as repeat_cap)")
    ap.add_argument("--busy-threshold", type=number(), default=BUSY_SHARE,
                    help="flag a point busy when other processes used more than this share of the cores while "
                         "it ran (default %(default)s)")
    ap.add_argument("--output", help="CSV path overriding the experiment's own (one experiment only)")
    ap.add_argument("--app-dir", action="append", default=[], help="look for the apps here first (repeatable)")
    ap.add_argument("--tiny", action="store_true", default=is_set(env("HYMPI_TINY")),
                    help="use each experiment's [tiny] section (seconds-long runs for tests; $HYMPI_TINY=1)")
    ap.add_argument("--set", action="append", default=[], metavar="AXIS=V1,V2",
                    help="replace an axis of every experiment, e.g. --set ranks_per_node=24 (repeatable)")
    ap.add_argument("--max-ranks", type=count(), help="skip points with more ranks (not counted as failed)")
    ap.add_argument("--max-nodes", type=count(), help="skip points with more real nodes (not counted as failed)")
    ap.add_argument("--cores-per-node", type=count(), default=None,
                    help='what ranks_per_node = "full" means; points with fuller nodes are skipped (default '
                         "$HYMPI_CORES_PER_NODE, else the cores the job got on this node: $SLURM_CPUS_ON_NODE "
                         "over lscpu's threads per core)")
    ap.add_argument("--nodes", type=count(), default=_int_env("SLURM_JOB_NUM_NODES"),
                    help="nodes of the allocation: points needing more are skipped; without a job, --dry-run "
                         "and --plan use it to show the lines of a job that size (default $SLURM_JOB_NUM_NODES)")
    ap.add_argument("--binding", choices=BINDINGS, default=env("HYMPI_BINDING", "core"),
                    help="core: one core per rank, block distribution (srun --cpu-bind=cores, mpirun --bind-to "
                         "core); none: unbound; launcher: its defaults. Every point logs and records the "
                         "binding it got (default $HYMPI_BINDING or core)")
    ap.add_argument("--outside-allocation", action="store_true",
                    help="let srun/mpirun run without a batch allocation (normally refused: a login node)")
    ap.add_argument("--timeout", type=number(above=0), help="seconds per point (default: the experiment's, else 600)")
    ap.add_argument("--fresh", action="store_true",
                    help="delete the experiment's earlier CSV, state, index and logs first (re-measure everything)")
    ap.add_argument("--skip-failed", action="store_true", help="do not retry points that failed before")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the command of every point, run nothing and write nothing")
    ap.add_argument("--list", action="store_true", help="print the points and their status, run nothing")
    ap.add_argument("--plan", action="store_true",
                    help="print nodes and node-hours (bounded by the timeouts) per point and per job, run nothing")
    ap.add_argument("--which", action="store_true", help="print the app each experiment would run, run nothing")
    args = ap.parse_args(argv)
    if args.output and len(args.experiments) > 1:
        ap.error("--output needs exactly one experiment")
    if args.repeat < 1 or args.max_repeat < 1:
        ap.error("--repeat and --max-repeat must be >= 1")
    if args.update_reference and args.results_dir:
        ap.error("--update-reference writes into the source tree's results/; it takes no --results-dir")
    reference = _default_results_dir(config, script_dir)
    args.reference_dir = reference
    if args.update_reference:
        args.results_dir = reference
    if not args.results_dir:
        args.results_dir = run_dir(reference, _source_dir(config, script_dir))
    # A run directory (the default one, or one given to --results-dir) gets its own manifest.
    runs = os.path.join(os.path.abspath(reference), RUNS) + os.sep
    args.run_dir_mode = os.path.abspath(args.results_dir).startswith(runs)
    overrides = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            ap.error(f"--set expects AXIS=V1,V2,... (got '{item}')")
        overrides[key.strip()] = value
    args.overrides = overrides
    return args


def _source_dir(config, script_dir):
    return config.get("source_dir") or os.path.normpath(os.path.join(script_dir, "..", ".."))


def quiet_main(argv):
    ap = argparse.ArgumentParser(prog="hympi-harness quiet",
                                 description="Exit 0 when other processes use at most --busy-threshold of the cores "
                                             "(sampled over --sample seconds), waiting up to --wait seconds; "
                                             "else exit 1 (a busy machine).")
    ap.add_argument("--wait", type=number(minimum=0), default=0,
                    help="seconds to wait for a quiet machine (default 0)")
    ap.add_argument("--sample", type=number(minimum=MIN_SAMPLE), default=2.0,
                    help=f"seconds per sample, >= {MIN_SAMPLE:g}: /proc/stat counts in clock ticks (1/100 s), "
                         "a shorter sample sees none and reads as quiet (default 2)")
    ap.add_argument("--busy-threshold", type=number(), default=BUSY_SHARE, help="default %(default)s")
    args = ap.parse_args(argv)
    share = wait_until_quiet(args.wait, args.sample, args.busy_threshold,
                             say=lambda text: print(f"hympi-harness: {text}", file=sys.stderr))
    if share is None:
        print("hympi-harness: cannot read /proc/stat: load unknown")
        return 0
    busy = share > args.busy_threshold
    print(f"hympi-harness: other processes use {100 * share:.0f}% of the cores: {'BUSY' if busy else 'quiet'}")
    return 1 if busy else 0


def _stop_on_sigterm(signum, frame):
    # scancel / a job time limit / kill send SIGTERM: stop the running point's launcher
    # (it runs in its own session) the same way as Ctrl-C does, instead of orphaning it.
    raise KeyboardInterrupt("SIGTERM")


def interrupted(e, note=""):
    """The one line an interrupted harness prints (no traceback); exit status 130."""
    for sig in (signal.SIGINT, signal.SIGTERM):  # a second signal must not cut this short
        signal.signal(sig, signal.SIG_IGN)
    name = e.args[0] if e.args else "SIGINT"  # Ctrl-C's KeyboardInterrupt has no arguments
    print(f"hympi-harness: error: interrupted ({name}){note}", file=sys.stderr)
    return 130


def _run_settings(args, launcher):
    """The settings that change a point's result, part of its id (#19.6)."""
    settings = {"launcher": launcher.kind, "binding": launcher.binding, "emulate": launcher.emulate,
                "threads": {k: "1" for k in THREAD_ENV}}
    partition = os.environ.get("SLURM_JOB_PARTITION")
    if partition:
        settings["partition"] = partition
    if launcher.srun_mpi:
        settings["srun_mpi"] = launcher.srun_mpi
    if launcher.extra_args:
        settings["launcher_args"] = launcher.extra_args
    return settings


def main(argv, script_dir):
    """The exit status; Ctrl-C or SIGTERM anywhere (a sweep, compare, quiet --wait, expanding the
    points, --fresh, the manifest) is exit 130 with one line."""
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        return _main(argv, script_dir)
    except KeyboardInterrupt as e:
        return interrupted(e)


def _main(argv, script_dir):
    config = load_config(script_dir)
    if argv[:1] == ["compare"]:
        from .compare import main as compare_main
        return compare_main(argv[1:])
    if argv[:1] == ["quiet"]:
        return quiet_main(argv[1:])
    if argv[:1] == ["keys"]:
        print(markdown_table(), end="")
        return 0
    if argv[:1] == ["run-dir"]:
        print(run_dir(_default_results_dir(config, script_dir), _source_dir(config, script_dir)))
        return 0
    args = parse_args(argv, config, script_dir)
    looking = args.dry_run or args.list or args.plan or args.which
    notes = []
    if args.cores_per_node is None:
        args.cores_per_node, notes = detect_cores_per_node()
        for note in notes:
            print(f"hympi-harness: {note}", file=sys.stderr)
    if not looking:
        problem = _check_allocation(args)
        if problem:
            return _error(problem)
    hosts = args.hosts.split(",") if args.hosts else (slurm_hosts() if args.launcher != "local" else [])
    if not hosts and looking and args.nodes and args.launcher != "local":
        hosts = [f"node{i + 1:03d}" for i in range(args.nodes)]  # a job of that size, for the printed lines
    try:
        launcher = Launcher(args.launcher, mpiexec=args.mpiexec, mpi_family=args.mpi_family,
                            emulate=args.emulate_nodes, extra_args=shlex.split(args.launcher_args),
                            srun_mpi=args.srun_mpi, hosts=hosts, binding=args.binding)
    except LaunchError as e:
        return _error(e)
    if not looking and not shutil.which(launcher.mpiexec):  # else every point "fails" (exit 1)
        return _error(f"launcher '{launcher.mpiexec}' not found (give --mpiexec, or put it on PATH)")
    try:
        names = {"source_dir": _source_dir(config, script_dir), "results_dir": os.path.abspath(args.results_dir)}
        settings = _run_settings(args, launcher)
        experiments = [Experiment(p, tiny=args.tiny, overrides=args.overrides, template_vars=names,
                                  run_settings=settings) for p in args.experiments]
        planned = [(e, e.points(args.cores_per_node)) for e in experiments]
        for _, points in planned:
            for p in points:
                p.app_args(emulate=True)  # every template fills in before anything runs
    except ExperimentError as e:
        return _error(e)
    if args.which:
        for e in experiments:
            print(f"{e.name}: {e.app} -> {find_app(e.app, config, args.app_dir, script_dir) or 'NOT FOUND'}")
        return 0
    max_nodes = args.max_nodes or args.nodes
    if args.run_dir_mode and not looking:
        print(f"hympi-harness: run directory {args.results_dir}")
    try:
        if not looking and (launcher.kind != "local" or "SLURM_JOB_ID" in os.environ or args.run_dir_mode):
            path = write_manifest(names["results_dir"], build_manifest(launcher, argv, names["source_dir"],
                                                                       args.cores_per_node, notes))
            print(f"hympi-harness: manifest {path}")
        return _sweep_all(args, config, script_dir, launcher, planned, max_nodes, looking)
    except OSError as e:  # a read-only or full results directory, a CSV path that is a directory, ...
        where = f" '{e.filename}'" if e.filename else f" under '{args.results_dir}'"
        return _error(f"cannot write{where}: {e.strerror or e}")


def _sweep_all(args, config, script_dir, launcher, planned, max_nodes, looking):
    """Runs (or lists, plans, prints) every experiment; the exit status."""
    csv_paths = []
    for exp, _ in planned:
        # Absolute: the apps run in whatever directory the launcher gives them.
        csv_path = os.path.abspath(args.output or os.path.join(args.results_dir, exp.output))
        if os.path.isdir(csv_path) or (args.output or exp.output).endswith(("/", os.sep)):
            given = f"--output {args.output}" if args.output else f"{exp.path}: output = \"{exp.output}\""
            return _error(f"{given} names a directory ('{csv_path}'); give a CSV file's path")
        csv_paths.append(csv_path)
    all_ok = True
    for (exp, points), csv_path in zip(planned, csv_paths):
        if args.list:
            sweep = Sweep(exp, points, launcher, exp.app, csv_path)
            print(f"== {exp.name}: {len(points)} points -> {csv_path}")
            for p in points:
                print(f"  {p.id}  {sweep.store.status(p.id) or 'todo':7}  {p.label()}")
            continue
        app = find_app(exp.app, config, args.app_dir, script_dir)
        if app is None:
            if not (args.dry_run or args.plan):
                return _error(f"{exp.name}: app '{exp.app}' not found (build it, or give --app-dir)")
            app = exp.app
        sweep = Sweep(exp, points, launcher, app, csv_path, dry_run=args.dry_run,
                      retry_failed=not args.skip_failed, max_ranks=args.max_ranks, max_nodes=max_nodes,
                      cores_per_node=args.cores_per_node, timeout=args.timeout, end_time=job_end_time(),
                      repeats=Plan(args.repeat, args.ci_width, args.max_repeat if args.ci_width else None),
                      busy_threshold=args.busy_threshold)
        if args.plan:
            print(f"== {exp.name}: {exp.title}")
            print("\n".join(plan_lines(exp, points, sweep.timeout, sweep.too_big)))
            continue
        if args.fresh and not args.dry_run:
            sweep.store.forget()
        try:
            all_ok = sweep.run() and all_ok
        except (StoreError, ExperimentError) as e:
            return _error(e)
        except KeyboardInterrupt as e:
            return interrupted(e, ": finished points are kept, rerun to resume")
    return 0 if all_ok else 1
