package dev.firstseen.bench;

import dev.firstseen.dedup.BlockedBloom;
import dev.firstseen.dedup.BloomLayer;
import dev.firstseen.dedup.DedupConfig;
import dev.firstseen.dedup.DedupMode;
import dev.firstseen.dedup.DedupOperator;
import dev.firstseen.dedup.DedupState;
import dev.firstseen.dedup.Fingerprint;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.SourcePosition;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The dedup operator on Flink's keyed test harness with the RocksDB backend, against two
 * alternatives on the same records: a whole per-key Bloom bitmap in {@code ValueState<byte[]>}
 * (read and written whole for every record) and an exact-only store ({@code MapState<fingerprint,
 * Long>} read for every record). Records are canonical crawl-stream URLs keyed by registrable
 * domain, pre-generated in {@code @Setup}; state grows over the run as in a real job.
 *
 * <p>Run: {@code scripts/jmh OperatorBenchmark}
 */
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 4, time = 3)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx2g", "-XX:+UseParallelGC"})
public class OperatorBenchmark extends ThroughputBenchmark {
    private static final int SIZE = 1 << 18;
    private static final int BATCH = 1000;

    @Param({"firstseen", "bitmapValueState", "exactOnly"})
    String impl;

    private CanonicalUrl[] records;
    private int index;
    private KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, ?> harness;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        CrawlSample.Item[] items = new CrawlSample(42, 0).accepted(SIZE);
        records = new CanonicalUrl[SIZE];
        for (int i = 0; i < SIZE; i++) {
            CrawlSample.Item item = items[i];
            records[i] =
                    new CanonicalUrl(
                            item.decoded().url,
                            item.canonical().url(),
                            item.key(),
                            null,
                            new SourcePosition("in", 0, 0, -1));
        }
        OneInputStreamOperator<CanonicalUrl, ?> op;
        switch (impl) {
            case "firstseen":
                op =
                        new DedupOperator(
                                DedupConfig.builder()
                                        .mode(DedupMode.EXACT)
                                        .expectedUrlsPerKey(1000)
                                        .guarded("canonical.profile", "bench")
                                        .build());
                break;
            case "bitmapValueState":
                op = new KeyedProcessOperator<>(new BitmapInValueState());
                break;
            default:
                op = new KeyedProcessOperator<>(new ExactOnly());
        }
        harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        op, (CanonicalUrl u) -> u.key, Types.STRING, 128, 1, 0);
        // The harness's mock environment has 3 MB of managed memory; RocksDB bounded by that
        // flushes its memtable every few hundred writes and measures compaction, not the
        // operator. 128 MB per slot is what the end-to-end harness gives each slot.
        EmbeddedRocksDBStateBackend backend = new EmbeddedRocksDBStateBackend();
        backend.getMemoryConfiguration().setFixedMemoryPerSlot("128mb");
        harness.setStateBackend(backend);
        harness.setup();
        harness.open();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        harness.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void process() throws Exception {
        for (int i = 0; i < BATCH; i++) {
            harness.processElement(records[index++ & (SIZE - 1)], 0L);
        }
        harness.getOutput().clear();
    }

    /** Whole per-key bitmap (1,000 URLs at 1%) deserialized and rewritten for every record. */
    static final class BitmapInValueState
            extends KeyedProcessFunction<String, CanonicalUrl, String> {
        private static final long serialVersionUID = 1L;
        private static final BloomLayer GEOMETRY = BloomLayer.sized(1000, 0.01);
        private transient ValueState<byte[]> bitmap;

        @Override
        public void open(OpenContext ctx) {
            bitmap =
                    getRuntimeContext()
                            .getState(
                                    new ValueStateDescriptor<>(
                                            "bitmap",
                                            PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        }

        @Override
        public void processElement(CanonicalUrl in, Context ctx, Collector<String> out)
                throws Exception {
            byte[] bits = bitmap.value();
            if (bits == null) {
                bits = new byte[(int) GEOMETRY.totalBytes()];
            }
            Fingerprint fp = Fingerprint.of(in.canonical);
            // One page view of the whole bitmap: offset of the fingerprint's page.
            int page = BlockedBloom.page(fp, 0, GEOMETRY);
            byte[] view = new byte[GEOMETRY.pageBytes()];
            System.arraycopy(bits, page * view.length, view, 0, view.length);
            if (!BlockedBloom.mightContain(fp, 0, GEOMETRY, view)) {
                BlockedBloom.put(fp, 0, GEOMETRY, view);
                System.arraycopy(view, 0, bits, page * view.length, view.length);
                bitmap.update(bits);
                out.collect(in.canonical);
            }
        }
    }

    /** Exact store only: one RocksDB point read per record, a write per new URL. */
    static final class ExactOnly extends KeyedProcessFunction<String, CanonicalUrl, String> {
        private static final long serialVersionUID = 1L;
        private transient MapState<Long, Integer> seen;

        @Override
        public void open(OpenContext ctx) {
            seen = getRuntimeContext().getMapState(DedupState.seen64());
        }

        @Override
        public void processElement(CanonicalUrl in, Context ctx, Collector<String> out)
                throws Exception {
            Fingerprint fp = Fingerprint.of(in.canonical);
            if (!seen.contains(fp.hi)) {
                seen.put(fp.hi, (int) (ctx.timerService().currentProcessingTime() / 1000));
                out.collect(in.canonical);
            }
        }
    }
}
