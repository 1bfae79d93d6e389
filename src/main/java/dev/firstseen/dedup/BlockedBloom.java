package dev.firstseen.dedup;

import dev.firstseen.dedup.internal.Murmur3;

/**
 * Strategy 1 of the Bloom bit layout: where a fingerprint's bits are in a layer.
 *
 * <p>A fingerprint selects one page of the layer and one 64-byte block in that page (from {@code
 * hi}), then k bit positions inside the block, 9 bits each, taken from {@code lo} and, past 7
 * hashes, from further mixes of the original {@code lo}. All k probes hit one cache line and one
 * page, so a check costs at most one state read (Putze, Sanders, Singler, "Cache-, Hash- and
 * Space-Efficient Bloom Filters", WEA 2007). Layers above 0 remix both halves with the layer number
 * so the layers' errors are independent.
 *
 * <p>This mapping is part of the state format: pages written by one version must be read by the
 * next. {@code BlockedBloomTest} pins it with golden positions; a change needs a new strategy id in
 * {@link FilterMeta}.
 */
public final class BlockedBloom {
    private BlockedBloom() {}

    public static final byte STRATEGY = 1;

    private static final long LAYER_MIX_A = 0x9E3779B97F4A7C15L;
    private static final long LAYER_MIX_B = 0xC2B2AE3D27D4EB4FL;

    static long addressHash(Fingerprint fp, int layer) {
        return layer == 0 ? fp.hi : Murmur3.fmix64(fp.hi ^ (layer * LAYER_MIX_A));
    }

    static long bitsHash(Fingerprint fp, int layer) {
        return layer == 0 ? fp.lo : Murmur3.fmix64(fp.lo ^ (layer * LAYER_MIX_B));
    }

    /** Bits for hashes i to i+6 (i a multiple of 7): a fresh mix of the original word. */
    private static long nextWord(long seed, int i) {
        return Murmur3.fmix64(seed + (i / 7) * LAYER_MIX_A);
    }

    /** Page index of {@code fp} in layer {@code layer}. */
    public static int page(Fingerprint fp, int layer, BloomLayer g) {
        return (int) (((addressHash(fp, layer) >>> 32) * g.pages) >>> 32);
    }

    /** Byte offset in the page of the block of {@code fp}. */
    public static int blockOffset(Fingerprint fp, int layer, BloomLayer g) {
        long block = ((addressHash(fp, layer) & 0xFFFFFFFFL) * g.blocksPerPage) >>> 32;
        return (int) block * BloomLayer.BLOCK_BYTES;
    }

    /** True if every bit of {@code fp} is set in {@code page}. */
    public static boolean mightContain(Fingerprint fp, int layer, BloomLayer g, byte[] page) {
        int base = blockOffset(fp, layer, g);
        long seed = bitsHash(fp, layer);
        long w = seed;
        for (int i = 0; i < g.hashes; i++) {
            if (i > 0 && i % 7 == 0) {
                w = nextWord(seed, i);
            }
            int bit = (int) (w & (BloomLayer.BLOCK_BITS - 1));
            w >>>= 9;
            if ((page[base + (bit >>> 3)] & (1 << (bit & 7))) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Sets the bits of {@code fp}; returns true if any bit changed. */
    public static boolean put(Fingerprint fp, int layer, BloomLayer g, byte[] page) {
        int base = blockOffset(fp, layer, g);
        long seed = bitsHash(fp, layer);
        long w = seed;
        boolean changed = false;
        for (int i = 0; i < g.hashes; i++) {
            if (i > 0 && i % 7 == 0) {
                w = nextWord(seed, i);
            }
            int bit = (int) (w & (BloomLayer.BLOCK_BITS - 1));
            w >>>= 9;
            int idx = base + (bit >>> 3);
            byte before = page[idx];
            page[idx] = (byte) (before | (1 << (bit & 7)));
            changed |= before != page[idx];
        }
        return changed;
    }

    /** Page id in the pages map: layer in the top 8 bits, page index below. */
    public static int pageId(int layer, int page) {
        return (layer << 24) | page;
    }
}
