#!/usr/bin/env python3
"""Compare float64 OpenCL.std results dumped by TestAccuracyDump with mpmath.

    EXTINST_ACCURACY_DUMP=/tmp/dump.txt go test ./internal/extinst -run TestAccuracyDump
    python3 internal/extinst/testdata/accuracy.py /tmp/dump.txt

Prints the worst error per function in ulps and OpenCL's full-profile bound
for double; OVER marks a function beyond it. Needs mpmath.
"""
import struct
from mpmath import mp, mpf
import mpmath
mp.prec = 200
def f(h): return struct.unpack('<d', struct.pack('<Q', int(h,16)))[0]
def ulp(v):
    v = abs(float(v))
    if v == 0: return 2**-1074
    import math
    m, e = math.frexp(v)
    return max(2.0**(e-53), 2**-1074)
fn = {
 'sin': mpmath.sin, 'cos': mpmath.cos, 'tan': mpmath.tan, 'asin': mpmath.asin, 'acos': mpmath.acos, 'atan': mpmath.atan,
 'sinh': mpmath.sinh, 'cosh': mpmath.cosh, 'tanh': mpmath.tanh, 'asinh': mpmath.asinh, 'acosh': mpmath.acosh, 'atanh': mpmath.atanh,
 'exp': mpmath.exp, 'exp2': lambda x: mpf(2)**x, 'expm1': mpmath.expm1, 'log': mpmath.log, 'log2': lambda x: mpmath.log(x,2),
 'log10': mpmath.log10, 'log1p': mpmath.log1p, 'cbrt': mpmath.cbrt, 'erf': mpmath.erf, 'erfc': mpmath.erfc,
 'acospi': lambda x: mpmath.acos(x)/mpmath.pi, 'asinpi': lambda x: mpmath.asin(x)/mpmath.pi, 'atanpi': lambda x: mpmath.atan(x)/mpmath.pi,
 'sinpi': mpmath.sinpi, 'cospi': mpmath.cospi, 'tanpi': lambda x: mpmath.sinpi(x)/mpmath.cospi(x), 'exp10': lambda x: mpf(10)**x,
 'rsqrt': lambda x: 1/mpmath.sqrt(x), 'tgamma': mpmath.gamma, 'lgamma': mpmath.loggamma, 'sqrt': mpmath.sqrt,
 'atan2': lambda y, x: mpmath.atan2(y, x), 'atan2pi': lambda y, x: mpmath.atan2(y, x)/mpmath.pi, 'hypot': lambda x, y: mpmath.hypot(x, y),
 'pow': lambda x, y: mpf(x)**y, 'powr': lambda x, y: mpf(x)**y,
}
bound = {'sin':4,'cos':4,'tan':5,'asin':4,'acos':4,'atan':5,'sinh':4,'cosh':4,'tanh':5,'asinh':4,'acosh':4,'atanh':5,'exp':3,'exp2':3,'expm1':3,
'log':3,'log2':3,'log10':3,'log1p':2,'cbrt':2,'erf':16,'erfc':16,'acospi':5,'asinpi':5,'atanpi':5,'sinpi':4,'cospi':4,'tanpi':6,'exp10':3,
'rsqrt':2,'tgamma':16,'lgamma':999,'sqrt':0.5,'atan2':6,'atan2pi':6,'hypot':4,'pow':16,'powr':16}
worst = {}
import sys
for line in open(sys.argv[1]):
    name, xs, ys, rs = line.split()
    x, y, r = f(xs), f(ys), f(rs)
    try:
        ref = fn[name](mpf(x), mpf(y)) if name in ('atan2','atan2pi','hypot','pow','powr') else fn[name](mpf(x))
    except Exception as e:
        continue
    if isinstance(ref, mpmath.mpc): continue
    import math
    if math.isinf(r) or math.isnan(r) or abs(ref) > 1.7976931348623157e308: continue
    if name == 'lgamma': ref = mpmath.re(ref)
    err = float(abs(mpf(r) - ref) / ulp(ref))
    if err > worst.get(name, (0,))[0]: worst[name] = (err, x, y)
for k in fn:
    if k in worst:
        e = worst[k]
        flag = 'OVER' if e[0] > bound[k] else ''
        print(f"{k:8s} worst {e[0]:8.3f} ulp (bound {bound[k]}) at x={e[1]!r} y={e[2]!r} {flag}")
