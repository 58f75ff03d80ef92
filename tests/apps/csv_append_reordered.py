#!/usr/bin/env python3
"""--csv appends to a file written before the column order was unified: same
columns in another order (metadata last). The new row must land under the file's
own header, the old row must stay, and a file with other columns is refused."""
import csv
import os
import re
import subprocess
import sys


def run(cmd, csv_path):
    return subprocess.run(cmd + ["--max-size", "1", "-i", "1", "-x", "0", "--ops", "bcast", "--variants", "pure",
                                 "--no-progress", "--csv", csv_path], capture_output=True, text=True, timeout=60)


def main():
    work, cmd = sys.argv[1], sys.argv[2:]
    os.makedirs(work, exist_ok=True)
    fresh, old = os.path.join(work, "fresh.csv"), os.path.join(work, "old.csv")
    for path in (fresh, old):
        if os.path.exists(path):
            os.remove(path)
    assert run(cmd, fresh).returncode == 0, "fresh run failed"
    columns = next(csv.reader(open(fresh)))
    meta = columns[:columns.index("operation")]
    assert meta[0] == "date", f"run metadata must come first, got {columns[:3]}"
    reordered = columns[len(meta):] + meta  # the old summa order: metadata last
    with open(old, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")  # as the apps write it
        w.writerow(reordered)
        w.writerow(["old"] * len(reordered))
    r = run(cmd, old)
    assert r.returncode == 0, f"append to a reordered file failed: {r.stderr}"
    lines = open(old).read().splitlines()
    assert lines[0] == ",".join(reordered), "the file's header changed"
    rows = list(csv.DictReader(open(old)))
    assert len(rows) == 2, f"expected the old row and one new row, got {len(rows)}"
    assert all(v == "old" for v in rows[0].values()), "the old row changed"
    new = rows[1]
    assert new["operation"] == "bcast" and new["variant"] == "pure", f"values under the wrong columns: {new}"
    assert re.match(r"^20\d\d-\d\d-\d\dT", new["date"]) and new["ranks"] == "1", f"metadata misplaced: {new}"
    # Other columns: refused with a clear message, exit 2 (bad input).
    with open(old, "w") as f:
        f.write("x,y\n")
    r = run(cmd, old)
    assert r.returncode == 2, f"expected exit 2 for a CSV with other columns, got {r.returncode}"
    assert "exists with a different header" in r.stderr, r.stderr
    print("ok")


if __name__ == "__main__":
    main()
