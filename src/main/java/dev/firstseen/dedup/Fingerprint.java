package dev.firstseen.dedup;

import dev.firstseen.dedup.internal.Ascii;
import dev.firstseen.dedup.internal.Murmur3;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The 128-bit identity of a canonical URL: MurmurHash3 x64 128 (seed 0) over its UTF-8 bytes. The
 * exact store keeps fingerprints instead of URLs: 16 bytes instead of ~100. Two distinct URLs share
 * a fingerprint with probability about n²/2¹²⁹ — around 1e-19 for 10 billion URLs.
 *
 * <p>The hash function is part of the state format: changing it would make every stored fingerprint
 * miss. {@code FingerprintTest} pins it with golden values.
 */
public final class Fingerprint {
    public final long hi;
    public final long lo;

    public Fingerprint(long hi, long lo) {
        this.hi = hi;
        this.lo = lo;
    }

    public static Fingerprint of(String canonicalUrl) {
        if (!Ascii.isAscii(canonicalUrl)) {
            return ofBytes(canonicalUrl.getBytes(StandardCharsets.UTF_8));
        }
        // ASCII (every canonical URL): the chars are the UTF-8 bytes, no copy needed.
        long[] h = Murmur3.hash128(canonicalUrl);
        return new Fingerprint(h[0], h[1]);
    }

    public static Fingerprint ofBytes(byte[] bytes) {
        long[] h = Murmur3.hash128(new String(bytes, StandardCharsets.ISO_8859_1));
        return new Fingerprint(h[0], h[1]);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fingerprint && ((Fingerprint) o).hi == hi && ((Fingerprint) o).lo == lo;
    }

    @Override
    public int hashCode() {
        return (int) (hi ^ (hi >>> 32));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%016x%016x", hi, lo);
    }
}
