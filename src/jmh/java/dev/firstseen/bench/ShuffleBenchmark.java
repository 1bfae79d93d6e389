package dev.firstseen.bench;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.record.internal.CanonicalUrlSerializer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
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
import org.openjdk.jmh.annotations.Setup;

/**
 * One record across the shuffle between canonicalize and dedup, written and read back: FirstSeen's
 * {@link CanonicalUrlSerializer} against the POJO serializer Flink derived for the same class
 * before it had one (built here field by field, as the type extractor did). Records are
 * crawl-stream URLs as the canonicalize stage emits them, one in four with {@code meta}.
 *
 * <p>Run: {@code scripts/jmh ShuffleBenchmark}
 */
public class ShuffleBenchmark extends ThroughputBenchmark {
    private static final int SIZE = 1 << 14;
    private static final int MASK = SIZE - 1;

    private CanonicalUrl[] records;
    private int index;
    private TypeSerializer<CanonicalUrl> firstSeen;
    private TypeSerializer<CanonicalUrl> pojo;
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
                                new SourcePosition("urls", 1, offset, 1795000000000L + offset));
                ok.add(u);
            }
        }
        records = ok.toArray(new CanonicalUrl[0]);
        firstSeen = new CanonicalUrlSerializer();
        pojo = pojoSerializer();
    }

    /** Flink's POJO serializer for the class, which its {@code @TypeInfo} now overrides. */
    @SuppressWarnings("unchecked")
    private static TypeSerializer<CanonicalUrl> pojoSerializer() {
        List<PojoField> fields = new ArrayList<>();
        for (Field f : CanonicalUrl.class.getFields()) {
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
        return new PojoTypeInfo<>(CanonicalUrl.class, fields)
                .createSerializer(new SerializerConfigImpl());
    }

    private CanonicalUrl roundTrip(TypeSerializer<CanonicalUrl> s) throws IOException {
        out.clear();
        s.serialize(records[index++ & MASK], out);
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
}
