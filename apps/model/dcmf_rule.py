"""BG/P's DCMF broadcast rule for the route model: the simulation's rule (apps/smpi/glue/dcmf_shape.cpp,
dcmf_rect.cpp, dcmf_bcast.cpp; apps/smpi/README.md "BG/P's broadcast (DCMF)") as rounds of flows.

- Shape: a communicator's ranks' (x, y, z, t) bounding box (block placement: node = rank // cores,
  t = rank % cores; x fastest); RECT when the box is exactly filled, WORLD when it has every rank.
- Choice (MPIDO_Bcast without the collective network, which the platform lacks): <= 3 ranks MPICH's
  rule (a binomial tree there); RECT (or a filled world) the rectangle broadcast (one color up to
  128 B, the multi-color one above); else the binomial tree.
- The rectangle: one color per axis of extent > 1 (increasing extent), the bytes split between
  them (16-byte aligned, the last takes the rest), each color pipelined in chunks of the pipeline
  width; per color the CCMI schedule of line broadcasts (root along the primary axis, the face
  node along the next two, ...), each line one flow from its sender to its far end whose passed
  nodes get the chunk when it lands (the deposit bit); on a wrapping torus axis a line is cut into
  stretches of at most (ring - 1) / 2 hops relayed (uncharged) by their ends; then every node's
  root-t rank sends to its node's other ranks.

The pipeline as rounds: every sending stream has a depth (the rounds its sender's copy of a chunk
took to arrive); in round r a stream of depth j sends chunk r - j of its color (the rounds group
flows for link sharing). _timed_round in route_model.py times each such flow on the simulation's
clocks (Deposit, route_model._deposit_starts): a stream sends its next chunk when the previous one
has landed (one chunk in flight per stream) and its rank has that chunk of the color, the rank
posting it after its send overhead (its actor does one thing at a time); the receiver does not
hold the flow up (a DMA deposit) and takes each arrival after the receive overhead (a line's final
node, off node) and its hops x hop latency (fair sharing). Streams and colors are independent, as
the simulation's event loop runs them."""
from __future__ import annotations

PIPELINE_MIN = 480   # MIN_PIPELINE_WIDTH_TORUS: two torus packets of 240 B
AXES = 3


class Deposit:
    """One rectangle flow's charges (per flow, beside the round's flows): `passed` ((rank, hops) of
    the nodes its line passed, which get the chunk when it lands), `hops` (links to the receiver),
    `charged` (the receiver pays the receive overhead: a line's last stretch, off node), `onnode`
    (a core-to-core send: the shm overhead at the sender) and `posted` (the sender pays its
    overhead: every stream but a relayed stretch), `color` (its index in the broadcast)."""
    __slots__ = ("passed", "hops", "charged", "onnode", "posted", "color")

    def __init__(self, passed, hops, charged, onnode, posted, color=0):
        self.passed, self.hops, self.charged, self.onnode, self.posted = passed, hops, charged, onnode, posted
        self.color = color

    def __repr__(self):
        return f"Deposit(passed={self.passed}, hops={self.hops}, charged={self.charged}, onnode={self.onnode}, " \
               f"posted={self.posted}, color={self.color})"


def coords(rank: int, net) -> tuple[int, int, int, int]:
    """(x, y, z, t) of a rank under block placement on `net` (route_model.Torus)."""
    dx, dy, _ = net.dims
    node, t = divmod(rank, net.cores)
    return (node % dx, node // dx % dy, node // (dx * dy), t)


def rank_at(c, net) -> int:
    dx, dy, _ = net.dims
    return (c[0] + dx * (c[1] + dy * c[2])) * net.cores + c[3]


def bounding_box(members: list[int], net):
    cs = [coords(m, net) for m in members]
    return tuple(min(c[a] for c in cs) for a in range(4)), tuple(max(c[a] for c in cs) for a in range(4))


def classify(members: list[int], net, world_size: int) -> tuple[tuple, bool, bool]:
    """(box, filled, world): filled when the extents' product equals the size (RECT)."""
    lo, hi = bounding_box(members, net)
    vol = 1
    for a in range(4):
        vol *= hi[a] - lo[a] + 1
    return (lo, hi), vol == len(members), len(members) == world_size


def select(filled: bool, nbytes: float, size: int) -> str:
    """dcmf::select without the tree: 'binomial' (MPICH's rule on <= 3 ranks, DCMF's binomial
    protocols), 'rect_async' (one color) or 'rect' (the multi-color rectangle)."""
    if size <= 3 or not filled:
        return "binomial"
    return "rect_async" if nbytes <= 128 else "rect"


def rect_colors(box) -> list[int]:
    """Primary axes of the colors: every axis of extent > 1, by increasing extent (stable)."""
    lo, hi = box
    ext = [hi[a] - lo[a] + 1 for a in range(AXES)]
    axes = sorted(range(AXES), key=lambda a: ext[a])
    return [a for a in axes if ext[a] > 1] or [0]


def plan_colors(box, nbytes: int, one_color: bool) -> tuple[list[int], int, list[int]]:
    """(colors' axes, pipeline width, bytes per color) as dcmf::plan_colors."""
    allc = rect_colors(box)
    ideal = 1 if one_color else len(allc)
    per = nbytes // ideal
    m = PIPELINE_MIN
    width = (32 * m if per > m * 256 else 16 * m if per > m * 128 else 4 * m if per > m * 32
             else 2 * m if per > m * 8 else m)
    if nbytes < ideal * width:
        ideal = max(1, nbytes // width)
    aligned = (nbytes // ideal) & ~0xF
    sizes = [aligned] * (ideal - 1) + [nbytes - aligned * (ideal - 1)]
    return allc[:ideal], width, sizes


def _line_step(box, wraps, me, axis, d, out) -> None:
    """The line broadcasts of `me` along `axis` (direction d): [(far, passed)] of coordinates."""
    lo, hi = box[0][axis], box[1][axis]
    n = hi - lo + 1
    if n <= 1:
        return

    def line_to(far_c, dd):
        passed, k = [], 1
        while True:
            c = me[axis] + dd * k
            if wraps[axis]:
                c = lo + (c - lo) % n
            if c == far_c:
                break
            p = list(me)
            p[axis] = c
            passed.append(tuple(p))
            k += 1
        far = list(me)
        far[axis] = far_c
        out.append((axis, tuple(far), passed))

    if wraps[axis]:
        if d > 0:
            line_to(hi if me[axis] == lo else me[axis] - 1, d)
        else:
            line_to(lo if me[axis] == hi else me[axis] + 1, d)
        return
    if me[axis] < hi:
        line_to(hi, +1)
    if me[axis] > lo:
        line_to(lo, -1)


def rect_role(box, wraps, root, me, axis: int, d: int = 1):
    """(lines [(axis, far, passed)], local peers) of node `me` (with the root's t) in the color
    of primary axis `axis` (dcmf::rect_role: node sets A, AB, B, C, D, E, F)."""
    lines: list = []
    if me[3] != root[3]:
        return lines, []
    x, y, z = axis, (axis + 1) % AXES, (axis + 2) % AXES
    lo, hi = box
    f = (hi[x] if root[x] < hi[x] else lo[x]) if d > 0 else (lo[x] if root[x] < hi[x] else hi[x])
    is_root = me[:3] == root[:3]
    on_face = me[x] == f
    on_axis = me[y] == root[y] and me[z] == root[z]
    on_perp = on_face and me[z] == root[z]
    if is_root:
        _line_step(box, wraps, me, x, d, lines)
        if f == root[x]:
            _line_step(box, wraps, me, y, d, lines)
            _line_step(box, wraps, me, z, d, lines)
    elif on_axis:
        if on_face:
            _line_step(box, wraps, me, y, d, lines)
            _line_step(box, wraps, me, z, d, lines)
    elif on_perp:
        _line_step(box, wraps, me, z, d, lines)
        _line_step(box, wraps, me, x, -d, lines)
    elif on_face:
        _line_step(box, wraps, me, x, -d, lines)
    local = [me[:3] + (t,) for t in range(lo[3], hi[3] + 1) if t != me[3]]
    return lines, local


def _stretches(axis, far, passed, net, wrapping: bool):
    """A line cut as the simulation cuts it: [(far, [(passed, hops)], hops)] of coordinates."""
    nodes = passed + [far]
    most = max(1, (net.dims[axis] - 1) // 2) if wrapping else len(nodes)
    out = []
    for at in range(0, len(nodes), most):
        end = min(len(nodes), at + most)
        out.append((nodes[end - 1], [(nodes[i], i - at + 1) for i in range(at, end - 1)], end - at))
    return out


def rect_streams(members: list[int], root_rank: int, box, net, colors: list[int]):
    """Per color, the streams [(depth, src, dst, Deposit)] of the rectangle schedule (ranks)."""
    wraps = [not net.mesh and box[1][a] - box[0][a] + 1 == net.dims[a] for a in range(AXES)]
    root = coords(root_rank, net)
    out = []
    for color, axis in enumerate(colors):
        streams = []
        depth = {root: 0}
        todo = [root]
        while todo:  # breadth first: every node of the box is reached once per color
            me = todo.pop(0)
            j = depth[me]
            lines, local = rect_role(box, wraps, root, me, axis)
            src = rank_at(me, net)
            for ax, far, passed in lines:
                cur, jj, posted = me, j, True
                parts = _stretches(ax, far, passed, net, not net.mesh)
                for i, (end, on_way, hops) in enumerate(parts):
                    last = i + 1 == len(parts)
                    dep = Deposit(tuple((rank_at(p, net), h) for p, h in on_way), hops, last, False, posted, color)
                    streams.append((jj, rank_at(cur, net), rank_at(end, net), dep))
                    for p, _ in on_way:
                        depth[p] = jj + 1
                        todo.append(p)
                    depth[end] = jj + 1
                    todo.append(end)
                    cur, jj, posted = end, jj + 1, False
            for p in local:
                streams.append((j, src, rank_at(p, net), Deposit((), 0, False, True, True, color)))
        out.append(streams)
    return out


def rect_rounds(members: list[int], root_rank: int, nbytes: float, box, net, one_color: bool, envelope: int = 0):
    """The rectangle broadcast's pipeline as rounds [(flows (src, dst, bytes), [Deposit])]. The
    simulation's chunks are SimGrid messages without SMPI's envelope: `envelope` bytes are taken
    off each chunk (route_model adds them back)."""
    nb = int(nbytes)
    colors, width, sizes = plan_colors(box, nb, one_color)
    per_color = rect_streams(members, root_rank, box, net, colors)
    nchunks = [-(-s // width) for s in sizes]
    rounds = max(n + max((j for j, _, _, _ in st), default=0) + 1 for n, st in zip(nchunks, per_color))
    out = []
    for r in range(rounds):
        flows, deps = [], []
        for c, streams in enumerate(per_color):
            for j, s, d, dep in streams:
                k = r - j
                if 0 <= k < nchunks[c]:
                    flows.append((s, d, min(width, sizes[c] - k * width) - envelope))
                    deps.append(dep)
        if flows:
            out.append((flows, deps))
    return out
