# Model of approximate mode's page bytes per URL (FingerprintFilterMath's classes, FingerprintPage's
# Elias-Fano pages of about 512 entries) over the key sizes of the 2 M benchmark stream, for other
# class schedules and codes. Key sizes: CrawlStream's generator re-run in Python (2,000 Zipf(1)
# domains, half navigation links over 20 paths, half articles over 20,000 pages drawn as u^2).
# Printed per variant and rate p: page bytes per URL, and rate/p, the rate the classes promise
# (sum of count_j / 2^w_j) averaged over the URLs, over p: below 1 is rate bought and not used.
import math, random, bisect
random.seed(1)
D=2000
w=[1/(i+1) for i in range(D)]; s=sum(w); cdf=[]; a=0
for x in w: a+=x/s; cdf.append(a)
sets=[set() for _ in range(D)]
for _ in range(int(2000000*0.98)):
    d=min(bisect.bisect_left(cdf,random.random()),D-1)
    if random.random()<0.5: sets[d].add(-1-random.randrange(20))
    else: sets[d].add(int(random.random()**2*20000))
sizes=[len(x) for x in sets]
PAGE=512
def page_bits(n,s,code):
    if n==0: return 0
    if code=='elias-fano':
        c=math.ceil(math.log2(n)) if n>1 else 0
        l=max(0,s-c)
        return n*l+n+(2**s>>l)+16
    # Golomb code with the best parameter for geometric gaps of mean m: about log2(m) + 1.5 bits
    # (the gaps' entropy is log2(e m) = log2(m) + 1.44)
    mean=2**s/n
    return n*(math.log2(mean)+1.5)+16
def classes(n0,p,share,growth,exact):
    out=[]
    for j in range(40):
        want=n0*growth**j; b=p*share(j)
        if exact: w=math.log2(want/b); cap=want
        else:
            w=math.ceil(math.log2(want/b)); cap=math.floor(b*2**w)
        out.append((w,cap))
    return out
def key_bits(N,cls,code):
    bits=0; rate=0; left=N
    for (w,cap) in cls:
        if left<=0: break
        n=min(left,cap); left-=n
        P=max(1,round(n/PAGE))
        per=n/P; sfx=w-math.log2(P)
        if code=='elias-fano' and w!=int(w):
            bits+=P*(per*(sfx-math.log2(per))+per*1.95+16) if per>1 else 16+sfx
        else:
            bits+=P*page_bits(int(round(per)),int(round(sfx)),code)
        rate+=n/2**w
    return bits,rate
harm=lambda j:1/((j+1)*(j+2))
sq=lambda j:6/math.pi**2/(j+1)**2
geo2=lambda j:0.5**(j+1)
geo3=lambda j:(1/3)*(2/3)**j
rows=[("chosen: n0 128, growth 4, shares 1/((j+1)(j+2)), Elias-Fano",128,harm,4,False,'elias-fano'),
("n0 512",512,harm,4,False,'elias-fano'),("n0 2048",2048,harm,4,False,'elias-fano'),
("growth 2",128,harm,2,False,'elias-fano'),("growth 8",128,harm,8,False,'elias-fano'),
("shares 6/(pi^2 (j+1)^2)",128,sq,4,False,'elias-fano'),("shares 2^-(j+1)",128,geo2,4,False,'elias-fano'),
("shares (1/3)(2/3)^j",128,geo3,4,False,'elias-fano'),
("universe not a power of two",128,harm,4,True,'elias-fano'),
("Golomb pages (log2 of the mean gap + 1.5 bits)",128,harm,4,False,'golomb'),
("Golomb pages, shares 2^-(j+1), n0 512",512,geo2,4,False,'golomb')]
tot=sum(sizes)
print(f"key sizes: {D} keys, {tot:,} URLs (the stream: 745,805)")
print(f"{'variant':55s} {'1e-2 B/URL':>10s} {'rate/p':>7s} {'1e-4 B/URL':>10s} {'rate/p':>7s}")
for name,n0,share,g,exact,code in rows:
    out=[]
    for p in (1e-2,1e-4):
        cls=classes(n0,p,share,g,exact); tb=0; tr=0
        for N in sizes:
            b,r=key_bits(N,cls,code); tb+=b; tr+=r*N
        out.append((tb/8/tot, tr/tot/p))
    print(f"{name:55s} {out[0][0]:10.3f} {out[0][1]:7.2f} {out[1][0]:10.3f} {out[1][1]:7.2f}")
