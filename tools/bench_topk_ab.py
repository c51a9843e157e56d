"""Interleaved A/B of sort-slice-to-topk's forms and torch.topk at one shape (local-sync, us per call).

Each round times every variant once, in turn, so load from other processes falls on all of them;
the figure is the min over rounds, and the ratio is to the first variant.

    python tools/bench_topk_ab.py WIDTH K "form=rounds;form=chunks;stock;torch" [--rounds 5]
"""

import argparse

from opt_py.bench import topk_speed as b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("width", type=int)
    ap.add_argument("k", type=int)
    ap.add_argument("variants", help="';'-separated: pass options (form=...), 'stock' or 'torch'")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--min-time", default="0.2s")
    a = ap.parse_args()
    names = a.variants.split(";")
    text = b.program(a.width, a.k)
    vm = {
        n: b.compile_text(text, () if n == "stock" else (f"global-optimization:sort-slice-to-topk{{{n}}}",))
        for n in names
        if n != "torch"
    }
    res = {n: [] for n in names}
    for _ in range(a.rounds):
        for n in names:
            res[n].append(
                b.torch_us(a.width, a.k)
                if n == "torch"
                else b.bench(vm[n], a.width, "local-sync", reps=1, min_time=a.min_time)
            )
    base = min(res[names[0]])
    print(f"{b.B}x{a.width} k={a.k}: " + "  ".join(f"{n} {min(v):.0f} ({min(v) / base:.2f})" for n, v in res.items()))


if __name__ == "__main__":
    main()
