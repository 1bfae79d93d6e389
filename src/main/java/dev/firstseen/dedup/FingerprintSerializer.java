package dev.firstseen.dedup;

import dev.firstseen.dedup.internal.VersionedSnapshot;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * State format of the exact store's keys, version 1: 16 bytes, {@code hi} then {@code lo}, each
 * big-endian. Fixed length, no per-record header: it is written once per distinct URL, billions of
 * times. {@code FingerprintSerializerTest} pins the bytes.
 */
public final class FingerprintSerializer extends TypeSerializerSingleton<Fingerprint> {
    private static final long serialVersionUID = 1L;

    public static final FingerprintSerializer INSTANCE = new FingerprintSerializer();
    public static final int VERSION = 1;

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Fingerprint createInstance() {
        return new Fingerprint(0, 0);
    }

    @Override
    public Fingerprint copy(Fingerprint from) {
        return from;
    }

    @Override
    public Fingerprint copy(Fingerprint from, Fingerprint reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return 16;
    }

    @Override
    public void serialize(Fingerprint record, DataOutputView target) throws IOException {
        target.writeLong(record.hi);
        target.writeLong(record.lo);
    }

    @Override
    public Fingerprint deserialize(DataInputView source) throws IOException {
        long hi = source.readLong();
        return new Fingerprint(hi, source.readLong());
    }

    @Override
    public Fingerprint deserialize(Fingerprint reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        target.write(source, 16);
    }

    @Override
    public TypeSerializerSnapshot<Fingerprint> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of {@link FingerprintSerializer}. */
    public static final class Snapshot extends VersionedSnapshot<Fingerprint> {
        public Snapshot() {
            super(VERSION, () -> INSTANCE);
        }
    }
}
