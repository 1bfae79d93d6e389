package dev.firstseen.record.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The pieces FirstSeen's shuffle formats share: unsigned variable-length integers (7 bits per byte,
 * low first) and strings as a variable-length header {@code length << 1 | 1} followed by their
 * bytes when every char is ASCII, else {@code length << 1} followed by their UTF-16 chars, which
 * keeps unpaired surrogates intact.
 */
final class Wire {
    private Wire() {}

    static void writeString(DataOutputView out, String s) throws IOException {
        int n = s.length();
        boolean ascii = true;
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                ascii = false;
                break;
            }
        }
        writeVarLong(out, ((long) n << 1) | (ascii ? 1 : 0));
        if (ascii) {
            out.write(s.getBytes(StandardCharsets.ISO_8859_1));
        } else {
            for (int i = 0; i < n; i++) {
                out.writeChar(s.charAt(i));
            }
        }
    }

    /**
     * The string whose header {@link #readVarLong} just read; an ASCII one is read through {@code
     * scratch} if it is long enough, else through a new array. {@code type} names the record in the
     * message of a malformed header.
     */
    static String readString(DataInputView in, long header, byte[] scratch, String type)
            throws IOException {
        if (header >>> 32 != 0) {
            throw new IOException("string length " + (header >>> 1) + " in a " + type);
        }
        int n = (int) (header >>> 1);
        if ((header & 1) == 0) {
            char[] chars = new char[n];
            for (int i = 0; i < n; i++) {
                chars[i] = in.readChar();
            }
            return new String(chars);
        }
        byte[] b = scratch != null && scratch.length >= n ? scratch : new byte[n];
        in.readFully(b, 0, n);
        return new String(b, 0, n, StandardCharsets.ISO_8859_1);
    }

    static void writeVarLong(DataOutputView out, long v) throws IOException {
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    static long readVarLong(DataInputView in, String type) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("malformed variable-length integer in a " + type);
    }
}
