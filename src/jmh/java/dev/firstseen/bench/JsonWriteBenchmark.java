package dev.firstseen.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.emit.DeadLetterSerializer;
import dev.firstseen.emit.FrontierSerializer;
import dev.firstseen.ingest.MessageDecoder;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.DeadLetterReason;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.record.internal.StrictUtf8;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * Writing the two output records as JSON: FirstSeen's serializers against a Jackson {@link
 * JsonGenerator} that writes the same fields, created once and reused over a reused buffer (the
 * fastest way to use Jackson for this). The Jackson variants do not bound their output (FirstSeen's
 * writer stops {@code raw} and {@code meta} at a byte budget), so they do slightly less work.
 * Frontier records are canonical crawl-stream URLs, one in four with {@code meta}; dead letters are
 * the stream's bad records.
 *
 * <p>Run: {@code scripts/jmh JsonWriteBenchmark}
 */
public class JsonWriteBenchmark extends ThroughputBenchmark {
    private static final int SIZE = 1 << 14;
    private static final int MASK = SIZE - 1;

    private FrontierRecord[] frontier;
    private DeadLetter[] dead;
    private int index;
    private SerializationSchema<FrontierRecord> frontierValue;
    private SerializationSchema<DeadLetter> deadValue;
    private final ByteArrayBuilder buffer = new ByteArrayBuilder(512);
    private JsonGenerator jackson;
    private final CharsetDecoder utf8 = StrictUtf8.newDecoder();

    @Setup
    public void setup() throws Exception {
        CrawlSample sample = new CrawlSample(42, 0.05);
        List<FrontierRecord> ok = new ArrayList<>();
        List<DeadLetter> bad = new ArrayList<>();
        long offset = 0;
        while (ok.size() < SIZE || bad.size() < SIZE) {
            CrawlSample.Item item = sample.get();
            MessageDecoder.Decoded d = item.decoded();
            SourcePosition at = new SourcePosition("urls", 1, offset++, 1795000000000L + offset);
            if (item.accepted()) {
                if (ok.size() < SIZE) {
                    String meta =
                            offset % 4 == 0 ? "{\"depth\":3,\"found_on\":\"" + d.url + "\"}" : null;
                    ok.add(
                            new FrontierRecord(
                                    d.url,
                                    item.canonical().url(),
                                    item.key(),
                                    at.timestamp,
                                    meta,
                                    at));
                }
            } else if (bad.size() < SIZE) {
                Canonicalization c = item.canonical();
                DeadLetterReason reason = d.reason != null ? d.reason : c.reason();
                String detail = d.reason != null ? d.detail : c.detail();
                bad.add(DeadLetter.of(item.value(), at, reason, detail, 8192));
            }
        }
        frontier = ok.toArray(new FrontierRecord[0]);
        dead = bad.toArray(new DeadLetter[0]);
        frontierValue = FrontierSerializer.value();
        deadValue = DeadLetterSerializer.value(8192);
        frontierValue.open(null);
        deadValue.open(null);
        jackson = new JsonFactory().createGenerator(buffer);
    }

    @Benchmark
    public byte[] frontierFirstSeen() {
        return frontierValue.serialize(frontier[index++ & MASK]);
    }

    @Benchmark
    public byte[] frontierJackson() throws IOException {
        FrontierRecord r = frontier[index++ & MASK];
        buffer.reset();
        JsonGenerator g = jackson;
        g.writeStartObject();
        g.writeStringField("url", r.url);
        g.writeStringField("canonical", r.canonical);
        g.writeStringField("key", r.key);
        g.writeNumberField("first_seen", r.firstSeen);
        g.writeObjectFieldStart("source");
        g.writeStringField("topic", r.source.topic);
        g.writeNumberField("partition", r.source.partition);
        g.writeNumberField("offset", r.source.offset);
        g.writeEndObject();
        if (r.metaJson != null) {
            g.writeFieldName("meta");
            g.writeRawValue(r.metaJson);
        }
        g.writeEndObject();
        g.flush();
        return buffer.toByteArray();
    }

    @Benchmark
    public byte[] deadLetterFirstSeen() {
        return deadValue.serialize(dead[index++ & MASK]);
    }

    @Benchmark
    public byte[] deadLetterJackson() throws IOException {
        DeadLetter d = dead[index++ & MASK];
        buffer.reset();
        JsonGenerator g = jackson;
        g.writeStartObject();
        g.writeStringField("reason", d.reason);
        g.writeStringField("detail", d.detail);
        if (d.raw == null) {
            g.writeNullField("raw");
        } else {
            // The same strict UTF-8 check as FirstSeen's (invalid values go out as base64), but
            // without its byte budget: Jackson cannot stop a string at N bytes of output.
            String text;
            try {
                text = utf8.reset().decode(ByteBuffer.wrap(d.raw)).toString();
            } catch (CharacterCodingException e) {
                text = null;
            }
            if (text != null) {
                g.writeStringField("raw", text);
            } else {
                g.writeStringField("raw_base64", Base64.getEncoder().encodeToString(d.raw));
            }
        }
        g.writeNumberField("raw_length", d.rawLength);
        g.writeBooleanField("raw_truncated", d.raw != null && d.raw.length < d.rawLength);
        g.writeObjectFieldStart("source");
        g.writeStringField("topic", d.source.topic);
        g.writeNumberField("partition", d.source.partition);
        g.writeNumberField("offset", d.source.offset);
        g.writeNumberField("timestamp", d.source.timestamp);
        g.writeEndObject();
        g.writeEndObject();
        g.flush();
        return buffer.toByteArray();
    }
}
