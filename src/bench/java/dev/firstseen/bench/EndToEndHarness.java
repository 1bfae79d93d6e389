package dev.firstseen.bench;

import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.ingest.KafkaInput;
import dev.firstseen.ingest.MessageDecoder;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.metrics.FirstSeenMetrics;
import dev.firstseen.record.RawRecord;
import dev.firstseen.testing.KafkaBroker;
import dev.firstseen.tools.CommandLine;
import dev.firstseen.tools.CrawlStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.test.util.MiniClusterWithClientResource;
import org.apache.flink.util.Collector;
import org.apache.flink.util.ParameterTool;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;

/**
 * The end-to-end benchmark: one in-process KRaft broker and one Flink MiniCluster (RocksDB,
 * incremental checkpoints) serve every job, the input topic is loaded before any timing, and each
 * job reads the whole topic in bounded mode and writes exactly-once to its own topic, at the same
 * parallelism and checkpoint interval:
 *
 * <ol>
 *   <li>passthrough: source → keyBy(host) → sink; no canonicalization, no state (the I/O ceiling);
 *   <li>naive: decode + canonicalize → keyBy(canonical URL) → {@code ValueState<Boolean>};
 *   <li>naive-cc: the same with crawler-commons' {@code BasicURLNormalizer} instead of FirstSeen's
 *       canonicalizer, what a StormCrawler user writes;
 *   <li>sql: the same decode + canonicalize as a SQL function, then {@code ROW_NUMBER() OVER
 *       (PARTITION BY url ORDER BY proctime) = 1}, Flink SQL's first-row deduplication;
 *   <li>sql-cc: the same with crawler-commons' {@code BasicURLNormalizer} in the SQL function, as
 *       naive-cc is to naive;
 *   <li>exact, approximate: the FirstSeen pipeline in its two modes; approximate-bloom: approximate
 *       mode with the Bloom filter of earlier versions; exact-128: exact mode with the 128-bit
 *       fingerprints and 24-byte store entries of earlier versions; exact-salted: exact mode with
 *       the hot domain of {@code --hot-share} spread over 8 salts ({@code keying.hot-domains}).
 * </ol>
 *
 * Output counts of the dedup jobs are checked against the generator's own distinct count. Every job
 * first runs unmeasured on a separate, smaller input ({@code --warmup-records}, 200,000 by
 * default), so that JIT compilation of its own code is not charged to whichever job runs first.
 *
 * <p>Time is processing time, read from the broker: from the append of a job's first output record
 * to that of its last. The job's wall time is printed too but not used: it adds job deployment and
 * the final checkpoint and commit of a bounded exactly-once job (0.7–1.3 s here), which would
 * otherwise weigh on the short jobs more than on the long ones. {@code --rounds N} runs every job N
 * times in rotated order and reports each job's median; {@code --warmup-rounds M} (1 by default)
 * first runs every job M times on the same input, unreported.
 *
 * <p>Run: {@code scripts/bench} with the options of {@link #USAGE}.
 */
public final class EndToEndHarness {
    /** The command line; {@code main} refuses an option it does not name. */
    static final String USAGE =
            "Usage: scripts/bench [--records 2000000] [--warmup-records 200000] [--warmup-rounds 1]"
                    + " [--rounds 1] [--parallelism 2] [--checkpoint-interval \"10 s\"]"
                    + " [--seed 1] [--jobs passthrough,naive,naive-cc,sql,sql-cc,exact,approximate]"
                    + " [--hot-share 0.4] [--firstseen.<job option> value]";

    /**
     * One job's outcome. {@code seconds} is the processing time: from the broker's append time of
     * the job's first output record to that of its last (the output topics use LogAppendTime).
     * {@code jobSeconds} is the wall time of the whole job, which adds deployment and the final
     * checkpoint and commit. The chains' CPU is {@link ChainCpu}'s.
     */
    public record Result(
            String job,
            long recordsOut,
            long expectedOut,
            double seconds,
            double jobSeconds,
            long stateBytes,
            Map<String, Object> accumulators,
            long cpuNanos,
            long jitNanos,
            long gcNanos,
            long keyedChainNanos,
            long sourceChainNanos) {
        boolean countOk() {
            return expectedOut < 0 || recordsOut == expectedOut;
        }
    }

    private final long records;
    private final int warmupRecords;

    /**
     * Distinct URLs of the measured input, the truth the approximate jobs' drops are counted by.
     */
    private long distinct = -1;

    /** Every measured round of each job, in round order, for the per-round ratios. */
    private final Map<String, List<Result>> roundsByJob = new LinkedHashMap<>();

    private final Map<String, String> firstseenOptions = new LinkedHashMap<>();
    private final int parallelism;
    private final String checkpointInterval;
    private final long seed;
    private final PrintStream log;
    private int rounds = 1;
    private int warmupRounds = 0;
    private double hotShare = 0;

    /**
     * @param warmupRecords size of the unmeasured warm-up input every job runs on first
     */
    public EndToEndHarness(
            long records,
            int warmupRecords,
            int parallelism,
            String checkpointInterval,
            long seed,
            PrintStream log) {
        this.records = records;
        this.warmupRecords = warmupRecords;
        this.parallelism = parallelism;
        this.checkpointInterval = checkpointInterval;
        this.seed = seed;
        this.log = log;
    }

    public static void main(String[] args) throws Exception {
        ParameterTool p = CommandLine.parse(args, USAGE);
        EndToEndHarness h =
                new EndToEndHarness(
                        p.getLong("records", 2_000_000),
                        p.getInt("warmup-records", 200_000),
                        p.getInt("parallelism", 2),
                        p.get("checkpoint-interval", "10 s"),
                        p.getLong("seed", 1),
                        System.out);
        h.withRounds(p.getInt("rounds", 1));
        h.withWarmupRounds(p.getInt("warmup-rounds", 1));
        h.withHotShare(Double.parseDouble(p.get("hot-share", "0")));
        firstSeenOptions(p).forEach(h::withFirstSeenOption);
        List<Result> results =
                h.run(
                        List.of(
                                p.get(
                                                "jobs",
                                                "passthrough,naive,naive-cc,sql,sql-cc,exact,approximate")
                                        .split(",")));
        h.print(results);
        boolean ok = results.stream().allMatch(Result::countOk);
        System.exit(ok ? 0 : 1);
    }

    /** Measured runs per job (default 1); each job's reported figure is its median run. */
    public EndToEndHarness withRounds(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1, was " + n);
        }
        this.rounds = n;
        return this;
    }

    /**
     * Unreported rounds over the measured input before the measured ones (default 0). On this
     * 2-core machine the JIT still compiles hundreds of methods per 10 s a minute into a run,
     * because one JVM hosts the broker, the MiniCluster and every client; the small warm-up input
     * alone does not get past that.
     */
    /**
     * Gives one domain ({@code site0.com}) this share of the input records (default 0): the hot-key
     * stream. Job {@code exact-salted} spreads that domain's state over 8 salts.
     */
    public EndToEndHarness withHotShare(double share) {
        if (share < 0 || share >= 1) {
            throw new IllegalArgumentException("--hot-share must be in [0, 1), was " + share);
        }
        this.hotShare = share;
        return this;
    }

    public EndToEndHarness withWarmupRounds(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("--warmup-rounds must be at least 0, was " + n);
        }
        this.warmupRounds = n;
        return this;
    }

    /** The {@code --firstseen.<option> value} arguments, as option → value. */
    static Map<String, String> firstSeenOptions(ParameterTool p) {
        Map<String, String> options = new LinkedHashMap<>();
        p.toMap()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith("firstseen.")) {
                                options.put(k.substring("firstseen.".length()), v);
                            }
                        });
        return options;
    }

    /**
     * Options for the firstseen jobs only, e.g. {@code dedup.bloom.false-positive-rate}; on the
     * command line {@code --firstseen.<option> value}.
     */
    public EndToEndHarness withFirstSeenOption(String key, String value) {
        firstseenOptions.put(key, value);
        return this;
    }

    /** Runs the named jobs on one generated input; returns their results in order. */
    public List<Result> run(List<String> jobs) throws Exception {
        for (String job : jobs) { // a typo fails now, not after the input is loaded
            variantOptions(job.trim());
            if (!KNOWN_JOBS.contains(baseJob(job.trim()))) {
                throw new IllegalArgumentException(
                        "Unknown job '" + job.trim() + "'; choose from " + KNOWN_JOBS);
            }
        }
        KafkaBroker kafka = new KafkaBroker();
        MiniClusterWithClientResource flink =
                new MiniClusterWithClientResource(
                        new MiniClusterResourceConfiguration.Builder()
                                .setNumberTaskManagers(1)
                                .setNumberSlotsPerTaskManager(parallelism)
                                .setConfiguration(clusterConfig())
                                .build());
        kafka.beforeAll(null);
        flink.before();
        try {
            String input = kafka.freshTopic("bench-in", parallelism);
            long t0 = System.nanoTime();
            CrawlStream stream = load(kafka, input, seed, records, hotShare);
            log.printf(
                    Locale.ROOT,
                    "loaded %,d records in %.1f s: %,d distinct URLs, %,d bad%n",
                    records,
                    (System.nanoTime() - t0) / 1e9,
                    stream.distinct(),
                    stream.bad());
            // JIT, class loading and Kafka client warm-up would otherwise land on whichever job
            // runs first (exact measured 78 k/s run first and 142 k/s run fourth on the same
            // input): every job first runs unmeasured on a smaller input of its own.
            String warm = kafka.freshTopic("bench-warmup", parallelism);
            CrawlStream warmStream = load(kafka, warm, seed + 1, warmupRecords, hotShare);
            for (String job : jobs) {
                Result w = runJob(job.trim(), kafka, flink, warm, warmStream.distinct());
                log.printf(
                        Locale.ROOT,
                        "warm-up %s on %,d records (not reported): %.1f s%n",
                        w.job(),
                        warmupRecords,
                        w.seconds());
            }
            // Each round runs every job once, starting one job later than the previous round, so
            // that no job always runs right after the same neighbour; a job's figure is its
            // median round.
            Map<String, List<Result>> runs = new LinkedHashMap<>();
            jobs.forEach(j -> runs.put(j.trim(), new ArrayList<>()));
            List<String> order = new ArrayList<>(runs.keySet());
            for (int round = -warmupRounds; round < rounds; round++) {
                for (int i = 0; i < order.size(); i++) {
                    String job = order.get((i + Math.max(round, 0)) % order.size());
                    distinct = stream.distinct();
                    Result r = runJob(job, kafka, flink, input, distinct);
                    log.printf(
                            Locale.ROOT,
                            "%s %-12s %,10d out in %6.1f s = %,9.0f records/s, %.2f µs CPU per"
                                    + " record (of which JIT %.2f, GC %.2f; job %.1f s; keyed chain"
                                    + " %.2f, source chain %.2f)%s%n",
                            round < 0 ? "warm-up round (not reported)" : "round " + (round + 1),
                            r.job(),
                            r.recordsOut(),
                            r.seconds(),
                            records / r.seconds(),
                            r.cpuNanos() / 1e3 / records,
                            r.jitNanos() / 1e3 / records,
                            r.gcNanos() / 1e3 / records,
                            r.jobSeconds(),
                            r.keyedChainNanos() / 1e3 / records,
                            r.sourceChainNanos() / 1e3 / records,
                            r.countOk() ? "" : "  COUNT MISMATCH: expected " + r.expectedOut());
                    if (round >= 0) {
                        runs.get(job).add(r);
                    }
                }
            }
            roundsByJob.putAll(runs);
            List<Result> results = new ArrayList<>();
            for (List<Result> rs : runs.values()) {
                List<Result> sorted = new ArrayList<>(rs);
                sorted.sort(Comparator.comparingDouble(Result::seconds));
                Result byTime = sorted.get(sorted.size() / 2);
                // CPU per record has its own median: the fastest round is not always the cheapest.
                Result median =
                        new Result(
                                byTime.job(),
                                byTime.recordsOut(),
                                byTime.expectedOut(),
                                byTime.seconds(),
                                byTime.jobSeconds(),
                                byTime.stateBytes(),
                                byTime.accumulators(),
                                median(rs, Result::cpuNanos),
                                median(rs, Result::jitNanos),
                                median(rs, Result::gcNanos),
                                median(rs, Result::keyedChainNanos),
                                median(rs, Result::sourceChainNanos));
                boolean allOk = rs.stream().allMatch(Result::countOk);
                results.add(
                        allOk
                                ? median
                                : rs.stream().filter(r -> !r.countOk()).findFirst().orElseThrow());
            }
            return results;
        } finally {
            flink.after();
            kafka.afterAll(null);
        }
    }

    /** Produces {@code count} records of a seeded crawl stream to {@code topic}; returns it. */
    private static CrawlStream load(
            KafkaBroker kafka, String topic, long seed, long count, double hotShare) {
        CrawlStream stream = new CrawlStream(seed, 2000, 0.01, hotShare);
        List<byte[]> batch = new ArrayList<>(100_000);
        for (long i = 0; i < count; i++) {
            batch.add(stream.next());
            if (batch.size() == 100_000 || i == count - 1) {
                kafka.produce(topic, batch);
                batch.clear();
            }
        }
        return stream;
    }

    /** A job environment on {@code flink} with the job's defaults over {@code conf}. */
    static StreamExecutionEnvironment environment(
            MiniClusterWithClientResource flink, Configuration conf, int parallelism) {
        return new TestStreamEnvironment(
                flink.getMiniCluster(),
                FirstSeenJob.withJobDefaults(conf),
                parallelism,
                List.of(),
                List.of());
    }

    private static Configuration clusterConfig() {
        Configuration c = new Configuration();
        c.setString("state.backend.type", "rocksdb");
        c.setString("execution.checkpointing.incremental", "true");
        c.setString("rest.bind-address", "127.0.0.1");
        c.setString("taskmanager.memory.managed.size", "256m");
        return c;
    }

    private Result runJob(
            String job,
            KafkaBroker kafka,
            MiniClusterWithClientResource flink,
            String input,
            long distinct)
            throws Exception {
        // A variant's options hold characters a topic name may not.
        String name = job.replaceAll("[^A-Za-z0-9._-]", "_");
        String out = kafka.freshTopic("bench-" + name, parallelism, APPEND_TIME);
        String dead = kafka.freshTopic("bench-" + name + "-dead", 1);
        Configuration conf = new Configuration();
        conf.setString("kafka.bootstrap-servers", kafka.bootstrapServers());
        conf.setString("input.topics", input);
        conf.setString("input.bounded", "true");
        conf.setString("input.starting-offsets", "EARLIEST");
        conf.setString("kafka.group-id", "bench-" + out);
        conf.setString("frontier.topic", out);
        conf.setString("dead-letter.topic", dead);
        conf.setString("sink.transactional-id-prefix", out);
        conf.setString("execution.checkpointing.interval", checkpointInterval);
        conf.setString("pipeline.object-reuse", "true");
        String base = baseJob(job);
        // Before the environment is made, so that Flink options (state backend, RocksDB) apply.
        addJobOptions(conf, job, firstseenOptions);
        FirstSeenSettings settings;
        long expected;
        StreamExecutionEnvironment env = environment(flink, conf, parallelism);
        ChainCpu chains = ChainCpu.start(); // before the job's CPU is counted: not the job's
        JobCpu cpu = JobCpu.now();
        switch (base) {
            case "passthrough":
                settings = FirstSeenSettings.from(conf);
                source(env, settings)
                        .keyBy(EndToEndHarness::hostOf, Types.STRING)
                        .sinkTo(rawSink(settings, new RawValue()));
                expected = records;
                break;
            case "naive":
                settings = FirstSeenSettings.from(conf);
                source(env, settings)
                        .flatMap(new DecodeCanonical(settings), Types.STRING)
                        .keyBy(c -> c, Types.STRING)
                        .process(new NaiveDedup(), Types.STRING)
                        .sinkTo(stringSink(settings));
                expected = distinct;
                break;
            case "naive-cc":
                // What a user who takes StormCrawler's normalizer writes: crawler-commons'
                // BasicURLNormalizer, then ValueState per normalized URL. Its identity differs
                // from FirstSeen's, so its output count is not checked.
                settings = FirstSeenSettings.from(conf);
                source(env, settings)
                        .flatMap(new DecodeCrawlerCommons(settings), Types.STRING)
                        .keyBy(c -> c, Types.STRING)
                        .process(new NaiveDedup(), Types.STRING)
                        .sinkTo(stringSink(settings));
                expected = -1;
                break;
            case "sql":
            case "sql-cc":
                settings = FirstSeenSettings.from(conf);
                // sql-cc's identity differs from FirstSeen's, as naive-cc's does: not checked.
                return runSql(
                        base,
                        env,
                        kafka,
                        flink,
                        settings,
                        input,
                        out,
                        base.equals("sql") ? distinct : -1,
                        cpu,
                        chains);
            case "exact":
            case "exact-128":
            case "exact-salted":
            case "approximate":
            case "approximate-bloom":
                settings = FirstSeenSettings.from(conf);
                FirstSeenJob.onKafka(settings).build(env);
                // Approximate mode may drop a few.
                expected = base.startsWith("exact") ? distinct : -1;
                break;
            default:
                throw new IllegalArgumentException(
                        "Unknown job '" + job + "'; choose from " + KNOWN_JOBS);
        }
        long start = System.nanoTime();
        JobExecutionResult result = env.execute("bench " + job);
        double jobSeconds = (System.nanoTime() - start) / 1e9;
        return result(
                job, kafka, flink, out, expected, jobSeconds, result, cpu, JobCpu.now(), chains);
    }

    /** Reads the job's output and makes its {@link Result}. */
    private static Result result(
            String job,
            KafkaBroker kafka,
            MiniClusterWithClientResource flink,
            String out,
            long expected,
            double jobSeconds,
            JobExecutionResult result,
            JobCpu cpu,
            JobCpu end,
            ChainCpu chains)
            throws Exception {
        chains.close();
        List<ConsumerRecord<byte[], byte[]>> written = kafka.drain(out);
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (ConsumerRecord<byte[], byte[]> r : written) {
            if (r.timestampType() != TimestampType.LOG_APPEND_TIME) {
                throw new IllegalStateException(out + " is not a LogAppendTime topic");
            }
            first = Math.min(first, r.timestamp());
            last = Math.max(last, r.timestamp());
        }
        double seconds = written.isEmpty() ? jobSeconds : Math.max(1, last - first) / 1e3;
        return new Result(
                job,
                written.size(),
                expected,
                seconds,
                jobSeconds,
                largestCheckpoint(flink, result),
                result.getAllAccumulatorResults(),
                cpu.jobNanosUntil(end),
                cpu.jitNanosUntil(end),
                cpu.gcNanosUntil(end),
                chains.keyedChainNanos(),
                chains.sourceChainNanos());
    }

    /** Output topics record when the broker appended each record: the clock of {@code seconds}. */
    private static final Map<String, String> APPEND_TIME =
            Map.of("message.timestamp.type", "LogAppendTime");

    /**
     * Size of the largest completed checkpoint of the job (full state size, as the web UI shows
     * it). The last checkpoint of a bounded job is taken after its tasks finished, so the largest
     * one, not the latest, holds the dedup state.
     */
    private static long largestCheckpoint(
            MiniClusterWithClientResource flink, JobExecutionResult result) throws Exception {
        long max = -1;
        for (AbstractCheckpointStats c :
                flink.getMiniCluster()
                        .getArchivedExecutionGraph(result.getJobID())
                        .get()
                        .getCheckpointStatsSnapshot()
                        .getHistory()
                        .getCheckpoints()) {
            if (c.getStatus() == CheckpointStatsStatus.COMPLETED) {
                max = Math.max(max, c.getStateSize());
            }
        }
        return max;
    }

    /**
     * Flink SQL's first-row deduplication (a ValueState per canonical URL), with FirstSeen's decode
     * and canonicalize as a scalar function ({@code sql}), or the decode and crawler-commons'
     * normalizer ({@code sql-cc}).
     */
    private Result runSql(
            String job,
            StreamExecutionEnvironment env,
            KafkaBroker kafka,
            MiniClusterWithClientResource flink,
            FirstSeenSettings s,
            String input,
            String out,
            long distinct,
            JobCpu cpu,
            ChainCpu chains)
            throws Exception {
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporarySystemFunction("CANON", new CanonUdf(s, job.equals("sql-cc")));
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE src (v BYTES, pt AS PROCTIME()) WITH ("
                        + "'connector'='kafka','format'='raw','topic'='"
                        + input
                        + "','properties.bootstrap.servers'='"
                        + s.bootstrapServers()
                        + "','properties.group.id'='"
                        + s.groupId()
                        + "','properties.isolation.level'='read_committed',"
                        + "'scan.startup.mode'='earliest-offset',"
                        + "'scan.bounded.mode'='latest-offset')");
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE dst (url STRING) WITH ("
                        + "'connector'='kafka','format'='raw','topic'='"
                        + out
                        + "','properties.bootstrap.servers'='"
                        + s.bootstrapServers()
                        + "','sink.delivery-guarantee'='exactly-once',"
                        + "'sink.transactional-id-prefix'='"
                        + s.transactionalIdPrefix()
                        + "','properties.transaction.timeout.ms'='600000')");
        long start = System.nanoTime();
        TableResult r =
                tEnv.executeSql(
                        "INSERT INTO dst SELECT url FROM (SELECT url, ROW_NUMBER() OVER"
                                + " (PARTITION BY url ORDER BY pt) AS rn FROM (SELECT CANON(v) AS"
                                + " url, pt FROM src) WHERE url IS NOT NULL) WHERE rn = 1");
        JobExecutionResult result = r.getJobClient().orElseThrow().getJobExecutionResult().get();
        double jobSeconds = (System.nanoTime() - start) / 1e9;
        return result(
                job, kafka, flink, out, distinct, jobSeconds, result, cpu, JobCpu.now(), chains);
    }

    /**
     * FirstSeen's decode + canonicalize as a SQL scalar function, or the decode and
     * crawler-commons' normalizer ({@link CrawlerCommonsNormalizer}); null for bad input.
     */
    public static final class CanonUdf extends ScalarFunction {
        private static final long serialVersionUID = 1L;
        private final MessageDecoder decoder;
        private final Canonicalizer canon;
        private final CrawlerCommonsNormalizer crawlerCommons;

        CanonUdf(FirstSeenSettings s, boolean crawlerCommons) {
            this.decoder = s.messageDecoder();
            this.canon = s.canonicalizer();
            this.crawlerCommons = crawlerCommons ? new CrawlerCommonsNormalizer(s) : null;
        }

        public String eval(byte[] value) {
            if (crawlerCommons != null) {
                return crawlerCommons.normalize(value);
            }
            MessageDecoder.Decoded d = decoder.decode(value);
            if (d.url == null) {
                return null;
            }
            Canonicalization c = canon.canonicalize(d.url);
            return c.isAccepted() ? c.url() : null;
        }
    }

    private static DataStream<RawRecord> source(
            StreamExecutionEnvironment env, FirstSeenSettings s) {
        return env.fromSource(
                        KafkaInput.source(s.sourceSettings()),
                        WatermarkStrategy.noWatermarks(),
                        "input")
                .returns(TypeInformation.of(RawRecord.class));
    }

    /** A cheap host guess for the passthrough key: the text between "://" and the next '/'. */
    static String hostOf(RawRecord r) {
        if (r.value == null) {
            return "";
        }
        String s =
                new String(r.value, 0, Math.min(r.value.length, 200), StandardCharsets.ISO_8859_1);
        int start = s.indexOf("://");
        if (start < 0) {
            return "";
        }
        int end = s.indexOf('/', start + 3);
        return end < 0 ? s.substring(start + 3) : s.substring(start + 3, end);
    }

    private static KafkaSink<RawRecord> rawSink(
            FirstSeenSettings s, SerializationSchema<RawRecord> value) {
        return KafkaSink.<RawRecord>builder()
                .setBootstrapServers(s.bootstrapServers())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(s.transactionalIdPrefix())
                .setKafkaProducerConfig(baselineProducer(s))
                .setRecordSerializer(
                        KafkaRecordSerializationSchema.<RawRecord>builder()
                                .setTopic(s.frontierTopic())
                                .setValueSerializationSchema(value)
                                .build())
                .build();
    }

    /**
     * A baseline's producer: the Kafka client's defaults, as a user's first job has them, unless a
     * variant sets {@code kafka.properties.*} ({@code passthrough@kafka.properties.linger.ms=100}).
     */
    private static Properties baselineProducer(FirstSeenSettings s) {
        Properties p = new Properties();
        p.setProperty("transaction.timeout.ms", "600000");
        p.putAll(s.kafkaProperties());
        return p;
    }

    private static KafkaSink<String> stringSink(FirstSeenSettings s) {
        return KafkaSink.<String>builder()
                .setBootstrapServers(s.bootstrapServers())
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(s.transactionalIdPrefix())
                .setKafkaProducerConfig(baselineProducer(s))
                .setRecordSerializer(
                        KafkaRecordSerializationSchema.<String>builder()
                                .setTopic(s.frontierTopic())
                                .setValueSerializationSchema(new Utf8())
                                .build())
                .build();
    }

    static final class RawValue implements SerializationSchema<RawRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(RawRecord r) {
            return r.value;
        }
    }

    static final class Utf8 implements SerializationSchema<String> {
        private static final long serialVersionUID = 1L;

        @Override
        public byte[] serialize(String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
    }

    /** The naive job's decode + canonicalize: the same code as FirstSeen, bad input dropped. */
    static final class DecodeCanonical
            implements org.apache.flink.api.common.functions.FlatMapFunction<RawRecord, String> {
        private static final long serialVersionUID = 1L;
        private final MessageDecoder decoder;
        private final Canonicalizer canon;

        DecodeCanonical(FirstSeenSettings s) {
            this.decoder = s.messageDecoder();
            this.canon = s.canonicalizer();
        }

        @Override
        public void flatMap(RawRecord r, Collector<String> out) {
            MessageDecoder.Decoded d = decoder.decode(r.value);
            if (d.url != null) {
                Canonicalization c = canon.canonicalize(d.url);
                if (c.isAccepted()) {
                    out.collect(c.url());
                }
            }
        }
    }

    /**
     * The naive job's front half as a StormCrawler user would write it: the value decoded as the
     * naive job does, then normalized by crawler-commons' {@code BasicURLNormalizer} (null for what
     * it rejects) instead of FirstSeen's canonicalizer.
     */
    static final class DecodeCrawlerCommons
            implements org.apache.flink.api.common.functions.FlatMapFunction<RawRecord, String> {
        private static final long serialVersionUID = 1L;
        private final CrawlerCommonsNormalizer normalizer;

        DecodeCrawlerCommons(FirstSeenSettings s) {
            this.normalizer = new CrawlerCommonsNormalizer(s);
        }

        @Override
        public void flatMap(RawRecord r, Collector<String> out) {
            String n = normalizer.normalize(r.value);
            if (n != null) {
                out.collect(n);
            }
        }
    }

    /**
     * A record's value decoded as the naive job decodes it, then normalized by crawler-commons'
     * {@code BasicURLNormalizer}: null for what either rejects. Shared by naive-cc and sql-cc.
     */
    static final class CrawlerCommonsNormalizer implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final MessageDecoder decoder;
        private transient crawlercommons.filters.basic.BasicURLNormalizer normalizer;

        CrawlerCommonsNormalizer(FirstSeenSettings s) {
            this.decoder = s.messageDecoder();
        }

        String normalize(byte[] value) {
            if (normalizer == null) {
                normalizer = new crawlercommons.filters.basic.BasicURLNormalizer();
            }
            MessageDecoder.Decoded d = decoder.decode(value);
            return d.url == null ? null : normalizer.filter(d.url);
        }
    }

    /** What a typical Flink user writes: keyed by URL, one {@code ValueState<Boolean>} each. */
    static final class NaiveDedup extends KeyedProcessFunction<String, String, String> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Boolean> seen;

        @Override
        public void open(OpenContext ctx) {
            seen = getRuntimeContext().getState(new ValueStateDescriptor<>("seen", Types.BOOLEAN));
        }

        @Override
        public void processElement(String url, Context ctx, Collector<String> out)
                throws Exception {
            if (seen.value() == null) {
                seen.update(true);
                out.collect(url);
            }
        }
    }

    /**
     * Adds what makes {@code job} what it is to {@code conf}: a FirstSeen job's mode and its
     * variant of the pipeline, the {@code --firstseen.*} options, then the variant's own options.
     * The caller makes the job's environment from {@code conf} afterwards: until 2026-11-23 19:13
     * UTC the options came after it, so Flink options and the mode never reached the state backend.
     */
    static void addJobOptions(
            Configuration conf, String job, Map<String, String> firstseenOptions) {
        String base = baseJob(job);
        if (FIRSTSEEN_JOBS.contains(base)) {
            conf.setString("dedup.mode", base.startsWith("exact") ? "EXACT" : "APPROXIMATE");
            if (base.equals("approximate-bloom")) {
                conf.setString("dedup.approximate.filter", "BLOOM");
            }
            if (base.equals("exact-128")) {
                conf.setString("dedup.fingerprint-bits", "128");
            }
            if (base.equals("exact-salted")) {
                conf.setString("keying.hot-domains", "site0.com");
            }
            firstseenOptions.forEach(conf::setString);
        }
        variantOptions(job).forEach(conf::setString);
    }

    /**
     * CPU per record of {@code job} over {@code base}, round by round. The two ran seconds apart in
     * each round, so a round's ratio is free of the drift that moves a job's rate by up to 40% over
     * an invocation; their spread shows how far the medians' ratio can be trusted.
     */
    private void printRoundRatios(String job, String base) {
        double[] ratios =
                roundRatios(
                        roundsByJob.getOrDefault(job, List.of()),
                        roundsByJob.getOrDefault(base, List.of()));
        if (ratios.length < 2) {
            return;
        }
        String each = joined(ratios);
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        log.printf(
                Locale.ROOT,
                "ratio %s/%s CPU per record round by round: %s (median %.2f, %.2f to %.2f)%n",
                job,
                base,
                each,
                medianOf(sorted),
                sorted[0],
                sorted[sorted.length - 1]);
    }

    /**
     * {@code job}'s keyed chain's CPU over its source chain's, round by round: the source chain's
     * work is the same in every job of the run, so this compares jobs with the machine's speed at
     * the time of each round divided out ({@link ChainCpu}).
     */
    private void printChainRatios(String job) {
        List<Result> rs = roundsByJob.getOrDefault(job, List.of());
        double[] ratios = new double[rs.size()];
        for (int i = 0; i < rs.size(); i++) {
            Result r = rs.get(i);
            if (r.sourceChainNanos() <= 0) {
                return;
            }
            ratios[i] = (double) r.keyedChainNanos() / r.sourceChainNanos();
        }
        if (ratios.length == 0) {
            return;
        }
        String each = joined(ratios);
        Arrays.sort(ratios);
        log.printf(
                Locale.ROOT,
                "%s: keyed chain's CPU over the source chain's, round by round: %s (median %.2f)%n",
                job,
                each,
                medianOf(ratios));
    }

    /** {@code values} with two decimals, space-separated, in their order. */
    private static String joined(double[] values) {
        StringBuilder each = new StringBuilder();
        for (double v : values) {
            each.append(String.format(Locale.ROOT, "%s%.2f", each.length() == 0 ? "" : " ", v));
        }
        return each.toString();
    }

    /** {@code job}'s CPU per record over {@code base}'s in each round both ran, in round order. */
    static double[] roundRatios(List<Result> job, List<Result> base) {
        int n = Math.min(job.size(), base.size());
        double[] ratios = new double[n];
        for (int i = 0; i < n; i++) {
            ratios[i] = (double) job.get(i).cpuNanos() / base.get(i).cpuNanos();
        }
        return ratios;
    }

    /** The median of sorted values: the middle one, or the mean of the middle two. */
    static double medianOf(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static long median(List<Result> rs, java.util.function.ToLongFunction<Result> f) {
        long[] v = rs.stream().mapToLong(f).sorted().toArray();
        return v[v.length / 2];
    }

    /** The FirstSeen jobs, whose figures are compared with the baselines'. */
    static final List<String> FIRSTSEEN_JOBS =
            List.of("exact", "exact-128", "exact-salted", "approximate", "approximate-bloom");

    /** The baselines the FirstSeen jobs are compared with. */
    static final List<String> BASELINE_JOBS =
            List.of("passthrough", "naive", "naive-cc", "sql", "sql-cc");

    static final List<String> KNOWN_JOBS =
            Stream.concat(BASELINE_JOBS.stream(), FIRSTSEEN_JOBS.stream()).toList();

    /**
     * A job's base name: {@code exact@state.backend.type=forst} is job {@code exact} with that
     * option, so variants run side by side with their base in one invocation.
     */
    static String baseJob(String job) {
        int at = job.indexOf('@');
        return at < 0 ? job : job.substring(0, at);
    }

    /** The options of a variant, {@code job@key=value@key=value}, in order. */
    static Map<String, String> variantOptions(String job) {
        Map<String, String> options = new LinkedHashMap<>();
        String[] parts = job.split("@");
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "Job variant '" + job + "': write each option as @key=value");
            }
            options.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
        }
        return options;
    }

    /** The results table with ratios, and the FirstSeen runs' level figures. */
    public void print(List<Result> results) {
        Map<String, Result> byJob = new LinkedHashMap<>();
        results.forEach(r -> byJob.put(r.job(), r));
        log.printf(
                Locale.ROOT,
                "%n%-12s %12s %12s %9s %12s %12s %9s %16s%n",
                "job",
                "records in",
                "records out",
                "seconds",
                "records/s",
                "CPU µs/rec",
                "job s",
                "checkpoint bytes");
        for (Result r : results) {
            log.printf(
                    Locale.ROOT,
                    "%-12s %,12d %,12d %9.2f %,12.0f %12.2f %9.1f %,16d%s%n",
                    r.job(),
                    records,
                    r.recordsOut(),
                    r.seconds(),
                    records / r.seconds(),
                    r.cpuNanos() / 1e3 / records,
                    r.jobSeconds(),
                    r.stateBytes(),
                    r.countOk() ? "" : "  COUNT MISMATCH (expected " + r.expectedOut() + ")");
        }
        for (Result f : results) {
            String fs = f.job();
            if (!FIRSTSEEN_JOBS.contains(baseJob(fs))) {
                continue;
            }
            if (distinct > 0) {
                log.printf(
                        Locale.ROOT,
                        "%s: dropped %,d of %,d distinct URLs = %.2e (the generator's count less"
                                + " the records out); the job expected %,.1f (%s)%n",
                        fs,
                        distinct - f.recordsOut(),
                        distinct,
                        (double) (distinct - f.recordsOut()) / distinct,
                        getDouble(f.accumulators(), FirstSeenMetrics.EXPECTED_FALSE_POSITIVES),
                        FirstSeenMetrics.EXPECTED_FALSE_POSITIVES);
            }
            List<String> baselines = new ArrayList<>(BASELINE_JOBS);
            if (!baseJob(fs).equals(fs)) {
                baselines.add(baseJob(fs)); // a variant against its base job
            }
            for (String base : baselines) {
                Result b = byJob.get(base);
                if (b != null) {
                    log.printf(
                            Locale.ROOT,
                            "ratio %s/%s = %.2f records/s, %.2f CPU per record (%.2f without the"
                                    + " JIT compiler's)%n",
                            fs,
                            base,
                            b.seconds() / f.seconds(),
                            (double) f.cpuNanos() / b.cpuNanos(),
                            (double) (f.cpuNanos() - f.jitNanos()) / (b.cpuNanos() - b.jitNanos()));
                    printRoundRatios(fs, base);
                }
            }
            printChainRatios(fs);
            Map<String, Object> a = f.accumulators();
            long first = get(a, FirstSeenMetrics.FIRST_SEEN);
            long in = get(a, FirstSeenMetrics.RECORDS_IN);
            log.printf(
                    Locale.ROOT,
                    "%s: %s; largest checkpoint %,d bytes = %.1f bytes per first-seen URL%n",
                    fs,
                    filterHeap(a, first),
                    f.stateBytes(),
                    perUrl(f.stateBytes(), first));
            log.printf(
                    Locale.ROOT,
                    "%s: L1 answered %.1f%% of records, L2 'definitely new' %.1f%%, L3 reads %,d"
                            + " (%.3f per record); reads for first-seen URLs (caught false"
                            + " positives) %,d = %.4f per first-seen URL; %,d filter rebuilds"
                            + " read %,d exact-store entries; longest record in dedup %,d µs, longest rebuild work in one"
                            + " record %,d µs%n",
                    fs,
                    100.0 * get(a, FirstSeenMetrics.L1_HITS) / in,
                    100.0 * get(a, FirstSeenMetrics.L2_DEFINITELY_NEW) / in,
                    get(a, FirstSeenMetrics.L3_READS),
                    (double) get(a, FirstSeenMetrics.L3_READS) / in,
                    get(a, FirstSeenMetrics.FALSE_POSITIVES_CAUGHT),
                    first == 0
                            ? 0.0
                            : (double) get(a, FirstSeenMetrics.FALSE_POSITIVES_CAUGHT) / first,
                    get(a, FirstSeenMetrics.FILTER_REBUILDS),
                    get(a, FirstSeenMetrics.FILTER_REBUILD_READS),
                    get(a, FirstSeenMetrics.LONGEST_RECORD_MICROS),
                    get(a, FirstSeenMetrics.LONGEST_REBUILD_MICROS));
            log.printf(Locale.ROOT, "%s: %s%n", fs, pageWrites(a, first));
        }
    }

    /**
     * How the filter pages reached keyed state: pages written whole (at evictions and checkpoints)
     * and fingerprints appended to page journals instead, per first-seen URL.
     */
    static String pageWrites(Map<String, Object> acc, long firstSeen) {
        long pages = get(acc, FirstSeenMetrics.PAGES_FLUSHED);
        long journal = get(acc, FirstSeenMetrics.PAGE_JOURNAL_ENTRIES);
        return String.format(
                Locale.ROOT,
                "filter pages written whole %,d (%.3f per first-seen URL); fingerprints journaled"
                        + " instead %,d (%.3f per first-seen URL)",
                pages,
                perUrl(pages, firstSeen),
                journal,
                perUrl(journal, firstSeen));
    }

    /**
     * The Bloom page cache at the end of a bounded run, per first-seen URL: pages, and the per-key
     * bookkeeping beside them (page tables and the per-key object estimate).
     */
    static String filterHeap(Map<String, Object> acc, long firstSeen) {
        long filterBytes = get(acc, FirstSeenMetrics.FILTER_BYTES_AT_END);
        long pageBytes = get(acc, FirstSeenMetrics.FILTER_PAGE_BYTES_AT_END);
        long keys = get(acc, FirstSeenMetrics.FILTER_KEYS_AT_END);
        return String.format(
                Locale.ROOT,
                "filter cache %,d bytes = %.2f bytes per first-seen URL (pages %.2f, per-key"
                        + " bookkeeping %.2f: %,d keys, %,.0f bytes each)",
                filterBytes,
                perUrl(filterBytes, firstSeen),
                perUrl(pageBytes, firstSeen),
                perUrl(filterBytes - pageBytes, firstSeen),
                keys,
                keys == 0 ? 0.0 : (double) (filterBytes - pageBytes) / keys);
    }

    /** {@code n} (bytes, pages, entries) per URL; 0 without URLs. */
    private static double perUrl(long n, long urls) {
        return urls == 0 ? 0.0 : (double) n / urls;
    }

    /** A long accumulator of a finished job, 0 if the job has none of that name. */
    static long get(Map<String, Object> acc, String name) {
        Object v = acc.get(name);
        return v instanceof Long ? (Long) v : 0L;
    }

    /** A double accumulator of a finished job, 0 if the job has none of that name. */
    static double getDouble(Map<String, Object> acc, String name) {
        Object v = acc.get(name);
        return v instanceof Double ? (Double) v : 0.0;
    }
}
