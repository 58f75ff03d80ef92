"""Statistics of one point over its repetitions (launches), after Hoefler & Belli (SC15):
the median, the interquartile range and a nonparametric confidence interval of the median.

The interval is the order-statistic one: with x_(1) <= ... <= x_(n) and B ~ Binomial(n, 1/2),
[x_(k), x_(n+1-k)] holds the true median with probability 1 - 2 P(B <= k - 1), whatever the
distribution (continuous). k is the largest index whose coverage still reaches the level asked
for; below 6 samples no k reaches 95%, and the interval is [min, max] with its real (lower)
coverage reported, never a pretended 95%. Standard library only (Python 3.6)."""
import math

LEVEL = 0.95


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median of no samples")
    return s[n // 2] if n % 2 else midpoint(s[n // 2 - 1], s[n // 2])


def midpoint(a, b):
    """(a + b) / 2, also where a + b overflows (two values near 1e308): halved first then, which is
    exact for such large numbers. Either way the result lies in [a, b] (rounding is monotonic)."""
    mid = (a + b) / 2
    if math.isinf(mid) and math.isfinite(a) and math.isfinite(b):
        return a / 2 + b / 2
    return mid


def quantile(xs, q):
    """Linear interpolation between order statistics (numpy's default, R type 7)."""
    s = sorted(xs)
    if not s:
        raise ValueError("quantile of no samples")
    pos = (len(s) - 1) * q
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    step = s[hi] - s[lo]
    if math.isinf(step) and math.isfinite(s[lo]) and math.isfinite(s[hi]):  # -1e308 .. 1e308
        return s[lo] * (1 - (pos - lo)) + s[hi] * (pos - lo)
    return s[lo] + step * (pos - lo)


def _binomial_cdf_half(k, n):
    """P(B <= k) for B ~ Binomial(n, 1/2)."""
    if k < 0:
        return 0.0
    return sum(_comb(n, i) for i in range(k + 1)) / 2.0 ** n


def _comb(n, i):  # math.comb is 3.8+
    return math.factorial(n) // (math.factorial(i) * math.factorial(n - i))


def median_ci_ranks(n, level=LEVEL):
    """(k, coverage): the 1-based lower rank k of the interval [x_(k), x_(n+1-k)] and its coverage."""
    if n < 1:
        raise ValueError("confidence interval of no samples")
    best = 1
    for k in range(1, (n + 1) // 2 + 1):
        if 1 - 2 * _binomial_cdf_half(k - 1, n) >= level:
            best = k
        else:
            break
    return best, max(0.0, 1 - 2 * _binomial_cdf_half(best - 1, n))


def median_ci(xs, level=LEVEL):
    """(low, high, coverage) of the median of xs."""
    s = sorted(xs)
    k, coverage = median_ci_ranks(len(s), level)
    return s[k - 1], s[len(s) - k], coverage


def summary(xs, level=LEVEL):
    """The per-point statistics written into <output>.stats.csv."""
    m = median(xs)
    q1, q3 = quantile(xs, 0.25), quantile(xs, 0.75)
    lo, hi, coverage = median_ci(xs, level)
    # "launches", not "n": apps have an "n" column of their own (hympi-summa's matrix size).
    return {"launches": len(xs), "median": m, "q1": q1, "q3": q3, "iqr": q3 - q1, "ci_low": lo, "ci_high": hi,
            "ci_level": round(coverage, 4), "ci_width_pct": width_pct(lo, hi, m)}


def width_pct(lo, hi, mid):
    """The interval's width in percent of the median (inf for a zero median)."""
    if mid == 0:
        return 0.0 if hi == lo else math.inf
    return (hi - lo) / abs(mid) * 100.0  # dividing first: 100 * (hi - lo) overflows near 1e308


def precise_enough(xs, max_width_pct, level=LEVEL):
    """Whether the adaptive mode may stop: a real `level` interval no wider than max_width_pct."""
    if len(xs) < 2:
        return False
    lo, hi, coverage = median_ci(xs, level)
    return coverage >= level and width_pct(lo, hi, median(xs)) <= max_width_pct
