#!/usr/bin/env python3
"""results/figures.csv, the inventory of both papers' experimental figures, and every figure
label in results/ against it: gallery and README rows, plot titles in the plotting code (the
PNGs are not redrawn), experiment files, CSV experiment labels and file names. The mutation
tests prove each check can fail: a label moved to the wrong figure must be reported."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import figure_labels as fl  # noqa: E402

# The papers' experimental figures and tables (../shared/notes/paper-figures.md, issue 50).
EXPECTED = ([("Zhou", f"Fig {n}") for n in range(7, 13)]
            + [("thesis", f"Fig 3.{n}") for n in range(3, 13)]
            + [("thesis", f"Fig 3.{n}") for n in range(15, 22)] + [("thesis", "Table 3.1")]
            + [("thesis", f"Fig 3.{n}") for n in (24, 25, 26)]
            + [("thesis", f"Fig 3.{n}") for n in range(31, 46)]
            + [("thesis", f"Fig 4.{n}") for n in range(5, 12)]
            + [("thesis", "Table 5.2"), ("thesis", "Table 5.3")])

ROWS = fl.read_inventory()
FILES = fl.results_files()
INV = fl.Inventory(ROWS, FILES)


def read(rel):
    with open(os.path.join(fl.ROOT, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


def of_kind(suffix, prefix="results/"):
    return [f for f in FILES if f.startswith(prefix) and f.endswith(suffix)]


class Inventory(unittest.TestCase):
    def test_expected_list(self):
        self.assertEqual(len(EXPECTED), 51)

    def test_integrity(self):
        self.assertEqual(fl.check_integrity(ROWS, FILES, EXPECTED), [])


class Labels(unittest.TestCase):
    def test_file_names(self):
        self.assertEqual(fl.check_file_names(INV), [])

    def test_experiment_files(self):
        problems = []
        for f in of_kind(".toml", "results/experiments/"):
            problems += fl.check_experiment(INV, read(f), f)
        self.assertEqual(problems, [])

    def test_csv_experiment_labels(self):
        problems = []
        for f in of_kind(".csv"):
            problems += fl.check_csv_labels(INV, f, read(f))
        self.assertEqual(problems, [])

    def test_plot_titles(self):
        problems = []
        for f in [f for f in of_kind(".py") if os.path.basename(f).startswith("plot")]:
            problems += fl.check_plot_script(INV, f, read(f))
        self.assertEqual(problems, [])

    def test_markdown(self):
        problems = []
        for f in of_kind(".md"):
            problems += fl.check_markdown(INV, f, read(f), gallery=(f == "results/README.md"))
        self.assertEqual(problems, [])

    def test_gallery_links_figures(self):
        """The checks above saw the gallery's figure table (not an empty or renamed section)."""
        text = read("results/README.md")
        self.assertIn("## The gallery", text)
        rows = [l for l in text.split("## The gallery")[1].split("\n## ")[0].splitlines() if l.startswith("| [")]
        self.assertGreaterEqual(sum(bool(fl.mentions(l.split("|")[1], INV.order)) for l in rows), 8)


class Mutations(unittest.TestCase):
    """Each label check fails when one label is moved to the wrong figure."""

    def test_gallery_row_relabelled(self):
        text = read("results/README.md")
        good = "[thesis Fig 4.9 analogue](summa/fig4_9_vs_pdgemm.png)"
        self.assertIn(good, text)
        bad = text.replace(good, "[thesis Fig 4.10 analogue](summa/fig4_9_vs_pdgemm.png)")
        self.assertTrue(fl.check_markdown(INV, "results/README.md", bad, gallery=True))

    def test_gallery_figure_cell_only(self):
        """A figure cell's number must own the cell's link, even when the row links other files."""
        line = "| [Zhou Fig 9 analogue](collectives/fig7_onenode.png) | x | [plot](simulated/zhou-fig9-xc40-64.png) | y |"
        text = "## The gallery\n" + line + "\n"
        self.assertTrue(fl.check_markdown(INV, "results/README.md", text, gallery=True))

    def test_plot_title_relabelled(self):
        source = read("results/summa/plot_summa.py")
        good = "(cf. thesis Fig 4.8)"
        self.assertIn(good, source)
        self.assertEqual(fl.check_plot_script(INV, "results/summa/plot_summa.py", source), [])
        bad = source.replace(good, "(cf. thesis Figs 4.8/4.9)")
        self.assertTrue(fl.check_plot_script(INV, "results/summa/plot_summa.py", bad))

    def test_experiment_relabelled(self):
        text = read("results/experiments/cluster/hsumma-vs-pdgemm.toml")
        self.assertTrue(fl.check_experiment(INV, text.replace("Fig 4.9", "Fig 4.10"), "hsumma-vs-pdgemm.toml"))

    def test_cluster_file_relabelled(self):
        """A cluster file with no result yet may name only the figures whose command runs it."""
        where = "results/experiments/cluster/thesis-fig3_7-bcast-native-128.toml"
        text = read(where)
        self.assertEqual(fl.check_experiment(INV, text, where), [])
        self.assertTrue(fl.check_experiment(INV, text.replace("Fig 3.7", "Fig 3.8"), where))
        rows = [dict(r) for r in ROWS]
        row = next(r for r in rows if r["number"] == "Fig 3.7")
        row["command"] = row["command"].replace("thesis-fig3_7-", "thesis-fig3_7x-")
        self.assertTrue(fl.check_experiment(fl.Inventory(rows, FILES), text, where))
        self.assertTrue(fl.check_integrity(rows, FILES, EXPECTED), "a command naming no file")

    def test_file_renamed(self):
        inv = fl.Inventory(ROWS, FILES + ["results/summa/fig4_10_vs_pdgemm.png"])
        self.assertTrue(fl.check_file_names(inv))

    def test_csv_label(self):
        text = "experiment,x\nzhou-fig8,1\n"
        self.assertTrue(fl.check_csv_labels(INV, "results/simulated/zhou-fig9-xc40-64.csv", text))

    def test_inventory_row_dropped(self):
        self.assertTrue(fl.check_integrity(ROWS[1:], FILES, EXPECTED))

    def test_inventory_artifact_missing(self):
        rows = [dict(r) for r in ROWS]
        rows[0]["artifact"] += "; results/collectives/no-such-file.csv"
        self.assertTrue(fl.check_integrity(rows, FILES, EXPECTED))

    def test_mentions(self):
        m = fl.mentions("Figs 4.7–4.9 and Zhou Figs 7/8; Table 5.2; the Fig 7/8 style", INV.order)
        self.assertEqual(m, [("thesis", "Fig 4.7"), ("thesis", "Fig 4.8"), ("thesis", "Fig 4.9"),
                             ("Zhou", "Fig 7"), ("Zhou", "Fig 8"), ("thesis", "Table 5.2")])
        self.assertEqual(fl.name_mentions("results/summa/fig4_10_vs_pdgemm.png"), [("thesis", "Fig 4.10")])
        self.assertEqual(fl.name_mentions("fig7_onenode_median.png"), [("Zhou", "Fig 7")])
        self.assertEqual(fl.name_mentions("fig4.6-torus-64.csv"), [("thesis", "Fig 4.6")])


if __name__ == "__main__":
    unittest.main()
