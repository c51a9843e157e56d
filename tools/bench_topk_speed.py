"""Top-k speed on CPU: sort-slice-to-topk vs stock IREE's sort path vs torch.topk.

The program is what torch.topk(x, k, dim=-1).indices exports to (a sort with
`oge` over the values and an i64 iota, indices sliced), x of 37 x width f32.
IREE is timed with iree-benchmark-module (min over repetitions of the mean
per call) on local-sync (one thread, no scheduling) and local-task (thread
pool); a one-dispatch elementwise module of the same shape gives the
runtime's floor. torch is timed with torch.utils.benchmark (2 threads).
Stock IREE's bubble sort is O(width^2) per row: at width 32768 one call would
take minutes, so it is run only with --stock-wide.

    python tools/bench_topk_speed.py [--stock-wide] [--widths 64,1024,32768] [--ks 1,4,64] [--reps 5]
                                     [--skip topk,rank,stock]
"""

import argparse

from opt_py.bench.topk_speed import B, bench, compile_text, program, torch_us, trivial


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stock-wide", action="store_true", help="also time stock IREE's sort at width 32768")
    ap.add_argument("--widths", default="64,1024,32768")
    ap.add_argument("--ks", default="1,4,64")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--skip", default="", help="comma-separated columns not to time: topk,rank,stock")
    a = ap.parse_args()
    from opt_py.patterns.sort_slice_to_topk import MAX_ROUNDS, choose_form, chunk_size

    devs = ("local-sync", "local-task")
    print(
        f"x: {B} x width f32, indices (i64) of torch.topk(x, k, dim=-1); us per call, min of {a.reps} "
        "repetitions of iree-benchmark-module's mean; sync = local-sync, task = local-task"
    )
    cols = [
        "width",
        "k",
        "auto form",
        "auto s/t",
        "rounds s/t",
        "chunks s/t (C)",
        "topk-op s/t",
        "rank s/t",
        "stock sort s/t",
        "floor s/t",
        "torch",
        "auto-sync/torch",
    ]
    print(" | ".join(cols))

    def pair(vmfb, width, **kw):
        return "/".join(f"{bench(vmfb, width, d, reps=a.reps, **kw):.0f}" for d in devs)

    for width in map(int, a.widths.split(",")):
        floor = pair(compile_text(trivial(width), ()), width)
        for k in map(int, a.ks.split(",")):
            if k > width:
                continue
            text = program(width, k)
            form = choose_form(width, k, 32)
            auto = compile_text(text, ("global-optimization:sort-slice-to-topk",))
            auto_sync = bench(auto, width, "local-sync", reps=a.reps)
            auto_s = f"{auto_sync:.0f}/{bench(auto, width, 'local-task', reps=a.reps):.0f}"
            rounds_s = (
                pair(compile_text(text, ("global-optimization:sort-slice-to-topk{form=rounds}",)), width)
                if k <= MAX_ROUNDS
                else "over the cap"
            )
            c = chunk_size(width, k)
            chunks_s = (
                pair(compile_text(text, ("global-optimization:sort-slice-to-topk{form=chunks}",)), width) + f" ({c})"
                if c is not None and k <= MAX_ROUNDS
                else "n/a"
            )
            skip = a.skip.split(",")
            topk_s = (
                "skipped"
                if "topk" in skip
                else pair(compile_text(text, ("global-optimization:sort-slice-to-topk{form=topk}",)), width)
            )
            rank_s = (
                pair(compile_text(text, ("global-optimization:sort-slice-to-topk{form=rank}",)), width)
                if width <= 1024 and "rank" not in skip
                else "skipped (width^2)"
            )
            if "stock" in skip:
                stock_s = "skipped"
            elif width <= 1024 or a.stock_wide:
                quick = dict(min_time="1x") if width > 64 else {}
                stock_s = pair(compile_text(text, ()), width, **quick)
            else:
                stock_s = "skipped (minutes)"
            t = torch_us(width, k)
            print(
                " | ".join(
                    [
                        str(width),
                        str(k),
                        form,
                        auto_s,
                        rounds_s,
                        chunks_s,
                        topk_s,
                        rank_s,
                        stock_s,
                        floor,
                        f"{t:.0f}",
                        f"{auto_sync / t:.1f}x",
                    ]
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
