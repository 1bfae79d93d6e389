package dev.firstseen.bench;

import dev.firstseen.ingest.MessageDecoder;
import dev.firstseen.record.internal.StrictUtf8;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * The ingest stage's decode of a record value (bare URL or JSON) on {@link CrawlSample}'s values,
 * and the step that turns its bytes into text, two ways in the same run: the strict UTF-8 decoder
 * on every value (what {@link MessageDecoder} did before 2026-11-23's eighth session) and an ASCII
 * check with a Latin-1 copy, falling back to the strict decoder for values with other bytes (what
 * it does now).
 *
 * <p>Run: {@code scripts/jmh DecodeBenchmark}
 */
public class DecodeBenchmark extends ThroughputBenchmark {
    private static final int SIZE = 1 << 16;
    private static final int MASK = SIZE - 1;

    private byte[][] values;
    private int index;
    private MessageDecoder decoder;
    private CharsetDecoder strict;

    @Setup
    public void setup() {
        CrawlSample sample = new CrawlSample(42, 0.01);
        values = new byte[SIZE][];
        for (int i = 0; i < SIZE; i++) {
            values[i] = sample.get().value();
        }
        decoder = new MessageDecoder(1 << 16, 8192, 16 << 10);
        strict = StrictUtf8.newDecoder();
    }

    @Benchmark
    public MessageDecoder.Decoded messageDecoder() {
        return decoder.decode(values[index++ & MASK]);
    }

    @Benchmark
    public String textStrictDecoder() {
        return strictText(values[index++ & MASK]);
    }

    @Benchmark
    public String textAsciiShortcut() {
        byte[] v = values[index++ & MASK];
        try {
            return StrictUtf8.decode(strict, v, 0, v.length);
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private String strictText(byte[] v) {
        try {
            return strict.decode(ByteBuffer.wrap(v)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
