package dev.firstseen.bench;

import dev.firstseen.config.FirstSeenOptions;
import dev.firstseen.config.SeenSetRocksDBOptions;
import dev.firstseen.dedup.ApproximateFilter;
import dev.firstseen.dedup.DedupConfig;
import dev.firstseen.dedup.DedupMode;
import dev.firstseen.dedup.DedupOperator;
import dev.firstseen.metrics.FirstSeenMetrics;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.tools.CommandLine;
import dev.firstseen.tools.CrawlStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.SharedStateRegistry;
import org.apache.flink.runtime.state.SharedStateRegistryImpl;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.FileUtils;
import org.apache.flink.util.ParameterTool;

/**
 * One dedup subtask's share of a large crawl, on Flink's operator harness with the RocksDB backend
 * (incremental checkpoints): {@code --urls} distinct URLs over {@code --keys} Zipf(1)-distributed
 * keys, each URL sent twice on average (every other record repeats an earlier URL). It prints the
 * filter's heap, the URLs dropped against the generator's truth, the checkpoint's size and how long
 * it took, and the time to restore from it and to answer the first records of every key again. What
 * it leaves out is the rest of the job (Kafka, canonicalization, the shuffle), which does not
 * change the state.
 *
 * <p>With {@code --checkpoint-every N} it also checkpoints every N records, as a job does every
 * checkpoint interval (a subtask taking 100,000 records/s with 10 s checkpoints: N = 1,000,000),
 * and confirms each one, so that RocksDB's incremental checkpoints share their files. Then page
 * journals and stale page versions are in the checkpoints as in a job, and it prints the largest,
 * the slowest and the heap just before a checkpoint's flush, when keys still hold their dirty-page
 * sets and pending inserts, and the most heap at once between two checkpoints: after any record,
 * and within one whenever the arena allocates a chunk, so that a compaction's copies count beside
 * the chunks they leave (the arena's garbage rises and falls with its compactions between them).
 * Without it, the one checkpoint at the end writes every key whole.
 *
 * <p>Run: {@code scripts/simulate-subtask} with the options of {@link #USAGE}. {@code
 * --page-journal-max-share}, {@code --compact-before-checkpoint}, {@code
 * --compact-after-checkpoint} and {@code --expected-urls-per-key} set {@code
 * dedup.page-journal.max-share} (by default 0.05 in approximate mode and 0.75 in exact mode),
 * {@code dedup.rocksdb.compact-before-checkpoint}, {@code dedup.rocksdb.compact-after-checkpoint}
 * (by default true in approximate mode) and {@code dedup.bloom.expected-urls-per-key}. Flink's
 * RocksDB options given as {@code --state.backend.rocksdb.<option> value} (e.g. {@code
 * compression.per.level}) configure the backend as they would a job's. After the last checkpoint it
 * prints that checkpoint's SST files summed by column family ({@link SstSummary}): how much of it
 * is pages, metadata and journals.
 *
 * <p>{@code --forget-after-records N} sets {@code dedup.forget-after} to N ms on a clock that moves
 * 1 ms a record (the processing time follows it in steps of 1,024 records): in approximate mode the
 * keys' filters then keep generations and forget the old ones, and the figures are also given per
 * URL the filter still holds (emitted less expired).
 *
 * <p>{@code --mode exact --restore-as approximate} restores the last checkpoint in approximate mode
 * at {@code --rate} instead ({@code dedup.approximate.convert-exact-keys}): the restore's time is
 * then the conversion of every key as the operator opens, and it prints the checkpoint taken right
 * after it beside the exact one.
 */
public final class SubtaskSimulation {
    private SubtaskSimulation() {}

    /** The command line; {@code main} refuses an option it does not name. */
    static final String USAGE =
            "Usage: scripts/simulate-subtask [--urls 10000000] [--keys 100000] [--rate 0.0001]"
                    + " [--mode approximate|exact [--restore-as approximate]]"
                    + " [--filter FINGERPRINTS|BLOOM] [--checkpoint-every N]"
                    + " [--page-journal-max-share S] [--compact-before-checkpoint true]"
                    + " [--compact-after-checkpoint true|false] [--expected-urls-per-key N]"
                    + " [--forget-after-records N] [--state.backend.rocksdb.<option> value]";

    public static void main(String[] args) throws Exception {
        ParameterTool p = CommandLine.parse(args, USAGE);
        ROCKSDB_OPTIONS.clear(); // main may run more than once in a JVM (SubtaskSimulationTest)
        p.toMap()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith("state.backend.rocksdb.")) {
                                ROCKSDB_OPTIONS.put(k, v);
                            }
                        });
        long urls = p.getLong("urls", 10_000_000);
        int keys = p.getInt("keys", 100_000);
        double rate = p.getDouble("rate", 1e-4);
        DedupMode mode = DedupMode.valueOf(p.get("mode", "approximate").toUpperCase(Locale.ROOT));
        String filter = p.get("filter", "FINGERPRINTS");
        long every = p.getLong("checkpoint-every", 0);
        long forgetAfter = p.getLong("forget-after-records", 0);
        double journalShare =
                p.getDouble("page-journal-max-share", DedupConfig.defaultPageJournalShare(mode));
        boolean compact = p.getBoolean("compact-before-checkpoint", false);
        boolean compactAfter =
                p.getBoolean(
                        "compact-after-checkpoint",
                        DedupConfig.defaultCompactAfterCheckpoint(mode));
        ApproximateFilter approximateFilter =
                ApproximateFilter.valueOf(filter.toUpperCase(Locale.ROOT));
        long expected =
                p.getLong(
                        "expected-urls-per-key",
                        DedupConfig.defaultExpectedUrlsPerKey(mode, approximateFilter));
        if (every < 0) {
            throw new IllegalArgumentException("--checkpoint-every must be 0 (none) or records");
        }
        String restoreAs = p.get("restore-as", mode.name()).toUpperCase(Locale.ROOT);
        if (!restoreAs.equals(mode.name())
                && !(mode == DedupMode.EXACT && restoreAs.equals("APPROXIMATE"))) {
            throw new IllegalArgumentException(
                    "--restore-as approximate goes with --mode exact, the switch a job may make");
        }
        DedupConfig config =
                DedupConfig.builder()
                        .mode(mode)
                        .approximateFilter(approximateFilter)
                        .falsePositiveRate(rate)
                        .expectedUrlsPerKey(expected)
                        .pageJournalShare(journalShare)
                        .compactBeforeCheckpoint(compact)
                        .compactAfterCheckpoint(compactAfter)
                        .filterCacheBytes(8L << 30)
                        .forgetAfterMillis(forgetAfter)
                        .guarded(Map.of("canonical.profile", "simulation", "keying.mode", "DOMAIN"))
                        .build();
        DedupConfig restoreConfig =
                restoreAs.equals(mode.name())
                        ? config
                        : DedupConfig.builder()
                                .mode(DedupMode.APPROXIMATE)
                                .fingerprints(config.fingerprints())
                                .falsePositiveRate(rate)
                                .filterCacheBytes(8L << 30)
                                .guarded(
                                        Map.of(
                                                "canonical.profile",
                                                "simulation",
                                                "keying.mode",
                                                "DOMAIN"))
                                .build();
        double[] cdf = CrawlStream.zipfCdf(keys);
        System.out.printf(
                Locale.ROOT,
                "one subtask: %,d distinct URLs over %,d Zipf(1) keys, %s mode (%s) at rate %s,"
                        + " %,d expected URLs a key, page journal max-share %s,%s%s%s %s%n",
                urls,
                keys,
                mode,
                mode == DedupMode.APPROXIMATE ? filter : "fingerprint pages",
                rate,
                expected,
                journalShare,
                compact ? " compaction before each checkpoint," : "",
                compactAfter ? " compaction after each checkpoint," : "",
                forgetAfter > 0
                        ? String.format(
                                Locale.ROOT,
                                " forget-after %,d records (generations of %,d),",
                                forgetAfter,
                                config.generationMillis())
                        : "",
                every > 0
                        ? String.format(Locale.ROOT, "a checkpoint every %,d records", every)
                        : "one checkpoint at the end");

        try {
            run(config, restoreConfig, urls, keys, cdf, every, forgetAfter > 0);
        } finally {
            for (Path dir : TEMP_DIRS) {
                FileUtils.deleteDirectoryQuietly(dir.toFile());
            }
        }
    }

    /** The {@code state.backend.rocksdb.*} arguments, passed to the RocksDB backend. */
    private static final Map<String, String> ROCKSDB_OPTIONS = new HashMap<>();

    /** Checkpoint directories this run made, deleted when it ends. */
    private static final List<Path> TEMP_DIRS = new ArrayList<>();

    private static void run(
            DedupConfig config,
            DedupConfig restoreConfig,
            long urls,
            int keys,
            double[] cdf,
            long every,
            boolean timed)
            throws Exception {
        var h = harness(config);
        DedupOperator op = (DedupOperator) h.getOperator();
        Periodic periodic = new Periodic();
        long checkpointId = 0;
        SplittableRandom rnd = new SplittableRandom(1);
        JobCpu cpuStart = JobCpu.now();
        long threadStart = THREAD_CPU.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long created = 0;
        long records = 0;
        long lastReport = start;
        while (created < urls) {
            long id;
            if ((records & 1) == 0 || created == 0) {
                id = created++;
            } else {
                id = rnd.nextLong(created);
            }
            if (timed && (records & 1023) == 0) {
                h.setProcessingTime(CLOCK_START + records);
            }
            h.processElement(url(id, cdf, timed ? CLOCK_START + records : -1), 0L);
            records++;
            if (every > 0 && records % every == 0) {
                periodic.take(h, op, ++checkpointId, created);
            }
            if ((records & 0xFFFFF) == 0 && System.nanoTime() - lastReport > 15e9) {
                lastReport = System.nanoTime();
                System.out.printf(
                        Locale.ROOT,
                        "  %,d records, %,d URLs, %.0f s%n",
                        records,
                        created,
                        (lastReport - start) / 1e9);
            }
            if ((records & 0xFFFF) == 0) {
                h.getOutput().clear(); // keep only the count, not the records
            }
        }
        double feedSeconds =
                (System.nanoTime() - start) / 1e9 - periodic.seconds - periodic.compactionWait;
        long threadNanos = THREAD_CPU.getCurrentThreadCpuTime() - threadStart;
        JobCpu cpuEnd = JobCpu.now();
        long emitted = counter(op, "firstSeen");
        long expired = counter(op, "expired");

        long t0 = System.nanoTime();
        OperatorSubtaskState snap = checkpoint(h, ++checkpointId);
        double snapshotSeconds = (System.nanoTime() - t0) / 1e9;
        long heap = op.filterCacheBytes();
        long pages = op.filterPageBytes();
        int packed = op.filterPackedKeys();
        String arena = op.filterArenaSummary();
        long state = snap.getStateSize();
        double expected = op.expectedFalsePositives();
        h.close();

        System.out.printf(
                Locale.ROOT,
                "fed %,d records in %.1f s (%,.0f records/s, dedup operator only, periodic"
                        + " checkpoints and %.1f s of waits for the compaction after them not"
                        + " counted)%n"
                        + "emitted %,d of %,d distinct: %,d dropped = %.2e (the operator expected"
                        + " %,.1f: expectedFalsePositives)%n"
                        + "filter heap %,d B = %.2f B/URL (pages %.2f B/URL, per-key objects"
                        + " %.2f B/URL; %,d keys packed; %s)%n"
                        + "checkpoint %,d B = %.2f B/URL, taken in %.2f s (pre-barrier flush and"
                        + " synchronous snapshot)%n",
                records,
                feedSeconds,
                records / feedSeconds,
                periodic.compactionWait,
                emitted,
                urls,
                urls - emitted,
                (urls - emitted) / (double) urls,
                expected,
                heap,
                heap / (double) urls,
                pages / (double) urls,
                (heap - pages) / (double) urls,
                packed,
                arena,
                state,
                state / (double) urls,
                snapshotSeconds);
        if (timed) {
            long held = emitted - expired;
            System.out.printf(
                    Locale.ROOT,
                    "forget-after: %,d URLs expired, %,d held (emitted less expired): filter heap"
                            + " %.2f B and checkpoint %.2f B a URL held%n",
                    expired,
                    held,
                    heap / (double) held,
                    state / (double) held);
        }
        printCpu(records, threadNanos, periodic.threadNanos, cpuStart, cpuEnd);
        if (every > 0) {
            periodic.print(every);
        }
        SstSummary.print("that checkpoint", SstSummary.of(snap), urls, System.out);

        long r0 = System.nanoTime();
        var restored = harness(restoreConfig, snap);
        double restoreSeconds = (System.nanoTime() - r0) / 1e9;
        if (restoreConfig != config) {
            DedupOperator converted = (DedupOperator) restored.getOperator();
            long t1 = System.nanoTime();
            OperatorSubtaskState after = checkpoint(restored, ++checkpointId);
            double afterSeconds = (System.nanoTime() - t1) / 1e9;
            long afterState = after.getStateSize();
            System.out.printf(
                    Locale.ROOT,
                    "restored in approximate mode at rate %s: %,d keys converted from exact mode"
                            + " as the operator opened, in the restore's time below; checkpoint"
                            + " right after %,d B = %.2f B/URL (exact mode's %.2f), taken in %.2f"
                            + " s%n",
                    restoreConfig.falsePositiveRate(),
                    counter(converted, "exactKeysConverted"),
                    afterState,
                    afterState / (double) urls,
                    state / (double) urls,
                    afterSeconds);
            SstSummary.print("that checkpoint", SstSummary.of(after), urls, System.out);
        }
        // One old URL of every key: loads each key's metadata and one page per class.
        long w0 = System.nanoTime();
        for (int k = 0; k < keys; k++) {
            restored.processElement(
                    new CanonicalUrl(
                            null,
                            "http://k" + k + ".example/warm",
                            "k" + k + ".example",
                            null,
                            new SourcePosition("sim", 0, 0, -1)),
                    0L);
        }
        double warmSeconds = (System.nanoTime() - w0) / 1e9;
        SplittableRandom check = new SplittableRandom(2);
        int reemitted = 0;
        restored.getOutput().clear();
        for (int i = 0; i < 200_000; i++) {
            restored.processElement(url(check.nextLong(urls), cdf, -1), 0L);
        }
        reemitted = restored.extractOutputValues().size();
        restored.close();
        System.out.printf(
                Locale.ROOT,
                "restore (RocksDB files from the local snapshot, operator open): %.2f s; first"
                        + " record of each of %,d keys after it: %.2f s; 200,000 old URLs"
                        + " re-emitted: %d%n",
                restoreSeconds,
                keys,
                warmSeconds,
                reemitted);
    }

    private static final ThreadMXBean THREAD_CPU = ManagementFactory.getThreadMXBean();

    /**
     * What the feed and its periodic checkpoints cost the whole JVM, a record: the feeding thread
     * (the operator's: records, then checkpoints) and every other thread, RocksDB's flushes and
     * compactions above all, which a job runs beside its records on the same cores. Comparing
     * filters by the operator's records alone leaves out what a larger state costs in the
     * background.
     */
    private static void printCpu(
            long records, long threadNanos, long checkpointNanos, JobCpu from, JobCpu to) {
        double process = from.processNanosUntil(to) / 1e3 / records;
        double onRecords = (threadNanos - checkpointNanos) / 1e3 / records;
        double onCheckpoints = checkpointNanos / 1e3 / records;
        double jit = from.jitNanosUntil(to) / 1e3 / records;
        double gc = from.gcNanosUntil(to) / 1e3 / records;
        System.out.printf(
                Locale.ROOT,
                "CPU of this JVM over the feed and its checkpoints: %.2f µs a record = the"
                        + " operator's thread %.2f on records + %.2f on periodic checkpoints +"
                        + " other threads %.2f (RocksDB's flushes and compactions, state transfer;"
                        + " %.2f of them the JIT, %.2f the collector)%n",
                process,
                onRecords,
                onCheckpoints,
                process - onRecords - onCheckpoints,
                jit,
                gc);
    }

    /**
     * Stands for the checkpoint coordinator's: an incremental checkpoint refers to files an earlier
     * confirmed one uploaded by placeholders, which registering replaces with the real handles, so
     * that the last checkpoint can be restored.
     */
    private static final SharedStateRegistry REGISTRY = new SharedStateRegistryImpl();

    /** What the periodic checkpoints came to. */
    private static final class Periodic {
        int taken;
        double seconds;
        /* Waits for the background compaction after a checkpoint, before the next one. */
        double compactionWait;
        /* CPU of the feeding thread in the checkpoints' work (not in the waits). */
        long threadNanos;
        final List<Double> durations = new ArrayList<>();
        // The part of each duration spent in notifyCheckpointComplete: with no record between the
        // snapshot and it, the whole writes after a checkpoint run there (a job runs them in the
        // records that follow, a few pages each), so this is what they cost the task thread.
        final List<Double> notifyDurations = new ArrayList<>();
        long largest;
        long largestAt;
        long last;
        long lastAt;
        long heapBefore;
        long heapAfter;
        String before = "";
        String after = "";

        /**
         * The most heap at once of each of the last ten intervals, from a checkpoint's flush to the
         * end of the next (the operator's {@code filterCachePeakBytes}: after each record, within
         * one as the arena and tables grow, and during the flush), over the URLs at its end.
         */
        final double[] peaks = new double[10];

        void take(
                KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h,
                DedupOperator op,
                long id,
                long urls)
                throws Exception {
            // A job's interval (10 s) leaves a background compaction after the last checkpoint
            // time to finish; this loop feeds an interval in a fraction of that. The wait is not
            // the operator's time: a job's compaction runs beside its records.
            long w = System.nanoTime();
            op.awaitCompaction();
            compactionWait += (System.nanoTime() - w) / 1e9;
            heapBefore = op.filterCacheBytes();
            before = op.filterCacheComposition();
            long cpu0 = THREAD_CPU.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            OperatorSubtaskState snap = checkpoint(h, id);
            long n0 = System.nanoTime();
            h.notifyOfCompletedCheckpoint(id);
            double d = (System.nanoTime() - t0) / 1e9;
            threadNanos += THREAD_CPU.getCurrentThreadCpuTime() - cpu0;
            notifyDurations.add((System.nanoTime() - n0) / 1e9);
            heapAfter = op.filterCacheBytes();
            after = op.filterCacheComposition();
            peaks[taken % peaks.length] =
                    (double) op.filterCachePeakBytesLastInterval() / Math.max(1, urls);
            taken++;
            seconds += d;
            durations.add(d);
            last = snap.getStateSize();
            lastAt = urls;
            if (last > largest) {
                largest = last;
                largestAt = urls;
            }
        }

        void print(long every) {
            List<Double> sorted = new ArrayList<>(durations);
            sorted.sort(null);
            List<Double> notified = new ArrayList<>(notifyDurations);
            notified.sort(null);
            System.out.printf(
                    Locale.ROOT,
                    "periodic checkpoints every %,d records: %d taken, durations median %.2f s,"
                            + " slowest %.2f s (of which the checkpoint-complete notification,"
                            + " where the whole writes after a checkpoint run when no record"
                            + " comes first: median %.2f s, slowest %.2f s); largest %,d B ="
                            + " %.2f B/URL at %,d URLs, last %,d B = %.2f B/URL at %,d URLs"
                            + " (full state size); heap at the last: %.2f"
                            + " B/URL just before its flush (%s), %.2f just after (%s); the most"
                            + " heap at once (after any record, and within one as the arena"
                            + " allocates a chunk) between two checkpoints or during the"
                            + " second's flush, over the URLs at the second: %.2f B/URL in the"
                            + " last interval, %.2f at most in the last %d%n",
                    every,
                    taken,
                    sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2),
                    sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1),
                    notified.isEmpty() ? 0 : notified.get(notified.size() / 2),
                    notified.isEmpty() ? 0 : notified.get(notified.size() - 1),
                    largest,
                    (double) largest / Math.max(1, largestAt),
                    largestAt,
                    last,
                    (double) last / Math.max(1, lastAt),
                    lastAt,
                    (double) heapBefore / Math.max(1, lastAt),
                    before,
                    (double) heapAfter / Math.max(1, lastAt),
                    after,
                    peaks[(taken - 1 + peaks.length) % peaks.length],
                    Arrays.stream(peaks).max().orElse(0),
                    Math.min(taken, peaks.length));
        }
    }

    /**
     * Checkpoint {@code id} of {@code h}: the pre-barrier flush, the synchronous snapshot, and the
     * registration of its shared files, as the coordinator would.
     */
    private static OperatorSubtaskState checkpoint(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h, long id)
            throws Exception {
        h.prepareSnapshotPreBarrier(id);
        OperatorSubtaskState snap = h.snapshot(id, id);
        snap.registerSharedStates(REGISTRY, id);
        return snap;
    }

    private static long counter(DedupOperator op, String name) {
        Object v = op.getRuntimeContext().getAccumulator(name).getLocalValue();
        return (Long) v;
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>
            harness(DedupConfig config) throws Exception {
        return harness(config, null);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>
            harness(DedupConfig config, OperatorSubtaskState restore) throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new DedupOperator(config),
                        (CanonicalUrl u) -> u.key,
                        Types.STRING,
                        128,
                        1,
                        0);
        // Flink's own RocksDB options given on the command line, as a job's configuration would.
        Configuration conf = Configuration.fromMap(ROCKSDB_OPTIONS);
        EmbeddedRocksDBStateBackend backend =
                new EmbeddedRocksDBStateBackend(true)
                        .configure(conf, SubtaskSimulation.class.getClassLoader());
        backend.getMemoryConfiguration().setFixedMemoryPerSlot("256mb");
        // The RocksDB options the job sets (its level-0 compaction trigger), as the job would.
        conf.set(FirstSeenOptions.DEDUP_MODE, config.mode());
        conf.set(
                FirstSeenOptions.ROCKSDB_COMPACT_AFTER_CHECKPOINT, config.compactAfterCheckpoint());
        backend.setRocksDBOptions(new SeenSetRocksDBOptions().configure(conf));
        h.setStateBackend(backend);
        // The harness's default storage keeps snapshots in memory, capped at 5 MB.
        Path dir = Files.createTempDirectory("firstseen-sim");
        TEMP_DIRS.add(dir);
        h.setCheckpointStorage(
                new org.apache.flink.runtime.state.storage.FileSystemCheckpointStorage(
                        dir.toUri()));
        h.getExecutionConfig()
                .setGlobalJobParameters(
                        ParameterTool.fromMap(
                                Map.of(FirstSeenMetrics.ACCUMULATORS_PARAMETER, "true")));
        h.setup();
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    /** Where {@code --forget-after-records} starts its clock (epoch ms, 2026-11-18). */
    private static final long CLOCK_START = 1_795_000_000_000L;

    private static CanonicalUrl url(long id, double[] cdf, long timestamp) {
        int key = key(id, cdf);
        String k = "k" + key + ".example";
        String c = "http://" + k + "/p/" + id;
        return new CanonicalUrl(c, c, k, null, new SourcePosition("sim", 0, id, timestamp));
    }

    /** The URL's key: Zipf(1) over the keys, by the inverse CDF of a hash of its id. */
    private static int key(long id, double[] cdf) {
        long h = id * 0x9E3779B97F4A7C15L;
        h ^= h >>> 31;
        return CrawlStream.zipfRank(cdf, (h >>> 11) * 0x1.0p-53);
    }
}
