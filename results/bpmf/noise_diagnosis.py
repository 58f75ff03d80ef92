#!/usr/bin/python3
"""Why the learned noise misses the 68% interval on ChEMBL-346 (issue 53).

Reads one hympi-bpmf run (--save-predictions, --save-samples-every N, --trace-csv) and
the train/test files; writes one CSV row per quantity (quantity, group, value, note):
- the training variance and the precision's cap as hympi-bpmf and SMURFF define it;
- per saved sample, the training residuals' sum of squares and the mean of the uncapped
  Gamma conditional of the precision given them, (n + 1) / (var + SSE);
- the held-out standardized residuals z = (y - mean) / std: quantiles against a
  Gaussian's, excess kurtosis, coverage of mean +- q_p std at 50/68/90/95/99%;
- the same coverage with the predictive's own equal-tailed interval (the mixture over
  the saved samples of N(mean_s, 1/alpha_s): |F(y) - 1/2| <= p/2, F its CDF), which
  checks that the Gaussian form mean +- q std is not what misses;
- the coverage by the compound's number of training ratings (heterogeneity of scale
  is one cause of heavy tails in z);
- the best single scale factor for 68% and what it does to 95%.
Usage: noise_diagnosis.py RUN_DIR TRAIN.mm TEST.mm OUT.csv [LABEL]
"""
import csv
import glob
import os
import sys

import numpy as np
from scipy import stats


def read_mm(path):
    with open(path) as f:
        lines = [l for l in f if not l.startswith("%")]
    rows, cols, _ = (int(x) for x in lines[0].split())
    a = np.loadtxt(lines[1:], ndmin=2)
    return rows, cols, a[:, 0].astype(np.int64) - 1, a[:, 1].astype(np.int64) - 1, a[:, 2]


def model_info(samples):
    info = {}
    with open(os.path.join(samples, "model.txt")) as f:
        for line in f:
            if "=" in line:
                k, v = line.split("=", 1)
                info[k.strip()] = v.strip()
    return info


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: noise_diagnosis.py RUN_DIR TRAIN.mm TEST.mm OUT.csv [LABEL]")
    run, train_path, test_path, out = sys.argv[1:5]
    label = sys.argv[5] if len(sys.argv) > 5 else os.path.basename(run.rstrip("/"))
    out_rows = []

    def put(quantity, group, value, note=""):
        out_rows.append([label, quantity, group, "%.6g" % value if isinstance(value, float) else value, note])

    _, _, ti, tj, ty = read_mm(train_path)
    _, _, si, sj, sy = read_mm(test_path)
    samples = os.path.join(run, "samples")
    info = model_info(samples)
    mean = float(info["mean"])
    n = len(ty)
    var = float(np.sum((ty - mean) ** 2) / n)  # hympi-bpmf: centred values' mean square
    put("train_ratings", "", n)
    put("train_variance", "", var, "sum of (y - mean)^2 / n over the training set")
    if info.get("noise") == "adaptive":
        sn_init, sn_max = float(info["sn_init"]), float(info["sn_max"])
        put("cap_hympi", "", sn_max / var, "SN_MAX / var (hympi-bpmf up to 2026-11-29)")
        put("cap_smurff", "", (sn_max + 1) / var, "(SN_MAX + 1) / var: SMURFF, Var(noise) = Var(total) / (SN + 1)")
        put("init_hympi", "", sn_init / var)
        put("init_smurff", "", (sn_init + 1) / var)

    files = sorted(glob.glob(os.path.join(samples, "sample-*-U.npy")))
    pred_s, alpha_s, uncapped, sse_s = [], [], [], []
    for fu in files:
        U = np.load(fu)
        V = np.load(fu.replace("-U.npy", "-V.npy"))
        a = float(np.load(fu.replace("-U.npy", "-alpha.npy")).ravel()[0])
        r = ty - mean - np.einsum("ij,ij->i", U[ti], V[tj])
        sse = float(r @ r)
        sse_s.append(sse)
        uncapped.append((n + 1.0) / (var + sse))  # mean of Gamma(1/2 + n/2, rate (var + sse)/2)
        alpha_s.append(a)
        pred_s.append(mean + np.einsum("ij,ij->i", U[si], V[sj]))
    pred_s, alpha_s = np.array(pred_s), np.array(alpha_s)
    S = len(files)
    put("saved_samples", "", S)
    put("alpha_sampled_mean", "", float(alpha_s.mean()), "the chain's precision over the saved samples")
    put("alpha_sampled_min", "", float(alpha_s.min()))
    put("train_rmse_mean", "", float(np.sqrt(np.mean(sse_s) / n)), "sqrt(SSE/n) of the training residuals, mean over samples")
    put("alpha_uncapped_conditional_mean", "", float(np.mean(uncapped)),
        "(n+1)/(var+SSE) at the saved samples: where the precision's conditional lies before the cap")
    put("alpha_uncapped_conditional_sd", "", float(np.mean(np.sqrt(n + 1.0) / (var + np.array(sse_s)))),
        "its standard deviation sqrt(shape)/rate")

    # The program's predictions and std (whatever --predictive-std said; 'noise' expected).
    _, _, _, _, pm = read_mm(os.path.join(run, "predictions.mm"))
    _, _, _, _, ps = read_mm(os.path.join(run, "predictions_std.mm"))
    # The mixture's std recomputed from the saved samples (a subset when N > 1).
    mix_var = pred_s.var(axis=0) + np.mean(1.0 / alpha_s)
    put("std_ratio_program_over_saved_mixture_median", "", float(np.median(ps / np.sqrt(mix_var))),
        "~1: the program's std is the samples' mixture (saved subset vs all samples)")
    noise_share = np.mean(1.0 / alpha_s) / mix_var
    put("noise_share_of_predictive_variance_median", "", float(np.median(noise_share)))

    resid = sy - pm
    put("test_rmse", "", float(np.sqrt(np.mean(resid ** 2))))
    z = resid / ps
    put("z_std", "", float(z.std()), "standardized held-out residual (y - mean)/std; 1 if calibrated")
    put("z_excess_kurtosis", "", float(stats.kurtosis(z)), "0 for a Gaussian")
    put("resid_excess_kurtosis", "", float(stats.kurtosis(resid)), "raw residuals y - mean")
    for q in (0.005, 0.025, 0.05, 0.16, 0.25, 0.5, 0.75, 0.84, 0.95, 0.975, 0.995):
        put("z_quantile", "%g" % q, float(np.quantile(z, q)), "Gaussian: %.4f" % stats.norm.ppf(q))
    # PIT of the mixture over the saved samples: F(y) = mean_s Phi((y - m_s) sqrt(alpha_s)).
    F = np.mean(stats.norm.cdf((sy[None, :] - pred_s) * np.sqrt(alpha_s)[:, None]), axis=0)
    for p in (0.50, 0.68, 0.90, 0.95, 0.99):
        qz = stats.norm.ppf(0.5 + p / 2)
        put("coverage_gaussian_interval", "%g" % p, float(np.mean(np.abs(z) <= qz)), "mean +- %.4f std" % qz)
        put("coverage_mixture_quantiles", "%g" % p, float(np.mean(np.abs(F - 0.5) <= p / 2)),
            "equal-tailed interval of the saved samples' mixture")
    # What if only the noise's shape were Student-t (same latent samples; not a t chain):
    # scale 1/sqrt(alpha_s) (the scale-mixture model's alpha), or the same variance.
    for nu in (3.0, 4.0, 6.0, 10.0):
        for how, scale in (("same_scale", 1.0), ("same_variance", np.sqrt((nu - 2.0) / nu))):
            Ft = np.mean(stats.t.cdf((sy[None, :] - pred_s) * np.sqrt(alpha_s)[:, None] / scale, nu), axis=0)
            for p in (0.68, 0.95):
                put("coverage_if_t_noise_%s" % how, "nu=%g p=%g" % (nu, p), float(np.mean(np.abs(Ft - 0.5) <= p / 2)),
                    "mixture quantile interval with t_nu noise of the saved samples' alpha")
    # One scale c for every std: the c that gives 68%, and its 95%.
    c68 = np.quantile(np.abs(z), 0.68) / stats.norm.ppf(0.84)
    put("scale_for_68", "", float(c68), "std x c gives 68% coverage")
    put("coverage95_at_scale_for_68", "", float(np.mean(np.abs(z) <= 1.959964 * c68)))
    # Students-t fit of z (location 0): the tail index the held-out residuals ask for.
    nu, _, sc = stats.t.fit(z, floc=0.0)
    put("z_student_t_nu", "", float(nu), "maximum-likelihood t fit of z (location 0)")
    put("z_student_t_scale", "", float(sc))
    # By the compound's training-rating count.
    counts = np.bincount(ti, minlength=max(ti.max(), si.max()) + 1)[si]
    for lo, hi in ((0, 0), (1, 1), (2, 2), (3, 4), (5, 9), (10, 10 ** 9)):
        m = (counts >= lo) & (counts <= hi)
        if m.sum() < 20:
            continue
        g = "%d-%s" % (lo, hi if hi < 10 ** 9 else "")
        put("entries_by_row_ratings", g, int(m.sum()))
        put("coverage68_by_row_ratings", g, float(np.mean(np.abs(z[m]) <= 0.994458)))
        put("coverage95_by_row_ratings", g, float(np.mean(np.abs(z[m]) <= 1.959964)))
        put("z_std_by_row_ratings", g, float(z[m].std()))
        put("rmse_by_row_ratings", g, float(np.sqrt(np.mean(resid[m] ** 2))))
        put("std_median_by_row_ratings", g, float(np.median(ps[m])))

    new = not os.path.exists(out)
    with open(out, "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(["run", "quantity", "group", "value", "note"])
        w.writerows(out_rows)
    for r in out_rows:
        print(",".join(str(x) for x in r[1:4]))


if __name__ == "__main__":
    main()
