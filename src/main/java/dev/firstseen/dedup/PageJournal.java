package dev.firstseen.dedup;

import java.io.IOException;
import java.util.Arrays;

/**
 * A key's page journal: the fingerprints inserted into its fingerprint pages since the pages were
 * last written whole, in insertion order, one list element per checkpoint that wrote some ({@link
 * DedupState#pageJournal()}). The key's stored pages and metadata are the state before them, so
 * inserting them again in order rebuilds the pages exactly as they were on the heap: an insert into
 * a fingerprint filter depends only on the metadata and pages it meets (growth and page splits
 * included), and a journal holds inserts only (a removal writes the pages whole).
 *
 * <p>An insert reads only the top {@code w} bits of a fingerprint's high half, {@code w} the width
 * of the class it goes to (22 to 31 bits at a rate of 1e-4, 63 in exact mode). An element keeps the
 * top {@code width} bits, {@code width} at least the widest class of the key when it was written,
 * so replaying it inserts the same prefixes. Element format 2, big-endian:
 *
 * <pre>
 *   byte    format (2)
 *   byte    width, 8 to 64
 *   n times: width bits, the fingerprint's high half shifted right by 64 - width
 *   0 to 7 zero bits, to a whole byte
 * </pre>
 *
 * n is the bits after the header over width: below 8 bits of padding, hence width ≥ 8. Format 1,
 * written before, is a format byte and n longs (whole high halves); it is still read. {@code
 * PageJournalTest} pins both.
 */
final class PageJournal {
    private PageJournal() {}

    /** The format written. */
    static final int FORMAT = 2;

    static final int FORMAT_WHOLE_HALVES = 1;

    static final int MIN_WIDTH = 8;

    /** The width an element of a filter whose widest class has {@code maxClassWidth} bits takes. */
    static int width(int maxClassWidth) {
        return Math.max(MIN_WIDTH, Math.min(64, maxClassWidth));
    }

    /** The bytes of an element of {@code n} fingerprints of {@code width} bits. */
    static long elementBytes(long n, int width) {
        return 2 + (n * width + 7) / 8;
    }

    /** One element holding the top {@code width} bits of {@code his[from..from + n)}. */
    static byte[] encode(long[] his, int from, int n, int width) {
        if (width < MIN_WIDTH || width > 64) {
            throw new IllegalArgumentException("journal width out of range: " + width);
        }
        byte[] b = new byte[(int) elementBytes(n, width)];
        b[0] = FORMAT;
        b[1] = (byte) width;
        long bit = 16;
        for (int i = from; i < from + n; i++) {
            long v = his[i] >>> (64 - width); // >>> 0 for 64 keeps the whole half
            for (int rest = width; rest > 0; ) {
                int off = (int) (bit & 7);
                int take = Math.min(rest, 8 - off);
                int chunk = (int) (v >>> (rest - take)) & ((1 << take) - 1);
                b[(int) (bit >>> 3)] |= (byte) (chunk << (8 - off - take));
                rest -= take;
                bit += take;
            }
        }
        return b;
    }

    /** Every fingerprint of {@code elements}, in order, as high halves (low bits zero). */
    static long[] decode(Iterable<byte[]> elements) throws IOException {
        long[] out = new long[16];
        int n = 0;
        for (byte[] b : elements) {
            int width = checkedWidth(b);
            int header = b[0] == FORMAT_WHOLE_HALVES ? 1 : 2;
            int count = (int) (8L * (b.length - header) / width);
            if (n + count > out.length) {
                out = Arrays.copyOf(out, Math.max(2 * out.length, n + count));
            }
            // Format 1 is format 2 at width 64 with a one-byte header: one loop reads both.
            long bit = 8L * header;
            for (int i = 0; i < count; i++) {
                long v = 0;
                for (int rest = width; rest > 0; ) {
                    int off = (int) (bit & 7);
                    int take = Math.min(rest, 8 - off);
                    int chunk = (b[(int) (bit >>> 3)] & 0xFF) >>> (8 - off - take);
                    v = v << take | (chunk & ((1 << take) - 1));
                    rest -= take;
                    bit += take;
                }
                out[n++] = width == 64 ? v : v << (64 - width);
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** An element's width in bits (64 for format 1), or an IOException naming what is wrong. */
    private static int checkedWidth(byte[] b) throws IOException {
        if (b.length > 0 && b[0] == FORMAT_WHOLE_HALVES && (b.length - 1) % 8 == 0) {
            return 64;
        }
        if (b.length >= 2 && b[0] == FORMAT) {
            int width = b[1] & 0xFF;
            long bits = 8L * (b.length - 2);
            if (width >= MIN_WIDTH && width <= 64 && bits % width < 8) {
                return width;
            }
        }
        throw new IOException(
                "Unrecognized page journal element (format "
                        + (b.length == 0 ? "none" : Integer.toString(b[0] & 0xFF))
                        + (b.length >= 2 && b[0] == FORMAT ? ", width " + (b[1] & 0xFF) : "")
                        + ", "
                        + b.length
                        + " bytes): written by a newer FirstSeen, or corrupt");
    }
}
