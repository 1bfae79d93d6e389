# Can another split of the rate among classes bring approximate mode's pages to the 1.38 B/URL that
# 1.5 B/URL at 1% needs on the 2 M benchmark stream (issue 14)? The nineteenth session's model
# (docs/filter-schedule-model-session19.py: FingerprintFilterMath's classes, each width rounded up
# and its capacity filled, Elias-Fano pages of about 512) over a grid of schedules: n0 256, 512 or
# 1,024; class 0 gets the share s0 of p, class 1 s1, and classes j >= 2 split the rest as
# 2/(j(j+1)) (which sums to 1), so that large keys keep the chosen schedule's tail. Printed: page
# bytes per URL on the 2 M stream's key sizes, on the 50 M stream's (binomial, about 2,500 a key,
# as docs/filter-schedule-model-50m-session34.py) and for single keys of 10^4 to 10^7 URLs, at 1%
# and 1e-4. Then, for the chosen n0 of 512, each schedule's difference from the chosen shares
# 1/((j+1)(j+2)) averaged over 41 key sizes (100 to 10^7, log-spaced) and 21 rates (1e-4 to 3e-2,
# log-spaced). A model, not a measurement. Forty-fourth session, 2026-11-29. Needs numpy.
import math
import numpy as np
src = open(__file__.replace("filter-schedule-grid-session44.py", "filter-schedule-model-session19.py")).read()
ns = {}
exec(src.split("PAGE=512")[0], ns)
exec("PAGE=512\n" + src.split("PAGE=512")[1].split("rows=[")[0], ns)
classes, key_bits, harm = ns["classes"], ns["key_bits"], ns["harm"]
sizes2 = [n for n in ns["sizes"] if n]
sizes50 = np.random.default_rng(1).binomial(50_000_000, 1 / 20000, 20000)
big = [10_000, 100_000, 1_000_000, 10_000_000]
def cost(sizes, cls):
    return sum(key_bits(int(n), cls, "elias-fano")[0] for n in sizes) / 8 / sum(sizes)
def split(s0, s1):
    return lambda j: s0 if j == 0 else s1 if j == 1 else (1 - s0 - s1) * 2 / (j * (j + 1))
print(f"{'schedule':28s} {'p':>6s} {'2 M':>6s} {'50 M':>6s}  single keys of " + " ".join(f"{n:>10,}" for n in big))
def row(name, n0, share):
    for p in (1e-2, 1e-4):
        cls = classes(n0, p, share, 4, False)
        print(f"{name:28s} {p:6g} {cost(sizes2, cls):6.3f} {cost(sizes50, cls):6.3f}  {'':15s}"
              + " ".join(f"{cost([n], cls):10.3f}" for n in big), flush=True)
row("chosen: n0 512, harmonic", 512, harm)
grid = [(n0, s0, s1) for n0 in (256, 512, 1024) for s0 in (0.5, 0.55, 0.6, 0.65) for s1 in (0.15, 0.2, 0.25)]
for n0, s0, s1 in grid:
    row(f"n0 {n0}, s0 {s0}, s1 {s1}", n0, split(s0, s1))
sizes = [int(round(10 ** e)) for e in np.arange(2, 7.01, 0.125)]
rates = [10 ** e for e in np.arange(-4, -1.49, 0.125)]
def table(share):
    return np.array([[cost([n], classes(512, p, share, 4, False)) for n in sizes] for p in rates])
chosen = table(harm)
print("\nn0 512, against the chosen shares, over 41 key sizes x 21 rates (B/URL of pages):")
for s0, s1 in [(0.5, 0.15), (0.5, 1 / 6), (0.5, 0.2), (0.55, 0.2), (0.6, 0.2)]:
    d = table(split(s0, s1)) - chosen
    print(f"  s0 {s0}, s1 {s1:.3f}: mean {d.mean():+.4f}, best cell {d.min():+.3f}, worst cell {d.max():+.3f};"
          f" keys of 10^5 and more {d[:, sizes.index(100000):].mean():+.3f}", flush=True)
