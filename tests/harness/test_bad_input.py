#!/usr/bin/env python3
"""Issue #42 (items 9-11): bad input to hympi-harness gets a message naming the problem and
exit 2, never a traceback or exit 1 (which scripts read as "a point failed"). Experiment files
are checked against the one schema (hympi_harness/schema.py): unknown keys and wrong types are
refused with the key, the file and the line. Full and read-only results directories are real:
a 64 KiB tmpfs (or a read-only one) in a private mount namespace (`unshare`)."""
import os
import shutil
import sys
import textwrap
import unittest

from harness_testing import FAKE_APP, HARNESS, SOURCE, TempDirCase, run


class Case(TempDirCase):
    prefix = "hympi-bad-input-"

    def setUp(self):
        super().setUp()
        self.results = os.path.join(self.dir, "results")

    def file(self, body, name="exp.toml", mode="w"):
        path = os.path.join(self.dir, name)
        with open(path, mode) as f:
            f.write(body if mode == "wb" else textwrap.dedent(body))
        return path

    def experiment(self, extra="", axes='ranks = [1]\n', head=""):
        """A fake-app experiment; `head` goes into [experiment], `extra` after [axes]."""
        return self.file(f'[experiment]\napp = "{FAKE_APP}"\noutput = "fam/e.csv"\n{head}[axes]\n{axes}{extra}')

    def harness(self, *args):
        return run([sys.executable, HARNESS, "--results-dir", self.results, *args])

    def refuses_dry_run(self, line, *words, **experiment):
        """--dry-run refuses the experiment (self.experiment's keywords) at its `line`, naming every word."""
        path = self.experiment(**experiment)
        return self.refused(self.harness("--dry-run", path), f"{path}:{line}", *words)

    def refused(self, proc, *words):
        """Exit 2, no traceback, one line naming every word."""
        text = proc.stdout + proc.stderr
        self.assertEqual(proc.returncode, 2, text)
        self.assertNotIn("Traceback", text)
        for word in words:
            self.assertIn(word, proc.stderr)
        return proc.stderr


class BadExperimentFiles(Case):
    """Item 9: each of these was a traceback and exit 1."""

    def test_exclude_with_single_brackets(self):
        self.refuses_dry_run(6, "[[exclude]]", extra='[exclude]\nranks = 1\n')

    def test_timeout_as_text(self):
        self.refuses_dry_run(4, "timeout", "number", head='timeout = "10m"\n')

    def test_derived_axis_dividing_by_zero(self):
        self.refuses_dry_run(8, "m", "division by zero", "size=1", extra='[derive]\nm = "8 / (size - 1)"\n',
                             axes="ranks = [1]\nsize = [1, 2]\n")

    def test_non_utf8_file(self):
        path = self.file(b'[experiment]\ntitle = "caf\xe9"\n', mode="wb")
        self.refused(self.harness("--dry-run", path), path, "UTF-8")

    def test_directory_as_experiment(self):
        self.refused(self.harness("--dry-run", self.dir), self.dir, "directory")

    def test_experiment_as_a_plain_value(self):
        path = self.file('experiment = "hympi-summa"\n[axes]\nranks = [1]\n')
        self.refused(self.harness("--dry-run", path), f"{path}:1", "[experiment]", "table")

    def test_output_naming_a_directory(self):
        path = self.experiment()
        os.makedirs(os.path.join(self.results, "fam"))
        proc = self.harness("--output", os.path.join(self.results, "fam"), path)
        self.refused(proc, "--output", "directory")
        self.assertNotIn("] run", proc.stdout, "refused before any point is launched")
        self.refused(self.harness(self.file(f'[experiment]\napp = "{FAKE_APP}"\noutput = "fam"\n[axes]\nranks = [1]\n',
                                            "dir-output.toml")), "directory")


class UnwritableResults(Case):
    """Item 9: a read-only or full results directory. Simulated for real: a tmpfs mounted
    read-only, or 64 KiB large and filled, in a private mount namespace (root, or an
    unprivileged user namespace where the kernel allows one)."""

    def in_namespace(self, mount_options, fill, *args):
        if not shutil.which("unshare"):
            self.skipTest("no unshare")
        os.makedirs(self.results)
        unshare = ["unshare", "--mount"] + ([] if os.geteuid() == 0 else ["--map-root-user"])
        if run(unshare + ["mount", "-t", "tmpfs", "-o", "size=64k", "probe", self.results]).returncode != 0:
            self.skipTest("no private mount namespace here")
        script = (f'mount -t tmpfs -o {mount_options} hympi-test "$1" && '
                  + ('(dd if=/dev/zero of="$1/filler" bs=4k 2>/dev/null; true) && ' if fill else "")
                  + 'shift && exec "$@"')
        return run(unshare + ["sh", "-c", script, "sh", self.results, sys.executable, HARNESS,
                              "--results-dir", self.results, *args])

    def test_read_only_results_directory(self):
        err = self.refused(self.in_namespace("ro,size=64k", False, self.experiment()), "Read-only")
        self.assertIn(self.results, err)

    def test_full_results_directory(self):
        err = self.refused(self.in_namespace("size=64k", True, self.experiment()), "No space left")
        self.assertIn(self.results, err)


class ValidatedKeys(Case):
    """Item 10: unknown keys and wrong types name the key, the file and the line."""

    def test_misspelled_key_in_experiment(self):
        self.refuses_dry_run(4, "timout", "timeout", head="timout = 10\n")

    def test_misspelled_key_in_tiny_does_not_launch_the_full_axes(self):
        path = self.experiment('[tiny]\naxis = { ranks = [1] }\n', axes="ranks = [64]\n")
        err = self.refused(self.harness("--tiny", "--dry-run", path), f"{path}:7", "'axis'", "axes")
        self.assertNotIn("-np 64", err)

    def test_misspelled_axis_in_tiny_axes_does_not_launch_the_full_axes(self):
        # [tiny.axes] rnaks = [1] was a new axis: --tiny kept ranks = [64] and added --rnaks 1.
        path = self.experiment('[tiny.axes]\nrnaks = [1]\n', axes="ranks = [64]\n")
        err = self.refused(self.harness("--tiny", "--dry-run", path), f"{path}:7", "'rnaks'", "'ranks'")
        self.assertNotIn("-np 64", err)

    def test_misspelled_section(self):
        self.refuses_dry_run(6, "axis", extra='[tiny.axis]\nranks = [1]\n')

    def test_args_as_one_text(self):
        self.refuses_dry_run(4, "args", "list", head='args = "--synthetic"\n')

    def test_ranks_true(self):
        self.refuses_dry_run(5, "ranks", "integer", axes="ranks = [true]\n")
        self.refused(self.harness("--dry-run", "--set", "ranks=yes", self.experiment()), "--set", "ranks")

    def test_exclude_naming_no_parameter(self):
        # [[exclude]] rnaks = 2 excluded nothing: the point it was meant to drop ran.
        path = self.experiment('[[exclude]]\nranks = 1\n[[exclude]]\nrnaks = 2\n', axes="ranks = [1, 2]\n")
        err = self.refused(self.harness("--dry-run", path), f"{path}:9", "'rnaks'", "'ranks'")
        self.assertNotIn("-np 2", err)
        tiny = self.experiment('[tiny]\nexclude = [{ sise = 1 }]\n', axes="ranks = [1]\nsize = [1, 2]\n")
        self.refused(self.harness("--tiny", "--dry-run", tiny), f"{tiny}:8", "'sise'", "'size'")
        from hympi_harness.experiment import Experiment  # every committed file's excludes name parameters
        for kind in ("laptop", "cluster"):
            for name in sorted(os.listdir(os.path.join(SOURCE, "results", "experiments", kind))):
                for tiny in (False, True):
                    Experiment(os.path.join(SOURCE, "results", "experiments", kind, name), tiny=tiny).points(128)

    def test_derived_value_not_finite(self):
        self.refuses_dry_run(7, "x", "inf", extra='[derive]\nx = "1e308 * 10"\n')

    def test_empty_exclude_entry(self):
        # An empty [[exclude]] matched every point: 0 points, exit 0.
        self.refuses_dry_run(6, "[[exclude]]", "empty", extra='[[exclude]]\n', axes="ranks = [1, 2]\n")

    def test_output_outside_the_results_directory(self):
        # output = "../../x.csv" or "/abs/x.csv" wrote outside the results directory.
        for bad in ("../../escape.csv", "/abs/x.csv", "fam/../../x.csv", ""):
            with self.subTest(output=bad):
                path = self.file(f'[experiment]\napp = "{FAKE_APP}"\noutput = "{bad}"\n[axes]\nranks = [1]\n')
                self.refused(self.harness("--dry-run", path), f"{path}:3", "output")

    def test_top_level_exclude_not_an_array_of_tables(self):
        path = self.file(f'exclude = 3\n[experiment]\napp = "{FAKE_APP}"\n[axes]\nranks = [1]\n')
        err = self.refused(self.harness("--dry-run", path), f"{path}:1", "[[exclude]]")
        self.assertNotIn("write [exclude]", err)

    def test_set_with_an_empty_value(self):
        # "size=1,,2" made a point with `--size ''`; "size=4," one with nothing after the comma.
        for bad in ("size=1,,2", "size=4,", "size= "):
            with self.subTest(set=bad):
                self.refused(self.harness("--dry-run", "--set", bad, self.experiment()), "--set", "empty")

    def test_wrong_types_elsewhere(self):
        cases = {  # body after [axes] ranks = [1]; the line the message must name; the key
            'title = 3\n': ("head", 4, "title"),
            '[options]\nsize = 1\n': ("extra", 7, "size"),
            '[env]\nOMP_PROC_BIND = true\n': ("extra", 7, "OMP_PROC_BIND"),
            '[derive]\nm = ["a"]\n': ("extra", 7, "m"),
            'layout = [{ ranks = 2, nodes = 0 }]\n': ("extra", 6, "nodes"),
            'size = [{ a = { b = 1 } }]\n': ("extra", 6, "size"),
            'size = []\n': ("extra", 6, "size"),
            '[tiny]\ntimeout = -1\n': ("extra", 7, "timeout"),
            '[[exclude]]\nsize = { a = 1 }\n': ("extra", 7, "size"),
        }
        for body, (where, line, key) in cases.items():
            with self.subTest(body=body):
                path = self.experiment(head=body) if where == "head" else self.experiment(body)
                self.refused(self.harness("--dry-run", path), f"{path}:{line}", key)

    def test_committed_files_and_the_documented_table(self):
        from hympi_harness.experiment import Experiment
        from hympi_harness.schema import markdown_table
        for kind in ("laptop", "cluster"):
            for name in sorted(os.listdir(os.path.join(SOURCE, "results", "experiments", kind))):
                Experiment(os.path.join(SOURCE, "results", "experiments", kind, name), tiny=True)
        with open(os.path.join(SOURCE, "apps", "README.md")) as f:
            self.assertTrue(markdown_table() in f.read(), "apps/README.md must hold `hympi-harness keys` verbatim")
        self.assertEqual(run([sys.executable, HARNESS, "keys"]).stdout, markdown_table())


class KeyLines(unittest.TestCase):
    """toml_lines: values over several lines are not read as keys or headers."""

    def test_tricky_layouts(self):
        from hympi_harness.toml_lines import key_lines, line_of
        text = textwrap.dedent("""\
            [experiment]
            args = ["a",
              "[axes]",
              [1, 2]
            ]
            title = \"\"\"
            x = 1
            [tiny]
            \"\"\"
            "quoted.key" = 1  # [not] a header
            [[exclude]]
            ranks = 1
            [[exclude]]
            ranks = 2
            [tiny]
            axes = { ranks = [1] }
            """)
        lines = key_lines(text)
        self.assertEqual(line_of(lines, ("experiment", "args")), 2)
        self.assertEqual(line_of(lines, ("experiment", "title")), 6)
        self.assertNotIn(("experiment", "x"), lines)
        self.assertEqual(line_of(lines, ("experiment", "quoted.key")), 10)
        self.assertEqual(line_of(lines, ("exclude", 1, "ranks")), 14)
        self.assertEqual(line_of(lines, ("tiny", "axes", "ranks")), 16)  # inside an inline table: its line
        self.assertEqual(line_of(lines, ("tiny",)), 15)


class CountOptions(Case):
    """Counts of ranks, nodes and cores are whole numbers >= 1: --max-ranks 0 was no limit,
    --max-ranks -1 and --cores-per-node -4 skipped every point with exit 0."""

    def test_counts_below_one(self):
        path = self.experiment()
        for option in ("--max-ranks", "--max-nodes", "--cores-per-node", "--nodes"):
            for bad in ("0", "-1", "2.5", "many"):
                with self.subTest(option=option, value=bad):
                    self.refused(self.harness("--dry-run", option, bad, path), option)


class MissingLauncher(Case):
    def test_mpiexec_not_found(self):
        # --mpiexec /nonexistent ran every point into "FAILED", exit 1 ("a point failed").
        path = self.experiment()
        missing = os.path.join(self.dir, "no-such-mpirun")
        self.refused(self.harness("--mpiexec", missing, path), missing, "not found")
        self.assertFalse(os.path.exists(os.path.join(self.results, "fam", "e.index.csv")), "a point was recorded")
        dry = self.harness("--dry-run", "--mpiexec", missing, path)  # looking needs no launcher
        self.assertEqual(dry.returncode, 0, dry.stdout + dry.stderr)


class UnknownMetric(Case):
    def test_ci_width_with_an_unknown_metric(self):
        """Item 11: one launch, no statistics and exit 0 before; now exit 2 naming the columns."""
        path = self.experiment(head='metric = "median_ns"\n')
        err = self.refused(self.harness("--ci-width", "5", path), f"{path}:4", "median_ns", "time_s")
        self.assertFalse(os.path.exists(os.path.join(self.results, "fam", "e.stats.csv")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
