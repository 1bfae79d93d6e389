package dev.firstseen.dedup;

import java.io.IOException;
import java.util.Arrays;

/**
 * A key's page journal: the fingerprints inserted into its fingerprint pages since the pages were
 * last written whole, one list element per checkpoint that wrote some, and one per batch a cached
 * key writes between checkpoints ({@link FilterCache#JOURNAL_BATCH}) ({@link
 * DedupState#pageJournal()}). The key's stored pages and metadata are the state before them, so
 * inserting them again rebuilds the metadata and the pages' sets as they were on the heap: an
 * insert into a fingerprint filter depends only on the metadata and pages it meets (growth and page
 * splits included), and a journal holds inserts only (a removal writes the pages whole).
 *
 * <p>Nor does it depend on the order of the inserts that went to one class, but for the bytes of
 * its pages. A class is a set of prefixes; it splits a page whenever its count passes a multiple of
 * the page size, at a split pointer that moves by count alone, and what a page answers is a
 * function of its set (its bytes are not: a page keeps its newest entries in an unsorted tail, see
 * {@link FingerprintPage}). Only which inserts went to which class matters, and a new class is
 * added when the newest one is full, by count again. So an element keeps the inserts as segments,
 * one per class they went to, in order, each sorted and coded as gaps (Rice code, about {@code w -
 * log2 n + 2} bits an entry for {@code n} entries of {@code w} bits, against {@code w} in format
 * 2): at a rate of 1e-4, 23 bits instead of 28 for a key of 2,500 URLs (class width 28) that gains
 * 150 in a checkpoint; in exact mode 55 to 58 instead of 63 for 100 to 1,000. An insert reads only
 * the top {@code w} bits of a fingerprint's high half, {@code w} the width of its class; a segment
 * keeps those ({@link #width}: at least 8). Element format 3, big-endian:
 *
 * <pre>
 *   byte    format (3)
 *   segments, to the end of the element:
 *     byte    width w, 8 to 63
 *     varint  n, entries, 1 or more (7 bits a byte, low first, high bit: more)
 *     byte    k, Rice parameter, 0 to w
 *     n gaps between the entries' w-bit values in ascending order, the first from 0: each as
 *       (gap >>> k) one bits, a zero bit, then its low k bits
 *     0 to 7 zero bits, to a whole byte
 * </pre>
 *
 * Formats 1 (a format byte, then whole 64-bit high halves) and 2 (a format byte, a width byte, then
 * {@code width}-bit prefixes in insertion order, zero bits to a whole byte), written by the
 * eleventh and twelfth sessions' FirstSeen, are still read, also mixed with format 3 in one key's
 * list. {@code PageJournalTest} pins all three.
 */
final class PageJournal {
    private PageJournal() {}

    /** The format written. */
    static final int FORMAT = 3;

    static final int FORMAT_WHOLE_HALVES = 1;

    static final int FORMAT_PREFIXES = 2;

    static final int MIN_WIDTH = 8;

    static final int MAX_WIDTH = 63;

    /** The width a segment of a class of {@code classWidth} bits takes. */
    static int width(int classWidth) {
        return Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, classWidth));
    }

    /**
     * One element: segment {@code s} holds the top {@code widths[s]} bits of {@code his[bounds[s]
     * .. bounds[s + 1])}, in any order (sorted here); empty segments are left out.
     */
    static byte[] encode(long[] his, int[] bounds, int[] widths) {
        int segments = widths.length;
        if (bounds.length != segments + 1) {
            throw new IllegalArgumentException("bounds must be one more than widths");
        }
        long[][] values = new long[segments][];
        int[] ks = new int[segments];
        long bytes = 1;
        for (int s = 0; s < segments; s++) {
            int w = widths[s];
            if (w < MIN_WIDTH || w > MAX_WIDTH) {
                throw new IllegalArgumentException("journal width out of range: " + w);
            }
            int n = bounds[s + 1] - bounds[s];
            if (n == 0) {
                continue;
            }
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = his[bounds[s] + i] >>> (64 - w);
            }
            Arrays.sort(v); // w ≤ 63 bits: non-negative, so signed order is the values' order
            values[s] = v;
            ks[s] = bestRiceParameter(v, w);
            bytes += 2 + FingerprintPage.varintBytes(n) + (riceBits(v, ks[s]) + 7) / 8;
        }
        byte[] b = new byte[Math.toIntExact(bytes)];
        b[0] = FORMAT;
        int pos = 1;
        for (int s = 0; s < segments; s++) {
            long[] v = values[s];
            if (v == null) {
                continue;
            }
            b[pos++] = (byte) widths[s];
            int[] at = {pos};
            FingerprintPage.writeVarint(b, at, v.length);
            pos = at[0];
            int k = ks[s];
            b[pos++] = (byte) k;
            long bit = 8L * pos;
            long prev = 0;
            for (long x : v) {
                long gap = x - prev;
                prev = x;
                for (long q = gap >>> k; q > 0; q--) {
                    b[(int) (bit >>> 3)] |= (byte) (0x80 >>> (bit & 7));
                    bit++;
                }
                bit++; // the zero that ends the quotient
                bit = putBits(b, bit, gap, k);
            }
            pos = (int) ((bit + 7) >>> 3);
        }
        return b;
    }

    /** The Rice parameter that codes {@code sorted}'s gaps in the fewest bits. */
    private static int bestRiceParameter(long[] sorted, int width) {
        long mean = sorted[sorted.length - 1] / sorted.length;
        int guess = mean == 0 ? 0 : 63 - Long.numberOfLeadingZeros(mean);
        int best = guess;
        long bestBits = Long.MAX_VALUE;
        for (int k = Math.max(0, guess - 1); k <= Math.min(width, guess + 1); k++) {
            long bits = riceBits(sorted, k);
            if (bits < bestBits) {
                best = k;
                bestBits = bits;
            }
        }
        return best;
    }

    private static long riceBits(long[] sorted, int k) {
        long bits = (long) sorted.length * (k + 1);
        long prev = 0;
        for (long x : sorted) {
            bits += (x - prev) >>> k;
            prev = x;
        }
        return bits;
    }

    /** Writes the low {@code k} bits of {@code v} at {@code bit}, most significant first. */
    private static long putBits(byte[] b, long bit, long v, int k) {
        for (int rest = k; rest > 0; ) {
            int off = (int) (bit & 7);
            int take = Math.min(rest, 8 - off);
            int chunk = (int) (v >>> (rest - take)) & ((1 << take) - 1);
            b[(int) (bit >>> 3)] |= (byte) (chunk << (8 - off - take));
            rest -= take;
            bit += take;
        }
        return bit;
    }

    /** The {@code k} bits at {@code bit}, most significant first: what {@link #putBits} wrote. */
    private static long getBits(byte[] b, long bit, int k) {
        long v = 0;
        for (int rest = k; rest > 0; ) {
            int off = (int) (bit & 7);
            int take = Math.min(rest, 8 - off);
            int chunk = (b[(int) (bit >>> 3)] & 0xFF) >>> (8 - off - take);
            v = v << take | (chunk & ((1 << take) - 1));
            rest -= take;
            bit += take;
        }
        return v;
    }

    /**
     * Every fingerprint of {@code elements} as high halves (low bits zero), in an order that
     * inserts them as they were inserted: element by element, segment by segment.
     */
    static long[] decode(Iterable<byte[]> elements) throws IOException {
        if (elements == null) { // a flagged key whose journal is empty (Flink's empty list state)
            return new long[0];
        }
        long[] out = new long[16];
        int n = 0;
        for (byte[] b : elements) {
            if (b.length > 0 && b[0] == FORMAT) {
                int pos = 1;
                while (pos < b.length) {
                    int w = b[pos++] & 0xFF;
                    int count = 0;
                    for (int shift = 0; ; shift += 7) {
                        if (pos >= b.length || shift > 14) {
                            throw corrupt(b, "a segment's entry count");
                        }
                        int x = b[pos++] & 0xFF;
                        count |= (x & 0x7F) << shift;
                        if (x < 0x80) {
                            break;
                        }
                    }
                    if (pos >= b.length) {
                        throw corrupt(b, "a segment without a Rice parameter");
                    }
                    int k = b[pos++] & 0xFF;
                    if (w < MIN_WIDTH || w > MAX_WIDTH || k > w || count < 1) {
                        throw corrupt(b, "width " + w + ", " + count + " entries, k " + k);
                    }
                    long limit = 8L * b.length;
                    if (count > limit - 8L * pos) { // each entry takes one bit at least
                        throw corrupt(b, count + " entries in " + (b.length - pos) + " bytes");
                    }
                    if (n + count > out.length) {
                        out = Arrays.copyOf(out, Math.max(2 * out.length, n + count));
                    }
                    long mask = (1L << w) - 1;
                    long bit = 8L * pos;
                    long v = 0;
                    for (int i = 0; i < count; i++) {
                        long q = 0;
                        while (bit < limit && (b[(int) (bit >>> 3)] & (0x80 >>> (bit & 7))) != 0) {
                            q++;
                            bit++;
                        }
                        if (bit++ >= limit || bit + k > limit || q > (mask - v) >>> k) {
                            throw corrupt(b, "a gap past the element or the width " + w);
                        }
                        v += q << k | getBits(b, bit, k);
                        bit += k;
                        if (v > mask) {
                            throw corrupt(b, "a value past the width " + w);
                        }
                        out[n++] = v << (64 - w);
                    }
                    for (; (bit & 7) != 0; bit++) {
                        if ((b[(int) (bit >>> 3)] & (0x80 >>> (bit & 7))) != 0) {
                            throw corrupt(b, "padding that is not zero");
                        }
                    }
                    pos = (int) (bit >>> 3);
                }
                continue;
            }
            int width = checkedWidth(b);
            int header = b[0] == FORMAT_WHOLE_HALVES ? 1 : 2;
            int count = (int) (8L * (b.length - header) / width);
            if (n + count > out.length) {
                out = Arrays.copyOf(out, Math.max(2 * out.length, n + count));
            }
            // Format 1 is format 2 at width 64 with a one-byte header: one loop reads both.
            long bit = 8L * header;
            for (int i = 0; i < count; i++, bit += width) {
                long v = getBits(b, bit, width);
                out[n++] = width == 64 ? v : v << (64 - width);
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** A format 1 or 2 element's width in bits (64 for format 1), or an IOException. */
    private static int checkedWidth(byte[] b) throws IOException {
        if (b.length > 0 && b[0] == FORMAT_WHOLE_HALVES && (b.length - 1) % 8 == 0) {
            return 64;
        }
        if (b.length >= 2 && b[0] == FORMAT_PREFIXES) {
            int width = b[1] & 0xFF;
            long bits = 8L * (b.length - 2);
            if (width >= MIN_WIDTH && width <= 64 && bits % width < 8) {
                return width;
            }
        }
        throw corrupt(
                b,
                b.length >= 2 && b[0] == FORMAT_PREFIXES
                        ? "width " + (b[1] & 0xFF)
                        : "not a known layout");
    }

    private static IOException corrupt(byte[] b, String what) {
        return new IOException(
                "Unrecognized page journal element (format "
                        + (b.length == 0 ? "none" : Integer.toString(b[0] & 0xFF))
                        + ", "
                        + b.length
                        + " bytes, "
                        + what
                        + "): written by a newer FirstSeen, or corrupt");
    }
}
