package dev.firstseen.dedup;

import org.apache.flink.api.common.state.MapState;

/**
 * L3, the exact seen-set of the current key: {@code MapState<Fingerprint, Long>} ("seen") with the
 * last-emitted time in epoch milliseconds (the first emission, or the latest revisit or force).
 * Every call works on the key the operator has set.
 */
final class ExactStore {
    private final MapState<Fingerprint, Long> seen;

    ExactStore(MapState<Fingerprint, Long> seen) {
        this.seen = seen;
    }

    boolean contains(Fingerprint fp) throws Exception {
        return seen.contains(fp);
    }

    /** The time stored with {@code fp} (last emitted, epoch millis), or null if it is not seen. */
    Long get(Fingerprint fp) throws Exception {
        return seen.get(fp);
    }

    void put(Fingerprint fp, long millis) throws Exception {
        seen.put(fp, millis);
    }

    void remove(Fingerprint fp) throws Exception {
        seen.remove(fp);
    }

    /** Removes every fingerprint of the current key. */
    void clear() {
        seen.clear();
    }

    /**
     * Removes the entries of the current key last emitted at or before {@code cutoff}; returns how
     * many.
     */
    long removeUpTo(long cutoff) throws Exception {
        java.util.List<Fingerprint> old = new java.util.ArrayList<>();
        for (java.util.Map.Entry<Fingerprint, Long> e : seen.entries()) {
            if (e.getValue() <= cutoff) {
                old.add(e.getKey());
            }
        }
        for (Fingerprint fp : old) {
            seen.remove(fp);
        }
        return old.size();
    }

    /** Every fingerprint of the current key, for a filter rebuild. */
    Iterable<Fingerprint> fingerprints() throws Exception {
        return seen.keys();
    }
}
