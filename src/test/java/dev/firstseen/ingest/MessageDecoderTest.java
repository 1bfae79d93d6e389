package dev.firstseen.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firstseen.emit.internal.JsonWriter;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.Op;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Input value → URL and metadata, or the dead-letter reason. */
class MessageDecoderTest {
    private final MessageDecoder decoder = new MessageDecoder(1024, 100, 200);

    private MessageDecoder.Decoded decode(String s) {
        return decoder.decode(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Accepted inputs: value, URL, metadata (null for none). */
    static Stream<Arguments> accepted() {
        return Stream.of(
                Arguments.of("  http://example.com/a \n", "http://example.com/a", null),
                Arguments.of("\uFEFFhttp://example.com/bom", "http://example.com/bom", null),
                Arguments.of(
                        "\uFEFF{\"url\":\"http://example.com/bom\"}",
                        "http://example.com/bom",
                        null),
                Arguments.of(
                        "{\"url\":\" http://example.com/ \",\"depth\":2,\"from\":{\"p\":\"x\"}}",
                        "http://example.com/",
                        "{\"depth\":2,\"from\":{\"p\":\"x\"}}"),
                Arguments.of("{\"url\":\"http://a/\"}", "http://a/", null),
                // Metadata is the input's own text: nothing re-encoded, nothing normalized.
                Arguments.of(
                        "{\"big\":1e999,\"url\":\"http://a/\"}", "http://a/", "{\"big\":1e999}"),
                Arguments.of(
                        "{\"url\":\"http://a/\",\"s\":\"\\ud800\",\"n\":-0.0E-5}",
                        "http://a/",
                        "{\"s\":\"\\ud800\",\"n\":-0.0E-5}"),
                Arguments.of(
                        "{ \"url\" : \"http://a/\" , \"d\" : [ 1 , {\"x\":null} ] }",
                        "http://a/",
                        "{\"d\" : [ 1 , {\"x\":null} ]}"),
                // Fields apart in the input are joined by one comma, read by either reader.
                Arguments.of(
                        "{\"a\":1, \"url\":\"http://a/\",\"b\":[2] ,\"c\":\"\u00e9\",\"d\":0}",
                        "http://a/",
                        "{\"a\":1,\"b\":[2],\"c\":\"\u00e9\",\"d\":0}"),
                Arguments.of(
                        "{\"a\":1, \"url\":\"http://a/\",\"b\":2 ,\"c\":\"\u00e9\",\"d\":0}",
                        "http://a/",
                        "{\"a\":1,\"b\":2,\"c\":\"\u00e9\",\"d\":0}"),
                Arguments.of(
                        "{\"a\":1,\"url\":\"http://a/\",\"b\":2}",
                        "http://a/",
                        "{\"a\":1,\"b\":2}"));
    }

    @ParameterizedTest
    @MethodSource("accepted")
    void accepts(String value, String url, String meta) {
        MessageDecoder.Decoded d = decode(value);
        assertThat(d.reason).as(value).isNull();
        assertThat(d.url).isEqualTo(url);
        assertThat(d.metaJson).isEqualTo(meta);
        assertThat(d.metaOmitted).isFalse();
    }

    /** Rejected inputs: value, reason, a word the detail must contain. */
    static Stream<Arguments> rejected() {
        return Stream.of(
                Arguments.of(" \t ", DeadLetterReason.EMPTY, "white space"),
                Arguments.of("\uFEFF", DeadLetterReason.EMPTY, "white space"),
                Arguments.of(
                        "http://example.com/" + "a".repeat(100), DeadLetterReason.TOO_LONG, "100"),
                Arguments.of("{\"url\": ", DeadLetterReason.BAD_JSON, "JSON"),
                Arguments.of("{\"depth\":1}", DeadLetterReason.MISSING_URL, "no field"),
                Arguments.of("{\"url\":42}", DeadLetterReason.MISSING_URL, "url"),
                Arguments.of("{\"url\":\"  \"}", DeadLetterReason.MISSING_URL, "url"),
                Arguments.of("{\"url\":null}", DeadLetterReason.MISSING_URL, "url"),
                Arguments.of("{\"url\":{\"a\":1}}", DeadLetterReason.MISSING_URL, "url"),
                // Two readers could disagree about which URL this is.
                Arguments.of(
                        "{\"url\":\"http://a-site.com/8\",\"url\":\"http://b-site.com/8\"}",
                        DeadLetterReason.BAD_JSON,
                        "Duplicate"),
                Arguments.of(
                        "{\"url\":\"http://a/\",\"m\":{\"k\":1,\"k\":2}}",
                        DeadLetterReason.BAD_JSON,
                        "Duplicate"),
                Arguments.of(
                        "{\"url\":\"http://a-site.com/11\"} trailing",
                        DeadLetterReason.BAD_JSON,
                        "after"),
                Arguments.of("{\"url\":\"http://a/\"}{}", DeadLetterReason.BAD_JSON, "after"),
                Arguments.of("{\"url\":\"http://a/\",}", DeadLetterReason.BAD_JSON, "JSON"),
                Arguments.of("{'url':'http://a/'}", DeadLetterReason.BAD_JSON, "JSON"),
                // Ops (issue 15).
                Arguments.of(
                        "{\"url\":\"http://a/\",\"op\":\"delete\"}",
                        DeadLetterReason.BAD_OP,
                        "not one of"),
                Arguments.of(
                        "{\"url\":\"http://a/\",\"op\":1}",
                        DeadLetterReason.BAD_OP,
                        "not a string"),
                Arguments.of(
                        "{\"op\":\"forget-key\"}", DeadLetterReason.BAD_OP, "needs a field 'key'"),
                Arguments.of(
                        "{\"op\":\"forget-key\",\"key\":7}",
                        DeadLetterReason.BAD_OP,
                        "needs a field 'key'"),
                Arguments.of(
                        "{\"op\":\"forget-key\",\"key\":\"a.com\",\"url\":\"http://a.com/\"}",
                        DeadLetterReason.BAD_OP,
                        "not a 'url'"),
                Arguments.of("{\"op\":\"force\"}", DeadLetterReason.MISSING_URL, "no field"));
    }

    /** Each op is read from "op"; "key" is metadata unless the op is forget-key. */
    @Test
    void readsOps() {
        assertThat(decode("http://a/").op).isEqualTo(Op.SEEN);
        assertThat(decode("{\"url\":\"http://a/\"}").op).isEqualTo(Op.SEEN);
        for (Op op : new Op[] {Op.SEEN, Op.FORCE, Op.MARK_SEEN, Op.FORGET}) {
            MessageDecoder.Decoded d =
                    decode("{\"url\":\"http://a/\",\"op\":\"" + op.code() + "\",\"key\":\"k\"}");
            assertThat(d.reason).isNull();
            assertThat(d.op).isEqualTo(op);
            assertThat(d.url).isEqualTo("http://a/");
            assertThat(d.metaJson).isEqualTo("{\"key\":\"k\"}"); // not the op itself
        }
        MessageDecoder.Decoded forget = decode("{\"op\":\"forget-key\",\"key\":\" Example.COM \"}");
        assertThat(forget.reason).isNull();
        assertThat(forget.op).isEqualTo(Op.FORGET_KEY);
        assertThat(forget.opKey).isEqualTo("Example.COM");
        assertThat(forget.url).isNull();
    }

    /** A record's own revisit_after: an ISO-8601 duration or seconds, never metadata. */
    @Test
    void readsRevisitAfter() {
        MessageDecoder.Decoded days =
                decode("{\"url\":\"http://a/\",\"revisit_after\":\"P30D\",\"d\":1}");
        assertThat(days.reason).isNull();
        assertThat(days.revisitAfterMillis).isEqualTo(30L * 24 * 3600 * 1000);
        assertThat(days.metaJson).isEqualTo("{\"d\":1}");
        assertThat(decode("{\"url\":\"http://a/\",\"revisit_after\":3600}").revisitAfterMillis)
                .isEqualTo(3_600_000L);
        assertThat(decode("http://a/").revisitAfterMillis).isZero();
        for (String bad :
                new String[] {"\"-PT1H\"", "\"soon\"", "0", "-5", "1.5", "[]", "\"PT0S\""}) {
            MessageDecoder.Decoded d =
                    decode("{\"url\":\"http://a/\",\"revisit_after\":" + bad + "}");
            assertThat(d.reason).as(bad).isEqualTo(DeadLetterReason.BAD_OP);
            assertThat(d.detail).contains("revisit_after");
        }
        MessageDecoder approximate = new MessageDecoder(1024, 100, 200, false);
        MessageDecoder.Decoded d =
                approximate.decode(
                        "{\"url\":\"http://a/\",\"revisit_after\":60"
                                .concat("}")
                                .getBytes(StandardCharsets.UTF_8));
        assertThat(d.reason).isEqualTo(DeadLetterReason.BAD_OP);
        assertThat(d.detail).contains("dedup.mode EXACT");
    }

    /** Approximate mode's fingerprint filter can delete, but keeps no times. */
    @Test
    void fingerprintFilterAcceptsDeletesButNoRevisitTimes() {
        MessageDecoder fingerprints = new MessageDecoder(1024, 100, 200, true, false);
        for (String v :
                new String[] {
                    "{\"url\":\"http://a/\",\"op\":\"forget\"}",
                    "{\"op\":\"forget-key\",\"key\":\"a.com\"}"
                }) {
            assertThat(fingerprints.decode(v.getBytes(StandardCharsets.UTF_8)).reason)
                    .as(v)
                    .isNull();
        }
        MessageDecoder.Decoded d =
                fingerprints.decode(
                        "{\"url\":\"http://a/\",\"revisit_after\":60}"
                                .getBytes(StandardCharsets.UTF_8));
        assertThat(d.reason).isEqualTo(DeadLetterReason.BAD_OP);
        assertThat(d.detail).contains("keeps no times");
    }

    /** A Bloom filter cannot delete: approximate mode's decoder refuses forget and forget-key. */
    @Test
    void deletesNeedExactMode() {
        MessageDecoder approximate = new MessageDecoder(1024, 100, 200, false);
        for (String v :
                new String[] {
                    "{\"url\":\"http://a/\",\"op\":\"forget\"}",
                    "{\"op\":\"forget-key\",\"key\":\"a.com\"}"
                }) {
            MessageDecoder.Decoded d = approximate.decode(v.getBytes(StandardCharsets.UTF_8));
            assertThat(d.reason).as(v).isEqualTo(DeadLetterReason.BAD_OP);
            assertThat(d.detail).contains("dedup.mode EXACT");
        }
        assertThat(
                        approximate.decode(
                                        "{\"url\":\"http://a/\",\"op\":\"force\"}"
                                                .getBytes(StandardCharsets.UTF_8))
                                .op)
                .isEqualTo(Op.FORCE);
    }

    @ParameterizedTest
    @MethodSource("rejected")
    void rejects(String value, DeadLetterReason reason, String detail) {
        MessageDecoder.Decoded d = decode(value);
        assertThat(d.reason).as(value).isEqualTo(reason);
        assertThat(d.detail).containsIgnoringCase(detail);
        assertThat(d.url).isNull();
    }

    @Test
    void bytesThatAreNotAUrl() {
        assertThat(decoder.decode(null).reason).isEqualTo(DeadLetterReason.EMPTY);
        assertThat(decoder.decode(new byte[0]).reason).isEqualTo(DeadLetterReason.EMPTY);
        assertThat(decoder.decode(new byte[] {'h', (byte) 0xff, (byte) 0xfe}).reason)
                .isEqualTo(DeadLetterReason.INVALID_UTF8);
        // A UTF-8-encoded lone surrogate is not UTF-8.
        assertThat(decoder.decode(new byte[] {'h', (byte) 0xed, (byte) 0xa0, (byte) 0x80}).reason)
                .isEqualTo(DeadLetterReason.INVALID_UTF8);
        assertThat(decoder.decode(new byte[2000]).reason).isEqualTo(DeadLetterReason.TOO_LONG);
    }

    /**
     * ASCII values take a shortcut past the strict UTF-8 decoder; they must read as that decoder
     * reads them, and one non-ASCII byte anywhere must send the value through it.
     */
    @Test
    void asciiAndUtf8ValuesReadAlike() {
        // Every printable ASCII character, in two URLs within this decoder's 100-character limit.
        for (char from = '!'; from < 127; from += 48) {
            StringBuilder printable = new StringBuilder("http://example.com/");
            for (char c = from; c < Math.min(127, from + 48); c++) {
                printable.append(c);
            }
            String ascii = printable.toString();
            assertThat(decode(ascii).url).isEqualTo(ascii);
        }
        assertThat(decode("\tnews.example/a b\n").url).isEqualTo("news.example/a b");
        assertThat(decode("http://example.com/caf\u00e9?q=\u4e2d").url)
                .isEqualTo("http://example.com/caf\u00e9?q=\u4e2d");
        byte[] lastByteBad = "http://example.com/abc".getBytes(StandardCharsets.US_ASCII);
        lastByteBad[lastByteBad.length - 1] = (byte) 0xC3;
        assertThat(decoder.decode(lastByteBad).reason).isEqualTo(DeadLetterReason.INVALID_UTF8);
        byte[] withBom = {
            (byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'h', 't', 't', 'p', ':', '/', '/', 'a', '/'
        };
        assertThat(decoder.decode(withBom).url).isEqualTo("http://a/");
    }

    @Test
    void metadataOverTheLimitIsLeftOutAndSaidSo() {
        MessageDecoder.Decoded d =
                decode("{\"url\":\"http://a/\",\"anchor\":\"" + "x".repeat(300) + "\"}");
        assertThat(d.reason).isNull();
        assertThat(d.url).isEqualTo("http://a/");
        assertThat(d.metaJson).isNull();
        assertThat(d.metaOmitted).isTrue();
    }

    /**
     * Nesting up to {@link MessageDecoder#MAX_NESTING} is accepted, and the frontier record, which
     * nests the metadata one level deeper, is still read by a default JSON reader; one level more
     * is refused.
     */
    @Test
    void nestingStaysWithinWhatADefaultReaderAccepts() throws Exception {
        MessageDecoder big = new MessageDecoder(64 << 10, 100, 64 << 10);
        int depth = MessageDecoder.MAX_NESTING;
        String nested = "[".repeat(depth - 1) + "]".repeat(depth - 1);
        MessageDecoder.Decoded ok =
                big.decode(
                        ("{\"url\":\"http://a/\",\"m\":" + nested + "}")
                                .getBytes(StandardCharsets.UTF_8));
        assertThat(ok.reason).isNull();
        byte[] frontier =
                new JsonWriter().raw("{\"meta\":").rawUtf8(ok.metaJson).raw('}').toBytes();
        JsonNode n = new ObjectMapper().readTree(frontier); // default limits
        assertThat(n.get("meta").get("m").isArray()).isTrue();

        String deeper = "[".repeat(depth) + "]".repeat(depth);
        MessageDecoder.Decoded refused =
                big.decode(
                        ("{\"url\":\"http://a/\",\"m\":" + deeper + "}")
                                .getBytes(StandardCharsets.UTF_8));
        assertThat(refused.reason).isEqualTo(DeadLetterReason.BAD_JSON);
    }
}
