package dev.firstseen.record.internal;

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
}
