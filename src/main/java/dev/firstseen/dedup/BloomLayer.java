package dev.firstseen.dedup;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Geometry and fill of one layer of a key's scalable Bloom filter. The bits themselves live in
 * pages of {@link #pageBytes()} bytes, each a run of 64-byte blocks (see {@link BlockedBloom}).
 * Geometry is stored with the key, so changing the sizing options later never changes how an
 * existing filter is read.
 */
public final class BloomLayer {
    public static final int BLOCK_BYTES = 64;
    public static final int BLOCK_BITS = BLOCK_BYTES * 8;
    public static final int MAX_BLOCKS_PER_PAGE = 16;

    /** Layers per key; page ids are {@code layer << 24 | page}. */
    public static final int MAX_LAYERS = 24;

    public static final int MAX_PAGES = 1 << 24;

    public final int pages;
    public final int blocksPerPage;
    public final int hashes;
    public final long capacity;
    long count;

    public BloomLayer(int pages, int blocksPerPage, int hashes, long capacity, long count) {
        if (pages < 1 || pages > MAX_PAGES) {
            throw new IllegalArgumentException("pages out of range: " + pages);
        }
        if (blocksPerPage < 1 || blocksPerPage > MAX_BLOCKS_PER_PAGE) {
            throw new IllegalArgumentException("blocksPerPage out of range: " + blocksPerPage);
        }
        if (hashes < 1 || hashes > BloomMath.MAX_HASHES) {
            throw new IllegalArgumentException("hashes out of range: " + hashes);
        }
        this.pages = pages;
        this.blocksPerPage = blocksPerPage;
        this.hashes = hashes;
        this.capacity = capacity;
        this.count = count;
    }

    /**
     * A layer for {@code capacity} items at rate {@code fpp} when full: m bits from {@link
     * BloomMath#blockedBits}, rounded up to whole 512-bit blocks spread evenly over pages of at
     * most 16 blocks (1 KiB); the k that minimizes the blocked rate for that m.
     */
    public static BloomLayer sized(long capacity, double fpp) {
        return sized(capacity, fpp, 1.0);
    }

    /**
     * A layer whose mean rate meets {@code fpp} while it fills from {@code fromFill · capacity} to
     * {@code capacity} items ({@link BloomMath#blocksForMeanRate}); blocks and pages as {@link
     * #sized(long, double)}. {@code fromFill} 1 is {@link #sized(long, double)}.
     */
    public static BloomLayer sized(long capacity, double fpp, double fromFill) {
        // Sizing solves the blocked model numerically (up to milliseconds); exact mode sizes a
        // layer at every rebuild, on a short ladder of capacities, so the answers are kept.
        SizeKey k = new SizeKey(capacity, fpp, fromFill);
        BloomLayer known = SIZED.get(k);
        if (known == null) {
            known = compute(capacity, fpp, fromFill);
            if (SIZED.size() < MAX_SIZED) {
                SIZED.putIfAbsent(k, known);
            }
        }
        return known.copy();
    }

    /**
     * {@link #sized(long, double, double)}, or null if the layer would need more than {@link
     * #MAX_PAGES} pages (16 GiB): a key's filter cannot grow that far.
     */
    static BloomLayer sizedOrNull(long capacity, double fpp, double fromFill) {
        try {
            return sized(capacity, fpp, fromFill);
        } catch (TooLarge e) {
            return null;
        }
    }

    /** A layer beyond {@link #MAX_PAGES}. */
    static final class TooLarge extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        TooLarge(String message) {
            super(message);
        }
    }

    private record SizeKey(long capacity, double fpp, double fromFill) {}

    private static final int MAX_SIZED = 4096;
    private static final ConcurrentHashMap<SizeKey, BloomLayer> SIZED = new ConcurrentHashMap<>();

    private static BloomLayer compute(long capacity, double fpp, double fromFill) {
        long blocks = BloomMath.blocksForMeanRate(capacity, fpp, fromFill, BLOCK_BITS);
        long pages = (blocks + MAX_BLOCKS_PER_PAGE - 1) / MAX_BLOCKS_PER_PAGE;
        // Spread the blocks evenly: 22 blocks make 2 pages of 11, not 2 of 16.
        int perPage = (int) ((blocks + pages - 1) / pages);
        if (pages > MAX_PAGES) {
            throw new TooLarge(
                    String.format(
                            Locale.ROOT,
                            "A Bloom layer for %d URLs at rate %s needs %d pages, more than %d",
                            capacity,
                            fpp,
                            pages,
                            MAX_PAGES));
        }
        int hashes =
                BloomMath.meanBlockedHashes(capacity, fromFill, blocks * BLOCK_BITS, BLOCK_BITS);
        return new BloomLayer((int) pages, perPage, hashes, capacity, 0);
    }

    public int pageBytes() {
        return blocksPerPage * BLOCK_BYTES;
    }

    public long totalBytes() {
        return (long) pages * pageBytes();
    }

    public long count() {
        return count;
    }

    public boolean isFull() {
        return count >= capacity;
    }

    BloomLayer copy() {
        return new BloomLayer(pages, blocksPerPage, hashes, capacity, count);
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "layer(pages=%d x %dB, k=%d, %d/%d)",
                pages,
                pageBytes(),
                hashes,
                count,
                capacity);
    }
}
