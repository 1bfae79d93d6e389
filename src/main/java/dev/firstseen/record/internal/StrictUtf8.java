package dev.firstseen.record.internal;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * UTF-8 that reports malformed or unmappable bytes instead of replacing them: a record value or a
 * host that is not UTF-8 is refused or quoted as bytes, never silently changed into another text.
 */
public final class StrictUtf8 {
    private StrictUtf8() {}

    /** A new decoder (decoders keep state: one per thread or per instance that uses it). */
    public static CharsetDecoder newDecoder() {
        return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    /**
     * {@code length} bytes of {@code b} from {@code offset} as text, through {@code decoder} (one
     * from {@link #newDecoder}) unless they are all ASCII: ASCII bytes are their own UTF-8, and a
     * Latin-1 copy makes a compact string without the decoder's char buffer.
     */
    public static String decode(CharsetDecoder decoder, byte[] b, int offset, int length)
            throws CharacterCodingException {
        for (int i = offset; i < offset + length; i++) {
            if (b[i] < 0) {
                return decoder.decode(ByteBuffer.wrap(b, offset, length)).toString();
            }
        }
        return new String(b, offset, length, StandardCharsets.ISO_8859_1);
    }
}
