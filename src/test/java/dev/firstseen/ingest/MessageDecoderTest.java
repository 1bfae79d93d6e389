package dev.firstseen.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.DeadLetterReason;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MessageDecoderTest {
    private final MessageDecoder decoder = new MessageDecoder(1024, 100);

    private MessageDecoder.Decoded decode(String s) {
        return decoder.decode(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void bareUrlIsTrimmed() {
        MessageDecoder.Decoded d = decode("  http://example.com/a \n");
        assertThat(d.reason).isNull();
        assertThat(d.url).isEqualTo("http://example.com/a");
        assertThat(d.metaJson).isNull();
    }

    @Test
    void jsonObjectKeepsOtherFieldsAsMetadata() {
        MessageDecoder.Decoded d =
                decode("{\"url\":\" http://example.com/ \",\"depth\":2,\"from\":{\"p\":\"x\"}}");
        assertThat(d.reason).isNull();
        assertThat(d.url).isEqualTo("http://example.com/");
        assertThat(d.metaJson).isEqualTo("{\"depth\":2,\"from\":{\"p\":\"x\"}}");
        assertThat(decode("{\"url\":\"http://a/\"}").metaJson).isNull();
    }

    @Test
    void badInputHasAReason() {
        assertThat(decoder.decode(null).reason).isEqualTo(DeadLetterReason.EMPTY);
        assertThat(decoder.decode(new byte[0]).reason).isEqualTo(DeadLetterReason.EMPTY);
        assertThat(decode(" \t ").reason).isEqualTo(DeadLetterReason.EMPTY);
        assertThat(decoder.decode(new byte[] {'h', (byte) 0xff, (byte) 0xfe}).reason)
                .isEqualTo(DeadLetterReason.INVALID_UTF8);
        assertThat(decoder.decode(new byte[2000]).reason).isEqualTo(DeadLetterReason.TOO_LONG);
        assertThat(decode("http://example.com/" + "a".repeat(100)).reason)
                .isEqualTo(DeadLetterReason.TOO_LONG);
        assertThat(decode("{\"url\": ").reason).isEqualTo(DeadLetterReason.BAD_JSON);
        assertThat(decode("{\"depth\":1}").reason).isEqualTo(DeadLetterReason.MISSING_URL);
        assertThat(decode("{\"url\":42}").reason).isEqualTo(DeadLetterReason.MISSING_URL);
        assertThat(decode("{\"url\":\"  \"}").reason).isEqualTo(DeadLetterReason.MISSING_URL);
        assertThat(decode("{\"url\":null}").reason).isEqualTo(DeadLetterReason.MISSING_URL);
        MessageDecoder.Decoded d = decode("{\"url\":1}");
        assertThat(d.detail).contains("url");
    }
}
