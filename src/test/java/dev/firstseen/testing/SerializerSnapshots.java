package dev.firstseen.testing;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** A serializer snapshot written and read back as a checkpoint's metadata holds it. */
public final class SerializerSnapshots {
    private SerializerSnapshots() {}

    /** {@code snap} written with its version and read back, as a restore reads it. */
    public static <T> TypeSerializerSnapshot<T> roundTrip(TypeSerializerSnapshot<T> snap)
            throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, snap);
        return TypeSerializerSnapshot.readVersionedSnapshot(
                new DataInputDeserializer(out.getCopyOfBuffer()),
                SerializerSnapshots.class.getClassLoader());
    }
}
