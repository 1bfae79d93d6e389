package dev.firstseen.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.tools.CrawlStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fast path for flat JSON objects against the Jackson reader: wherever {@link FlatJson}
 * answers, Jackson must accept the object and read the same fields from it.
 */
class FlatJsonTest {
    private final MessageDecoder decoder = new MessageDecoder(1 << 20, 1 << 20, 1 << 20);

    /** Objects the fast path reads: what it must take from them. */
    @Test
    void readsFlatObjects() {
        JsonFields f =
                fast(
                        "{\"url\":\"https://example.com/a\",\"found_on\":\"https://example.com/\","
                                + "\"depth\":2}");
        assertThat(f.url).isEqualTo("https://example.com/a");
        assertThat(f.metaJson()).isEqualTo("{\"found_on\":\"https://example.com/\",\"depth\":2}");
        assertThat(f.urlNotText).isFalse();

        f = fast("{ \"depth\" :\t-0.5E+3 ,\n\"url\" : \" http://a/ \" ,\"ok\":true,\"x\":null}");
        assertThat(f.url).isEqualTo(" http://a/ ");
        assertThat(f.metaJson()).isEqualTo("{\"depth\" :\t-0.5E+3,\"ok\":true,\"x\":null}");

        f = fast("{\"op\":\"forget-key\",\"key\":\"caf\u00e9.example\"}");
        assertThat(f.opText).isEqualTo("forget-key");
        assertThat(f.key).isEqualTo("caf\u00e9.example");
        assertThat(f.metaJson()).isEqualTo("{\"key\":\"caf\u00e9.example\"}");

        f = fast("{\"url\":7,\"op\":false,\"key\":0}");
        assertThat(f.url).isNull();
        assertThat(f.urlNotText).isTrue();
        assertThat(f.opNotText).isTrue();
        assertThat(f.key).isNull();

        // Escapes in values, as PHP's json_encode writes slashes, and in metadata.
        f =
                fast(
                        "{\"url\":\"http:\\/\\/a.com\\/caf\\u00e9?q=\\\"x\\\"\",\"anchor\":\"\\tA\\\\B\\ud800\"}");
        assertThat(f.url).isEqualTo("http://a.com/caf\u00e9?q=\"x\"");
        assertThat(f.metaJson()).isEqualTo("{\"anchor\":\"\\tA\\\\B\\ud800\"}");
        assertThat(fast("{\"op\":\"\\u0066orget\",\"key\":\"a\\nb\\r\\b\\f\"}").opText)
                .isEqualTo("forget");
        assertThat(fast("{\"key\":\"a\\nb\\r\\b\\f\"}").key).isEqualTo("a\nb\r\b\f");

        f = fast("{}");
        assertThat(f.url).isNull();
        assertThat(f.metaJson()).isNull();
    }

    /** Objects left to Jackson, whether Jackson accepts them or not. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"url\":\"http://a/\\x41\"}",
                "{\"url\":\"http://a/\\u004\"}",
                "{\"url\":\"\\u000",
                "{\"url\":\"\\",
                "{\"url\":\"http://a/\\u004G\"}",
                "{\"url\":\"http://a/\\u\uff10\uff10\uff14\uff11\"}",
                "{\"url\":\"http://a/\\\"}",
                "{\"url\":\"http://a/\",\"s\":\"tab\there\"}",
                "{\"u\\u0072l\":\"http://a/\"}",
                "{\"url\":\"http://a/\",\"m\":{}}",
                "{\"url\":\"http://a/\",\"m\":[]}",
                "{\"url\":\"http://a/\",\"revisit_after\":60}",
                "{\"url\":\"http://a/\",\"url\":\"http://b/\"}",
                "{\"url\":\"http://a/\",}",
                "{\"url\":\"http://a/\"}x",
                "{\"url\":\"http://a/\"}\u000b",
                "{\u00a0\"url\":\"http://a/\"}",
                "{\"url\":\"http://a/\",\"n\":01}",
                "{\"url\":\"http://a/\",\"n\":1.}",
                "{\"url\":\"http://a/\",\"n\":.5}",
                "{\"url\":\"http://a/\",\"n\":+1}",
                "{\"url\":\"http://a/\",\"n\":1e}",
                "{\"url\":\"http://a/\",\"n\":-}",
                "{\"url\":\"http://a/\",\"n\":NaN}",
                "{\"url\":\"http://a/\",\"b\":truex}",
                "{\"url\":\"http://a/\",\"b\":nul}",
                "{\"url\":\"http://a/\" \"b\":1}",
                "{\"url\" \"http://a/\"}",
                "{'url':'http://a/'}",
                "{url:\"http://a/\"}",
                "{\"url\":\"http://a/"
            })
    void leavesToJackson(String text) {
        assertThat(FlatJson.read(text, new JsonFields())).as(text).isFalse();
    }

    @Test
    void leavesLongNumbersAndManyFieldsToJackson() {
        String digits = "1".repeat(FlatJson.MAX_NUMBER);
        assertThat(FlatJson.read("{\"n\":" + digits + "}", new JsonFields())).isTrue();
        assertThat(FlatJson.read("{\"n\":" + digits + "1}", new JsonFields())).isFalse();
        StringBuilder many = new StringBuilder("{\"url\":\"http://a/\"");
        for (int i = 1; i < FlatJson.MAX_FIELDS; i++) {
            many.append(",\"f").append(i).append("\":").append(i);
        }
        assertThat(FlatJson.read(many + "}", new JsonFields())).isTrue();
        assertThat(FlatJson.read(many + ",\"g\":0}", new JsonFields())).isFalse();
        String name = "n".repeat(FlatJson.MAX_NAME);
        assertThat(FlatJson.read("{\"" + name + "\":1}", new JsonFields())).isTrue();
        assertThat(FlatJson.read("{\"" + name + "n\":1}", new JsonFields())).isFalse();
    }

    /**
     * The benchmark stream's JSON values, every hand-made case above, random flat objects, and
     * random edits of all of them: wherever the fast path answers, Jackson agrees.
     */
    @Test
    void agreesWithJackson() {
        List<String> seeds = new ArrayList<>();
        CrawlStream stream = new CrawlStream(11, 500, 0.05);
        for (int i = 0; i < 100_000; i++) {
            String v = new String(stream.next(), StandardCharsets.UTF_8).strip();
            if (v.startsWith("{")) {
                seeds.add(v);
            }
        }
        SplittableRandom rnd = new SplittableRandom(19);
        for (int i = 0; i < 20_000; i++) {
            seeds.add(randomObject(rnd));
        }
        int answered = 0;
        for (String s : seeds) {
            answered += check(s);
        }
        // Random edits: one to three characters inserted, deleted or replaced by JSON's own.
        String alphabet = "{}[]\":, \t\n\r\\/-+.eE019tfnulrsaxk\u00e9\u0001\u00a0";
        int editsAnswered = 0;
        for (int i = 0; i < 200_000; i++) {
            StringBuilder b = new StringBuilder(seeds.get(rnd.nextInt(seeds.size())));
            for (int e = 1 + rnd.nextInt(3); e > 0 && b.length() > 1; e--) {
                int at = 1 + rnd.nextInt(b.length() - 1);
                char c = alphabet.charAt(rnd.nextInt(alphabet.length()));
                switch (rnd.nextInt(3)) {
                    case 0 -> b.insert(at, c);
                    case 1 -> b.deleteCharAt(at);
                    default -> b.setCharAt(at, c);
                }
            }
            editsAnswered += check(b.toString());
        }
        // The fast path must answer for most of what extractors send, or it buys nothing, and
        // for enough edited objects that the comparison reaches its edge cases.
        assertThat(answered).isGreaterThan(seeds.size() / 2);
        assertThat(editsAnswered).isGreaterThan(20_000);
    }

    /** 1 if the fast path answered for {@code text} (and agreed with Jackson), else 0. */
    private int check(String text) {
        JsonFields fast = new JsonFields();
        if (!FlatJson.read(text, fast)) {
            return 0;
        }
        JsonFields jackson = new JsonFields();
        assertThat(decoder.readJson(text, jackson)).as(text).isNull();
        assertThat(fast.url).as(text).isEqualTo(jackson.url);
        assertThat(fast.urlNotText).as(text).isEqualTo(jackson.urlNotText);
        assertThat(fast.opText).as(text).isEqualTo(jackson.opText);
        assertThat(fast.opNotText).as(text).isEqualTo(jackson.opNotText);
        assertThat(fast.key).as(text).isEqualTo(jackson.key);
        assertThat(fast.revisitAfter).as(text).isEqualTo(jackson.revisitAfter);
        assertThat(fast.badRevisit).as(text).isEqualTo(jackson.badRevisit);
        assertThat(fast.metaJson()).as(text).isEqualTo(jackson.metaJson());
        return 1;
    }

    private static final String[] NAMES = {"url", "op", "key", "depth", "found_on", "anchor", "u"};
    private static final String[] VALUES = {
        "\"http://example.com/a?b=1\"",
        "\"\"",
        "\"forget\"",
        "\"caf\u00e9 \u4e2d\"",
        "\"a\\\"b\"",
        "\"http:\\/\\/example.com\\/a\"",
        "\"\\u00e9\\n\\t\\\\\\b\\f\\r\"",
        "\"\\ud800\\uDC00x\"",
        "0",
        "-0",
        "12",
        "3.25",
        "-1e5",
        "6E-2",
        "true",
        "false",
        "null",
        "{\"a\":1}",
        "[1,2]"
    };

    private static String randomObject(SplittableRandom rnd) {
        StringBuilder b = new StringBuilder("{");
        int fields = rnd.nextInt(6);
        for (int i = 0; i < fields; i++) {
            if (i > 0) {
                b.append(space(rnd)).append(',');
            }
            b.append(space(rnd))
                    .append('"')
                    .append(NAMES[rnd.nextInt(NAMES.length)])
                    .append('"')
                    .append(space(rnd))
                    .append(':')
                    .append(space(rnd))
                    .append(VALUES[rnd.nextInt(VALUES.length)]);
        }
        return b.append(space(rnd)).append('}').toString();
    }

    private static String space(SplittableRandom rnd) {
        return switch (rnd.nextInt(8)) {
            case 0 -> " ";
            case 1 -> "\t\n ";
            case 2 -> "\r\n";
            default -> "";
        };
    }

    private static JsonFields fast(String text) {
        JsonFields f = new JsonFields();
        assertThat(FlatJson.read(text, f)).as(text).isTrue();
        return f;
    }
}
