package dev.firstseen.dedup;

import dev.firstseen.dedup.internal.Ascii;
import java.util.Arrays;

/**
 * The new URLs of packed keys ({@link PackedKeys}) since the last checkpoint, held beside the arena
 * instead of unpacking the key: for each key, the high halves of its new fingerprints (all that a
 * fingerprint filter and its page journal read of them, {@link FingerprintClass#prefix}) and the
 * width of the class they go into, its newest. A key's inserts leave when its filter is needed as
 * an object ({@link FilterCache}) or at the next checkpoint's flush, which inserts them into the
 * filter.
 *
 * <p>Held inserts answer as the filter would once they are in it: a fingerprint is among them if
 * its prefix of that width equals one of theirs ({@link #holds}). The cache holds a key's inserts
 * only while they fit in its newest class, so none of them would have added a class, and a key's
 * answers do not depend on where checkpoints fall.
 *
 * <p>Each key's array holds its count at index 0 and the fingerprints after it, as {@link
 * KeyFilter}'s journal does. Not thread-safe: its cache's task thread uses it.
 */
final class PackedInserts {
    /*
     * Issue 14's subtask simulation (100,000 keys of 100 URLs, 1e-4) held 2.90 B/URL after a
     * checkpoint and up to 3.05 between two at 1,000 records/s a subtask, 3.40 at 10,000: a new
     * URL unpacked its key into objects (about 275 bytes over its packed form) and left its packed
     * bytes as garbage until a compaction. Held here, a key's new URLs cost its key string (which
     * the record brought), a table slot and an array of 8 bytes a URL, and the arena keeps no
     * garbage between checkpoints. Open addressing with linear probing and deletion by backward
     * shift, as the cache's own table.
     */

    private Object[] keys = new Object[0];
    private long[][] his = new long[0][];
    private int[] widths = new int[0];
    private int size;
    private long bytes;
    private long added;

    /** Keys holding inserts. */
    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Heap held: the table, the arrays, and the key strings. */
    long bytes() {
        return bytes + 12L * keys.length;
    }

    /** Fingerprints added since this was created. */
    long added() {
        return added;
    }

    /** The slot of {@code key}'s inserts, or -1 if it has none. */
    int slotOf(Object key) {
        if (size == 0) {
            return -1;
        }
        Object[] k = keys;
        int mask = k.length - 1;
        for (int i = FilterCache.slot(key.hashCode(), mask); ; i = (i + 1) & mask) {
            if (k[i] == null) {
                return -1;
            }
            if (k[i].equals(key)) {
                return i;
            }
        }
    }

    /** Inserts held in slot {@code i}; 0 if {@code i} is -1. */
    int count(int i) {
        return i < 0 ? 0 : (int) his[i][0];
    }

    /**
     * True if the inserts in slot {@code i} hold {@code hi}'s prefix of their class's width; false
     * if {@code i} is -1.
     */
    boolean holds(int i, long hi) {
        if (i < 0) {
            return false;
        }
        long[] a = his[i];
        int shift = 64 - widths[i];
        for (int j = 1, n = (int) a[0]; j <= n; j++) {
            if ((a[j] ^ hi) >>> shift == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds {@code hi} to the inserts in slot {@code i}, or, if {@code i} is -1, to new ones of
     * {@code key}, going into a class of {@code width} bits.
     */
    void add(int i, Object key, long hi, int width) {
        added++;
        if (i < 0) {
            if (3 * (size + 1) > 2 * keys.length) {
                rehash(Math.max(16, 2 * keys.length));
            }
            long[] a = new long[2];
            a[0] = 1;
            a[1] = hi;
            put(keys, his, widths, key, a, width);
            size++;
            bytes += keyBytes(key) + arrayBytes(2);
            return;
        }
        long[] a = his[i];
        int n = (int) a[0];
        if (n + 1 == a.length) {
            long[] b = Arrays.copyOf(a, 2 * a.length);
            bytes += arrayBytes(b.length) - arrayBytes(a.length);
            his[i] = a = b;
        }
        a[n + 1] = hi;
        a[0] = n + 1;
    }

    /** Removes {@code key}'s inserts and returns them (count at index 0), or null if none. */
    long[] take(Object key) {
        int i = slotOf(key);
        if (i < 0) {
            return null;
        }
        long[] a = his[i];
        bytes -= keyBytes(keys[i]) + arrayBytes(a.length);
        deleteAt(i);
        return a;
    }

    /** The keys holding inserts, in no order. */
    Object[] keys() {
        Object[] k = new Object[size];
        int n = 0;
        for (Object key : keys) {
            if (key != null) {
                k[n++] = key;
            }
        }
        return k;
    }

    /** What {@link #drain} hands each key's inserts to. */
    interface Sink {
        void accept(Object key, long[] his) throws Exception;
    }

    /**
     * Hands every key's inserts to {@code sink}, letting go of each after it, then holds none. The
     * sink must not use this meanwhile.
     */
    void drain(Sink sink) throws Exception {
        Object[] k = keys;
        long[][] h = his;
        for (int i = 0; i < k.length; i++) {
            if (k[i] != null) {
                sink.accept(k[i], h[i]);
                bytes -= keyBytes(k[i]) + arrayBytes(h[i].length);
                k[i] = null;
                h[i] = null;
            }
        }
        keys = new Object[0];
        his = new long[0][];
        widths = new int[0];
        size = 0;
        bytes = 0;
    }

    private static void put(Object[] k, long[][] h, int[] w, Object key, long[] a, int width) {
        int mask = k.length - 1;
        int i = FilterCache.slot(key.hashCode(), mask);
        while (k[i] != null) {
            i = (i + 1) & mask;
        }
        k[i] = key;
        h[i] = a;
        w[i] = width;
    }

    private void deleteAt(int i) {
        Object[] k = keys;
        int mask = k.length - 1;
        for (int j = (i + 1) & mask; k[j] != null; j = (j + 1) & mask) {
            int home = FilterCache.slot(k[j].hashCode(), mask);
            if (((j - home) & mask) >= ((j - i) & mask)) {
                k[i] = k[j];
                his[i] = his[j];
                widths[i] = widths[j];
                i = j;
            }
        }
        k[i] = null;
        his[i] = null;
        size--;
        if (size == 0) {
            keys = new Object[0];
            his = new long[0][];
            widths = new int[0];
        }
    }

    private void rehash(int capacity) {
        Object[] k = new Object[capacity];
        long[][] h = new long[capacity][];
        int[] w = new int[capacity];
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                put(k, h, w, keys[i], his[i], widths[i]);
            }
        }
        keys = k;
        his = h;
        widths = w;
    }

    /** A key string as the JVM holds it (compact strings: a byte a character for Latin-1). */
    private static long keyBytes(Object key) {
        if (key instanceof String s) {
            return 24 + align(16L + (Ascii.isAscii(s) ? 1L : 2L) * s.length());
        }
        return 64;
    }

    private static long arrayBytes(int longs) {
        return 16L + 8L * longs;
    }

    private static long align(long n) {
        return (n + 7) & ~7L;
    }
}
