# How far the 2 M benchmark stream's 1% figure is from a filter that knows each key's final size.
# Key sizes from docs/filter-schedule-model-session19.py (CrawlStream's generator re-run in
# Python). For each key of N URLs, an "oracle" filter holds one sorted set of N prefixes in a
# universe of N/p values, so its rate is exactly p; it is coded in pages of about 512 as approximate
# mode's pages are. Printed: page bytes per URL at 1% and 1e-4 for
#   - Elias-Fano with l = floor(log2(U/n)) (what FingerprintPage writes) plus 16 bits a page,
#   - the entropy of such a set, log2(C(U, n)) (no code can do better on average),
# beside the chosen schedule's figure from the session-19 model (n0 512) and the measured one.
# The difference between the oracle and the chosen schedule is what not knowing N costs (Pagh,
# Segev, Wieder, FOCS 2013), the difference between Elias-Fano and the entropy what the code costs.
import math
# The key sizes, from the nineteenth session's model (everything before its page code).
src = open(__file__.replace("filter-oracle-model-session42.py", "filter-schedule-model-session19.py")).read()
ns = {}
exec(src.split("PAGE=512")[0], ns)
sizes=[n for n in ns["sizes"] if n]
PAGE=512
def log2_binom(U,n):
    return (math.lgamma(U+1)-math.lgamma(n+1)-math.lgamma(U-n+1))/math.log(2)
def oracle(N,p,code):
    U=N/p; P=max(1,round(N/PAGE)); per=N/P; Up=U/P
    if code=='ef':
        l=max(0,math.floor(math.log2(Up/per)))
        return P*(per*l+per+Up/2**l+16)
    return P*log2_binom(Up,per)
tot=sum(sizes)
print(f"key sizes: {len(sizes)} keys, {tot:,} URLs (the stream: 745,805)")
print(f"{'filter':62s} {'1e-2 B/URL':>10s} {'1e-4 B/URL':>10s}")
for name,code in (("oracle, one set of N at rate p, Elias-Fano pages",'ef'),("oracle, one set of N at rate p, entropy (any code)",'ent')):
    r=[sum(oracle(N,p,code) for N in sizes)/8/tot for p in (1e-2,1e-4)]
    print(f"{name:62s} {r[0]:10.3f} {r[1]:10.3f}")
print(f"{'chosen schedule, n0 512 (session-19 model)':62s} {1.438:10.3f} {2.282:10.3f}")
print(f"{'measured, pages on the heap (forty-second session)':62s} {1.48:10.3f} {2.32:10.3f}")
