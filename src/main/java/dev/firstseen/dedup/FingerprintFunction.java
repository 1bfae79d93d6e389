package dev.firstseen.dedup;

import dev.firstseen.dedup.internal.Murmur3;
import dev.firstseen.dedup.internal.SipHash;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * How a canonical URL becomes its {@link Fingerprint}. Part of the state format: the exact store
 * and the Bloom filters hold fingerprints, so a job must keep the function its state was written
 * with. The operator records it in operator state ({@link #stored()}) and a restored job uses the
 * recorded one, whatever it was configured with.
 *
 * <ul>
 *   <li>{@code siphash-2-4-64} (since 2026-11-23 12:30 UTC, the default for state written from
 *       empty): SipHash-2-4 with 64-bit output under a secret key, as below. A fingerprint is then
 *       64 bits of identity; its {@code lo} half is a fixed mix of {@code hi}, so the exact store
 *       keeps {@code hi} alone (8 bytes) and rebuilds the whole fingerprint from it. Two URLs
 *       collide only within one key (the store is per key): about n²/2⁶⁵ for a key of n URLs, see
 *       the collision arithmetic in docs/design/state.md.
 *   <li>{@code siphash-2-4-128} (version 1, since 2026-11-23): SipHash-2-4 with 128-bit output,
 *       keyed by a 128-bit secret drawn from {@link SecureRandom} when the job is first built.
 *       Nobody without the key can build two URLs with one fingerprint, so a page cannot make the
 *       job drop a URL it chose (issue 12.1: with a public hash, collisions on one host took
 *       milliseconds to find).
 *   <li>{@code murmur3-128}: MurmurHash3 x64-128 with seed 0, what state written before had. It is
 *       read as is, because the URLs behind its fingerprints are not kept and cannot be hashed
 *       again; such a job stays open to crafted collisions until it starts from an empty state.
 * </ul>
 */
public final class FingerprintFunction implements Serializable {
    private static final long serialVersionUID = 1L;

    private static final String SIPHASH = "siphash-2-4-128";
    private static final String SIPHASH_64 = "siphash-2-4-64";
    private static final String MURMUR3 = "murmur3-128";
    private static final String VERSION = "v1";

    /** The function of state written before functions were recorded. */
    public static final FingerprintFunction LEGACY_MURMUR3 =
            new FingerprintFunction(false, true, 0, 0);

    /** Mixed into {@code hi} to make {@code lo} of a 64-bit fingerprint. */
    private static final long LO_MIX = 0x9E3779B97F4A7C15L;

    private final boolean keyed;
    private final boolean wide;
    private final long k0;
    private final long k1;

    private FingerprintFunction(boolean keyed, boolean wide, long k0, long k1) {
        this.keyed = keyed;
        this.wide = wide;
        this.k0 = k0;
        this.k1 = k1;
    }

    /** SipHash-2-4 with {@code bits} (64 or 128) of output under a new random key. */
    public static FingerprintFunction newSecret(int bits) {
        SecureRandom r = new SecureRandom();
        return withKey(bits, r.nextLong(), r.nextLong());
    }

    /** SipHash-2-4-128 under the given key (bytes 0-7 and 8-15, little-endian). */
    public static FingerprintFunction keyed(long k0, long k1) {
        return new FingerprintFunction(true, true, k0, k1);
    }

    /** SipHash-2-4 with {@code bits} (64 or 128) of output under the given key. */
    public static FingerprintFunction withKey(int bits, long k0, long k1) {
        if (bits != 64 && bits != 128) {
            throw new IllegalArgumentException("fingerprint bits must be 64 or 128, not " + bits);
        }
        return new FingerprintFunction(true, bits == 128, k0, k1);
    }

    /** 128 or 64: the bits of identity in a fingerprint, and what the exact store keeps. */
    public int bits() {
        return wide ? 128 : 64;
    }

    /**
     * The whole fingerprint of a 64-bit function from its {@code hi} half, as the exact store keeps
     * it; {@code lo} feeds the Bloom filter's bit positions and the L1 table.
     */
    public static Fingerprint fromHi(long hi) {
        return new Fingerprint(hi, Murmur3.fmix64(hi ^ LO_MIX));
    }

    public Fingerprint of(String canonicalUrl) {
        if (!keyed) {
            return Fingerprint.of(canonicalUrl);
        }
        // The URL's UTF-8 bytes, which for an ASCII URL (every canonical one) are its chars; the
        // JDK finds that with one vectorized check and copies the string's own bytes.
        byte[] bytes = canonicalUrl.getBytes(StandardCharsets.UTF_8);
        if (!wide) {
            return fromHi(SipHash.hash64(k0, k1, 2, 4, bytes));
        }
        long[] h = SipHash.hash128(k0, k1, 2, 4, bytes);
        return new Fingerprint(h[0], h[1]);
    }

    public boolean isKeyed() {
        return keyed;
    }

    /** The form kept in operator state; it contains the key, so it must not be logged. */
    public String stored() {
        return keyed
                ? VERSION
                        + ":"
                        + (wide ? SIPHASH : SIPHASH_64)
                        + ":"
                        + HexFormat.of().toHexDigits(k0)
                        + HexFormat.of().toHexDigits(k1)
                : VERSION + ":" + MURMUR3;
    }

    /** Reads {@link #stored()}; refuses what this version does not know. */
    public static FingerprintFunction parse(String stored) {
        String[] parts = stored.split(":", -1);
        if (parts.length == 2 && parts[0].equals(VERSION) && parts[1].equals(MURMUR3)) {
            return LEGACY_MURMUR3;
        }
        if (parts.length == 3
                && parts[0].equals(VERSION)
                && (parts[1].equals(SIPHASH) || parts[1].equals(SIPHASH_64))
                && parts[2].length() == 32) {
            return withKey(
                    parts[1].equals(SIPHASH) ? 128 : 64,
                    HexFormat.fromHexDigitsToLong(parts[2], 0, 16),
                    HexFormat.fromHexDigitsToLong(parts[2], 16, 32));
        }
        throw new IllegalStateException(
                "Unknown fingerprint function in the state: '"
                        + (parts.length > 1 ? parts[0] + ":" + parts[1] : "?")
                        + "'. It was written by a newer FirstSeen; restore it with that version.");
    }

    /** Names the function, never the key. */
    @Override
    public String toString() {
        return keyed
                ? (wide ? SIPHASH : SIPHASH_64) + " (the job's secret key)"
                : MURMUR3 + " (seed 0, legacy)";
    }
}
