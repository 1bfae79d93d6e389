package dev.firstseen.dedup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The new URLs of packed keys ({@link PackedKeys}) since the last checkpoint, held beside the arena
 * instead of unpacking the key: for each URL, the top bits of its fingerprint's high half (all that
 * a fingerprint filter and its page journal read of it, {@link FingerprintClass#prefix}: 32, or all
 * 64 for a class wider than 32), kept with its key's other held URLs under the key's position in
 * the arena, which names the key. A key's inserts leave when its filter is needed as an object
 * ({@link FilterCache}) or at the next checkpoint's flush, which inserts them into the filter; a
 * compaction that moves a key tells this where to ({@link #moved}).
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
     * a subtask held the new URLs of 17,020 packed keys before a checkpoint, most keys one URL.
     * From the twenty-sixth to the thirty-fifth session a held URL was one slot of a single
     * open-addressing table (8 bytes since the twenty-eighth: the key's arena position and the
     * top 32 bits of the half), homed by the key's hash so that every URL of a key lay in one
     * probe run. A lookup had to walk that whole run, as it counted the key's URLs, and at seven
     * eighths full with up to 64 URLs homed at one slot, runs merged into clusters of hundreds of
     * slots: with a checkpoint every 2 s on the 2 M stream, where every key is packed at each
     * checkpoint and then holds new URLs, a profile put about 1,950 of approximate mode's 25,955
     * dedup samples into walking, placing and back-shifting that table, about a quarter of what
     * it spent over the Bloom chain (thirty-sixth session, docs/approximate-filter-cpu-and-heap.md,
     * Held URLs by key).
     *
     * Here a key is one slot of a table of keys (its position, its count, and either its one URL
     * or the offset of its chunk: 10 bytes, at most four fifths full, so a lookup ends after a few
     * slots), and a key of two or more URLs has them together in a chunk of a pool, scanned in
     * one pass. Chunks come in classes of 2, 3, 4, 6, 8, 12, 16, ... URLs (each 1.33 or 1.5 times
     * the last), move up a class when full, and freed ones are reused from a free list per class;
     * the pool grows by a quarter and is rebuilt smaller when less than a quarter of it is live.
     * The table's size is not a power of two (a slot from the hash's high bits times the size),
     * so that it grows by half, not double: a key's slot is most of what a key of one URL costs.
     * A first version with one-URL chunks and a power-of-two table raised the simulation's heap
     * peak at a checkpoint every 1 M records from 3.77 to 3.86 B/URL.
     */

    /** The key's hash of an arena position ({@link PackedKeys#hashAt}). */
    interface Hashes {
        int hashAt(int pos);
    }

    /** URLs a chunk of each size class holds: 2, 3, 4, then alternately x1.5 and x4/3. */
    private static final int[] CAPACITY = capacities();

    /**
     * The most URLs one key may hold (the cache holds 64 at most, {@link FilterCache#MAX_HELD}).
     */
    static final int MAX_PER_KEY = Character.MAX_VALUE;

    private static final int[] NONE = new int[0];

    private final Hashes hashes;

    /** The table of keys: one more than the key's arena position, 0 for an empty slot. */
    private int[] keyPos = NONE;

    /** Each key's URLs held. */
    private char[] keyCount = new char[0];

    /**
     * A key of one URL: the top 32 bits of its fingerprint half; of more: its chunk's offset in
     * {@link #pool}.
     */
    private int[] keyValue = NONE;

    /** A key of one URL: the low 32 bits of its half; null while {@link #lows} is. */
    private int[] keyLow;

    /**
     * The chunks: the top 32 bits of each URL's fingerprint half; a free chunk's first int holds
     * the offset of the next free one of its class.
     */
    private int[] pool = NONE;

    /**
     * The low 32 bits of each URL's fingerprint half, at the same offsets as in {@link #pool}; null
     * until a key whose newest class is wider than 32 bits holds one (exact mode's classes are 55
     * to 63 bits wide, approximate mode's at 1e-4 up to about 30).
     */
    private int[] lows;

    /** The end of the chunks handed out so far. */
    private int top;

    /** Ints in chunks that hold a key's URLs. */
    private int live;

    /** The first free chunk of each size class, or -1. */
    private final int[] free = new int[CAPACITY.length];

    private int size;
    private int keys;
    private long added;

    /** See {@link #peak()}. */
    private final HeapPeak peak = new HeapPeak();

    PackedInserts(Hashes hashes) {
        this.hashes = hashes;
        Arrays.fill(free, -1);
    }

    private static int[] capacities() {
        List<Integer> caps = new ArrayList<>(List.of(2, 3, 4));
        while (caps.get(caps.size() - 1) < MAX_PER_KEY) {
            int last = caps.get(caps.size() - 1);
            caps.add(Integer.bitCount(last) == 1 ? last / 2 * 3 : last / 3 * 4);
        }
        return caps.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The size class of a chunk that holds {@code n} URLs, n at least 2. */
    private static int classOf(int n) {
        int c = Arrays.binarySearch(CAPACITY, n);
        return c >= 0 ? c : -1 - c;
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

    /** Heap held: the table of keys and the pool; 0 while empty. */
    long bytes() {
        int n = keyPos.length;
        if (n == 0) {
            return 0;
        }
        return keysBytes(n, keyLow != null) + poolBytes();
    }

    /**
     * The most bytes held at once: noted while the table of keys or the pool grows or is rebuilt,
     * the old arrays beside the new ones.
     */
    HeapPeak peak() {
        return peak;
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
        int s = slotOf(hash, pos);
        if (s < 0) {
            return 0;
        }
        int n = keyCount[s];
        int shift = 64 - width;
        if (n == 1) {
            long h = (long) keyValue[s] << 32;
            if (keyLow != null) {
                h |= keyLow[s] & 0xFFFF_FFFFL;
            }
            return ((h ^ hi) >>> shift) == 0 ? -1 : 1;
        }
        int[] hs = pool;
        int[] ls = lows;
        for (int i = keyValue[s], end = i + n; i < end; i++) {
            long h = (long) hs[i] << 32;
            if (ls != null) {
                h |= ls[i] & 0xFFFF_FFFFL;
            }
            if (((h ^ hi) >>> shift) == 0) {
                return -1;
            }
        }
        return n;
    }

    /**
     * The fingerprint half at pool offset {@code i}: its top 32 bits, or all 64 once lows are kept.
     */
    private long hiAt(int i) {
        long h = (long) pool[i] << 32;
        return lows == null ? h : h | (lows[i] & 0xFFFF_FFFFL);
    }

    /**
     * Holds {@code hi} for the key of {@code hash} at arena position {@code pos}, whose newest
     * class is {@code width} bits wide: its top {@code max(32, width)} bits are kept.
     */
    void add(int hash, int pos, long hi, int width) {
        if (width > 32 && lows == null) {
            lows = new int[pool.length];
            keyLow = new int[keyPos.length];
        }
        int hv = (int) (hi >>> 32);
        int lv = (int) hi;
        int s = slotOf(hash, pos);
        if (s < 0) {
            if (5 * (keys + 1) > 4 * keyPos.length) {
                resizeKeys(Math.max(16, keyPos.length / 2 * 3));
            }
            s = place(hash, pos);
            keyValue[s] = hv;
            if (keyLow != null) {
                keyLow[s] = lv;
            }
            keyCount[s] = 1;
            keys++;
        } else {
            int n = keyCount[s];
            if (n == MAX_PER_KEY) {
                throw new IllegalStateException(
                        "A packed key may hold at most " + MAX_PER_KEY + " new URLs");
            }
            int at;
            if (n == 1) { // its one URL moves into a chunk
                at = allocate(0);
                pool[at] = keyValue[s];
                if (lows != null) {
                    lows[at] = keyLow[s];
                }
            } else {
                at = keyValue[s];
                int cls = classOf(n);
                if (n == CAPACITY[cls]) {
                    int to = allocate(cls + 1);
                    System.arraycopy(pool, at, pool, to, n);
                    if (lows != null) {
                        System.arraycopy(lows, at, lows, to, n);
                    }
                    release(at, cls);
                    at = to;
                }
            }
            keyValue[s] = at;
            pool[at + n] = hv;
            if (lows != null) {
                lows[at + n] = lv;
            }
            keyCount[s] = (char) (n + 1);
        }
        size++;
        added++;
    }

    /** The key's home slot in a table of {@code n} slots: the hash's spread bits times n. */
    private static int home(int hash, int n) {
        int h = (hash ^ (hash >>> 16)) * 0x9E3779B9; // spreads hash codes that differ in few bits
        h ^= h >>> 15;
        return (int) (((h & 0xFFFF_FFFFL) * n) >>> 32);
    }

    /** The slot of the key of {@code hash} at {@code pos} in the table of keys, or -1. */
    private int slotOf(int hash, int pos) {
        if (keys == 0) {
            return -1;
        }
        int[] p = keyPos;
        int n = p.length;
        for (int i = home(hash, n); p[i] != 0; i = i + 1 == n ? 0 : i + 1) {
            if (p[i] == pos) {
                return i;
            }
        }
        return -1;
    }

    /** Puts {@code pos} into the first empty slot from its home and returns the slot. */
    private int place(int hash, int pos) {
        int[] p = keyPos;
        int n = p.length;
        int i = home(hash, n);
        while (p[i] != 0) {
            i = i + 1 == n ? 0 : i + 1;
        }
        p[i] = pos;
        return i;
    }

    /** An empty chunk of size class {@code cls}: from its free list, or past {@link #top}. */
    private int allocate(int cls) {
        int need = CAPACITY[cls];
        int at = free[cls];
        if (at >= 0) {
            free[cls] = pool[at];
        } else {
            if (top + need > pool.length) {
                int n = Math.max(Math.max(64, top + need), pool.length + pool.length / 4);
                long old = poolBytes();
                pool = Arrays.copyOf(pool, n);
                if (lows != null) {
                    lows = Arrays.copyOf(lows, n);
                }
                peak.note(bytes() + old);
            }
            at = top;
            top += need;
        }
        live += need;
        return at;
    }

    private void release(int at, int cls) {
        pool[at] = free[cls];
        free[cls] = at;
        live -= CAPACITY[cls];
    }

    /**
     * Removes the inserts of the key of {@code hash} at arena position {@code pos} and returns them
     * (their count at index 0, then each as {@link #add} kept it), or null if it has none.
     */
    long[] take(int hash, int pos) {
        if (size == 0) {
            return null;
        }
        int s = slotOf(hash, pos);
        if (s < 0) {
            return null;
        }
        long[] out = urls(s);
        if (out[0] > 1) {
            release(keyValue[s], classOf((int) out[0]));
        }
        removeKey(s);
        size -= (int) out[0];
        keys--;
        if (size == 0) {
            clear();
        } else {
            if (keys < keyPos.length / 8 && keyPos.length > 16) {
                resizeKeys(keyPos.length / 2);
            }
            if (live < pool.length / 4 && pool.length > 1024) {
                compactPool();
            }
        }
        return out;
    }

    /** The URLs of key slot {@code s}: their count at index 0, then each. */
    private long[] urls(int s) {
        int n = keyCount[s];
        long[] out = new long[n + 1];
        out[0] = n;
        if (n == 1) {
            out[1] = (long) keyValue[s] << 32 | (keyLow == null ? 0 : keyLow[s] & 0xFFFF_FFFFL);
            return out;
        }
        int at = keyValue[s];
        for (int k = 0; k < n; k++) {
            out[k + 1] = hiAt(at + k);
        }
        return out;
    }

    /**
     * Empties key slot {@code i} and shifts back the slots after it in its run that may fill it
     * (deletion in linear probing without tombstones).
     */
    private void removeKey(int i) {
        int[] p = keyPos;
        int n = p.length;
        int hole = i;
        p[hole] = 0;
        for (int j = hole + 1 == n ? 0 : hole + 1; p[j] != 0; j = j + 1 == n ? 0 : j + 1) {
            int home = home(hashes.hashAt(p[j]), n);
            if (Math.floorMod(j - home, n) >= Math.floorMod(j - hole, n)) {
                moveKey(j, hole);
                p[j] = 0;
                hole = j;
            }
        }
    }

    private void moveKey(int from, int to) {
        keyPos[to] = keyPos[from];
        keyCount[to] = keyCount[from];
        keyValue[to] = keyValue[from];
        if (keyLow != null) {
            keyLow[to] = keyLow[from];
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
        // The table of keys sorted in place by position: no second array on the heap while the
        // checkpoint's flush packs keys again.
        int[] p = keyPos;
        sortByPosition(0, p.length);
        draining = true;
        try {
            int i = 0;
            while (i < p.length && p[i] == 0) {
                i++;
            }
            for (; i < p.length; i++) {
                drainFrom = i + 1;
                sink.accept(hashes.hashAt(p[i]), p[i], urls(i));
            }
        } finally {
            draining = false;
            clear();
        }
    }

    /** While {@link #drain} runs: true, and the index of the first key slot not handed out yet. */
    private boolean draining;

    private int drainFrom;

    /** The key of {@code hash} moved from arena position {@code from} to {@code to}. */
    void moved(int hash, int from, int to) {
        int[] p = keyPos;
        if (draining) { // sorted, not hashed: the slots not handed out yet
            int at = Arrays.binarySearch(p, drainFrom, p.length, from);
            if (at >= 0) {
                p[at] = to;
                // Back into order among those left, by swaps with its neighbours.
                for (; at + 1 < p.length && p[at + 1] < to; at++) {
                    swap(at, at + 1);
                }
                for (; at > drainFrom && p[at - 1] > to; at--) {
                    swap(at, at - 1);
                }
            }
            return;
        }
        int s = slotOf(hash, from);
        if (s >= 0) {
            p[s] = to; // the same hash: the same home
        }
    }

    /** Heapsort of key slots {@code from} to {@code to} (exclusive) by position. */
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
        int[] p = keyPos;
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
        swap(keyPos, i, j);
        swap(keyValue, i, j);
        char c = keyCount[i];
        keyCount[i] = keyCount[j];
        keyCount[j] = c;
        if (keyLow != null) {
            swap(keyLow, i, j);
        }
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    private void clear() {
        keyPos = NONE;
        keyCount = new char[0];
        keyValue = NONE;
        keyLow = null;
        pool = NONE;
        lows = null;
        top = 0;
        live = 0;
        Arrays.fill(free, -1);
        size = 0;
        keys = 0;
    }

    private void resizeKeys(int capacity) {
        int[] oldPos = keyPos;
        char[] oldCount = keyCount;
        int[] oldValue = keyValue;
        int[] oldLow = keyLow;
        keyPos = new int[capacity];
        keyCount = new char[capacity];
        keyValue = new int[capacity];
        keyLow = oldLow == null ? null : new int[capacity];
        if (oldPos.length > 0) {
            peak.note(bytes() + keysBytes(oldPos.length, oldLow != null));
        }
        for (int i = 0; i < oldPos.length; i++) {
            if (oldPos[i] != 0) {
                int s = place(hashes.hashAt(oldPos[i]), oldPos[i]);
                keyCount[s] = oldCount[i];
                keyValue[s] = oldValue[i];
                if (oldLow != null) {
                    keyLow[s] = oldLow[i];
                }
            }
        }
    }

    /** Copies every key's chunk into a pool twice the size they fill, with no free chunks. */
    private void compactPool() {
        int n = Math.max(64, 2 * live);
        int[] hs = new int[n];
        int[] ls = lows == null ? null : new int[n];
        int end = 0;
        for (int i = 0; i < keyPos.length; i++) {
            if (keyPos[i] != 0 && keyCount[i] > 1) {
                int at = keyValue[i];
                int len = CAPACITY[classOf(keyCount[i])];
                System.arraycopy(pool, at, hs, end, len);
                if (ls != null) {
                    System.arraycopy(lows, at, ls, end, len);
                }
                keyValue[i] = end;
                end += len;
            }
        }
        long old = poolBytes();
        pool = hs;
        lows = ls;
        peak.note(bytes() + old);
        top = end;
        Arrays.fill(free, -1);
    }

    /** The bytes of a table of keys of {@code n} slots, with {@link #keyLow} if {@code low}. */
    private static long keysBytes(int n, boolean low) {
        return 48 + 10L * n + (low ? 16 + 4L * n : 0);
    }

    /** The bytes of {@link #pool} and {@link #lows}. */
    private long poolBytes() {
        return 16 + 4L * pool.length + (lows == null ? 0 : 16 + 4L * lows.length);
    }
}
