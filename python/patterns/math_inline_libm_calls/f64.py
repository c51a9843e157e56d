"""The f64 functions libm would compute, written with what the embedded ELF has: arithmetic, sqrt, and musl's
f64 ``exp``, ``log``, ``floor``.

Each builder takes an f64 ``ir.Value`` and emits scalar ``arith``/``math`` ops at the current insertion point.
The polynomials are ``coefficients.py``'s (fitted by tools/derive_libm_coefficients.py); the reductions are the
classic ones (a 3-part Cody-Waite reduction by pi/2 for sin/cos/tan, atan's by 1/x and pi/4, asin's half-angle,
erf as 1 - exp(-x^2) g(x) beyond 0.84375, a frexp split for log2/log10, one Newton step for cbrt). Errors
against numpy, measured, are in docs/passes/math-inline-libm-calls.md.
"""

from __future__ import annotations

import math as pymath

from iree.compiler import ir
from iree.compiler.dialects import arith
from iree.compiler.dialects import math as m

from . import coefficients as C


def _f64():
    return ir.F64Type.get()


def c(v: float):
    return arith.constant(_f64(), v)


def add(a, b):
    return arith.addf(a, b)


def sub(a, b):
    return arith.subf(a, b)


def mul(a, b):
    return arith.mulf(a, b)


def div(a, b):
    return arith.divf(a, b)


def neg(a):
    return arith.negf(a)


def select(cond, a, b):
    return arith.select(cond, a, b)


def cmp(pred: str, a, b):
    codes = {"oeq": 1, "ogt": 2, "oge": 3, "olt": 4, "ole": 5, "one": 6, "ord": 7, "uno": 14}
    attr = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), codes[pred])
    return arith.cmpf(attr, a, b)


def horner(coeffs, z):
    """sum(coeffs[i] z^i), coeffs constant first."""
    acc = c(coeffs[-1])
    for k in reversed(coeffs[:-1]):
        acc = add(mul(acc, z), c(k))
    return acc


def _sign_negative(x):
    """The sign bit of ``x`` (true for -0.0 and negative NaNs)."""
    i64 = ir.IntegerType.get_signless(64)
    bits = arith.bitcast(i64, x)
    zero = arith.constant(i64, 0)
    return arith.cmpi(ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 2), bits, zero)  # slt


# --------------------------------------------------------------------------
# log2, log10: x = mant * 2^e, mant in [sqrt(1/2), sqrt(2))
# --------------------------------------------------------------------------


def _split(x):
    """(e, mant) with x = mant * 2^e, mant in [sqrt(1/2), sqrt(2)), e an f64; for positive finite x
    (subnormals scaled by 2^54 first)."""
    i64 = ir.IntegerType.get_signless(64)
    tiny = cmp("olt", x, c(2.2250738585072014e-308))
    scaled = select(tiny, mul(x, c(2.0**54)), x)
    bits = arith.bitcast(i64, scaled)
    exp_bits = arith.andi(arith.shrui(bits, arith.constant(i64, 52)), arith.constant(i64, 0x7FF))
    e = arith.subi(exp_bits, arith.constant(i64, 1023))
    mant_bits = arith.ori(arith.andi(bits, arith.constant(i64, (1 << 52) - 1)), arith.constant(i64, 1023 << 52))
    mant = arith.bitcast(_f64(), mant_bits)  # in [1, 2)
    big = cmp("ogt", mant, c(C.SQRT2))
    mant = select(big, mul(mant, c(0.5)), mant)
    e = arith.sitofp(_f64(), e)
    e = add(e, select(big, c(1.0), c(0.0)))
    e = sub(e, select(tiny, c(54.0), c(0.0)))
    return e, mant


def _positive_finite(x):
    return arith.andi(cmp("ogt", x, c(0.0)), cmp("olt", x, c(pymath.inf)))


def log2(x):
    e, mant = _split(x)
    main = add(e, mul(m.log(mant), c(C.INV_LN2)))
    return select(_positive_finite(x), main, mul(m.log(x), c(C.INV_LN2)))  # 0, <0, inf, NaN: log's answer


def log10(x):
    e, mant = _split(x)
    main = add(mul(e, c(C.LOG10_2[0])), add(mul(e, c(C.LOG10_2[1])), mul(m.log(mant), c(C.INV_LN10))))
    return select(_positive_finite(x), main, mul(m.log(x), c(C.INV_LN10)))


# --------------------------------------------------------------------------
# tanh
# --------------------------------------------------------------------------


def tanh(x):
    a = m.absf(x)
    z = mul(x, x)
    small = add(x, mul(mul(x, z), horner(C.TANH, z)))
    e = m.exp(mul(a, c(2.0)))
    large = m.copysign(sub(c(1.0), div(c(2.0), add(e, c(1.0)))), x)
    return select(cmp("olt", a, c(0.625)), small, large)


# --------------------------------------------------------------------------
# sin, cos, tan: x = k pi/2 + r, |r| <= pi/4
# --------------------------------------------------------------------------


def _reduce(x):
    """(r, quadrant) with x = k pi/2 + r, quadrant = k mod 4 as an i64: r = x - k p1 - k p2 - ..., each
    product exact (26-bit parts, |k| < 2^27), so fused or not (IREE lets LLVM contract) the same r."""
    k = m.floor(add(mul(x, c(C.TWO_OVER_PI)), c(0.5)))
    r = x
    for part in C.PIO2_PARTS:
        r = sub(r, mul(k, c(part)))
    i64 = ir.IntegerType.get_signless(64)
    # k mod 4 (exact in f64 for any k): k - 4 floor(k / 4).
    quad = sub(k, mul(c(4.0), m.floor(mul(k, c(0.25)))))
    quad = select(cmp("ord", quad, quad), quad, c(0.0))  # inf/NaN inputs: r is NaN anyway
    return r, arith.fptosi(i64, quad)


def _sin_kernel(r, z):
    return add(r, mul(mul(r, z), horner(C.SIN, z)))


def _cos_kernel(z):
    h = mul(z, c(0.5))
    w = sub(c(1.0), h)
    return add(w, add(sub(sub(c(1.0), w), h), mul(mul(z, z), horner(C.COS, z))))


def _quadrant_is(q, n: int):
    i64 = ir.IntegerType.get_signless(64)
    return arith.cmpi(ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0), q, arith.constant(i64, n))


# Beyond 2^26 the products k * part stop being exact and the reduction loses accuracy (Payne-Hanek's table
# of 2/pi would be needed): the result is NaN there, not a wrong number.
TRIG_LIMIT = 2.0**26


def _in_range(x, value):
    return select(cmp("olt", m.absf(x), c(TRIG_LIMIT)), value, c(pymath.nan))


def sin(x):
    r, q = _reduce(x)
    z = mul(r, r)
    s, co = _sin_kernel(r, z), _cos_kernel(z)
    out = select(_quadrant_is(q, 0), s, select(_quadrant_is(q, 1), co, select(_quadrant_is(q, 2), neg(s), neg(co))))
    return _in_range(x, out)


def cos(x):
    r, q = _reduce(x)
    z = mul(r, r)
    s, co = _sin_kernel(r, z), _cos_kernel(z)
    out = select(_quadrant_is(q, 0), co, select(_quadrant_is(q, 1), neg(s), select(_quadrant_is(q, 2), neg(co), s)))
    return _in_range(x, out)


def tan(x):
    r, q = _reduce(x)
    z = mul(r, r)
    s, co = _sin_kernel(r, z), _cos_kernel(z)
    i64 = ir.IntegerType.get_signless(64)
    odd = arith.cmpi(
        ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1),
        arith.andi(q, arith.constant(i64, 1)),
        arith.constant(i64, 0),
    )  # ne
    return _in_range(x, select(odd, neg(div(co, s)), div(s, co)))


# --------------------------------------------------------------------------
# atan, atan2, asin, acos
# --------------------------------------------------------------------------


def _atan_kernel(u):
    z = mul(u, u)
    return add(u, mul(mul(u, z), horner(C.ATAN, z)))


def _atan_positive(a):
    """atan(a) for a >= 0 (inf and NaN included)."""
    inverted = cmp("ogt", a, c(1.0))
    u0 = select(inverted, div(c(1.0), a), a)
    shifted = cmp("ogt", u0, c(C.TAN_PI_8))
    u = select(shifted, div(sub(u0, c(1.0)), add(u0, c(1.0))), u0)
    base = add(select(shifted, c(C.PIO4[0]), c(0.0)), add(select(shifted, c(C.PIO4[1]), c(0.0)), _atan_kernel(u)))
    return select(inverted, add(sub(c(C.PIO2[0]), base), c(C.PIO2[1])), base)


def atan(x):
    return m.copysign(_atan_positive(m.absf(x)), x)


def atan2(y, x):
    ay, ax = m.absf(y), m.absf(x)
    both_zero = arith.andi(cmp("oeq", ay, c(0.0)), cmp("oeq", ax, c(0.0)))
    both_inf = arith.andi(cmp("oeq", ay, c(pymath.inf)), cmp("oeq", ax, c(pymath.inf)))
    t = _atan_positive(div(ay, ax))
    t = select(both_zero, c(0.0), select(both_inf, c(C.PIO4[0]), t))
    r = select(_sign_negative(x), add(sub(c(C.PI[0]), t), c(C.PI[1])), t)
    return m.copysign(r, y)


def _asin_kernel(s):
    z = mul(s, s)
    return add(s, mul(mul(s, z), horner(C.ASIN, z)))


def _half_angle_root(a):
    """sqrt((1 - a) / 2) for a in [0.5, 1] (exact up to the root's rounding; NaN for a > 1)."""
    return m.sqrt(mul(sub(c(1.0), a), c(0.5)))


def asin(x):
    a = m.absf(x)
    near = add(sub(c(C.PIO2[0]), mul(c(2.0), _asin_kernel(_half_angle_root(a)))), c(C.PIO2[1]))
    return m.copysign(select(cmp("ole", a, c(0.5)), _asin_kernel(a), near), x)


def acos(x):
    a = m.absf(x)
    middle = add(sub(c(C.PIO2[0]), _asin_kernel(x)), c(C.PIO2[1]))
    twice = mul(c(2.0), _asin_kernel(_half_angle_root(a)))
    far = select(_sign_negative(x), add(sub(c(C.PI[0]), twice), c(C.PI[1])), twice)
    return select(cmp("ole", a, c(0.5)), middle, far)


# --------------------------------------------------------------------------
# cbrt, erf
# --------------------------------------------------------------------------


def _pow2_signed(k):
    """2^k for an f64 integer k in [-1022, 1023]."""
    i64 = ir.IntegerType.get_signless(64)
    biased = arith.addi(arith.fptosi(i64, k), arith.constant(i64, 1023))
    return arith.bitcast(_f64(), arith.shli(biased, arith.constant(i64, 52)))


def cbrt(x):
    """a = mant 2^(3k + j), j in {0, 1, 2}: cbrt(a) = cbrt(mant 2^j) 2^k, the root of a number in [0.7, 5.7)
    (exp(log / 3), one Newton step), so that no intermediate is subnormal (the runtime flushes those)."""
    a = m.absf(x)
    e, mant = _split(select(_positive_finite(a), a, c(1.0)))
    k = m.floor(mul(e, c(1.0 / 3.0)))
    j = sub(e, mul(c(3.0), k))
    k = add(k, select(cmp("olt", j, c(0.0)), c(-1.0), select(cmp("oge", j, c(3.0)), c(1.0), c(0.0))))
    j = sub(e, mul(c(3.0), k))
    v = mul(mant, _pow2_signed(j))
    y = m.exp(mul(m.log(v), c(1.0 / 3.0)))
    y2 = mul(y, y)
    y = sub(y, div(sub(mul(y2, y), v), mul(c(3.0), y2)))
    root = mul(y, _pow2_signed(k))
    root = select(_positive_finite(a), root, a)  # 0, inf, NaN: themselves
    return m.copysign(root, x)


def erf(x):
    a = m.absf(x)
    z = mul(x, x)
    small = add(mul(x, c(C.ERF_C0)), mul(x, horner(C.ERF, z)))
    # 1 - exp(-a^2) g(a), g's polynomial chosen by piece (coefficients selected, one Horner).
    degree = len(C.ERFC_PIECES[0][3])
    center = c(C.ERFC_PIECES[-1][2])
    coeffs = [c(C.ERFC_PIECES[-1][3][i]) for i in range(degree)]
    for _lo, hi, mid, piece in reversed(C.ERFC_PIECES[:-1]):
        here = cmp("olt", a, c(hi))
        center = select(here, c(mid), center)
        coeffs = [select(here, c(piece[i]), coeffs[i]) for i in range(degree)]
    t = sub(a, center)
    g = coeffs[-1]
    for k in reversed(coeffs[:-1]):
        g = add(mul(g, t), k)
    tail = sub(c(1.0), mul(m.exp(neg(mul(a, a))), g))
    tail = select(cmp("olt", a, c(C.ERFC_PIECES[-1][1])), tail, c(1.0))
    out = select(cmp("olt", a, c(C.ERFC_PIECES[0][0])), small, m.copysign(tail, x))
    return select(cmp("uno", x, x), x, out)


# --------------------------------------------------------------------------
# fmod (arith.remf): exact, in integers
# --------------------------------------------------------------------------


def _integer_parts(a):
    """(mantissa, exponent) as i64 with a = mantissa * 2^exponent, for a >= 0 finite (subnormals included)."""
    i64 = ir.IntegerType.get_signless(64)
    bits = arith.bitcast(i64, a)
    field = arith.shrui(bits, arith.constant(i64, 52))
    frac = arith.andi(bits, arith.constant(i64, (1 << 52) - 1))
    normal = arith.cmpi(ir.IntegerAttr.get(i64, 1), field, arith.constant(i64, 0))  # ne
    mant = select(normal, arith.ori(frac, arith.constant(i64, 1 << 52)), frac)
    exp = arith.subi(select(normal, field, arith.constant(i64, 1)), arith.constant(i64, 1075))
    return mant, exp


def _scale(v, e):
    """v * 2^e (e an i64 in [-1074, 971]) by two exact multiplications by normal powers of two."""
    i64 = ir.IntegerType.get_signless(64)
    half = arith.divsi(e, arith.constant(i64, 2))
    rest = arith.subi(e, half)

    def pow2(k):
        biased = arith.addi(k, arith.constant(i64, 1023))
        return arith.bitcast(_f64(), arith.shli(biased, arith.constant(i64, 52)))

    return mul(mul(v, pow2(half)), pow2(rest))


def fmod(x, y):
    """C's fmod: |x| = Mx 2^ex, |y| = My 2^ey; (Mx 2^(ex - ey)) mod My by shifting in 10 bits at a time
    (integer remainders, exact whatever LLVM contracts), times 2^ey."""
    from iree.compiler.dialects import scf

    i64 = ir.IntegerType.get_signless(64)
    ax, ay = m.absf(x), m.absf(y)
    mx, ex = _integer_parts(ax)
    my, ey = _integer_parts(ay)
    valid = arith.andi(_positive_finite(ay), arith.andi(cmp("oge", ax, ay), cmp("olt", ax, c(pymath.inf))))
    one = arith.constant(i64, 1)
    my_safe = select(valid, my, one)  # no remainder by 0 where the loop does not matter
    start = arith.remui(mx, my_safe)
    todo = select(valid, arith.subi(ex, ey), arith.constant(i64, 0))
    loop = scf.WhileOp([i64, i64], [start, todo])
    before = loop.before.blocks.append(i64, i64)
    with ir.InsertionPoint(before):
        more = arith.cmpi(ir.IntegerAttr.get(i64, 4), before.arguments[1], arith.constant(i64, 0))  # sgt
        scf.ConditionOp(more, list(before.arguments))
    after = loop.after.blocks.append(i64, i64)
    with ir.InsertionPoint(after):
        rem, left = after.arguments
        shift = arith.minsi(left, arith.constant(i64, 10))
        rem = arith.remui(arith.shli(rem, shift), my_safe)  # rem < My < 2^53: shifted by 10, below 2^63
        scf.YieldOp([rem, arith.subi(left, shift)])
    result = _scale(arith.uitofp(_f64(), loop.results[0]), ey)
    out = m.copysign(select(valid, result, ax), x)  # |x| < |y|, or y infinite: x itself
    invalid = arith.ori(
        arith.ori(cmp("oeq", ay, c(0.0)), cmp("uno", y, y)), arith.ori(cmp("oeq", ax, c(pymath.inf)), cmp("uno", x, x))
    )
    return select(invalid, c(pymath.nan), out)
