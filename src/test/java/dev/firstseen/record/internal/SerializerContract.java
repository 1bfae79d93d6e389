package dev.firstseen.record.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** What every shuffle serializer here must do, checked field by field on the values given. */
final class SerializerContract {
    private SerializerContract() {}

    static <T> byte[] bytesOf(TypeSerializer<T> s, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(value, out);
        return out.getCopyOfBuffer();
    }

    /**
     * {@code value} comes back from its bytes and from {@code copy}, and copying its bytes writes
     * the same bytes; returns the copy, for checks of its own.
     */
    static <T> T roundTrips(TypeSerializer<T> s, T value) throws IOException {
        byte[] bytes = bytesOf(s, value);
        assertThat(s.deserialize(new DataInputDeserializer(bytes)))
                .usingRecursiveComparison()
                .isEqualTo(value);
        T copy = s.copy(value);
        assertThat(copy).usingRecursiveComparison().isEqualTo(value);
        DataOutputSerializer copied = new DataOutputSerializer(64);
        s.copy(new DataInputDeserializer(bytes), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(bytes);
        return copy;
    }

    /** The values written back to back into one buffer are read back in order, to its end. */
    static <T> void followEachOther(TypeSerializer<T> s, List<T> values) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (T v : values) {
            s.serialize(v, out);
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        for (T v : values) {
            assertThat(s.deserialize(in)).usingRecursiveComparison().isEqualTo(v);
        }
        assertThat(in.available()).isZero();
    }
}
