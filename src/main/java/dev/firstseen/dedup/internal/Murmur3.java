package dev.firstseen.dedup.internal;

/**
 * MurmurHash3 x64 128-bit (Austin Appleby's public-domain reference, seed 0) over a string whose
 * chars are byte values 0-255. Returns {h1, h2}; h1 equals Guava's {@code
 * Hashing.murmur3_128().hashBytes(b).asLong()}.
 */
public final class Murmur3 {
    private Murmur3() {}

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    public static long[] hash128(String bytes) {
        int len = bytes.length();
        long h1 = 0;
        long h2 = 0;
        int i = 0;
        for (; i + 16 <= len; i += 16) {
            long k1 = getLong(bytes, i);
            long k2 = getLong(bytes, i + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = len - i;
        if (tail > 8) {
            long k2 = 0;
            for (int j = tail - 1; j >= 8; j--) {
                k2 = (k2 << 8) | (bytes.charAt(i + j) & 0xFF);
            }
            h2 ^= mixK2(k2);
        }
        if (tail > 0) {
            long k1 = 0;
            for (int j = Math.min(tail, 8) - 1; j >= 0; j--) {
                k1 = (k1 << 8) | (bytes.charAt(i + j) & 0xFF);
            }
            h1 ^= mixK1(k1);
        }
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        return new long[] {h1, h2};
    }

    private static long getLong(String s, int at) {
        long v = 0;
        for (int j = 7; j >= 0; j--) {
            v = (v << 8) | (s.charAt(at + j) & 0xFF);
        }
        return v;
    }

    private static long mixK1(long k1) {
        k1 *= C1;
        k1 = Long.rotateLeft(k1, 31);
        return k1 * C2;
    }

    private static long mixK2(long k2) {
        k2 *= C2;
        k2 = Long.rotateLeft(k2, 33);
        return k2 * C1;
    }

    /** The MurmurHash3 finalizer: a full-avalanche 64-bit mix. */
    public static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
