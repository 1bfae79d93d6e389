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
 * <p>Element format, big-endian:
 *
 * <pre>
 *   byte    format (1)
 *   n times: long  the fingerprint's high 64 bits, all a fingerprint filter reads of it
 * </pre>
 *
 * {@code PageJournalTest} pins these bytes.
 */
final class PageJournal {
    private PageJournal() {}

    static final int FORMAT = 1;

    /** One element holding {@code his[from..from + n)}. */
    static byte[] encode(long[] his, int from, int n) {
        byte[] b = new byte[1 + 8 * n];
        b[0] = FORMAT;
        for (int i = from, o = 1; i < from + n; i++, o += 8) {
            long v = his[i];
            for (int k = 0; k < 8; k++) {
                b[o + k] = (byte) (v >>> (56 - 8 * k));
            }
        }
        return b;
    }

    /** Every fingerprint of {@code elements}, in order. */
    static long[] decode(Iterable<byte[]> elements) throws IOException {
        long[] out = new long[16];
        int n = 0;
        for (byte[] b : elements) {
            if (b.length == 0 || b[0] != FORMAT || (b.length - 1) % 8 != 0) {
                throw new IOException(
                        "Unrecognized page journal element (format "
                                + (b.length == 0 ? "none" : Integer.toString(b[0] & 0xFF))
                                + ", "
                                + b.length
                                + " bytes): written by a newer FirstSeen, or corrupt");
            }
            int count = (b.length - 1) / 8;
            if (n + count > out.length) {
                out = Arrays.copyOf(out, Math.max(2 * out.length, n + count));
            }
            for (int o = 1; o < b.length; o += 8) {
                long v = 0;
                for (int k = 0; k < 8; k++) {
                    v = v << 8 | (b[o + k] & 0xFF);
                }
                out[n++] = v;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
