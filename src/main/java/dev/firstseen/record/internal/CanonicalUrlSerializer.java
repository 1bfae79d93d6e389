package dev.firstseen.record.internal;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.Op;
import dev.firstseen.record.SourcePosition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Wire format of {@link CanonicalUrl} between the canonicalize and dedup stages. It is the one
 * record that crosses the shuffle, once per input record, and Flink's POJO serializer spent about a
 * sixth of each side's CPU on it (reflection per field, strings char by char).
 *
 * <p>Layout: a flags byte ({@link #URL} … {@link #META_OMITTED}), the op's byte ({@link #opCode}),
 * {@code salt + 1} and {@code revisitAfterMillis} as unsigned variable-length integers (7 bits per
 * byte, low first), then the present strings in the order url, canonical, key, metaJson, and the
 * source position (topic, partition, offset, timestamp). {@code url} is not written when it equals
 * {@code canonical}. A string is a variable-length header {@code length << 1 | 1} followed by its
 * bytes when every char is ASCII, else {@code length << 1} followed by its UTF-16 chars, which
 * keeps unpaired surrogates intact. {@code CanonicalUrlSerializerTest} pins the bytes.
 *
 * <p>This type is never kept in keyed or operator state; its bytes live only in network buffers
 * (and in the in-flight data of unaligned checkpoints, which FirstSeen does not enable). A change
 * of layout therefore needs no migration, only a new test of the bytes.
 */
public final class CanonicalUrlSerializer extends TypeSerializer<CanonicalUrl> {
    private static final long serialVersionUID = 1L;

    static final int URL = 0x01;
    static final int URL_IS_CANONICAL = 0x02;
    static final int CANONICAL = 0x04;
    static final int KEY = 0x08;
    static final int META = 0x10;
    static final int SOURCE = 0x20;
    static final int TOPIC = 0x40;
    static final int META_OMITTED = 0x80;

    /**
     * Scratch for ASCII strings read back; per instance, and {@link #duplicate()} makes a new one.
     */
    private transient byte[] buffer;

    private static final String TYPE = "CanonicalUrl";

    /*
     * Every record carries its source topic, and a job reads a handful of topics: each instance
     * keeps the last topic it wrote, with its encoded bytes, and the last it read, so that a record
     * from the same topic as the one before costs a reference comparison and a copy on the way out
     * and a byte comparison on the way in, not a scan and a new string. The bytes on the wire are
     * the same either way.
     */
    private transient String lastTopicWritten;
    private transient byte[] lastTopicBytes;
    private transient String lastTopicRead;

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<CanonicalUrl> duplicate() {
        return new CanonicalUrlSerializer();
    }

    @Override
    public CanonicalUrl createInstance() {
        return new CanonicalUrl();
    }

    @Override
    public CanonicalUrl copy(CanonicalUrl from) {
        CanonicalUrl c = new CanonicalUrl(from.url, from.canonical, from.key, from.metaJson, null);
        if (from.source != null) {
            SourcePosition s = from.source;
            c.source = new SourcePosition(s.topic, s.partition, s.offset, s.timestamp);
        }
        c.metaOmitted = from.metaOmitted;
        c.op = from.op;
        c.revisitAfterMillis = from.revisitAfterMillis;
        c.salt = from.salt;
        return c;
    }

    @Override
    public CanonicalUrl copy(CanonicalUrl from, CanonicalUrl reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(CanonicalUrl r, DataOutputView out) throws IOException {
        boolean sameUrl = r.url != null && r.url.equals(r.canonical);
        SourcePosition s = r.source;
        int flags =
                (r.url != null ? (sameUrl ? URL_IS_CANONICAL : URL) : 0)
                        | (r.canonical != null ? CANONICAL : 0)
                        | (r.key != null ? KEY : 0)
                        | (r.metaJson != null ? META : 0)
                        | (s != null ? SOURCE : 0)
                        | (s != null && s.topic != null ? TOPIC : 0)
                        | (r.metaOmitted ? META_OMITTED : 0);
        out.writeByte(flags);
        out.writeByte(opCode(r.op));
        Wire.writeVarLong(out, r.salt + 1L);
        Wire.writeVarLong(out, r.revisitAfterMillis);
        if ((flags & URL) != 0) {
            Wire.writeString(out, r.url);
        }
        if ((flags & CANONICAL) != 0) {
            Wire.writeString(out, r.canonical);
        }
        if ((flags & KEY) != 0) {
            Wire.writeString(out, r.key);
        }
        if ((flags & META) != 0) {
            Wire.writeString(out, r.metaJson);
        }
        if (s != null) {
            if (s.topic != null) {
                writeTopic(out, s.topic);
            }
            out.writeInt(s.partition);
            out.writeLong(s.offset);
            out.writeLong(s.timestamp);
        }
    }

    @Override
    public CanonicalUrl deserialize(DataInputView in) throws IOException {
        int flags = in.readUnsignedByte();
        CanonicalUrl r = new CanonicalUrl();
        r.op = opOf(in.readUnsignedByte());
        r.salt = (int) (readVarLong(in) - 1);
        r.revisitAfterMillis = readVarLong(in);
        r.metaOmitted = (flags & META_OMITTED) != 0;
        if ((flags & URL) != 0) {
            r.url = readString(in);
        }
        if ((flags & CANONICAL) != 0) {
            r.canonical = readString(in);
        }
        if ((flags & URL_IS_CANONICAL) != 0) {
            r.url = r.canonical;
        }
        if ((flags & KEY) != 0) {
            r.key = readString(in);
        }
        if ((flags & META) != 0) {
            r.metaJson = readString(in);
        }
        if ((flags & SOURCE) != 0) {
            String topic = (flags & TOPIC) != 0 ? readTopic(in) : null;
            int partition = in.readInt();
            long offset = in.readLong();
            r.source = new SourcePosition(topic, partition, offset, in.readLong());
        }
        return r;
    }

    @Override
    public CanonicalUrl deserialize(CanonicalUrl reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    /** The op's byte on the wire; fixed per op, whatever order {@link Op} declares them in. */
    static int opCode(Op op) {
        return switch (op) {
            case SEEN -> 0;
            case FORCE -> 1;
            case MARK_SEEN -> 2;
            case FORGET -> 3;
            case FORGET_KEY -> 4;
        };
    }

    static Op opOf(int code) throws IOException {
        return switch (code) {
            case 0 -> Op.SEEN;
            case 1 -> Op.FORCE;
            case 2 -> Op.MARK_SEEN;
            case 3 -> Op.FORGET;
            case 4 -> Op.FORGET_KEY;
            default -> throw new IOException("unknown op code " + code + " in a CanonicalUrl");
        };
    }

    private void writeTopic(DataOutputView out, String topic) throws IOException {
        if (topic != lastTopicWritten) {
            DataOutputSerializer encoded = new DataOutputSerializer(topic.length() + 8);
            Wire.writeString(encoded, topic);
            lastTopicBytes = encoded.getCopyOfBuffer();
            lastTopicWritten = topic;
        }
        out.write(lastTopicBytes);
    }

    private String readTopic(DataInputView in) throws IOException {
        long header = readVarLong(in);
        String last = lastTopicRead;
        if ((header & 1) != 0 && last != null && header >>> 1 == last.length()) {
            int n = last.length();
            byte[] b = scratch(n);
            in.readFully(b, 0, n);
            if (equalsAscii(last, b, n)) {
                return last;
            }
            return lastTopicRead = new String(b, 0, n, StandardCharsets.ISO_8859_1);
        }
        return lastTopicRead = readString(in, header);
    }

    /** True if the first {@code n} bytes of {@code b} are the chars of {@code s}, all ASCII. */
    private static boolean equalsAscii(String s, byte[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) != b[i]) {
                return false;
            }
        }
        return true;
    }

    private String readString(DataInputView in) throws IOException {
        return readString(in, readVarLong(in));
    }

    private String readString(DataInputView in, long header) throws IOException {
        boolean ascii = (header & 1) != 0 && header >>> 32 == 0;
        return Wire.readString(in, header, ascii ? scratch((int) (header >>> 1)) : null, TYPE);
    }

    /** This instance's buffer for ASCII strings read back, at least {@code n} bytes long. */
    private byte[] scratch(int n) {
        byte[] b = buffer;
        if (b == null || b.length < n) {
            b = new byte[Math.max(n, 256)];
            buffer = b;
        }
        return b;
    }

    static long readVarLong(DataInputView in) throws IOException {
        return Wire.readVarLong(in, TYPE);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CanonicalUrlSerializer;
    }

    @Override
    public int hashCode() {
        return CanonicalUrlSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<CanonicalUrl> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot of {@link CanonicalUrlSerializer}, which has no parameters. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<CanonicalUrl> {
        public Snapshot() {
            super(CanonicalUrlSerializer::new);
        }
    }
}
