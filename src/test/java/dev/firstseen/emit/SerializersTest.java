package dev.firstseen.emit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.RawRecord;
import dev.firstseen.record.SourcePosition;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The record formats the README documents. */
class SerializersTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void frontierRecordFormat() throws Exception {
        FrontierRecord r =
                new FrontierRecord(
                        "HTTP://Example.com:80/a/./b#top",
                        "http://example.com/a/b",
                        "example.com",
                        1795000000000L,
                        "{\"depth\":2}",
                        new SourcePosition("urls", 3, 42L, 1795000000001L));
        assertThat(new String(FrontierSerializer.key().serialize(r), StandardCharsets.UTF_8))
                .isEqualTo("example.com");
        String value = new String(FrontierSerializer.value().serialize(r), StandardCharsets.UTF_8);
        assertThat(value)
                .isEqualTo(
                        "{\"url\":\"HTTP://Example.com:80/a/./b#top\","
                                + "\"canonical\":\"http://example.com/a/b\","
                                + "\"key\":\"example.com\",\"first_seen\":1795000000000,"
                                + "\"source\":{\"topic\":\"urls\",\"partition\":3,\"offset\":42},"
                                + "\"meta\":{\"depth\":2}}");
        r.metaJson = null;
        r.url = "http://example.com/\"quoted\"";
        JsonNode n = json.readTree(FrontierSerializer.value().serialize(r));
        assertThat(n.has("meta")).isFalse();
        assertThat(n.get("url").asText()).isEqualTo("http://example.com/\"quoted\"");
    }

    @Test
    void deadLetterKeepsTextOrBase64AndTruncates() throws Exception {
        RawRecord text =
                new RawRecord(
                        "mailto:a@b".getBytes(StandardCharsets.UTF_8),
                        new SourcePosition("in", 1, 7, 99));
        JsonNode n =
                json.readTree(
                        DeadLetterSerializer.value()
                                .serialize(
                                        DeadLetter.of(
                                                text,
                                                DeadLetterReason.UNSUPPORTED_SCHEME,
                                                "scheme 'mailto'",
                                                100)));
        assertThat(n.get("reason").asText()).isEqualTo("unsupported-scheme");
        assertThat(n.get("detail").asText()).isEqualTo("scheme 'mailto'");
        assertThat(n.get("raw").asText()).isEqualTo("mailto:a@b");
        assertThat(n.get("raw_length").asInt()).isEqualTo(10);
        assertThat(n.get("raw_truncated").asBoolean()).isFalse();
        assertThat(n.get("source").get("offset").asLong()).isEqualTo(7);
        assertThat(n.get("source").get("timestamp").asLong()).isEqualTo(99);

        byte[] garbage = new byte[] {(byte) 0xff, 0, (byte) 0xc3, 'x', 5, 6};
        JsonNode g =
                json.readTree(
                        DeadLetterSerializer.value()
                                .serialize(
                                        DeadLetter.of(
                                                new RawRecord(
                                                        garbage, new SourcePosition("in", 0, 1, 2)),
                                                DeadLetterReason.INVALID_UTF8,
                                                "bad",
                                                4)));
        assertThat(g.has("raw")).isFalse();
        assertThat(Base64.getDecoder().decode(g.get("raw_base64").asText()))
                .containsExactly((byte) 0xff, 0, (byte) 0xc3, 'x');
        assertThat(g.get("raw_length").asInt()).isEqualTo(6);
        assertThat(g.get("raw_truncated").asBoolean()).isTrue();

        JsonNode nul =
                json.readTree(
                        DeadLetterSerializer.value()
                                .serialize(
                                        DeadLetter.of(
                                                new RawRecord(
                                                        null, new SourcePosition("in", 0, 1, 2)),
                                                DeadLetterReason.EMPTY,
                                                "null value",
                                                4)));
        assertThat(nul.get("raw").isNull()).isTrue();
        assertThat(nul.get("raw_length").asInt()).isEqualTo(-1);
    }
}
