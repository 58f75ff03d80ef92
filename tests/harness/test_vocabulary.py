#!/usr/bin/env python3
"""The harness's words: the one boolean vocabulary (as the library's parse_bool) in
--set values and environment switches, where "1" and "0" in --set stay numbers."""
import os
import sys
import unittest

HARNESS = os.path.abspath(os.environ.get("HYMPI_HARNESS", os.path.join(os.path.dirname(__file__),
                                                                        "../../apps/harness/hympi-harness")))
sys.path.insert(0, os.path.dirname(HARNESS))
from hympi_harness.booleans import is_set, parse_bool  # noqa: E402
from hympi_harness.experiment import _parse_set_value  # noqa: E402


class Booleans(unittest.TestCase):
    def test_vocabulary_in_any_case(self):
        for word in ("1", "true", "yes", "on", "TRUE", "Yes", "On"):
            self.assertIs(parse_bool(word), True, word)
        for word in ("0", "false", "no", "off", "False", "NO", "oFF"):
            self.assertIs(parse_bool(word), False, word)
        for word in ("", "2", "y", "truee", " on"):
            self.assertIsNone(parse_bool(word), word)

    def test_environment_switch(self):
        self.assertTrue(is_set("1") and is_set("yes") and is_set("ON"))
        self.assertFalse(is_set(None) or is_set("") or is_set("0") or is_set("off") or is_set("maybe"))

    def test_set_values(self):
        self.assertEqual(_parse_set_value("1,2,4"), [1, 2, 4])
        self.assertEqual(_parse_set_value("0,1"), [0, 1])
        self.assertEqual(_parse_set_value("true,Off,yes"), [True, False, True])
        self.assertEqual(_parse_set_value("pure,hybrid,0.5"), ["pure", "hybrid", 0.5])


if __name__ == "__main__":
    unittest.main()
