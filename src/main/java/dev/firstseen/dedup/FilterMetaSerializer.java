package dev.firstseen.dedup;

import dev.firstseen.dedup.internal.VersionedSnapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * State format of {@link FilterMeta}, one record per key, big-endian. Format 1, a Bloom filter:
 *
 * <pre>
 *   byte    format (1)
 *   byte    strategy ({@link BlockedBloom#STRATEGY})
 *   long    initial capacity
 *   double  target false-positive rate
 *   byte    layer count L
 *   L times: int pages, byte blocks per page, byte hashes, long capacity, long count
 * </pre>
 *
 * Format 2, a compressed-fingerprint filter ({@link FilterMeta#FINGERPRINTS}):
 *
 * <pre>
 *   byte    format (2)
 *   byte    strategy (2, or 3 for exact mode's fingerprint pages)
 *   long    initial capacity
 *   double  target false-positive rate
 *   byte    class count C
 *   C times: byte width, byte level, int split, long capacity, long count
 * </pre>
 *
 * Format 3 is format 2, byte for byte but for the format byte, for a compressed-fingerprint filter
 * whose key also has a {@link PageJournal} to insert over the pages ({@link FilterMeta#journal});
 * the metadata is that of the pages, before the journal's inserts.
 *
 * <p>Formats 4 and 5 are formats 2 and 3 followed by one {@code long} per class, the end (epoch
 * milliseconds) of the generation the class belongs to: approximate mode's filter with {@code
 * dedup.forget-after} ({@link FilterMeta#hasGenerations}).
 *
 * <p>Every record starts with its format byte, so all five are read one by one: a Bloom filter is
 * still written in format 1, which serializer version 1 wrote, and a fingerprint filter without a
 * journal or generations in format 2. {@code StateSerializersTest} pins these bytes.
 */
public final class FilterMetaSerializer extends TypeSerializerSingleton<FilterMeta> {
    private static final long serialVersionUID = 1L;

    public static final FilterMetaSerializer INSTANCE = new FilterMetaSerializer();

    /**
     * 2: adds record format 2; reads version 1's state as it is. 3: format 2 may carry strategy 3,
     * exact mode's fingerprint pages; reads versions 1 and 2's state as it is. 4: adds record
     * format 3 (a key with a page journal); reads versions 1 to 3's state as it is. 5: adds record
     * formats 4 and 5 (generations); reads versions 1 to 4's state as it is.
     */
    public static final int VERSION = 5;

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public FilterMeta createInstance() {
        return FilterMeta.create(1, 0.01);
    }

    @Override
    public FilterMeta copy(FilterMeta from) {
        return from.copy();
    }

    @Override
    public FilterMeta copy(FilterMeta from, FilterMeta reuse) {
        return from.copy();
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(FilterMeta m, DataOutputView out) throws IOException {
        boolean fingerprints = m.isFingerprints();
        long[] untils = fingerprints ? m.untils() : null;
        out.writeByte(fingerprints ? (m.journal ? 3 : 2) + (untils == null ? 0 : 2) : 1);
        out.writeByte(m.strategy);
        out.writeLong(m.initialCapacity());
        out.writeDouble(m.targetFpp());
        if (fingerprints) {
            out.writeByte(m.classCount());
            for (int c = 0; c < m.classCount(); c++) {
                out.writeByte(m.width(c));
                out.writeByte(m.level(c));
                out.writeInt(m.split(c));
                out.writeLong(m.capacity(c));
                out.writeLong(m.entries(c));
            }
            if (untils != null) {
                for (long u : untils) {
                    out.writeLong(u);
                }
            }
        } else {
            out.writeByte(m.layers.size());
            for (BloomLayer l : m.layers) {
                out.writeInt(l.pages);
                out.writeByte(l.blocksPerPage);
                out.writeByte(l.hashes);
                out.writeLong(l.capacity);
                out.writeLong(l.count);
            }
        }
    }

    @Override
    public FilterMeta deserialize(DataInputView in) throws IOException {
        int format = in.readUnsignedByte();
        if (format < 1 || format > 5) {
            throw new IOException(
                    "Unrecognized Bloom filter metadata format "
                            + format
                            + ": written by a newer FirstSeen, or corrupt");
        }
        byte strategy = in.readByte();
        if (format == 1 && strategy != BlockedBloom.STRATEGY) {
            throw new IOException("Unknown Bloom filter strategy " + strategy);
        }
        if (format >= 2
                && strategy != FilterMeta.FINGERPRINTS
                && strategy != FilterMeta.EXACT_FINGERPRINTS) {
            throw new IOException("Unknown filter strategy " + strategy + " in format " + format);
        }
        long initialCapacity = in.readLong();
        double fpp = in.readDouble();
        int n = in.readUnsignedByte();
        if (format >= 2) {
            FilterMeta m =
                    FilterMeta.ofClasses(strategy, initialCapacity, fpp, readClasses(in, n))
                            .withJournal(format == 3 || format == 5);
            if (format >= 4) {
                long[] untils = new long[n];
                for (int i = 0; i < n; i++) {
                    untils[i] = in.readLong();
                }
                m.withUntils(untils);
            }
            return m;
        }
        List<BloomLayer> layers = new ArrayList<>(n + 1);
        for (int i = 0; i < n; i++) {
            int pages = in.readInt();
            int perPage = in.readUnsignedByte();
            int hashes = in.readUnsignedByte();
            long capacity = in.readLong();
            long count = in.readLong();
            layers.add(new BloomLayer(pages, perPage, hashes, capacity, count));
        }
        return new FilterMeta(strategy, initialCapacity, fpp, layers);
    }

    private static List<FingerprintClass> readClasses(DataInputView in, int n) throws IOException {
        List<FingerprintClass> classes = new ArrayList<>(n + 1);
        for (int i = 0; i < n; i++) {
            int width = in.readUnsignedByte();
            int level = in.readUnsignedByte();
            int split = in.readInt();
            long capacity = in.readLong();
            long count = in.readLong();
            try {
                classes.add(new FingerprintClass(width, capacity, level, split, count));
            } catch (IllegalArgumentException e) {
                throw new IOException("Corrupt fingerprint filter metadata: " + e.getMessage(), e);
            }
        }
        return classes;
    }

    @Override
    public FilterMeta deserialize(FilterMeta reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    @Override
    public TypeSerializerSnapshot<FilterMeta> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of {@link FilterMetaSerializer}. */
    public static final class Snapshot extends VersionedSnapshot<FilterMeta> {
        public Snapshot() {
            super(VERSION, () -> INSTANCE);
        }
    }
}
