package dev.firstseen.record.internal;

import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.SourcePosition;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Wire format of {@link DeadLetter} from the decode and canonicalize stages to the dead-letter
 * sink. Flink's POJO serializer reached each field by reflection and wrote strings char by char.
 *
 * <p>Layout: a flags byte ({@link #REASON} … {@link #TOPIC}), {@code rawLength + 1} as an unsigned
 * variable-length integer, then the present fields in the order reason, detail, raw (its length as
 * a variable-length integer, then its bytes) and the source position (topic, partition, offset,
 * timestamp). Strings and integers are written by {@link Wire}, as in {@link
 * CanonicalUrlSerializer}. {@code DeadLetterTypeSerializerTest} pins the bytes.
 *
 * <p>Dead letters are never kept in state; their bytes live only in network buffers, so a change of
 * layout needs no migration, only a new test of the bytes.
 */
public final class DeadLetterTypeSerializer extends TypeSerializer<DeadLetter> {
    private static final long serialVersionUID = 1L;

    static final int REASON = 0x01;
    static final int DETAIL = 0x02;
    static final int RAW = 0x04;
    static final int SOURCE = 0x08;
    static final int TOPIC = 0x10;

    private static final String TYPE = "DeadLetter";

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<DeadLetter> duplicate() {
        return this; // stateless
    }

    @Override
    public DeadLetter createInstance() {
        return new DeadLetter();
    }

    @Override
    public DeadLetter copy(DeadLetter from) {
        DeadLetter d = new DeadLetter();
        d.reason = from.reason;
        d.detail = from.detail;
        d.raw = from.raw == null ? null : from.raw.clone();
        d.rawLength = from.rawLength;
        SourcePosition s = from.source;
        d.source =
                s == null ? null : new SourcePosition(s.topic, s.partition, s.offset, s.timestamp);
        return d;
    }

    @Override
    public DeadLetter copy(DeadLetter from, DeadLetter reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(DeadLetter d, DataOutputView out) throws IOException {
        SourcePosition s = d.source;
        int flags =
                (d.reason != null ? REASON : 0)
                        | (d.detail != null ? DETAIL : 0)
                        | (d.raw != null ? RAW : 0)
                        | (s != null ? SOURCE : 0)
                        | (s != null && s.topic != null ? TOPIC : 0);
        out.writeByte(flags);
        Wire.writeVarLong(out, d.rawLength + 1L);
        if (d.reason != null) {
            Wire.writeString(out, d.reason);
        }
        if (d.detail != null) {
            Wire.writeString(out, d.detail);
        }
        if (d.raw != null) {
            Wire.writeVarLong(out, d.raw.length);
            out.write(d.raw);
        }
        if (s != null) {
            if (s.topic != null) {
                Wire.writeString(out, s.topic);
            }
            out.writeInt(s.partition);
            out.writeLong(s.offset);
            out.writeLong(s.timestamp);
        }
    }

    @Override
    public DeadLetter deserialize(DataInputView in) throws IOException {
        int flags = in.readUnsignedByte();
        DeadLetter d = new DeadLetter();
        d.rawLength = (int) (Wire.readVarLong(in, TYPE) - 1);
        if ((flags & REASON) != 0) {
            d.reason = readString(in);
        }
        if ((flags & DETAIL) != 0) {
            d.detail = readString(in);
        }
        if ((flags & RAW) != 0) {
            long n = Wire.readVarLong(in, TYPE);
            if (n > Integer.MAX_VALUE - 8) {
                throw new IOException("raw length " + n + " in a " + TYPE);
            }
            d.raw = new byte[(int) n];
            in.readFully(d.raw);
        }
        if ((flags & SOURCE) != 0) {
            String topic = (flags & TOPIC) != 0 ? readString(in) : null;
            int partition = in.readInt();
            long offset = in.readLong();
            d.source = new SourcePosition(topic, partition, offset, in.readLong());
        }
        return d;
    }

    private static String readString(DataInputView in) throws IOException {
        return Wire.readString(in, Wire.readVarLong(in, TYPE), null, TYPE);
    }

    @Override
    public DeadLetter deserialize(DeadLetter reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeadLetterTypeSerializer;
    }

    @Override
    public int hashCode() {
        return DeadLetterTypeSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<DeadLetter> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of {@link DeadLetterTypeSerializer}, which has no parameters. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<DeadLetter> {
        public Snapshot() {
            super(DeadLetterTypeSerializer::new);
        }
    }
}
