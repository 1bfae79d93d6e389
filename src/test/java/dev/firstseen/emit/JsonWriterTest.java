package dev.firstseen.emit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firstseen.emit.internal.JsonWriter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hand-written writer's strings read back exactly with a real JSON parser (Jackson). */
class JsonWriterTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void escapesRoundTripThroughAJsonParser() throws Exception {
        SplittableRandom r = new SplittableRandom(3);
        char[] interesting = {'"', '\\', '/', '\n', '\t', 0, 0x1f, 0x7f, 'é', '€', '\u2028'};
        JsonWriter w = new JsonWriter();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(30);
            for (int j = 0; j < n; j++) {
                int kind = r.nextInt(4);
                if (kind == 0) {
                    sb.append(interesting[r.nextInt(interesting.length)]);
                } else if (kind == 1) {
                    sb.appendCodePoint(0x10000 + r.nextInt(0x1000)); // a surrogate pair
                } else {
                    sb.append((char) (0x20 + r.nextInt(0x5f)));
                }
            }
            String s = sb.toString();
            byte[] out =
                    w.reset().raw("{\"s\":").string(s).raw(",\"n\":").number(-7).raw('}').toBytes();
            JsonNode node = json.readTree(out);
            assertThat(node.get("s").asText()).isEqualTo(s);
            assertThat(node.get("n").asLong()).isEqualTo(-7);
        }
    }

    @Test
    void aBoundedStringIsTheLongestWholePrefixThatFits() throws Exception {
        SplittableRandom r = new SplittableRandom(5);
        char[] interesting = {'"', '\\', '\n', 0, 'é', '€'};
        JsonWriter w = new JsonWriter();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = r.nextInt(200);
            for (int j = 0; j < n; j++) {
                int kind = r.nextInt(5);
                if (kind == 0) {
                    sb.append(interesting[r.nextInt(interesting.length)]);
                } else if (kind == 1) {
                    sb.appendCodePoint(0x10000 + r.nextInt(0x1000));
                } else {
                    sb.append((char) ('a' + r.nextInt(26)));
                }
            }
            String s = sb.toString();
            int max = r.nextInt(400);
            boolean whole = w.reset().string(s, max);
            byte[] out = w.toBytes();
            String back = json.readTree(out).asText();
            assertThat(out.length - 2).isLessThanOrEqualTo(max);
            assertThat(s).startsWith(back);
            assertThat(whole).isEqualTo(back.equals(s));
            if (!whole) {
                // The next character would not have fitted: the prefix is the longest one.
                String next =
                        s.substring(
                                0,
                                back.length() + Character.charCount(s.codePointAt(back.length())));
                byte[] longer = new JsonWriter().string(next).toBytes();
                assertThat(longer.length - 2).isGreaterThan(max);
            }
        }
    }

    @Test
    void loneSurrogateBecomesReplacementCharacter() throws Exception {
        byte[] out = new JsonWriter().string("a\ud800b").toBytes();
        assertThat(json.readTree(out).asText()).isEqualTo("a\ufffdb");
    }

    @Test
    void numbersAreWrittenAsLongToStringWritesThem() {
        java.util.Random r = new java.util.Random(7);
        JsonWriter w = new JsonWriter();
        long[] edges = {
            0, 1, -1, 9, 10, -10, 99, 100, Long.MAX_VALUE, Long.MIN_VALUE, -Long.MAX_VALUE
        };
        for (int i = 0; i < 100_000; i++) {
            long v =
                    i < edges.length
                            ? edges[i]
                            : r.nextLong() >> r.nextInt(64); // every magnitude, both signs
            String written =
                    new String(
                            w.reset().raw('[').number(v).raw(']').toBytes(),
                            java.nio.charset.StandardCharsets.US_ASCII);
            assertThat(written).isEqualTo("[" + v + "]");
        }
    }
}
