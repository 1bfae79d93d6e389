package dev.firstseen.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.emit.KafkaOutput;
import dev.firstseen.ingest.KafkaInput;
import dev.firstseen.record.RawRecord;
import dev.firstseen.testing.FlinkCluster;
import dev.firstseen.testing.KafkaBroker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end: a real KRaft broker, a MiniCluster at parallelism 2 with RocksDB and incremental
 * checkpoints, the job's own Kafka source and exactly-once sinks, and a failure injected after a
 * completed checkpoint. A read_committed consumer must then see every distinct canonical URL once
 * on the frontier and every bad record once on the dead-letter topic.
 */
class FirstSeenJobITCase {

    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkCluster.withRocksDb(new Configuration());

    private static final int SITES = 20;
    private static final int PAGES = 150;
    private final ObjectMapper json = new ObjectMapper();

    /** Three spellings of each URL; all canonicalize to {@link #canonical}. */
    private static List<byte[]> spellings(int site, int page) {
        return List.of(
                bytes("http://www.site" + site + ".com/dir/page" + page + ".html?x=1"),
                bytes(" HTTP://WWW.Site" + site + ".COM:80/dir/./page" + page + ".html?x=1#frag "),
                bytes(
                        "{\"url\":\"http://www.site"
                                + site
                                + ".com/dir/%70age"
                                + page
                                + ".html?x=1\",\"depth\":"
                                + (page % 5)
                                + "}"));
    }

    private static String canonical(int site, int page) {
        return "http://www.site" + site + ".com/dir/page" + page + ".html?x=1";
    }

    /** Bad records and the reason each must be dead-lettered with. */
    private static Map<byte[], String> badRecords() {
        Map<byte[], String> bad = new HashMap<>();
        Random rnd = new Random(5);
        for (int i = 0; i < 5; i++) {
            byte[] garbage = new byte[20 + i * 10];
            rnd.nextBytes(garbage);
            garbage[0] = (byte) 0xFF; // never valid UTF-8
            bad.put(garbage, "invalid-utf8");
        }
        bad.put(bytes("http://a.com/" + "a".repeat(100_000)), "too-long");
        bad.put(bytes("mailto:someone@example.com"), "unsupported-scheme");
        bad.put(bytes("http://exa mple.com/"), "bad-host");
        bad.put(new byte[0], "empty");
        bad.put(bytes("{\"nourl\":1}"), "missing-url");
        bad.put(bytes("{broken"), "bad-json");
        bad.put(bytes("not a url"), "missing-scheme");
        bad.put(bytes("http://a.com:99999/"), "bad-port");
        return bad;
    }

    @ParameterizedTest(name = "transaction naming {0}")
    @ValueSource(strings = {"INCREMENTING", "POOLING"})
    void everyDistinctUrlExactlyOnceAcrossAFailure(String naming) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("sink.transaction-naming", naming);
        JobExecutionResult result = runSpellingsAcrossAFailure(conf, 1);
        assertThat(result.getAllAccumulatorResults()).containsKey("firstSeen");
    }

    /**
     * Approximate mode across a failure: its state flows (classes that grow, held URLs beside
     * packed keys, page journals, keys written whole after a checkpoint) must restore to a filter
     * that repeats nothing. At a rate of 1e-9 over 3,000 URLs a drop has a chance of about 3e-6, so
     * every URL must come out once. With the journal share at 0.75 and the failure after three
     * checkpoints, the restored checkpoint holds journals, and the final attempt must replay them.
     */
    @ParameterizedTest(name = "page-journal share {0}")
    @ValueSource(strings = {"default", "0.75"})
    void approximateModeRepeatsNothingAcrossAFailure(String share) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("dedup.mode", "APPROXIMATE");
        conf.setString("dedup.bloom.false-positive-rate", "1e-9");
        conf.setString("dedup.bloom.expected-urls-per-key", "8"); // keys of 150 reach class 2
        if (!share.equals("default")) {
            conf.setString("dedup.page-journal.max-share", share);
        }
        JobExecutionResult result = runSpellingsAcrossAFailure(conf, 3);
        if (!share.equals("default")) {
            assertThat(result.<Long>getAccumulatorResult("pageJournalReplayed"))
                    .as("fingerprints the final attempt replayed from restored journals")
                    .isPositive();
        }
    }

    /**
     * Three spellings of every URL of {@link #SITES} sites and the bad records, shuffled, through
     * the job with {@code options} and a failure after {@code checkpoints} completed checkpoints:
     * the frontier must hold each canonical URL once, the dead letters each bad record once.
     */
    private JobExecutionResult runSpellingsAcrossAFailure(Configuration options, int checkpoints)
            throws Exception {
        String in = KAFKA.freshTopic("in", 2);
        String frontier = KAFKA.freshTopic("frontier", 2);
        String dead = KAFKA.freshTopic("dead", 1);

        List<byte[]> records = new ArrayList<>();
        for (int s = 0; s < SITES; s++) {
            for (int p = 0; p < PAGES; p++) {
                records.addAll(spellings(s, p));
            }
        }
        Map<byte[], String> bad = badRecords();
        records.addAll(bad.keySet());
        Collections.shuffle(records, new Random(1));
        KAFKA.produce(in, records);

        Configuration conf = boundedJob(in, frontier, dead);
        conf.addAll(options);
        JobExecutionResult result = runFailingOnce(conf, checkpoints);

        assertThat(FailOnceAfterCheckpoint.FAILURES.get())
                .as("the injected failure happened")
                .isGreaterThanOrEqualTo(1);

        // Frontier: each canonical URL exactly once, keyed by its registrable domain.
        List<ConsumerRecord<byte[], byte[]>> firstSeen = KAFKA.drain(frontier);
        Map<String, Integer> counts = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : firstSeen) {
            JsonNode n = json.readTree(r.value());
            String c = n.get("canonical").asText();
            counts.merge(c, 1, Integer::sum);
            String key = new String(r.key(), StandardCharsets.UTF_8);
            assertThat(n.get("key").asText()).isEqualTo(key);
            assertThat(c).contains("://www." + key + "/");
            if (n.get("url").asText().contains("%70age")) {
                assertThat(n.get("meta").get("depth").isInt()).as("meta passed through").isTrue();
            }
        }
        Set<String> expected = new HashSet<>();
        for (int s = 0; s < SITES; s++) {
            for (int p = 0; p < PAGES; p++) {
                expected.add(canonical(s, p));
            }
        }
        assertThat(counts.keySet()).isEqualTo(expected);
        assertThat(counts.values()).allMatch(n -> n == 1);
        assertThat(firstSeen).hasSize(SITES * PAGES);

        // Dead letters: every bad record exactly once, with its reason.
        Map<String, Integer> reasons = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : KAFKA.drain(dead)) {
            JsonNode n = json.readTree(r.value());
            reasons.merge(n.get("reason").asText(), 1, Integer::sum);
            assertThat(n.get("source").get("topic").asText()).isEqualTo(in);
            assertThat(n.get("source").get("timestamp").asLong())
                    .as("Kafka timestamp of %s, at either stage", n.get("reason"))
                    .isPositive();
        }
        Map<String, Integer> expectedReasons = new TreeMap<>();
        bad.values().forEach(reason -> expectedReasons.merge(reason, 1, Integer::sum));
        assertThat(reasons).isEqualTo(expectedReasons);
        return result;
    }

    /** Seen-set ops (issue 15) travel with the data of their partition and act in its order. */
    @Test
    void opsActInTheOrderOfTheirPartition() throws Exception {
        String in = KAFKA.freshTopic("ops-in", 1);
        String frontier = KAFKA.freshTopic("ops-frontier", 2);
        String dead = KAFKA.freshTopic("ops-dead", 1);
        KAFKA.produce(
                in,
                List.of(
                        bytes("http://a.com/1"),
                        bytes("http://a.com/2"),
                        bytes("http://b.com/1"),
                        bytes("{\"url\":\"http://a.com/1\",\"op\":\"force\"}"),
                        bytes("{\"url\":\"http://c.com/1\",\"op\":\"mark-seen\"}"),
                        bytes("http://c.com/1"),
                        bytes("{\"url\":\"http://a.com/2\",\"op\":\"forget\"}"),
                        bytes("http://a.com/2"),
                        bytes("{\"op\":\"forget-key\",\"key\":\"B.com\"}"),
                        bytes("http://b.com/1"),
                        bytes("{\"op\":\"forget-key\",\"key\":\"www.b.com\"}"),
                        bytes("{\"url\":\"http://a.com/3\",\"op\":\"drop\"}")));
        Configuration conf = boundedJob(in, frontier, dead);
        conf.setString("parallelism.default", "2");
        FirstSeenJob.run(conf);

        Map<String, Integer> emitted = new TreeMap<>();
        int forced = 0;
        for (ConsumerRecord<byte[], byte[]> r : KAFKA.drain(frontier)) {
            JsonNode n = json.readTree(r.value());
            emitted.merge(n.get("canonical").asText(), 1, Integer::sum);
            forced += n.has("forced") ? 1 : 0;
        }
        assertThat(emitted)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("http://a.com/1", 2, "http://a.com/2", 2, "http://b.com/1", 2));
        assertThat(forced).isEqualTo(1);
        List<String> reasons = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : KAFKA.drain(dead)) {
            reasons.add(json.readTree(r.value()).get("reason").asText());
        }
        assertThat(reasons).containsExactlyInAnyOrder("bad-op", "bad-op");
    }

    /**
     * {@code dedup.forget-after} in approximate mode, end to end: a backfill of records whose Kafka
     * timestamps lie a month behind the clock. A URL is a duplicate within forget-after of its
     * emission and until its generation (a quarter of forget-after, aligned on the epoch) ended
     * forget-after ago, and new from then on; the keys' timers, set no earlier than forget-after
     * from now, forget nothing of a backfill while it runs.
     */
    @Test
    void approximateModeForgetsAUrlWithItsGeneration() throws Exception {
        String in = KAFKA.freshTopic("forget-in", 1);
        String frontier = KAFKA.freshTopic("forget-frontier", 2);
        String dead = KAFKA.freshTopic("forget-dead", 1);
        long day = 86_400_000L;
        long week = 7 * day;
        long generation = week / 4;
        long t0 = (System.currentTimeMillis() - 30 * day) / generation * generation + 1000;
        long forgotten = t0 - 1000 + generation + week; // its generation's end plus forget-after
        List<byte[]> values = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        String[][] records = {
            {"http://a.com/1", "0"},
            {"http://b.com/1", "0"},
            {"http://a.com/1", String.valueOf(week - 1)}, // within forget-after: a duplicate
            {"http://b.com/1", String.valueOf(forgotten - t0 - 1)}, // its generation still alive
            {"http://a.com/1", String.valueOf(forgotten - t0)}, // forgotten: new again
            {"http://b.com/1", String.valueOf(forgotten - t0 + day)},
            {"http://a.com/1", String.valueOf(forgotten - t0 + day)}, // emitted a day ago
        };
        for (String[] r : records) {
            values.add(bytes(r[0]));
            times.add(t0 + Long.parseLong(r[1]));
        }
        KAFKA.produce(in, values, times);
        Configuration conf = boundedJob(in, frontier, dead);
        conf.setString("parallelism.default", "2");
        conf.setString("dedup.mode", "APPROXIMATE");
        conf.setString("dedup.forget-after", "7 d");
        FirstSeenJob.run(conf);

        Map<String, List<Long>> emitted = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : KAFKA.drain(frontier)) {
            JsonNode n = json.readTree(r.value());
            emitted.computeIfAbsent(n.get("canonical").asText(), k -> new ArrayList<>())
                    .add(n.get("first_seen").asLong());
        }
        assertThat(emitted)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "http://a.com/1",
                                List.of(t0, forgotten),
                                "http://b.com/1",
                                List.of(t0, forgotten + day)));
    }

    /**
     * Data mixed with ops, a failure injected after a checkpoint: the frontier is exactly what a
     * model (a set of seen canonical URLs, applied in input order) predicts, each emission once.
     */
    @ParameterizedTest(name = "{0} mode")
    @ValueSource(strings = {"EXACT", "APPROXIMATE"})
    void opsAndDataMatchTheModelAcrossAFailure(String mode) throws Exception {
        String in = KAFKA.freshTopic("model-in", 1); // one partition: one order for every key
        String frontier = KAFKA.freshTopic("model-frontier", 2);
        String dead = KAFKA.freshTopic("model-dead", 1);
        Random rnd = new Random(5);
        List<byte[]> records = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Map<String, Integer> expected = new TreeMap<>();
        for (int i = 0; i < 3000; i++) {
            int key = rnd.nextInt(20);
            String url = "http://k" + key + ".com/p/" + rnd.nextInt(60);
            int dice = rnd.nextInt(100);
            String op =
                    dice < 5 ? "mark-seen" : dice < 10 ? "forget" : dice < 12 ? "force" : "seen";
            if (rnd.nextInt(400) == 0) {
                records.add(bytes("{\"op\":\"forget-key\",\"key\":\"k" + key + ".com\"}"));
                seen.removeIf(c -> c.startsWith("http://k" + key + ".com/"));
            }
            records.add(
                    bytes(
                            op.equals("seen")
                                    ? url
                                    : "{\"url\":\"" + url + "\",\"op\":\"" + op + "\"}"));
            boolean emits =
                    switch (op) {
                        case "mark-seen" -> {
                            seen.add(url);
                            yield false;
                        }
                        case "forget" -> {
                            seen.remove(url);
                            yield false;
                        }
                        case "force" -> {
                            seen.add(url);
                            yield true;
                        }
                        default -> seen.add(url);
                    };
            if (emits) {
                expected.merge(url, 1, Integer::sum);
            }
        }
        KAFKA.produce(in, records);

        Configuration conf = boundedJob(in, frontier, dead);
        conf.setString("dedup.mode", mode);
        if (mode.equals("APPROXIMATE")) {
            // No drop at this rate (a chance of about 3e-6 over the model's URLs); keys that grow
            // to a third class.
            conf.setString("dedup.bloom.false-positive-rate", "1e-9");
            conf.setString("dedup.bloom.expected-urls-per-key", "8");
        }
        runFailingOnce(conf, 1);
        assertThat(FailOnceAfterCheckpoint.FAILURES.get()).isGreaterThanOrEqualTo(1);

        Map<String, Integer> emitted = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : KAFKA.drain(frontier)) {
            emitted.merge(json.readTree(r.value()).get("canonical").asText(), 1, Integer::sum);
        }
        assertThat(emitted).isEqualTo(expected);
        assertThat(KAFKA.drain(dead)).isEmpty();
    }

    /**
     * Runs the pipeline at parallelism 2 with a failure injected once {@code checkpoints}
     * checkpoints have completed (and 1,500 records went through), restarting up to 3 times.
     */
    private static JobExecutionResult runFailingOnce(Configuration conf, int checkpoints)
            throws Exception {
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "3");
        conf.setString("restart-strategy.fixed-delay.delay", "200 ms");
        conf.setString("parallelism.default", "2");
        FirstSeenSettings settings = FirstSeenSettings.from(conf);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        FirstSeenJob.withJobDefaults(conf));
        DataStream<RawRecord> input =
                env.fromSource(
                                KafkaInput.source(settings.sourceSettings()),
                                WatermarkStrategy.noWatermarks(),
                                "input")
                        .map(new FailOnceAfterCheckpoint(1500, checkpoints))
                        .returns(TypeInformation.of(RawRecord.class));
        FirstSeenJob.Outputs out = FirstSeenJob.pipeline(settings, input);
        out.frontier().sinkTo(KafkaOutput.frontier(settings.sinkSettings()));
        out.deadLetters().sinkTo(KafkaOutput.deadLetters(settings.sinkSettings()));
        FailOnceAfterCheckpoint.FAILURES.set(0);
        return env.execute("FirstSeen ITCase");
    }

    /** The job reading {@code in} from the start to its current end, on fresh topics. */
    private static Configuration boundedJob(String in, String frontier, String dead) {
        Configuration conf = KAFKA.jobOptions(in, frontier, dead);
        conf.setString("input.bounded", "true");
        return conf;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Fails the first attempt once enough checkpoints have completed and enough records went
     * through, so that recovery restores real state and aborts real transactions. Slows the first
     * attempt a little so checkpoints complete before the bounded input ends.
     */
    static final class FailOnceAfterCheckpoint extends RichMapFunction<RawRecord, RawRecord>
            implements CheckpointListener {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger FAILURES = new AtomicInteger();

        private final int after;
        private final int checkpoints;
        private transient int checkpointed;
        private transient int seen;
        private transient boolean firstAttempt;

        FailOnceAfterCheckpoint(int after, int checkpoints) {
            this.after = after;
            this.checkpoints = checkpoints;
        }

        @Override
        public void open(OpenContext ctx) {
            firstAttempt = getRuntimeContext().getTaskInfo().getAttemptNumber() == 0;
        }

        @Override
        public RawRecord map(RawRecord value) throws Exception {
            if (firstAttempt) {
                if (++seen >= after && checkpointed >= checkpoints) {
                    FAILURES.incrementAndGet();
                    throw new RuntimeException("Injected failure after " + seen + " records");
                }
                Thread.sleep(1);
            }
            return value;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointed++;
        }
    }
}
