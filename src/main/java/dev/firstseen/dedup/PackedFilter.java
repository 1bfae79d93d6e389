package dev.firstseen.dedup;

import java.util.Arrays;
import java.util.List;

/**
 * A small key's filter folded into one byte array while the filter cache keeps it between
 * checkpoints: the key, class 0 of the metadata, the flags that say what keyed state still lacks,
 * and the page. Only heap changes; keyed state is written as before. {@link FilterCache} packs
 * every {@link KeyFilter#packable()} filter at each checkpoint, answers duplicates from the packed
 * form ({@link #mightContain}) and unpacks one when a new URL of its key comes.
 *
 * <p>Layout: flags (1 byte), the key's length (varint) and ASCII bytes, then varints for the
 * sizing's index in the cache's list, class 0's word, capacity and count, the journaled count and
 * the created-here bits (zigzag), then the page to the end of the array (none: {@link
 * KeyFilter#ABSENT}).
 */
final class PackedFilter {
    /*
     * Most keys of a long-tailed crawl hold a few URLs: one class, one page. As objects such a key
     * holds 187 bytes besides its page (the filter 64, its metadata 56, the key's array 40, the
     * page array's header 16, a table slot 8), which at 100 URLs a key is 1.9 bytes per URL against
     * issue 14's budget of 3 for everything. Packed it holds one array header, about 10 bytes of
     * fields, its key's bytes and the table slot: 53 to 55 measured with JOL for a 20-character
     * key. Unpacking costs the objects' allocation and a copy of the page, once per key per
     * checkpoint interval at most.
     */

    private static final int META_DIRTY = 1;
    private static final int PAGE_DIRTY = 2;
    private static final int WHOLE_DUE = 4;
    private static final int EXACT = 8;
    private static final int SATURATED = 16;

    private PackedFilter() {}

    /** {@code f} packed, its sizing being {@code sizingIndex} in the cache's list. */
    static byte[] pack(KeyFilter f, int sizingIndex) {
        FilterMeta m = f.meta;
        byte[] key = f.keyBytes();
        byte[] page = f.lonePage();
        int flags =
                (f.metaDirty ? META_DIRTY : 0)
                        | (f.pageDirty() ? PAGE_DIRTY : 0)
                        | (f.wholeDue() ? WHOLE_DUE : 0)
                        | (m.isExactFingerprints() ? EXACT : 0)
                        | (m.saturated ? SATURATED : 0);
        long createdHere = zigzag(f.createdHere());
        int n =
                1
                        + varintLength(key.length)
                        + key.length
                        + varintLength(sizingIndex)
                        + varintLength(m.word0())
                        + varintLength(m.capacity(0))
                        + varintLength(m.entries(0))
                        + varintLength(f.journaled())
                        + varintLength(createdHere)
                        + page.length;
        byte[] p = new byte[n];
        p[0] = (byte) flags;
        int at = putVarint(p, 1, key.length);
        System.arraycopy(key, 0, p, at, key.length);
        at += key.length;
        at = putVarint(p, at, sizingIndex);
        at = putVarint(p, at, m.word0());
        at = putVarint(p, at, m.capacity(0));
        at = putVarint(p, at, m.entries(0));
        at = putVarint(p, at, f.journaled());
        at = putVarint(p, at, createdHere);
        System.arraycopy(page, 0, p, at, page.length);
        return p;
    }

    /** The filter {@code p} holds, as it was packed; {@code sizings} as given to {@link #pack}. */
    static KeyFilter unpack(byte[] p, List<Object> sizings) {
        int flags = p[0];
        long[] v = new long[1];
        int at = getVarint(p, 1, v);
        byte[] key = Arrays.copyOfRange(p, at, at + (int) v[0]);
        at += key.length;
        at = getVarint(p, at, v);
        Object sizing = sizings.get((int) v[0]);
        at = getVarint(p, at, v);
        long word0 = v[0];
        at = getVarint(p, at, v);
        long capacity0 = v[0];
        at = getVarint(p, at, v);
        long count0 = v[0];
        at = getVarint(p, at, v);
        int journaled = (int) v[0];
        at = getVarint(p, at, v);
        int createdHere = (int) unzigzag(v[0]);
        FilterMeta m =
                FilterMeta.ofClass0(
                        (flags & EXACT) != 0
                                ? FilterMeta.EXACT_FINGERPRINTS
                                : FilterMeta.FINGERPRINTS,
                        sizing,
                        word0,
                        capacity0,
                        count0);
        m.saturated = (flags & SATURATED) != 0;
        byte[] page = at == p.length ? KeyFilter.ABSENT : Arrays.copyOfRange(p, at, p.length);
        return KeyFilter.unpacked(
                key,
                m,
                page,
                (flags & META_DIRTY) != 0,
                (flags & PAGE_DIRTY) != 0,
                (flags & WHOLE_DUE) != 0,
                createdHere,
                journaled);
    }

    /**
     * What {@link KeyFilter#mightContain} answers for {@code fp} on the filter {@code p} holds,
     * without unpacking it.
     */
    static boolean mightContain(byte[] p, Fingerprint fp) {
        long[] v = new long[1];
        int at = getVarint(p, 1, v);
        at += (int) v[0];
        at = getVarint(p, at, v); // the sizing
        at = getVarint(p, at, v);
        long word0 = v[0];
        for (int i = 0; i < 4; i++) { // capacity, count, journaled, created-here bits
            at = getVarint(p, at, v);
        }
        int width = (int) (word0 & 0xFF);
        int level = (int) (word0 >>> 8 & 0xFF);
        int split = (int) (word0 >>> 16);
        long prefix = FingerprintClass.prefix(width, fp);
        // One page: level and split are 0 (a split would have made a second), so it is page 0.
        int s = FingerprintClass.suffixBits(width, level, split, 0);
        return FingerprintPage.contains(p, at, s, prefix >>> (width - s));
    }

    /** True if {@code p} is {@code key}'s filter; allocates nothing. */
    static boolean hasKey(byte[] p, Object key) {
        if (!(key instanceof String s)) {
            return false; // packed keys are ASCII strings'
        }
        int at = 1;
        int len = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = p[at++];
            len |= (b & 0x7F) << shift;
            if (b >= 0) {
                break;
            }
        }
        if (s.length() != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (s.charAt(i) != p[at + i]) {
                return false;
            }
        }
        return true;
    }

    /** The key's {@code hashCode()}, as {@link KeyFilter#keyHash()} gives it. */
    static int keyHash(byte[] p) {
        long[] v = new long[1];
        int at = getVarint(p, 1, v);
        int h = 0;
        for (int i = at, end = at + (int) v[0]; i < end; i++) {
            h = 31 * h + p[i];
        }
        return h;
    }

    /** True if keyed state lacks something this filter holds (a journal stands in for it). */
    static boolean isDirty(byte[] p) {
        return (p[0] & (META_DIRTY | PAGE_DIRTY)) != 0;
    }

    /** True for exact mode's fingerprint pages ({@link FilterMeta#EXACT_FINGERPRINTS}). */
    static boolean isExactPages(byte[] p) {
        return (p[0] & EXACT) != 0;
    }

    /** Bytes of the page alone (0 for none). */
    static int pageBytes(byte[] p) {
        long[] v = new long[1];
        int at = getVarint(p, 1, v);
        at += (int) v[0];
        for (int i = 0; i < 6; i++) {
            at = getVarint(p, at, v);
        }
        return p.length - at;
    }

    /**
     * Heap held: the array as allocated and its slot in the cache's table, as {@link
     * KeyFilter#bytes()} counts them.
     */
    static long bytes(byte[] p) {
        return ((16L + p.length + 7) & ~7L) + 8;
    }

    private static long zigzag(int v) {
        return ((v << 1) ^ (v >> 31)) & 0xFFFFFFFFL;
    }

    private static long unzigzag(long v) {
        int z = (int) v;
        return (z >>> 1) ^ -(z & 1);
    }

    private static int varintLength(long v) {
        int n = 1;
        while ((v >>>= 7) != 0) {
            n++;
        }
        return n;
    }

    private static int putVarint(byte[] p, int at, long v) {
        while ((v & ~0x7FL) != 0) {
            p[at++] = (byte) (v & 0x7F | 0x80);
            v >>>= 7;
        }
        p[at++] = (byte) v;
        return at;
    }

    private static int getVarint(byte[] p, int at, long[] out) {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = p[at++];
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                out[0] = v;
                return at;
            }
        }
    }
}
