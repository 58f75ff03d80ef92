"""What the harness's test files share: where the harness and the fake app are (HYMPI_HARNESS,
else the source tree's hympi-harness, whose package is put on sys.path), a command run with
its text output captured and a timeout, and a test case with a fresh temporary directory."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.abspath(os.path.join(HERE, "..", ".."))
HARNESS = os.path.abspath(os.environ.get("HYMPI_HARNESS") or os.path.join(SOURCE, "apps/harness/hympi-harness"))
FAKE_APP = os.path.join(HERE, "fake_app.py")
sys.path.insert(0, os.path.dirname(HARNESS))


def run(cmd, timeout=120, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          timeout=timeout, **kw)


class TempDirCase(unittest.TestCase):
    """self.dir: a temporary directory of the test, removed after it; named after `prefix`."""
    prefix = "hympi-harness-test-"

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix=self.prefix)
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()
