package dev.firstseen.dedup;

import java.util.Locale;

/**
 * One class of strategy 2's filter (see {@link FingerprintFilterMath}): the {@code width}-bit
 * prefixes of the fingerprints inserted while this was the key's newest class, in {@link
 * FingerprintPage}s addressed by linear hashing on the prefix's top bits. Pages {@code 0 .. 2^level
 * + split - 1} exist; pages below {@code split} and from {@code 2^level} on are one bit deeper.
 * Geometry is stored with the key, so later sizing options never change how it is read.
 */
public final class FingerprintClass {
    /** Pages are split once the class holds more than this many entries per page on average. */
    public static final int PAGE_ENTRIES = 512;

    /** Pages are not split below this suffix width. */
    static final int MIN_SUFFIX_BITS = 8;

    public final int width;
    public final long capacity;
    int level;
    int split;
    long count;

    public FingerprintClass(int width, long capacity, int level, int split, long count) {
        if (width < 1 || width > FingerprintPage.MAX_SUFFIX_BITS) {
            throw new IllegalArgumentException("width out of range: " + width);
        }
        if (level < 0 || level > 23 || split < 0 || split >= (1 << level)) {
            throw new IllegalArgumentException("level/split out of range: " + level + "/" + split);
        }
        this.width = width;
        this.capacity = capacity;
        this.level = level;
        this.split = split;
        this.count = count;
    }

    public int pages() {
        return (1 << level) + split;
    }

    public int level() {
        return level;
    }

    public int split() {
        return split;
    }

    public long count() {
        return count;
    }

    public boolean isFull() {
        return count >= capacity;
    }

    /** The class's prefix of a fingerprint: the top {@link #width} bits of {@code hi}. */
    long prefix(Fingerprint fp) {
        return fp.hi >>> (64 - width);
    }

    /**
     * Page index of a prefix: its low {@code level} bits, or {@code level + 1} bits below the split
     * pointer (linear hashing: page t splits into t and t + 2^level).
     */
    int page(long v) {
        int t = (int) (v & ((1 << level) - 1));
        return t < split ? (int) (v & ((1 << (level + 1)) - 1)) : t;
    }

    /** Suffix width of page {@code page}. */
    int suffixBits(int page) {
        return width - level - (page < split || page >= (1 << level) ? 1 : 0);
    }

    /** The suffix of a prefix in its page: the bits above the page index. */
    long suffix(long v, int page) {
        return v >>> (width - suffixBits(page));
    }

    /** True if the class has more entries per page than {@link #PAGE_ENTRIES} and can split. */
    boolean wantsSplit() {
        return count > (long) PAGE_ENTRIES * pages()
                && width - level - 1 >= MIN_SUFFIX_BITS
                && level < 23;
    }

    /** Advances the split pointer after page {@link #split} was split; returns the new page. */
    int advanceSplit() {
        int created = (1 << level) + split;
        split++;
        if (split == 1 << level) {
            level++;
            split = 0;
        }
        return created;
    }

    FingerprintClass copy() {
        return new FingerprintClass(width, capacity, level, split, count);
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT, "class(w=%d, pages=%d, %d/%d)", width, pages(), count, capacity);
    }
}
