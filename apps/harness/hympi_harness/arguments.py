"""Number options of the harness's command lines: finite, within their range, or a usage
error (exit 2) naming the option; float() alone would take nan, inf and negative values."""
import argparse
import math


def number(minimum=None, above=None):
    """An argparse type: a finite float, >= minimum or > above."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number")
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"{text} is below {minimum:g}")
        if above is not None and value <= above:
            raise argparse.ArgumentTypeError(f"{text} must be above {above:g}")
        return value
    return parse


def count(minimum=1):
    """An argparse type: a whole number >= minimum (ranks, nodes, cores)."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number")
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text} is below {minimum}")
        return value
    return parse
