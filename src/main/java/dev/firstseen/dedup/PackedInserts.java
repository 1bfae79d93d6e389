package dev.firstseen.dedup;

import java.util.Arrays;

/**
 * The new URLs of packed keys ({@link PackedKeys}) since the last checkpoint, held beside the arena
 * instead of unpacking the key: for each URL, the top bits of its fingerprint's high half (all that
 * a fingerprint filter and its page journal read of it, {@link FingerprintClass#prefix}: 32, or all
 * 64 for a class wider than 32) and its key's position in the arena, which names the key. A key's
 * inserts leave when its filter is needed as an object ({@link FilterCache}) or at the next
 * checkpoint's flush, which inserts them into the filter; a compaction that moves a key tells this
 * where to ({@link #moved}).
 *
 * <p>Held inserts answer as the filter would once they are in it: a fingerprint is among them if
 * its prefix of its class's width equals one of theirs ({@link #countUnlessHolds}). The cache holds
 * a key's inserts only while they fit in its newest class, whose width its packed form gives, so
 * none of them would have added a class, and a key's answers do not depend on where checkpoints
 * fall.
 *
 * <p>Not thread-safe: its cache's task thread uses it.
 */
final class PackedInserts {
    /*
     * Issue 14's subtask simulation (10 M URLs over 100,000 Zipf keys, 1e-4) at 10,000 records/s
     * a subtask held the new URLs of 17,020 packed keys before a checkpoint, most keys one URL, in
     * 2.0 MB: a table of keys (12 bytes a slot), each key's string (about 56 bytes, which the
     * record brought and the table kept) and an array of its fingerprints (32 bytes for one). Here
     * a held URL is one slot of an open-addressing table of 12 bytes, its key's arena position and
     * its fingerprint's high half, homed by the key's hash so that every URL of a key lies in one
     * probe run, and a compaction moving the key rewrites the positions in place. The table grows
     * at seven eighths full, not two thirds (a held URL 14 to 27 bytes with its room): a lookup
     * walks the whole run anyway, as it counts the key's URLs, and compares positions only.
     * Measured, 786,464 bytes for 27,970 URLs of 17,020 keys at four fifths (the table twice the
     * size the URLs fill), 393,248 at seven eighths (README, One subtask of a 10-billion-URL crawl).
     * Since the twenty-eighth session a slot keeps the top 32 bits of the half, 8 bytes with its
     * position: approximate mode's packed keys have classes of up to about 31 bits at 1e-4, and
     * at 100,000 records/s a subtask the table of 262,144 slots went from 3.1 to 2.1 MB. The low
     * halves get an array of their own once a key of a wider class holds a URL (exact mode).
     */

    /** The key's hash of an arena position ({@link PackedKeys#hashAt}). */
    interface Hashes {
        int hashAt(int pos);
    }

    private final Hashes hashes;

    /** One more than the key's arena position ({@link PackedKeys#position}); 0 is an empty slot. */
    private int[] positions = new int[0];

    /** The top 32 bits of each slot's fingerprint half. */
    private int[] highs = new int[0];

    /**
     * The low 32 bits of each slot's fingerprint half; null until a key whose newest class is wider
     * than 32 bits holds one (exact mode's classes are 55 to 63 bits wide, approximate mode's at
     * 1e-4 up to about 30).
     */
    private int[] lows;

    private int size;
    private int keys;
    private long added;

    PackedInserts(Hashes hashes) {
        this.hashes = hashes;
    }

    /** Inserts held. */
    int size() {
        return size;
    }

    /** Keys holding inserts. */
    int keys() {
        return keys;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Heap held: the table; 0 while empty. */
    long bytes() {
        int n = positions.length;
        return n == 0 ? 0 : 32 + 8L * n + (lows == null ? 0 : 16 + 4L * n);
    }

    /** Fingerprints added since this was created. */
    long added() {
        return added;
    }

    /**
     * The inserts held for the key of {@code hash} at arena position {@code pos}, or -1 if one of
     * them has {@code hi}'s prefix of {@code width} bits.
     */
    int countUnlessHolds(int hash, int pos, long hi, int width) {
        if (size == 0) {
            return 0;
        }
        int[] p = positions;
        int mask = p.length - 1;
        int n = 0;
        for (int i = FilterCache.slot(hash, mask); p[i] != 0; i = (i + 1) & mask) {
            if (p[i] == pos) {
                if (((hiAt(i) ^ hi) >>> (64 - width)) == 0) {
                    return -1;
                }
                n++;
            }
        }
        return n;
    }

    /** The fingerprint half in slot {@code i}: its top 32 bits, or all 64 once lows are kept. */
    private long hiAt(int i) {
        long h = (long) highs[i] << 32;
        return lows == null ? h : h | (lows[i] & 0xFFFF_FFFFL);
    }

    /**
     * Holds {@code hi} for the key of {@code hash} at arena position {@code pos}, whose newest
     * class is {@code width} bits wide: its top {@code max(32, width)} bits are kept.
     */
    void add(int hash, int pos, long hi, int width) {
        added++;
        if (8 * (size + 1) > 7 * positions.length) {
            rehash(Math.max(64, 2 * positions.length));
        }
        if (width > 32 && lows == null) {
            lows = new int[positions.length];
        }
        if (place(positions, highs, lows, hash, pos, hi)) {
            keys++;
        }
        size++;
    }

    /**
     * Puts {@code hi} at the end of its home's probe run; true if no slot of the run held {@code
     * pos}.
     */
    private static boolean place(int[] p, int[] hs, int[] ls, int hash, int pos, long hi) {
        int mask = p.length - 1;
        boolean first = true;
        int i = FilterCache.slot(hash, mask);
        for (; p[i] != 0; i = (i + 1) & mask) {
            first &= p[i] != pos;
        }
        p[i] = pos;
        hs[i] = (int) (hi >>> 32);
        if (ls != null) {
            ls[i] = (int) hi;
        }
        return first;
    }

    /**
     * Removes the inserts of the key of {@code hash} at arena position {@code pos} and returns them
     * (their count at index 0, then each as {@link #add} kept it), or null if it has none.
     */
    long[] take(int hash, int pos) {
        if (size == 0) {
            return null;
        }
        int[] p = positions;
        int mask = p.length - 1;
        int[] holes = null;
        int n = 0;
        int i = FilterCache.slot(hash, mask);
        for (; p[i] != 0; i = (i + 1) & mask) {
            if (p[i] == pos) {
                if (holes == null) {
                    holes = new int[8];
                } else if (n == holes.length) {
                    holes = Arrays.copyOf(holes, 2 * n);
                }
                holes[n++] = i;
            }
        }
        if (holes == null) {
            return null;
        }
        long[] out = new long[n + 1];
        out[0] = n;
        for (int k = 0; k < n; k++) {
            out[k + 1] = hiAt(holes[k]);
            p[holes[k]] = 0;
        }
        size -= n;
        keys--;
        fillHoles(holes, n, i);
        if (size == 0) {
            clear();
        } else if (size < positions.length / 8 && positions.length > 64) {
            rehash(positions.length / 2);
        }
        return out;
    }

    /**
     * Moves the slots of a probe run, after its {@code n} emptied slots {@code holes} (in run
     * order) and up to its end {@code end}, each into the earliest hole between its home and it, so
     * that no lookup stops at a hole before what it looks for: a backward shift for many holes in
     * one walk of the run, where one deletion at a time walked the rest of the run for each (a key
     * of 64 URLs in a long run, as a 50 M-URL crawl's keys have, took thousands of reads of the
     * arena for a hash each).
     */
    private void fillHoles(int[] holes, int n, int end) {
        int[] p = positions;
        int[] hs = highs;
        int[] ls = lows;
        int mask = p.length - 1;
        int base = holes[0];
        for (int j = (base + 1) & mask; j != end; j = (j + 1) & mask) {
            if (p[j] == 0) {
                continue; // one of the holes
            }
            int home = FilterCache.slot(hashes.hashAt(p[j]), mask);
            int reach = (j - home) & mask;
            for (int k = 0; k < n; k++) {
                if (((holes[k] - home) & mask) < reach) {
                    int to = holes[k];
                    p[to] = p[j];
                    hs[to] = hs[j];
                    if (ls != null) {
                        ls[to] = ls[j];
                    }
                    p[j] = 0;
                    // j is a hole now, after those behind it and before those still ahead.
                    int at = k;
                    while (at + 1 < n && ((holes[at + 1] - base) & mask) < ((j - base) & mask)) {
                        holes[at] = holes[at + 1];
                        at++;
                    }
                    holes[at] = j;
                    break;
                }
            }
        }
    }

    /** What {@link #drain} hands each key's inserts to. */
    interface Sink {
        /** The key's hash, its arena position, its inserts (their count at index 0, then each). */
        void accept(int hash, int pos, long[] his) throws Exception;
    }

    /**
     * Hands every key's inserts to {@code sink} in the arena's order of the keys, then holds none.
     * The sink must not add or take inserts; a compaction it causes that moves a key not handed yet
     * is followed ({@link #moved}), though a key moved before its turn may come out of order.
     */
    void drain(Sink sink) throws Exception {
        /*
         * The table sorted in place by position, so that each key's inserts lie together: taking
         * keys one at a time walked each key's probe run (a run of keys of many URLs can be
         * long) and shifted the rest of it back for every slot taken; sorting into a new array
         * would add its size to the heap while the checkpoint's flush packs keys again.
         */
        int[] p = positions;
        sortByPosition(0, p.length);
        draining = true;
        try {
            int i = 0;
            while (i < p.length && p[i] == 0) {
                i++;
            }
            drainFrom = i;
            while (i < p.length) {
                int pos = p[i];
                int j = i + 1;
                while (j < p.length && p[j] == pos) {
                    j++;
                }
                long[] out = new long[j - i + 1];
                out[0] = j - i;
                for (int k = i; k < j; k++) {
                    out[k - i + 1] = hiAt(k);
                }
                drainFrom = j;
                sink.accept(hashes.hashAt(pos), pos, out);
                i = j;
            }
        } finally {
            draining = false;
            clear();
            size = 0;
            keys = 0;
        }
    }

    /** While {@link #drain} runs: true, and the index of the first slot not handed out yet. */
    private boolean draining;

    private int drainFrom;

    /** The key of {@code hash} moved from arena position {@code from} to {@code to}. */
    void moved(int hash, int from, int to) {
        int[] p = positions;
        if (draining) { // sorted, not hashed: the slots not handed out yet
            int at = Arrays.binarySearch(p, drainFrom, p.length, from);
            if (at >= 0) {
                for (int i = at; i >= drainFrom && p[i] == from; i--) {
                    p[i] = to;
                }
                for (int i = at + 1; i < p.length && p[i] == from; i++) {
                    p[i] = to;
                }
                sortByPosition(drainFrom, p.length);
            }
            return;
        }
        int mask = p.length - 1;
        for (int i = FilterCache.slot(hash, mask); p[i] != 0; i = (i + 1) & mask) {
            if (p[i] == from) {
                p[i] = to;
            }
        }
    }

    /**
     * Heapsort of slots {@code from} to {@code to} (exclusive) by position, each fingerprint with
     * its position.
     */
    private void sortByPosition(int from, int to) {
        int n = to - from;
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(from, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            swap(from, from + end);
            siftDown(from, 0, end);
        }
    }

    /** Sifts heap node {@code i} of the heap of {@code n} slots from {@code base} on. */
    private void siftDown(int base, int i, int n) {
        int[] p = positions;
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) {
                return;
            }
            if (c + 1 < n && p[base + c + 1] > p[base + c]) {
                c++;
            }
            if (p[base + i] >= p[base + c]) {
                return;
            }
            swap(base + i, base + c);
            i = c;
        }
    }

    private void swap(int i, int j) {
        swap(positions, i, j);
        swap(highs, i, j);
        if (lows != null) {
            swap(lows, i, j);
        }
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    private void clear() {
        positions = new int[0];
        highs = new int[0];
        lows = null;
    }

    private void rehash(int capacity) {
        int[] p = new int[capacity];
        int[] hs = new int[capacity];
        int[] ls = lows == null ? null : new int[capacity];
        // From an empty slot on, so that each probe run is placed in its order.
        int n = positions.length;
        int start = 0;
        while (start < n && positions[start] != 0) {
            start++;
        }
        for (int k = 0; k < n; k++) {
            int i = (start + k) & (n - 1);
            if (positions[i] != 0) {
                place(p, hs, ls, hashes.hashAt(positions[i]), positions[i], hiAt(i));
            }
        }
        positions = p;
        highs = hs;
        lows = ls;
    }
}
