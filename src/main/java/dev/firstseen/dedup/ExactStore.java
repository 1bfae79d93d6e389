package dev.firstseen.dedup;

import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapState;

/**
 * L3, the exact seen-set of the current key: each URL's fingerprint with the time it was last
 * emitted (the first emission, or the latest revisit or force). Every call works on the key the
 * operator has set. Two layouts, chosen by the fingerprint function the state was written with
 * ({@link #open}):
 *
 * <ul>
 *   <li>64-bit fingerprints: {@code MapState<Long, Integer>} ("seen-64"), {@code hi} to whole
 *       seconds since the epoch (unsigned, until 2106). 12 bytes of key and value per URL.
 *   <li>128-bit fingerprints (state written before 2026-11-23 12:30 UTC or with {@code
 *       dedup.fingerprint-bits: 128}): {@code MapState<Fingerprint, Long>} ("seen"), milliseconds.
 *       24 bytes per URL.
 * </ul>
 *
 * Times are returned in epoch milliseconds either way; the 64-bit layout rounds them down to the
 * second, so a revisit or an expiry can come up to a second early.
 */
public abstract class ExactStore {
    ExactStore() {}

    /** The layout that matches {@code function}'s fingerprints, on {@code ctx}'s keyed state. */
    public static ExactStore open(RuntimeContext ctx, FingerprintFunction function) {
        return function.bits() == 64
                ? new Narrow(ctx.getMapState(DedupState.seen64()))
                : new Wide(ctx.getMapState(DedupState.seen()));
    }

    /** The time stored with {@code fp} (last emitted, epoch millis), or null if it is not seen. */
    public abstract Long get(Fingerprint fp) throws Exception;

    abstract void put(Fingerprint fp, long millis) throws Exception;

    abstract void remove(Fingerprint fp) throws Exception;

    /** Removes every fingerprint of the current key. */
    abstract void clear();

    /** Every fingerprint of the current key with its time (epoch millis). */
    public abstract Iterable<Map.Entry<Fingerprint, Long>> entries() throws Exception;

    /** Every fingerprint of the current key, for a filter rebuild. */
    abstract Iterable<Fingerprint> fingerprints() throws Exception;

    /**
     * Removes the entries of the current key last emitted at or before {@code cutoff}; returns how
     * many.
     */
    long removeUpTo(long cutoff) throws Exception {
        List<Fingerprint> old = new ArrayList<>();
        for (Map.Entry<Fingerprint, Long> e : entries()) {
            if (e.getValue() <= cutoff) {
                old.add(e.getKey());
            }
        }
        for (Fingerprint fp : old) {
            remove(fp);
        }
        return old.size();
    }

    /** True if the current key has no entry. */
    boolean isEmpty() throws Exception {
        return !fingerprints().iterator().hasNext();
    }

    private static <A, B> Iterable<B> mapped(Iterable<A> in, Function<A, B> f) {
        return () -> {
            Iterator<A> it = in.iterator();
            return new Iterator<B>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public B next() {
                    return f.apply(it.next());
                }
            };
        };
    }

    /** 64-bit fingerprints: {@code hi} to unsigned seconds. */
    static final class Narrow extends ExactStore {
        private static final long MAX_SECONDS = 0xFFFF_FFFFL;
        private final MapState<Long, Integer> seen;

        Narrow(MapState<Long, Integer> seen) {
            this.seen = seen;
        }

        /** Whole seconds, clamped to what 32 unsigned bits hold. */
        static int seconds(long millis) {
            return (int) Math.min(MAX_SECONDS, Math.max(0, Math.floorDiv(millis, 1000L)));
        }

        static long millis(int seconds) {
            return Integer.toUnsignedLong(seconds) * 1000L;
        }

        @Override
        public Long get(Fingerprint fp) throws Exception {
            Integer s = seen.get(fp.hi);
            return s == null ? null : millis(s);
        }

        @Override
        void put(Fingerprint fp, long millis) throws Exception {
            seen.put(fp.hi, seconds(millis));
        }

        @Override
        void remove(Fingerprint fp) throws Exception {
            seen.remove(fp.hi);
        }

        @Override
        void clear() {
            seen.clear();
        }

        @Override
        public Iterable<Map.Entry<Fingerprint, Long>> entries() throws Exception {
            return mapped(
                    seen.entries(),
                    e ->
                            new SimpleImmutableEntry<>(
                                    FingerprintFunction.fromHi(e.getKey()), millis(e.getValue())));
        }

        @Override
        Iterable<Fingerprint> fingerprints() throws Exception {
            return mapped(seen.keys(), FingerprintFunction::fromHi);
        }
    }

    /** 128-bit fingerprints: the whole fingerprint to milliseconds. */
    static final class Wide extends ExactStore {
        private final MapState<Fingerprint, Long> seen;

        Wide(MapState<Fingerprint, Long> seen) {
            this.seen = seen;
        }

        @Override
        public Long get(Fingerprint fp) throws Exception {
            return seen.get(fp);
        }

        @Override
        void put(Fingerprint fp, long millis) throws Exception {
            seen.put(fp, millis);
        }

        @Override
        void remove(Fingerprint fp) throws Exception {
            seen.remove(fp);
        }

        @Override
        void clear() {
            seen.clear();
        }

        @Override
        public Iterable<Map.Entry<Fingerprint, Long>> entries() throws Exception {
            return seen.entries();
        }

        @Override
        Iterable<Fingerprint> fingerprints() throws Exception {
            return seen.keys();
        }
    }
}
