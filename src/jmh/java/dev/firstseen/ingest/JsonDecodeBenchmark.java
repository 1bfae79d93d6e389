package dev.firstseen.ingest;

import dev.firstseen.bench.ThroughputBenchmark;
import dev.firstseen.tools.CrawlStream;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * A JSON input record read two ways in the same run, on the benchmark stream's JSON values ({@code
 * {"url":…,"found_on":…,"depth":n}}): the one-pass reader for flat objects ({@code flatJson}) and
 * the Jackson reader that reads every other object ({@code jackson}), each with the metadata's text
 * made (what the job takes from every accepted record); and the whole decoder on those values'
 * bytes ({@code decoder}), UTF-8 check and verdict included.
 *
 * <p>Run: {@code scripts/jmh JsonDecodeBenchmark}
 */
public class JsonDecodeBenchmark extends ThroughputBenchmark {
    private static final int SIZE = 1 << 12;
    private static final int MASK = SIZE - 1;

    private String[] texts;
    private byte[][] values;
    private int index;
    private final MessageDecoder decoder = new MessageDecoder(1 << 16, 8192, 16 << 10);

    @Setup
    public void setup() {
        CrawlStream stream = new CrawlStream(42, 2000, 0);
        texts = new String[SIZE];
        values = new byte[SIZE][];
        for (int i = 0; i < SIZE; ) {
            byte[] v = stream.next();
            String s = new String(v, StandardCharsets.UTF_8);
            if (s.startsWith("{")) {
                texts[i] = s;
                values[i++] = v;
            }
        }
    }

    @Benchmark
    public Object flatJson() {
        JsonFields f = new JsonFields();
        return FlatJson.read(texts[index++ & MASK], f) ? f.metaJson() : null;
    }

    @Benchmark
    public Object jackson() {
        JsonFields f = new JsonFields();
        return decoder.readJson(texts[index++ & MASK], f) == null ? f.metaJson() : null;
    }

    @Benchmark
    public MessageDecoder.Decoded decoder() {
        return decoder.decode(values[index++ & MASK]);
    }
}
