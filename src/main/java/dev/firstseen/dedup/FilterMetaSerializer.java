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
 * <p>Format 4, a compressed-fingerprint filter written since serializer version 5: format 2's
 * fields with varints (unsigned LEB128) where format 2 spends a fixed 4 or 8 bytes on small
 * numbers, and the journal flag in a byte of its own: 20 or 21 bytes for a one-class key at 1e-4
 * instead of 41. Most keys of a long-tailed crawl have one class and one small page, so their
 * metadata record was as large as their page.
 *
 * <pre>
 *   byte    format (4)
 *   byte    strategy (2 or 3)
 *   byte    flags: bit 0, a page journal to insert over the pages (as format 3)
 *   varint  initial capacity
 *   double  target false-positive rate
 *   byte    class count C
 *   C times: byte width, byte level, varint split, varint capacity + 1 (0: never full, the
 *            capacity {@link Long#MAX_VALUE} of exact mode's class), varint count
 * </pre>
 *
 * <p>Every record starts with its format byte, so all four are read one by one: a Bloom filter is
 * still written in format 1, which serializer version 1 wrote, and a fingerprint filter in format 4
 * (in format 2 or 3 if a field is negative, which no filter has). {@code StateSerializersTest} pins
 * these bytes.
 */
public final class FilterMetaSerializer extends TypeSerializerSingleton<FilterMeta> {
    private static final long serialVersionUID = 1L;

    public static final FilterMetaSerializer INSTANCE = new FilterMetaSerializer();

    /**
     * 2: adds record format 2; reads version 1's state as it is. 3: format 2 may carry strategy 3,
     * exact mode's fingerprint pages; reads versions 1 and 2's state as it is. 4: adds record
     * format 3 (a key with a page journal); reads versions 1 to 3's state as it is. 5: writes
     * fingerprint filters in record format 4; reads versions 1 to 4's state as it is, so that a
     * build that cannot read format 4 refuses this state at restore rather than at a key.
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
        if (m.isFingerprints() && compactable(m)) {
            out.writeByte(4);
            out.writeByte(m.strategy);
            out.writeByte(m.journal ? 1 : 0);
            writeVarLong(out, m.initialCapacity());
            out.writeDouble(m.targetFpp());
            out.writeByte(m.classCount());
            for (int c = 0; c < m.classCount(); c++) {
                out.writeByte(m.width(c));
                out.writeByte(m.level(c));
                writeVarLong(out, m.split(c));
                writeVarLong(out, m.capacity(c) == Long.MAX_VALUE ? 0 : m.capacity(c) + 1);
                writeVarLong(out, m.entries(c));
            }
            return;
        }
        boolean fingerprints = m.isFingerprints();
        out.writeByte(fingerprints ? (m.journal ? 3 : 2) : 1);
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
        if (format == 4) {
            return deserializeCompact(in);
        }
        if (format < 1 || format > 3) {
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
            return FilterMeta.ofClasses(strategy, initialCapacity, fpp, readClasses(in, n))
                    .withJournal(format == 3);
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

    /** True if format 4 can hold {@code m}'s numbers: none is negative. */
    private static boolean compactable(FilterMeta m) {
        if (m.initialCapacity() < 0) {
            return false;
        }
        for (int c = 0; c < m.classCount(); c++) {
            if (m.split(c) < 0 || m.capacity(c) < 0 || m.entries(c) < 0) {
                return false;
            }
        }
        return true;
    }

    private static FilterMeta deserializeCompact(DataInputView in) throws IOException {
        byte strategy = in.readByte();
        if (strategy != FilterMeta.FINGERPRINTS && strategy != FilterMeta.EXACT_FINGERPRINTS) {
            throw new IOException("Unknown filter strategy " + strategy + " in format 4");
        }
        int flags = in.readUnsignedByte();
        if ((flags & ~1) != 0) {
            throw new IOException("Unknown flags " + flags + " in filter metadata format 4");
        }
        long initialCapacity = readVarLong(in);
        double fpp = in.readDouble();
        int n = in.readUnsignedByte();
        List<FingerprintClass> classes = new ArrayList<>(n + 1);
        for (int i = 0; i < n; i++) {
            int width = in.readUnsignedByte();
            int level = in.readUnsignedByte();
            long split = readVarLong(in);
            long capacity = readVarLong(in);
            long count = readVarLong(in);
            if (split > Integer.MAX_VALUE) {
                throw new IOException("Corrupt fingerprint filter metadata: split " + split);
            }
            try {
                classes.add(
                        new FingerprintClass(
                                width,
                                capacity == 0 ? Long.MAX_VALUE : capacity - 1,
                                level,
                                (int) split,
                                count));
            } catch (IllegalArgumentException e) {
                throw new IOException("Corrupt fingerprint filter metadata: " + e.getMessage(), e);
            }
        }
        return FilterMeta.ofClasses(strategy, initialCapacity, fpp, classes)
                .withJournal((flags & 1) != 0);
    }

    /** Writes {@code v} (not negative) as unsigned LEB128. */
    private static void writeVarLong(DataOutputView out, long v) throws IOException {
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    /** Reads what {@link #writeVarLong} wrote; refuses more than 63 bits. */
    private static long readVarLong(DataInputView in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 63; shift += 7) {
            int b = in.readUnsignedByte();
            if (shift == 56 && b > 0x7F) {
                break;
            }
            v |= (long) (b & 0x7F) << shift;
            if (b < 0x80) {
                return v;
            }
        }
        throw new IOException("Corrupt filter metadata: a varint longer than 63 bits");
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
