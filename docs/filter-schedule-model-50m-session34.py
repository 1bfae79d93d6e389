# The nineteenth session's model (docs/filter-schedule-model-session19.py: page bytes per URL of
# approximate mode's classes and Elias-Fano pages), run over the 50 M scale stream's key sizes
# (20,000 keys, URLs spread uniformly: binomial(50 M, 1/20,000), about 2,500 a key) and over single
# keys of 100 to 10 M URLs, with n0 = 512 and the chosen shares 1/((j+1)(j+2)) against 2^-(j+1).
# A model, not a measurement. Thirty-fourth session, 2026-11-27. Needs numpy.
import numpy as np
src = open(__file__.replace("filter-schedule-model-50m-session34.py", "filter-schedule-model-session19.py")).read()
ns = {}
exec(src.split("random.seed(1)")[0], ns)
exec("PAGE=512\n" + src.split("PAGE=512")[1].split("rows=[")[0], ns)
classes, key_bits = ns["classes"], ns["key_bits"]
shares = {"1/((j+1)(j+2)) (chosen)": ns["harm"], "2^-(j+1)": ns["geo2"]}
sizes50 = np.random.default_rng(1).binomial(50_000_000, 1 / 20000, 20000)
print(f"{'keys':32s} {'shares':24s} {'1e-2 B/URL':>10s} {'rate/p':>7s} {'1e-4 B/URL':>10s} {'rate/p':>7s}")
for label, sizes in [("50 M stream (20,000 keys)", sizes50)] + [
    (f"one key of {n:,}", [n]) for n in (100, 1000, 2500, 10000, 40000, 200000, 1000000, 10000000)
]:
    for name, share in shares.items():
        out = []
        for p in (1e-2, 1e-4):
            cls = classes(512, p, share, 4, False)
            tb = tr = 0
            for n in sizes:
                b, r = key_bits(int(n), cls, "elias-fano")
                tb += b
                tr += r * n
            out.append((tb / 8 / sum(sizes), tr / sum(sizes) / p))
        print(f"{label:32s} {name:24s} {out[0][0]:10.3f} {out[0][1]:7.2f} {out[1][0]:10.3f} {out[1][1]:7.2f}")
