package dev.firstseen.bench;

import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.config.FirstSeenOptions;
import dev.firstseen.ingest.MessageDecoder;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.record.internal.CanonicalUrlSerializer;
import dev.firstseen.record.internal.DeadLetterTypeSerializer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.EnumTypeInfo;
import org.apache.flink.api.java.typeutils.PojoField;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One record across the shuffle between canonicalize and dedup, written and read back: FirstSeen's
 * {@link CanonicalUrlSerializer} against the POJO serializer Flink derived for the same class
 * before it had one (built here field by field, as the type extractor did). Records are
 * crawl-stream URLs as the canonicalize stage emits them, one in four with {@code meta}. Likewise
 * one dead letter on its way to the dead-letter sink: {@link DeadLetterTypeSerializer} against the
 * POJO serializer, for the crawl stream's bad records as the decode and canonicalize stages make
 * them (a tenth of them 70 KB values cut to 8 KB).
 *
 * <p>Run: {@code scripts/jmh ShuffleBenchmark}
 */
public class ShuffleBenchmark extends ThroughputBenchmark {
    private static final int SIZE = 1 << 14;
    private static final int MASK = SIZE - 1;

    /**
     * The records' source topic: a short one, and one as long as a crawler's topic names tend to be
     * (the reader compares it with the last topic it read).
     */
    @Param({"urls", "crawler.extracted-links"})
    public String topic;

    private CanonicalUrl[] records;
    private int index;
    private TypeSerializer<CanonicalUrl> firstSeen;
    private TypeSerializer<CanonicalUrl> pojo;
    private DeadLetter[] letters;
    private TypeSerializer<DeadLetter> deadLetterFormat;
    private TypeSerializer<DeadLetter> deadLetterPojo;
    private final DataOutputSerializer out = new DataOutputSerializer(1024);
    private final DataInputDeserializer in = new DataInputDeserializer();

    @Setup
    public void setup() throws Exception {
        CrawlSample sample = new CrawlSample(42, 0.0);
        List<CanonicalUrl> ok = new ArrayList<>();
        long offset = 0;
        while (ok.size() < SIZE) {
            CrawlSample.Item item = sample.get();
            if (item.accepted()) {
                offset++;
                String url = item.decoded().url;
                String meta = offset % 4 == 0 ? "{\"depth\":3,\"found_on\":\"" + url + "\"}" : null;
                CanonicalUrl u =
                        new CanonicalUrl(
                                item.canonical().fetchable(),
                                item.canonical().url(),
                                item.key(),
                                meta,
                                new SourcePosition(topic, 1, offset, 1795000000000L + offset));
                ok.add(u);
            }
        }
        records = ok.toArray(new CanonicalUrl[0]);
        firstSeen = new CanonicalUrlSerializer();
        pojo = pojoSerializer(CanonicalUrl.class);
        letters = deadLetters();
        deadLetterFormat = new DeadLetterTypeSerializer();
        deadLetterPojo = pojoSerializer(DeadLetter.class);
    }

    /** Dead letters of the crawl stream's bad records, made as the job's stages make them. */
    private DeadLetter[] deadLetters() {
        CrawlSample sample = new CrawlSample(42, 1.0);
        DeadLetter[] out = new DeadLetter[SIZE];
        for (int i = 0; i < SIZE; ) {
            CrawlSample.Item item = sample.get();
            SourcePosition at = new SourcePosition(topic, 1, i, 1795000000000L + i);
            int max = (int) FirstSeenOptions.DEAD_LETTER_MAX_RAW.defaultValue().getBytes();
            if (item.decoded().url == null) {
                MessageDecoder.Decoded d = item.decoded();
                out[i++] = DeadLetter.of(item.value(), at, d.reason, d.detail, max);
            } else if (!item.accepted()) {
                Canonicalization c = item.canonical();
                byte[] url = item.decoded().url.getBytes(StandardCharsets.UTF_8);
                out[i++] = DeadLetter.of(url, at, c.reason(), c.detail(), max);
            }
        }
        return out;
    }

    /** Flink's POJO serializer for {@code type}, which its {@code @TypeInfo} now overrides. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T> TypeSerializer<T> pojoSerializer(Class<T> type) {
        List<PojoField> fields = new ArrayList<>();
        for (Field f : type.getFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            TypeInformation<?> t;
            if (f.getType() == SourcePosition.class) {
                t = Types.POJO(SourcePosition.class);
            } else if (f.getType().isEnum()) {
                t = new EnumTypeInfo(f.getType());
            } else {
                t = TypeInformation.of(f.getType());
            }
            fields.add(new PojoField(f, t));
        }
        return new PojoTypeInfo<>(type, fields).createSerializer(new SerializerConfigImpl());
    }

    private CanonicalUrl roundTrip(TypeSerializer<CanonicalUrl> s) throws IOException {
        return roundTrip(s, records[index++ & MASK]);
    }

    private <T> T roundTrip(TypeSerializer<T> s, T value) throws IOException {
        out.clear();
        s.serialize(value, out);
        in.setBuffer(out.getSharedBuffer(), 0, out.length());
        return s.deserialize(in);
    }

    @Benchmark
    public CanonicalUrl firstSeenFormat() throws IOException {
        return roundTrip(firstSeen);
    }

    @Benchmark
    public CanonicalUrl flinkPojo() throws IOException {
        return roundTrip(pojo);
    }

    @Benchmark
    public DeadLetter deadLetterFormat() throws IOException {
        return roundTrip(deadLetterFormat, letters[index++ & MASK]);
    }

    @Benchmark
    public DeadLetter deadLetterPojo() throws IOException {
        return roundTrip(deadLetterPojo, letters[index++ & MASK]);
    }
}
