"""--plan: what a sweep costs before it is submitted: nodes and node-hours per point (the
point's timeout is the bound), and per experiment the allocation a job of its own needs."""


def _hours(seconds):
    return seconds / 3600.0


def plan_lines(experiment, points, timeout, too_big):
    """Lines describing one experiment's points; too_big(point) says why a point cannot run here."""
    lines = []
    runnable = [p for p in points if not too_big(p)]
    nodes = [p.nodes or 1 for p in runnable]
    for p in points:
        why = too_big(p)
        cost = f"{(p.nodes or 1) * _hours(timeout):8.2f}" if not why else "       -"
        lines.append(f"  {p.id}  nodes {p.nodes or 1:4}  ranks {p.ranks:6}  node-h<= {cost}  {p.label()}"
                     + (f"  [skip: {why}]" if why else ""))
    if runnable:
        max_nodes = max(nodes)
        # One job for the experiment holds max_nodes for the whole sweep; per point only its own nodes.
        job_hours = _hours(timeout * len(runnable))
        lines.append(f"  per job: --nodes={max_nodes} --time<={clock(timeout * len(runnable))} "
                     f"-> {max_nodes * job_hours:.1f} node-h held, {sum(n * _hours(timeout) for n in nodes):.1f} "
                     f"node-h used by points ({len(runnable)} points, {len(points) - len(runnable)} skipped)")
    else:
        lines.append(f"  per job: nothing runs here ({len(points)} points skipped)")
    return lines


def clock(seconds):
    """HH:MM:SS, as sbatch --time takes it."""
    seconds = int(seconds)
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
