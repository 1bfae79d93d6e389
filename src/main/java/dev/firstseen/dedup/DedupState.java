package dev.firstseen.dedup;

import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.base.IntSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;

/**
 * The dedup operator's state, by name and serializer: part of the savepoint format, so the operator
 * and every reader of its savepoints ({@code Inspect}) take the descriptors from here. Never rename
 * a state or change a serializer without a new version that reads the old one.
 */
public final class DedupState {
    private DedupState() {}

    /**
     * Keyed: the exact store of 128-bit fingerprints, fingerprint to last-emitted time in epoch
     * millis (exact mode; see {@link ExactStore}).
     */
    public static MapStateDescriptor<Fingerprint, Long> seen() {
        return new MapStateDescriptor<>(
                "seen", FingerprintSerializer.INSTANCE, LongSerializer.INSTANCE);
    }

    /**
     * Keyed: the exact store of 64-bit fingerprints, {@code hi} (8 bytes, big-endian) to the
     * last-emitted time in unsigned seconds since the epoch (4 bytes, big-endian).
     */
    public static MapStateDescriptor<Long, Integer> seen64() {
        return new MapStateDescriptor<>("seen-64", LongSerializer.INSTANCE, IntSerializer.INSTANCE);
    }

    /** Keyed: the Bloom filter's pages by page id ({@code layer << 24 | page}). */
    public static MapStateDescriptor<Integer, byte[]> bloomPages() {
        return new MapStateDescriptor<>(
                "bloom-pages", IntSerializer.INSTANCE, BytePrimitiveArraySerializer.INSTANCE);
    }

    /**
     * Keyed: a fingerprint filter's {@link PageJournal}, the inserts since its pages were last
     * written whole, one element per checkpoint and per batch written between checkpoints; there
     * when the stored metadata says so ({@link FilterMeta#journal}). A list, so that RocksDB
     * appends an element without reading the list.
     */
    public static ListStateDescriptor<byte[]> pageJournal() {
        return new ListStateDescriptor<>("page-journal", BytePrimitiveArraySerializer.INSTANCE);
    }

    /** Keyed: the Bloom filter's metadata (layers, counts). */
    public static ValueStateDescriptor<FilterMeta> bloomMeta() {
        return new ValueStateDescriptor<>("bloom-meta", FilterMetaSerializer.INSTANCE);
    }

    /** Keyed: when the key's exact store was last swept for {@code dedup.forget-after}. */
    public static ValueStateDescriptor<Long> lastSweep() {
        return new ValueStateDescriptor<>("forget-sweep", LongSerializer.INSTANCE);
    }

    /** Keyed: the processing time of the key's idle-sweep timer, if one is registered. */
    public static ValueStateDescriptor<Long> sweepTimer() {
        return new ValueStateDescriptor<>("forget-sweep-timer", LongSerializer.INSTANCE);
    }

    /** Timer service of the idle sweeps (its timers are part of the state). */
    public static final String SWEEP_TIMERS = "forget-sweep";

    /** Union operator state: the guarded settings as {@code name=value}. */
    public static ListStateDescriptor<String> settings() {
        return new ListStateDescriptor<>("firstseen-settings", Types.STRING);
    }

    /** Union operator state: the fingerprint function, {@link FingerprintFunction#stored()}. */
    public static ListStateDescriptor<String> fingerprintFunction() {
        return new ListStateDescriptor<>("firstseen-fingerprint", Types.STRING);
    }
}
