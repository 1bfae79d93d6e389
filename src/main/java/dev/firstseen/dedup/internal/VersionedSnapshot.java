package dev.firstseen.dedup.internal;

import java.io.IOException;
import java.util.Locale;
import java.util.function.Supplier;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Snapshot of a stateless FirstSeen serializer. Flink writes {@link #getCurrentVersion()} into
 * every checkpoint next to the data; a checkpoint from a newer, unknown format version is refused
 * at restore instead of being misread.
 */
public abstract class VersionedSnapshot<T> implements TypeSerializerSnapshot<T> {
    private final int currentVersion;
    private final Supplier<TypeSerializer<T>> serializer;
    private int readVersion;

    protected VersionedSnapshot(int currentVersion, Supplier<TypeSerializer<T>> serializer) {
        this.currentVersion = currentVersion;
        this.serializer = serializer;
        this.readVersion = currentVersion;
    }

    @Override
    public int getCurrentVersion() {
        return currentVersion;
    }

    @Override
    public void writeSnapshot(DataOutputView out) {}

    @Override
    public void readSnapshot(int version, DataInputView in, ClassLoader classLoader)
            throws IOException {
        if (version < 1 || version > currentVersion) {
            throw new IOException(
                    String.format(
                            Locale.ROOT,
                            "Unrecognized version %d of %s (this build reads 1 to %d): the state"
                                    + " was written by a newer FirstSeen, or is corrupt",
                            version,
                            getClass().getSimpleName(),
                            currentVersion));
        }
        this.readVersion = version;
    }

    /** Format version of the state being restored (the current one for new state). */
    public int readVersion() {
        return readVersion;
    }

    @Override
    public TypeSerializer<T> restoreSerializer() {
        return serializer.get();
    }

    @Override
    public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(
            TypeSerializerSnapshot<T> oldSnapshot) {
        if (oldSnapshot.getClass() != getClass()) {
            return TypeSerializerSchemaCompatibility.incompatible();
        }
        return oldSnapshot.getCurrentVersion() == currentVersion
                ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                : TypeSerializerSchemaCompatibility.compatibleAfterMigration();
    }
}
