#!/usr/bin/python3
"""Hop model of Open MPI's forced chain (fanout 4) and pipeline (a chain of fanout 1) broadcasts run
UNSEGMENTED (coll_tuned_bcast_algorithm_segmentsize = 0, the MCA default when an algorithm is forced),
flat and as the hierarchical broadcast over G groups, one rank per node on Graphene GigE: the size of
the mechanism behind thesis Figs 3.8 / 3.9 that SimGrid 3.32 cannot run (no chain; its ompi_pipeline
segments 16 MiB into 64-128 KiB pieces). A hop costs alpha + m / beta (Graphene GigE's effective
alpha = 48.06 us, beta = 117.59 MB/s, apps/smpi/README.md); the root of a fanout-f chain sends f
copies through its one link (f x m / beta + alpha until the last chain head has it). Contention
between chains elsewhere and the groups' concurrent starts are not modelled (the simulated 16 KiB
chain, graphene-thesis-fig3_8-3_9-bcast-128.csv, checks the fanout-1 case).

usage: model_ompi_chain_bcast.py [--ranks P] [--alpha S] [--beta BPS]   (CSV on stdout)
"""
import argparse
import math


def chain(n, m, f, alpha, beta):
    """Time of a fanout-f unsegmented chain broadcast of m bytes over n ranks."""
    if n <= 1:
        return 0.0
    heads = min(f, n - 1)
    length = math.ceil((n - 1) / heads)  # the longest chain, its head included
    return heads * m / beta + alpha + (length - 1) * (alpha + m / beta)


def groups_of(p, g):
    return [(i + 1) * p // g - i * p // g for i in range(g)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=128)
    ap.add_argument("--alpha", type=float, default=48.06e-6)
    ap.add_argument("--beta", type=float, default=117.59e6)
    a = ap.parse_args()
    if a.ranks < 2 or a.alpha < 0 or a.beta <= 0:
        ap.error("--ranks >= 2, --alpha >= 0, --beta > 0")
    print("kind,machine,ranks,fanout,bytes,flat_s,best_groups,best_s,gain,alpha_s,beta_bps")
    for f in (1, 4):
        for m in (16384, 16 << 20):
            flat = chain(a.ranks, m, f, a.alpha, a.beta)
            best = min((chain(g, m, f, a.alpha, a.beta) + max(chain(n, m, f, a.alpha, a.beta) for n in groups_of(a.ranks, g)), g)
                       for g in range(2, a.ranks))
            print(f"modelled,graphene-gige,{a.ranks},{f},{m},{flat:.6g},{best[1]},{best[0]:.6g},{flat / best[0]:.3f},"
                  f"{a.alpha},{a.beta}")


if __name__ == "__main__":
    main()
