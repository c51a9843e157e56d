"""Derive the polynomial coefficients of math-inline-libm-calls' f64 functions, with mpmath.

    python tools/derive_libm_coefficients.py > python/patterns/math_inline_libm_calls/coefficients.py
    ruff format python/patterns/math_inline_libm_calls/coefficients.py

Each kernel is a polynomial P fitted (Chebyshev, ``mpmath.chebyfit``, 120-bit
arithmetic) to the part of a function that is left once its leading terms are
written out exactly (``tanh(x) = x + x^3 P(x^2)`` on |x| <= 0.625, ...); the
degree is the smallest whose assembled function, with the coefficients
rounded to double and evaluated exactly, is within 2^-56 relative of the
function on 1001 points of the interval (2^-54 for erf's pieces beyond
0.84375, where rounding g's constant term alone costs that much) (the rounding of the double
evaluation, about 1 ulp, comes on top: docs/passes/math-inline-libm-calls.md
has the measured errors). Needs mpmath (a dependency of torch).
"""

from __future__ import annotations

import mpmath as mp

mp.mp.prec = 120
TOLERANCE = mp.mpf(2) ** -56


def as_double(c) -> float:
    return float(mp.mpf(c))


def fit(name, kernel, assemble, target, lo, hi, variable, max_degree=40, tolerance=TOLERANCE):
    """The double coefficients (constant first) of the least-degree kernel polynomial good to TOLERANCE.

    ``kernel(v)``: the function the polynomial approximates, of the variable v; ``variable(x)``: v of x;
    ``assemble(x, p)``: the function from p = the polynomial's value; ``target(x)``: the function."""
    xs = [lo + (hi - lo) * mp.mpf(i) / 1000 for i in range(1001)]
    v_lo, v_hi = sorted((variable(mp.mpf(lo)), variable(mp.mpf(hi))))
    for degree in range(4, max_degree):
        coeffs = mp.chebyfit(kernel, [v_lo, v_hi], degree + 1)
        doubles = [as_double(c) for c in reversed(coeffs)]  # constant first
        worst = mp.mpf(0)
        for x in xs:
            v = variable(x)
            p = mp.polyval([mp.mpf(c) for c in reversed(doubles)], v)
            want = target(x)
            if want == 0:
                continue
            worst = max(worst, abs((assemble(x, p) - want) / want))
        if worst < tolerance:
            return name, doubles, worst
    raise SystemExit(f"{name}: no degree below {max_degree} reaches {mp.nstr(tolerance, 3)}")


def _series(f, leading, z):
    """(f(sqrt z) / sqrt z - leading) / z, continued to z = 0 by its Taylor limit."""
    if z == 0:
        return mp.taylor(lambda t: f(t), 0, 3)[3]
    s = mp.sqrt(z)
    return (f(s) / s - leading) / z


def kernels():
    out = []
    # tanh(x) = x + x^3 T(x^2), |x| <= 0.625
    out.append(
        fit(
            "TANH",
            lambda z: _series(mp.tanh, 1, z),
            lambda x, p: x + x**3 * p,
            mp.tanh,
            mp.mpf(2) ** -30,
            mp.mpf("0.625"),
            lambda x: x * x,
        )
    )
    # sin(r) = r + r^3 S(r^2), |r| <= pi/4
    out.append(
        fit(
            "SIN",
            lambda z: _series(mp.sin, 1, z),
            lambda x, p: x + x**3 * p,
            mp.sin,
            mp.mpf(2) ** -30,
            mp.pi / 4,
            lambda x: x * x,
        )
    )

    # cos(r) = 1 - r^2/2 + r^4 C(r^2), |r| <= pi/4
    def cos_kernel(z):
        if z == 0:
            return mp.mpf(1) / 24
        return (mp.cos(mp.sqrt(z)) - 1 + z / 2) / (z * z)

    out.append(
        fit("COS", cos_kernel, lambda x, p: 1 - x * x / 2 + x**4 * p, mp.cos, mp.mpf(0), mp.pi / 4, lambda x: x * x)
    )
    # atan(u) = u + u^3 A(u^2), |u| <= tan(pi/8)
    out.append(
        fit(
            "ATAN",
            lambda z: _series(mp.atan, 1, z),
            lambda x, p: x + x**3 * p,
            mp.atan,
            mp.mpf(2) ** -30,
            mp.tan(mp.pi / 8),
            lambda x: x * x,
        )
    )
    # asin(x) = x + x^3 B(x^2), |x| <= 0.5
    out.append(
        fit(
            "ASIN",
            lambda z: _series(mp.asin, 1, z),
            lambda x, p: x + x**3 * p,
            mp.asin,
            mp.mpf(2) ** -30,
            mp.mpf("0.5"),
            lambda x: x * x,
        )
    )

    # erf(x) = x * C + x * E(x^2), |x| <= 0.84375, C = 2/sqrt(pi) rounded to double (E(0) holds the rest)
    c0 = mp.mpf(as_double(2 / mp.sqrt(mp.pi)))

    def erf_kernel(z):
        if z == 0:
            return 2 / mp.sqrt(mp.pi) - c0
        s = mp.sqrt(z)
        return mp.erf(s) / s - c0

    out.append(
        fit(
            "ERF",
            erf_kernel,
            lambda x, p: x * c0 + x * p,
            mp.erf,
            mp.mpf(2) ** -30,
            mp.mpf("0.84375"),
            lambda x: x * x,
        )
    )
    # erfc(x) exp(x^2) on pieces of [0.84375, 6], each in t = x - center: erf(x) = 1 - exp(-x^2) g(x).
    pieces = []
    for lo, hi in (("0.84375", "1.25"), ("1.25", "1.75"), ("1.75", "2.5"), ("2.5", "3.5"), ("3.5", "6")):
        lo, hi = mp.mpf(lo), mp.mpf(hi)
        center = mp.mpf(as_double((lo + hi) / 2))

        def g(t, center=center):
            x = t + center
            return mp.erfc(x) * mp.exp(x * x)

        name, coeffs, worst = fit(
            "ERFC",
            g,
            lambda x, p: 1 - mp.exp(-x * x) * p,
            mp.erf,
            lo,
            hi,
            lambda x, center=center: x - center,
            tolerance=mp.mpf(2) ** -54,  # g's own rounding (2^-54 of erfc) is that much of erf at x = 0.84
        )
        pieces.append((as_double(lo), as_double(hi), as_double(center), coeffs, worst))
    return out, pieces


def truncated(v, bits: int) -> float:
    """``v`` rounded toward zero to ``bits`` significant bits (so that small integer multiples are exact)."""
    e = mp.floor(mp.log(abs(v), 2))
    scale = mp.mpf(2) ** (bits - 1 - e)
    return as_double(mp.floor(v * scale) / scale)


def constants() -> list[tuple[str, object, str]]:
    """(name, value, comment): the constants the f64 functions use, each a double or a tuple of doubles."""
    pio2 = mp.pi / 2
    parts = []
    for _ in range(4):
        parts.append(truncated(pio2 - sum(parts, mp.mpf(0)), 26))
    parts.append(as_double(pio2 - sum(parts, mp.mpf(0))))
    log10_2 = mp.log10(2)
    l_hi = truncated(log10_2, 42)

    def split(v):
        hi = as_double(v)
        return (hi, as_double(v - hi))

    return [
        ("PIO2_PARTS", tuple(parts), "pi/2 in 4 parts of 26 bits and a rest: k * part exact for |k| < 2^27"),
        ("PIO2", split(pio2), "pi/2 = hi + lo"),
        ("PIO4", split(mp.pi / 4), "pi/4 = hi + lo"),
        ("PI", split(mp.pi), "pi = hi + lo"),
        ("TWO_OVER_PI", as_double(2 / mp.pi), "2/pi"),
        ("TAN_PI_8", as_double(mp.tan(mp.pi / 8)), "tan(pi/8)"),
        ("INV_LN2", as_double(1 / mp.log(2)), "1/ln 2"),
        ("INV_LN10", as_double(1 / mp.log(10)), "1/ln 10"),
        (
            "LOG10_2",
            (l_hi, as_double(log10_2 - l_hi)),
            "log10(2) = hi + lo, hi of 42 bits: e * hi exact for |e| < 2^11",
        ),
        ("SQRT2", as_double(mp.sqrt(2)), "sqrt(2)"),
        ("ERF_C0", as_double(2 / mp.sqrt(mp.pi)), "2/sqrt(pi), the erf kernel's leading factor"),
    ]


def main():
    out, pieces = kernels()
    print('"""Polynomial coefficients (constant term first) of math-inline-libm-calls\' f64 kernels.')
    print()
    print("Generated by tools/derive_libm_coefficients.py (mpmath); do not edit by hand.")
    print('"""')
    print()
    for name, value, comment in constants():
        print(f"{name} = {value!r}  # {comment}")
    print()
    for name, coeffs, worst in out:
        print(f"# max relative error of the assembled function, exact evaluation: {mp.nstr(worst, 3)}")
        print(f"{name} = (")
        for c in coeffs:
            print(f"    {c!r},")
        print(")")
    print("# erf(x) = 1 - exp(-x^2) g(x) on [lo, hi): (lo, hi, center, coefficients of g in x - center)")
    print("ERFC_PIECES = (")
    for lo, hi, center, coeffs, worst in pieces:
        print(f"    # max relative error of erf on the piece, exact evaluation: {mp.nstr(worst, 3)}")
        print(f"    ({lo!r}, {hi!r}, {center!r}, (")
        for c in coeffs:
            print(f"        {c!r},")
        print("    )),")
    print(")")


if __name__ == "__main__":
    main()
