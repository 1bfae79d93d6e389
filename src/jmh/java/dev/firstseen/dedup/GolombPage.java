package dev.firstseen.dedup;

import java.util.Arrays;

/**
 * A prototype page code for {@link PageCodeBenchmark}, not part of the job: a sorted set of
 * distinct {@code s}-bit values as Golomb-coded gaps (quotient in unary, remainder in truncated
 * binary; Golomb, "Run-length encodings", IEEE Trans. Inf. Theory 1966), the code issue 14 names as
 * "Golomb-compressed sorted fingerprints". For gaps of a random set, which are about geometric, it
 * costs about {@code log2(mean gap) + 1.5} bits a value, against Elias-Fano's {@code + 1.9 to 2}. A
 * lookup decodes from the start of the page, or, with restart points, from the first value of the
 * value range's {@code 2^r}-th part that holds it: each part's gaps start again from the part's
 * base, and the page stores where each part's bits begin (16 bits a part, none for r = 0).
 *
 * <pre>
 *   2 bytes  n;  2 bytes  M, the Golomb parameter;  for r &gt; 0, 2^r · 2 bytes  each part's first bit
 *   the gaps, least significant bit first
 * </pre>
 */
final class GolombPage {
    private GolombPage() {}

    /**
     * A page of {@code sorted[0, n)} with {@code 2^r} restart points (r = 0: decode from the
     * start).
     */
    static byte[] encode(long[] sorted, int n, int s, int r) {
        int m = parameter(n, s);
        int parts = 1 << r;
        int header = header(r);
        int b = width(m);
        // Room for every gap's remainder (at most b bits) and stop bit, all quotients' ones
        // together (at most the largest value over M, plus one a part for the restarts), and 8
        // bytes of slack so that FingerprintPage.read and write may load a whole long anywhere.
        long room = (long) n * (b + 1) + (1L << s) / m + parts;
        byte[] a = new byte[header + (int) ((room + 7) >>> 3) + 8];
        long base = (long) header * 8;
        long at = 0;
        int[] starts = new int[parts];
        int i = 0;
        for (int part = 0; part < parts; part++) {
            starts[part] = (int) at;
            long prev = ((long) part << (s - r)) - 1;
            long end = (long) (part + 1) << (s - r);
            for (; i < n && sorted[i] < end; i++) {
                long d = sorted[i] - prev - 1;
                prev = sorted[i];
                long q = d / m;
                at = ones(a, base + at, q) - base;
                at++; // the quotient's stop bit, a zero
                at = putRemainder(a, base + at, m, d - q * m) - base;
            }
        }
        if (at >= 1 << 16 && r > 0) {
            throw new IllegalArgumentException("page too large for 16-bit restart points");
        }
        // The last byte's unused bits are ones: a quotient that runs past the code's end, which a
        // lookup takes for the end.
        ones(a, base + at, -at & 7);
        byte[] page = Arrays.copyOf(a, header + (int) ((at + 7) >>> 3) + 8);
        page[0] = (byte) n;
        page[1] = (byte) (n >>> 8);
        page[2] = (byte) m;
        page[3] = (byte) (m >>> 8);
        for (int part = 0; r > 0 && part < parts; part++) {
            page[4 + 2 * part] = (byte) starts[part];
            page[5 + 2 * part] = (byte) (starts[part] >>> 8);
        }
        // The last 8 bytes are slack so that a lookup may read a whole long anywhere in the code;
        // bytes() leaves them out of the size the benchmark reports.
        return page;
    }

    /** {@code q} one bits from bit {@code pos} on; returns the position after them. */
    private static long ones(byte[] a, long pos, long q) {
        while (q > 0) {
            int k = (int) Math.min(q, 57);
            FingerprintPage.write(a, pos, k, (1L << k) - 1);
            pos += k;
            q -= k;
        }
        return pos;
    }

    /** Bytes the page would take without the lookup's slack. */
    static int bytes(byte[] page) {
        return page.length - 8;
    }

    /** True if {@code v} is in the page. */
    static boolean contains(byte[] page, int s, int r, long v) {
        int n = (page[0] & 0xFF) | (page[1] & 0xFF) << 8;
        if (n == 0) {
            return false;
        }
        int m = (page[2] & 0xFF) | (page[3] & 0xFF) << 8;
        int parts = 1 << r;
        int header = header(r);
        int part = (int) (v >>> (s - r));
        long at = r == 0 ? 0 : start(page, part);
        long end = part + 1 < parts ? start(page, part + 1) : (long) (page.length - 8 - header) * 8;
        long prev = ((long) part << (s - r)) - 1;
        int b = width(m);
        long cutoff = (1L << b) - m;
        long base = (long) header * 8;
        while (at < end) {
            // The quotient: ones up to the next zero, a word at a time.
            long q = 0;
            while (true) {
                long w = ~word(page, base + at) & WORD_BITS;
                if (w != 0) {
                    int z = Long.numberOfTrailingZeros(w);
                    q += z;
                    at += z + 1;
                    break;
                }
                q += 57;
                at += 57;
            }
            if (at > end) {
                return false;
            }
            long rem = 0;
            if (b > 0) {
                long w = word(page, base + at);
                long x = b == 1 ? 0 : reverse(w & ((1L << (b - 1)) - 1), b - 1);
                if (x < cutoff) {
                    rem = x;
                    at += b - 1;
                } else {
                    rem = reverse(w & ((1L << b) - 1), b) - cutoff;
                    at += b;
                }
            }
            long value = prev + 1 + q * m + rem;
            if (value >= v) {
                return value == v;
            }
            prev = value;
        }
        return false;
    }

    /** The Golomb parameter for n random values of s bits: about ln 2 times the mean gap. */
    static int parameter(int n, int s) {
        double p = Math.min(0.5, (double) n / Math.scalb(1.0, s));
        int m = (int) Math.ceil(Math.log(2 - p) / -Math.log1p(-p));
        return Math.max(1, Math.min(m, 0xFFFF));
    }

    private static int header(int r) {
        return 4 + (r == 0 ? 0 : 2 << r);
    }

    private static long start(byte[] page, int part) {
        return (page[4 + 2 * part] & 0xFF) | (page[5 + 2 * part] & 0xFF) << 8;
    }

    /** 57 bits from {@code bit} on, least significant first. */
    private static long word(byte[] page, long bit) {
        return FingerprintPage.read(page, bit, 57);
    }

    /*
     * Truncated binary with b bits: a remainder below the cutoff in b - 1 bits, else remainder +
     * cutoff in b bits, written most significant bit first so that its first b - 1 bits tell the
     * two cases apart. The page is read least significant bit first, so the writer stores the
     * bits reversed and the reader reverses them back.
     */
    private static long putRemainder(byte[] a, long pos, int m, long rem) {
        int b = width(m);
        if (b == 0) {
            return pos;
        }
        long cutoff = (1L << b) - m;
        int w = rem < cutoff ? b - 1 : b;
        long x = rem < cutoff ? rem : rem + cutoff;
        if (w > 0) {
            FingerprintPage.write(a, pos, w, reverse(x, w));
        }
        return pos + w;
    }

    /** The low {@code w} (1 to 63) bits of {@code x} in reverse order. */
    private static long reverse(long x, int w) {
        return Long.reverse(x) >>> (64 - w);
    }

    /** Bits of a remainder's long form: ceil(log2 m). */
    private static int width(int m) {
        return m == 1 ? 0 : 32 - Integer.numberOfLeadingZeros(m - 1);
    }

    private static final long WORD_BITS = (1L << 57) - 1;
}
