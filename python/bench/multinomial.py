"""Whether draws of ``torch.multinomial`` with replacement follow their weights: what the test of
torch-multinomial-inverse-cdf asserts and tools/bench_multinomial.py reports, written once.

Random draws have no expected values, so the check is against the distribution torch defines,
P(k) = w[k] / sum(w): every draw in range, none of a category of weight 0, and per row Pearson's
chi-square of the counts under its mean plus 8 standard deviations (df + 8 sqrt(2 df)): a guard
against a wrong distribution, not a coin toss (IREE's draws repeat from a fresh context).
"""

import numpy as np

MIN_DRAWS = 100  # fewer draws a row: no chi-square (range and weight 0 are still checked)


def draws_wrong(weights: np.ndarray, samples: np.ndarray, n: int) -> str:
    """ "" when ``samples`` (``n`` draws a row of ``weights``' rows) follow the weights, else what is wrong."""
    rows = np.asarray(weights, np.float64).reshape(-1, weights.shape[-1])
    s = np.asarray(samples).reshape(rows.shape[0], n)
    if s.min() < 0 or s.max() >= rows.shape[1]:
        return f"category {s.max() if s.max() >= rows.shape[1] else s.min()} of {rows.shape[1]}"
    for row, (wr, sr) in enumerate(zip(rows, s)):
        counts = np.bincount(sr, minlength=rows.shape[1])
        if counts[wr == 0].any():
            return f"row {row}: drew categories of weight 0: {np.flatnonzero((wr == 0) & (counts > 0))}"
        live = wr > 0
        if live.sum() < 2 or n < MIN_DRAWS:
            continue  # one category: every draw is it (checked above); too few draws for chi-square
        expected = n * wr[live] / wr.sum()
        chi2, df = float(((counts[live] - expected) ** 2 / expected).sum()), int(live.sum()) - 1
        if chi2 >= df + 8 * np.sqrt(2 * df):
            return f"row {row}: chi-square {chi2:.1f} for {df} degrees of freedom"
    return ""
