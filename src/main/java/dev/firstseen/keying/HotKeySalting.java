package dev.firstseen.keying;

import dev.firstseen.record.CanonicalUrl;
import java.io.Serializable;
import java.util.Set;
import java.util.TreeSet;

/**
 * Spreads the dedup state of hot partition keys over several subtasks. A URL of a listed key gets a
 * salt, a fixed function of its canonical form in {@code [0, salts)}, and its dedup state lives
 * under {@code key#salt}; its frontier record keeps the plain key, so politeness and frontier
 * partitioning do not change. One domain with 40% of the records then no longer caps the job at the
 * one core that runs its key.
 *
 * <p>The salt of a URL must be the same forever, or the URL would be looked up under another key
 * and emitted again: it is {@link String#hashCode()} of the canonical URL (specified by the Java
 * language, the same on every JVM) mixed and reduced, and the list and count are guarded settings
 * of the state ({@link #guardValue()}).
 */
public final class HotKeySalting implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Name of the guarded setting that records the salted keys with the state. */
    public static final String GUARD = "keying.hot-domains";

    /** No key is salted. */
    public static final HotKeySalting NONE = new HotKeySalting(Set.of(), 1);

    private final TreeSet<String> keys;
    private final int salts;

    public HotKeySalting(Set<String> keys, int salts) {
        if (salts < 1) {
            throw new IllegalArgumentException("salts must be at least 1, not " + salts);
        }
        this.keys = new TreeSet<>(keys);
        this.salts = salts;
    }

    /** The salt of {@code canonical} under {@code key}, or -1 if the key is not salted. */
    public int saltOf(String key, String canonical) {
        if (keys.isEmpty() || !keys.contains(key)) {
            return -1;
        }
        int h = canonical.hashCode() * 0x9E3779B9; // Fibonacci hashing: the high bits mix all
        return (int) (((h >>> 8) & 0xFFFFFFL) * salts >>> 24);
    }

    /** True if {@code key}'s state is spread over salts. */
    public boolean isSalted(String key) {
        return keys.contains(key);
    }

    public int salts() {
        return salts;
    }

    /** The key the dedup state of {@code u} lives under: what the job keys the stream by. */
    public static String stateKey(CanonicalUrl u) {
        return stateKey(u.key, u.salt);
    }

    /** {@code key}, or {@code key#salt} for a salt of 0 or more. */
    public static String stateKey(String key, int salt) {
        return salt < 0 ? key : key + "#" + salt;
    }

    /** The form kept with the state's guarded settings: "none", or the count and the keys. */
    public String guardValue() {
        return keys.isEmpty() || salts == 1 ? "none" : salts + ":" + String.join(",", keys);
    }

    /** Reads {@link #guardValue()}; null (state from before salting) is no salting. */
    public static HotKeySalting fromGuardValue(String value) {
        if (value == null || value.equals("none")) {
            return NONE;
        }
        int colon = value.indexOf(':');
        return new HotKeySalting(
                Set.of(value.substring(colon + 1).split(",")),
                Integer.parseInt(value.substring(0, colon)));
    }

    @Override
    public String toString() {
        return guardValue();
    }
}
