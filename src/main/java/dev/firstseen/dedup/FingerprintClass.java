package dev.firstseen.dedup;

import java.util.Locale;

/**
 * One class of strategy 2's filter (see {@link FingerprintFilterMath}): the {@code width}-bit
 * prefixes of the fingerprints inserted while this was the key's newest class, in {@link
 * FingerprintPage}s addressed by linear hashing on the prefix's top bits. Pages {@code 0 .. 2^level
 * + split - 1} exist; pages below {@code split} and from {@code 2^level} on are one bit deeper.
 * Geometry is stored with the key, so later sizing options never change how it is read.
 *
 * <p>A value: a filter keeps its classes packed in {@link FilterMeta} (one object per class would
 * cost each cached key 40 bytes a class) and hands out these as copies. The static methods are the
 * geometry both use.
 */
public final class FingerprintClass {
    /** Pages are split once the class holds more than this many entries per page on average. */
    public static final int PAGE_ENTRIES = 512;

    /** Pages are not split below this suffix width. */
    static final int MIN_SUFFIX_BITS = 8;

    /** Deepest level: page ids keep 24 bits for the page. */
    static final int MAX_LEVEL = 23;

    public final int width;
    public final long capacity;
    public final int level;
    public final int split;
    public final long count;

    public FingerprintClass(int width, long capacity, int level, int split, long count) {
        if (width < 1 || width > FingerprintPage.MAX_SUFFIX_BITS) {
            throw new IllegalArgumentException("width out of range: " + width);
        }
        if (level < 0 || level > MAX_LEVEL || split < 0 || split >= (1 << level)) {
            throw new IllegalArgumentException("level/split out of range: " + level + "/" + split);
        }
        this.width = width;
        this.capacity = capacity;
        this.level = level;
        this.split = split;
        this.count = count;
    }

    public int pages() {
        return pages(level, split);
    }

    public long count() {
        return count;
    }

    public boolean isFull() {
        return count >= capacity;
    }

    /** The class's prefix of a fingerprint. */
    long prefix(Fingerprint fp) {
        return prefix(width, fp);
    }

    /** Page index of a prefix. */
    int page(long v) {
        return page(level, split, v);
    }

    static int pages(int level, int split) {
        return (1 << level) + split;
    }

    /** The top {@code width} bits of {@code hi}. */
    static long prefix(int width, Fingerprint fp) {
        return fp.hi >>> (64 - width);
    }

    /**
     * Page index of a prefix: its low {@code level} bits, or {@code level + 1} bits below the split
     * pointer (linear hashing: page t splits into t and t + 2^level).
     */
    static int page(int level, int split, long v) {
        int t = (int) (v & ((1 << level) - 1));
        return t < split ? (int) (v & ((1 << (level + 1)) - 1)) : t;
    }

    /** Suffix width of page {@code page}. */
    static int suffixBits(int width, int level, int split, int page) {
        return width - level - (page < split || page >= (1 << level) ? 1 : 0);
    }

    /** True if the class has more than {@code pageEntries} entries per page and can split. */
    static boolean wantsSplit(int width, int level, int split, long count, int pageEntries) {
        return count > (long) pageEntries * pages(level, split)
                && width - level - 1 >= MIN_SUFFIX_BITS
                && level < MAX_LEVEL;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT, "class(w=%d, pages=%d, %d/%d)", width, pages(), count, capacity);
    }
}
