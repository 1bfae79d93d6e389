package dev.firstseen.bench;

import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.metrics.FirstSeenMetrics;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.RawRecord;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.tools.CommandLine;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.checkpoint.AbstractCheckpointStats;
import org.apache.flink.runtime.checkpoint.CheckpointStatsStatus;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.util.MiniClusterWithClientResource;
import org.apache.flink.util.ParameterTool;

/**
 * The scale run: how FirstSeen's throughput and state grow with the number of URLs it has seen. The
 * real pipeline (decode, canonicalize, key, dedup, exact mode unless told; RocksDB with incremental
 * checkpoints) runs on a MiniCluster, fed by a generator instead of Kafka, because the question is
 * how the dedup cost changes as state grows to tens of millions of URLs; the Kafka cost per record
 * does not change with it, and loading 100 M records into a local broker first would need ~8 GB of
 * disk and ten minutes. Every {@code --sample} seconds it records URLs seen, records/s in that
 * window, RocksDB working-directory bytes and checkpoint-directory bytes; at the end it checks the
 * first-seen count against the generator's, prints a table and draws a PNG.
 *
 * <p>Input: record {@code i} is a new URL when {@code i} is odd (so distinct = records / 2); an
 * even {@code i} repeats an earlier URL, half the time one of the previous 10,000 (links between
 * neighbouring pages) and half the time any earlier one (the hard case: L1 misses, the Bloom filter
 * says "maybe", RocksDB is read). URLs spread over 20,000 domains.
 *
 * <p>Run: {@code scripts/scale} with the options of {@link #USAGE}, e.g. {@code
 * --firstseen.dedup.mode approximate}; {@code --managed-memory} is the TaskManager's managed memory
 * (RocksDB block cache and write buffers of all slots); {@code --job naive} runs the end-to-end
 * harness's naive baseline (a {@code ValueState<Boolean>} per canonical URL) on the same stream. A
 * documented long run, not part of CI. {@code --max-minutes} cancels the job after that long and
 * summarizes what it saw; {@code --replot} redraws the plot and summary of a saved output. {@code
 * --sst-summary} keeps every checkpoint and prints the largest one's bytes by column family.
 */
public final class ScaleRun {
    static final AtomicLong IN = new AtomicLong();
    static final AtomicLong FIRST_SEEN = new AtomicLong();

    /** {@code --max-minutes}: the job is cancelled after this long; 0 runs it to the end. */
    private static long maxSeconds;

    private static boolean stoppedEarly;

    /**
     * {@code --sst-summary}: keep every checkpoint (on local disk: with compaction after each
     * checkpoint, each holds its own copy of the state) and break the largest down by column
     * family.
     */
    static boolean sstSummary;

    /**
     * Where {@code --sst-summary} keeps hard links to the checkpoints' files as they appear: a
     * bounded job's checkpoints are discarded when it finishes, whatever the retention setting.
     */
    private static final String KEPT_CHECKPOINTS = "kept-checkpoints";

    private static final int DOMAINS = 20_000;

    /** One sample. */
    record Sample(
            double seconds,
            long records,
            long urlsSeen,
            double rate,
            long rocksDb,
            long chk,
            boolean steady) {}

    /** The command line; {@code main} refuses an option it does not name. */
    static final String USAGE =
            "Usage: scripts/scale [--distinct 50000000] [--parallelism 2] [--sample 10]"
                    + " [--job firstseen|naive] [--managed-memory 1g] [--max-minutes N]"
                    + " [--sst-summary] [--firstseen.<job option> value] [--out target/scale.png]"
                    + " [--work target/scale-work]\n"
                    + "       scripts/scale --replot saved-output.txt [--out plot.png]";

    public static void main(String[] args) throws Exception {
        ParameterTool p = CommandLine.parse(args, USAGE);
        long distinct = p.getLong("distinct", 50_000_000L);
        int parallelism = p.getInt("parallelism", 2);
        int sampleSeconds = p.getInt("sample", 10);
        String job = p.get("job", "firstseen");
        if (!job.equals("firstseen") && !job.equals("naive")) {
            throw new IllegalArgumentException("--job is firstseen or naive, not " + job);
        }
        String managed = p.get("managed-memory", "1g");
        Map<String, String> options = EndToEndHarness.firstSeenOptions(p);
        Path work = Path.of(p.get("work", "target/scale-work")).toAbsolutePath();
        Path png = Path.of(p.get("out", "target/scale.png")).toAbsolutePath();
        if (p.has("replot")) {
            // A saved run's output, e.g. one stopped by hand: its samples, summary and plot.
            List<Sample> samples = parseSamples(Files.readAllLines(Path.of(p.get("replot"))));
            summarize(samples, lastUrlsSeen(samples), System.out);
            draw(samples, png);
            System.out.println("plot: " + png);
            return;
        }
        maxSeconds = p.getLong("max-minutes", 0) * 60;
        sstSummary = p.has("sst-summary");
        freshWork(work);
        List<Sample> samples =
                run(job, distinct, parallelism, sampleSeconds, managed, options, work, System.out);
        draw(samples, png);
        System.out.println("plot: " + png);
        deleteTree(work);
        System.exit(stoppedEarly || countsHold(FIRST_SEEN.get(), distinct, options) ? 0 : 1);
    }

    /**
     * Exact mode and the naive job emit every distinct URL once; approximate mode may drop a few
     * new URLs (Bloom false positives) but never emits more than the distinct count.
     */
    static boolean countsHold(long firstSeen, long distinct, Map<String, String> options) {
        boolean approximate =
                "approximate".equalsIgnoreCase(options.getOrDefault("dedup.mode", "exact"));
        return approximate ? firstSeen <= distinct : firstSeen == distinct;
    }

    static List<Sample> run(
            String job,
            long distinct,
            int parallelism,
            int sampleSeconds,
            String managedMemory,
            Map<String, String> firstseenOptions,
            Path work,
            PrintStream out)
            throws Exception {
        long records = distinct * 2;
        Configuration cluster = new Configuration();
        cluster.setString("state.backend.type", "rocksdb");
        cluster.setString("execution.checkpointing.incremental", "true");
        cluster.setString(
                "execution.checkpointing.dir", work.resolve("checkpoints").toUri().toString());
        cluster.setString("io.tmp.dirs", work.resolve("tmp").toString());
        cluster.setString("state.backend.rocksdb.localdir", work.resolve("rocksdb").toString());
        cluster.setString("rest.bind-address", "127.0.0.1");
        cluster.setString("taskmanager.memory.managed.size", managedMemory);
        // Checkpoint and state-backend options go to the cluster too: set only on the job, the
        // cluster's incremental setting above won (a 50 M run "without" incremental checkpoints
        // had a checkpoint directory as large as RocksDB's).
        firstseenOptions.forEach(
                (k, v) -> {
                    if (k.startsWith("execution.checkpointing.") || k.startsWith("state.")) {
                        cluster.setString(k, v);
                    }
                });
        if (sstSummary) {
            // None subsumed while the job runs, so that a sample's links catch every one.
            cluster.setString("execution.checkpointing.num-retained", "1000");
        }
        MiniClusterWithClientResource flink =
                new MiniClusterWithClientResource(
                        new MiniClusterResourceConfiguration.Builder()
                                .setNumberTaskManagers(1)
                                .setNumberSlotsPerTaskManager(parallelism)
                                .setConfiguration(cluster)
                                .build());
        flink.before();
        List<Sample> samples = new ArrayList<>();
        try {
            Configuration conf = new Configuration();
            conf.setString("kafka.bootstrap-servers", "unused:1");
            conf.setString("input.topics", "generated");
            conf.setString("frontier.topic", "discarded");
            conf.setString("dead-letter.topic", "discarded-dead-letters");
            conf.setString("execution.checkpointing.interval", "10 s");
            // The input is a bounded sequence, not a bounded Kafka source, so the job would not
            // turn its counters into accumulators by itself, and L3 reads and rebuilds would
            // print as 0 (as they did in every scale run up to 2026-11-23 14:27 UTC).
            conf.setString("metrics.accumulators", "true");
            firstseenOptions.forEach(conf::setString);
            FirstSeenSettings settings = FirstSeenSettings.from(conf);
            StreamExecutionEnvironment env = EndToEndHarness.environment(flink, conf, parallelism);
            DataStream<RawRecord> input =
                    env.fromSequence(0, records - 1)
                            .map(new Generate())
                            .returns(TypeInformation.of(RawRecord.class));
            if (job.equals("naive")) {
                // The baseline of the end-to-end harness: canonical URL as the key, a
                // ValueState<Boolean> per URL in RocksDB.
                input.flatMap(new EndToEndHarness.DecodeCanonical(settings), Types.STRING)
                        .keyBy(c -> c, Types.STRING)
                        .process(new EndToEndHarness.NaiveDedup(), Types.STRING)
                        .sinkTo(new CountingSink<String>(true));
            } else {
                FirstSeenJob.Outputs outputs = FirstSeenJob.pipeline(settings, input);
                outputs.frontier().sinkTo(new CountingSink<FrontierRecord>(true));
                outputs.deadLetters().sinkTo(new CountingSink<DeadLetter>(false));
            }
            IN.set(0);
            FIRST_SEEN.set(0);
            long start = System.nanoTime();
            long startMillis = System.currentTimeMillis();
            JobClient client = env.executeAsync("scale run: " + job);
            out.printf(
                    Locale.ROOT,
                    "%8s %14s %14s %12s %14s %14s%n",
                    "seconds",
                    "records",
                    "URLs seen",
                    "records/s",
                    "RocksDB bytes",
                    "checkpoints");
            long lastIn = 0;
            long lastT = start;
            long nextSample = start;
            while (!client.getJobStatus().get().isTerminalState()) {
                // Short waits, so that the end of the job is seen within a tenth of a second
                // instead of at the next sample: the overall rate is not rounded to a sample.
                nextSample += sampleSeconds * 1_000_000_000L;
                while (System.nanoTime() < nextSample
                        && !client.getJobStatus().get().isTerminalState()) {
                    Thread.sleep(
                            Math.max(
                                    1,
                                    Math.min(100, (nextSample - System.nanoTime()) / 1_000_000)));
                }
                long now = System.nanoTime();
                long in = IN.get();
                Sample s =
                        new Sample(
                                (now - start) / 1e9,
                                in,
                                FIRST_SEEN.get(),
                                (in - lastIn) / ((now - lastT) / 1e9),
                                bytesUnder(work.resolve("rocksdb")),
                                bytesUnder(work.resolve("checkpoints")),
                                // Windows that saw the start or the end of the input are not
                                // steady state: leave them out of rates.
                                lastIn > 0 && in < records);
                lastIn = in;
                lastT = now;
                samples.add(s);
                if (sstSummary) {
                    keepLinks(work.resolve("checkpoints"), work.resolve(KEPT_CHECKPOINTS));
                }
                out.printf(
                        Locale.ROOT,
                        "%8.0f %,14d %,14d %,12.0f %,14d %,14d%n",
                        s.seconds(),
                        s.records(),
                        s.urlsSeen(),
                        s.rate(),
                        s.rocksDb(),
                        s.chk());
                if (maxSeconds > 0 && s.seconds() >= maxSeconds && in < records) {
                    stoppedEarly = true;
                    out.printf(
                            Locale.ROOT,
                            "stopped by --max-minutes after %.0f s with %,d of %,d distinct URLs"
                                    + " seen; the job is cancelled and its counts not checked%n",
                            s.seconds(),
                            s.urlsSeen(),
                            distinct);
                    client.cancel().get();
                    summarize(samples, s.urlsSeen(), out);
                    return samples;
                }
            }
            JobExecutionResult result = client.getJobExecutionResult().get();
            double seconds = (System.nanoTime() - start) / 1e9;
            out.printf(
                    Locale.ROOT,
                    "%,d records in %.1f s = %,.0f records/s overall; first-seen %,d of %,d"
                            + " distinct (%s; %,d not emitted = %.2e, %,.1f expected by the job);"
                            + " L3 reads %,d, Bloom false positives caught %,d%n",
                    IN.get(),
                    seconds,
                    IN.get() / seconds,
                    FIRST_SEEN.get(),
                    distinct,
                    countsHold(FIRST_SEEN.get(), distinct, firstseenOptions)
                            ? "as expected"
                            : "WRONG",
                    distinct - FIRST_SEEN.get(),
                    (distinct - FIRST_SEEN.get()) / (double) distinct,
                    EndToEndHarness.getDouble(
                            result.getAllAccumulatorResults(),
                            FirstSeenMetrics.EXPECTED_FALSE_POSITIVES),
                    (Long) result.getAllAccumulatorResults().getOrDefault("l3Reads", 0L),
                    (Long)
                            result.getAllAccumulatorResults()
                                    .getOrDefault("falsePositivesCaught", 0L));
            if (job.equals("firstseen")) {
                Map<String, Object> acc = result.getAllAccumulatorResults();
                out.println(EndToEndHarness.filterHeap(acc, FIRST_SEEN.get()));
                out.printf(
                        Locale.ROOT,
                        "longest record in the dedup operator: %,d µs, of which rebuild work at"
                                + " most %,d µs (largest over its subtasks); %,d filter rebuilds"
                                + " read %,d exact-store entries%n",
                        EndToEndHarness.get(acc, FirstSeenMetrics.LONGEST_RECORD_MICROS),
                        EndToEndHarness.get(acc, FirstSeenMetrics.LONGEST_REBUILD_MICROS),
                        EndToEndHarness.get(acc, FirstSeenMetrics.FILTER_REBUILDS),
                        EndToEndHarness.get(acc, FirstSeenMetrics.FILTER_REBUILD_READS));
                out.println(EndToEndHarness.pageWrites(acc, FIRST_SEEN.get()));
            }
            largestCheckpoint(flink, result, samples, startMillis, records, work, out);
            summarize(samples, distinct, out);
        } finally {
            flink.after();
        }
        return samples;
    }

    /**
     * Prints the largest completed checkpoint in Flink's recent history (its full state size, as
     * the web UI shows it: with incremental checkpoints, every SST file it refers to, stale page
     * versions included) per URL seen when it was triggered, among those triggered while the input
     * still flowed, and apart from them the largest after it ended: when the bounded input runs
     * out, the tasks finish and their last checkpoint holds the pages {@code finish()} wrote, which
     * a streaming job never takes. The checkpoint directory, sampled above, also holds the
     * checkpoint in flight and files only older checkpoints refer to.
     */
    private static void largestCheckpoint(
            MiniClusterWithClientResource flink,
            JobExecutionResult result,
            List<Sample> samples,
            long startMillis,
            long records,
            Path work,
            PrintStream out)
            throws Exception {
        List<AbstractCheckpointStats> history =
                flink.getMiniCluster()
                        .getArchivedExecutionGraph(result.getJobID())
                        .get()
                        .getCheckpointStatsSnapshot()
                        .getHistory()
                        .getCheckpoints();
        double flowing = 0; // the last sample that saw the input still flowing
        for (Sample s : samples) {
            if (s.records() < records) {
                flowing = s.seconds();
            }
        }
        AbstractCheckpointStats during = null;
        AbstractCheckpointStats after = null;
        List<AbstractCheckpointStats> flowed = new ArrayList<>();
        for (AbstractCheckpointStats c : history) {
            if (c.getStatus() != CheckpointStatsStatus.COMPLETED) {
                continue;
            }
            if ((c.getTriggerTimestamp() - startMillis) / 1e3 <= flowing) {
                during = larger(during, c);
                flowed.add(c);
            } else {
                after = larger(after, c);
            }
        }
        if (during == null && after == null) {
            out.println("no completed checkpoint in Flink's history");
            return;
        }
        if (during != null) {
            printCheckpoint(
                    "largest completed checkpoint while the input flowed (of the last "
                            + history.size()
                            + ")",
                    during,
                    samples,
                    startMillis,
                    out);
            if (sstSummary) {
                // The largest whose files a sample kept: one that completed after the last
                // sample was discarded with the job before a link was made.
                flowed.sort((a, b) -> Long.compare(b.getStateSize(), a.getStateSize()));
                boolean printed = false;
                for (AbstractCheckpointStats c : flowed) {
                    if (printSstSummary(c, c == during, samples, startMillis, work, out)) {
                        printed = true;
                        break;
                    }
                }
                if (!printed) {
                    out.println("no checkpoint's files were kept for the SST summary");
                }
            }
        }
        if (after != null) {
            printCheckpoint(
                    "largest checkpoint after the input ended", after, samples, startMillis, out);
        }
    }

    /**
     * {@code c}'s files by column family ({@link SstSummary}), read from the links kept to its
     * files; its total is checked against the full state size Flink reported. False, printing
     * nothing, if its files were not kept.
     */
    private static boolean printSstSummary(
            AbstractCheckpointStats c,
            boolean largest,
            List<Sample> samples,
            long startMillis,
            Path work,
            PrintStream out)
            throws Exception {
        String pointer = ((CompletedCheckpointStats) c).getExternalPath();
        Path checkpoints = work.resolve("checkpoints");
        Path kept = work.resolve(KEPT_CHECKPOINTS);
        UnaryOperator<Path> relocate = p -> kept.resolve(checkpoints.relativize(p));
        Path metadata = relocate.apply(Path.of(URI.create(pointer))).resolve("_metadata");
        if (!Files.exists(metadata)) {
            return false;
        }
        CheckpointMetadata m;
        try (DataInputStream in = new DataInputStream(Files.newInputStream(metadata))) {
            m = Checkpoints.loadCheckpointMetadata(in, ScaleRun.class.getClassLoader(), pointer);
        }
        List<OperatorSubtaskState> subtasks = new ArrayList<>();
        for (OperatorState operator : m.getOperatorStates()) {
            subtasks.addAll(operator.getStates());
        }
        Map<String, SstSummary.Family> byFamily = SstSummary.of(subtasks, relocate);
        double at = (c.getTriggerTimestamp() - startMillis) / 1e3;
        SstSummary.print(
                "checkpoint "
                        + c.getCheckpointId()
                        + (largest ? "" : " (the largest whose files a sample kept)"),
                byFamily,
                urlsSeenAt(samples, at),
                out);
        long total = byFamily.values().stream().mapToLong(f -> f.fileBytes).sum();
        if (total != c.getStateSize()) {
            out.printf(
                    Locale.ROOT,
                    "(the summary's %,d bytes differ from the %,d Flink reported)%n",
                    total,
                    c.getStateSize());
        }
        return true;
    }

    /** Empties {@code work} and makes the directories {@link #run} writes to. */
    static void freshWork(Path work) throws IOException {
        deleteTree(work);
        Files.createDirectories(work.resolve("tmp"));
        Files.createDirectories(work.resolve("rocksdb"));
        Files.createDirectories(work.resolve("checkpoints"));
    }

    /** Hard-links every file under {@code from} not yet under {@code to} there: no bytes copied. */
    static void keepLinks(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return;
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                Path link = to.resolve(from.relativize(f));
                if (Files.exists(link)) {
                    continue;
                }
                Files.createDirectories(link.getParent());
                try {
                    Files.createLink(link, f);
                } catch (NoSuchFileException e) {
                    // deleted between the walk and the link: a discarded checkpoint's file
                }
            }
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof NoSuchFileException)) {
                throw e;
            }
        }
    }

    private static AbstractCheckpointStats larger(
            AbstractCheckpointStats a, AbstractCheckpointStats b) {
        return a == null || b.getStateSize() > a.getStateSize() ? b : a;
    }

    private static void printCheckpoint(
            String what,
            AbstractCheckpointStats c,
            List<Sample> samples,
            long startMillis,
            PrintStream out) {
        double at = (c.getTriggerTimestamp() - startMillis) / 1e3;
        double urls = urlsSeenAt(samples, at);
        out.printf(
                Locale.ROOT,
                "%s: %,d bytes full state size, triggered at %.0f s with about %,.0f URLs seen ="
                        + " %.2f bytes per URL%n",
                what,
                c.getStateSize(),
                at,
                urls,
                c.getStateSize() / Math.max(1, urls));
    }

    /** URLs seen {@code seconds} after the start, interpolated between samples. */
    static double urlsSeenAt(List<Sample> samples, double seconds) {
        double t0 = 0;
        double u0 = 0;
        for (Sample s : samples) {
            if (s.seconds() >= seconds) {
                double f = (seconds - t0) / Math.max(1e-9, s.seconds() - t0);
                return u0 + f * (s.urlsSeen() - u0);
            }
            t0 = s.seconds();
            u0 = s.urlsSeen();
        }
        return u0;
    }

    /** URLs seen at the last sample. */
    static long lastUrlsSeen(List<Sample> samples) {
        return samples.isEmpty() ? 0 : samples.get(samples.size() - 1).urlsSeen();
    }

    /**
     * The samples of a saved run's output: its table rows (seconds, records, URLs seen, records/s,
     * RocksDB bytes, checkpoint bytes). The first row saw the start and is not steady state. Meant
     * for runs stopped by hand: the last row of a finished run saw the end too.
     */
    static List<Sample> parseSamples(List<String> lines) {
        List<Sample> samples = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 6 || !f[0].matches("[0-9]+")) {
                continue;
            }
            long[] v = new long[6];
            for (int i = 0; i < 6; i++) {
                String n = f[i].replace(",", "");
                if (!n.matches("[0-9]+")) {
                    v = null;
                    break;
                }
                v[i] = Long.parseLong(n);
            }
            if (v != null) {
                samples.add(new Sample(v[0], v[1], v[2], v[3], v[4], v[5], !samples.isEmpty()));
            }
        }
        return samples;
    }

    /** Throughput near 1 M URLs seen against throughput near the end. */
    private static void summarize(List<Sample> samples, long distinct, PrintStream out) {
        // Sampling every few seconds cannot resolve exactly 1 M URLs: the early figure is the
        // mean over the steady windows between 1 M and 10 M URLs seen.
        double early = meanRate(samples, 1_000_000, Math.min(10_000_000, distinct / 2));
        double late = meanRate(samples, (long) (distinct * 0.8), distinct);
        if (Double.isNaN(early) || Double.isNaN(late)) {
            out.println("too few steady samples for the early/late comparison: lower --sample");
            return;
        }
        out.printf(
                Locale.ROOT,
                "records/s between 1 M and 10 M URLs seen: %,.0f; over the last 20%% (%,d to %,d"
                        + " URLs): %,.0f; ratio %.2f%n",
                early,
                (long) (distinct * 0.8),
                distinct,
                late,
                late / early);
    }

    private static double meanRate(List<Sample> samples, long from, long to) {
        double sum = 0;
        int n = 0;
        for (Sample s : samples) {
            if (s.urlsSeen() >= from && s.urlsSeen() <= to && s.steady()) {
                sum += s.rate();
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** Record i of the generated stream; see the class comment. */
    static final class Generate implements MapFunction<Long, RawRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public RawRecord map(Long i) {
            IN.incrementAndGet();
            long url;
            if ((i & 1) == 1) {
                url = i >>> 1;
            } else {
                long newest = i >>> 1; // URLs 0 .. newest-1 were introduced before i
                long h = mix(i);
                if (newest == 0) {
                    url = 0;
                } else if ((h & 1) == 0) {
                    url = newest - 1 - Long.remainderUnsigned(h >>> 1, Math.min(newest, 10_000));
                } else {
                    url = Long.remainderUnsigned(h >>> 1, newest);
                }
            }
            byte[] value = urlOf(url).getBytes(StandardCharsets.UTF_8);
            return new RawRecord(value, new SourcePosition("generated", 0, i, -1L));
        }

        static String urlOf(long url) {
            long domain = Long.remainderUnsigned(mix(url), DOMAINS);
            return "https://www.site"
                    + domain
                    + ".com/section"
                    + (url % 97)
                    + "/page-"
                    + url
                    + ".html";
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
            z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
            return z ^ (z >>> 33);
        }
    }

    /** Counts first-seen URLs (or nothing) and drops the records. */
    static final class CountingSink<T> implements Sink<T> {
        private static final long serialVersionUID = 1L;
        private final boolean count;

        CountingSink(boolean count) {
            this.count = count;
        }

        @Override
        public SinkWriter<T> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(T element, Context ctx) {
                    if (count) {
                        FIRST_SEEN.incrementAndGet();
                    }
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    static long bytesUnder(Path dir) {
        // Flink's RocksDB snapshots hard-link the live SST files into a chk-N directory beside
        // them until they are uploaded; a file counts once however many names it has.
        Set<Object> seen = new HashSet<>();
        try (Stream<Path> files = Files.walk(dir)) {
            return files.mapToLong(
                            f -> {
                                try {
                                    BasicFileAttributes a =
                                            Files.readAttributes(f, BasicFileAttributes.class);
                                    Object id = a.fileKey() != null ? a.fileKey() : f;
                                    return a.isRegularFile() && seen.add(id) ? a.size() : 0;
                                } catch (IOException gone) {
                                    return 0; // deleted while walking (compaction, cleanup)
                                }
                            })
                    .sum();
        } catch (IOException | UncheckedIOException e) {
            return -1;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount())
                    .forEach(f -> f.toFile().delete());
        }
    }

    /** Two stacked charts against URLs seen: records/s, and state bytes per distinct URL. */
    static void draw(List<Sample> samples, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int w = 900;
        int h = 700;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        double maxUrls = samples.stream().mapToLong(Sample::urlsSeen).max().orElse(1);
        List<double[]> rate = new ArrayList<>();
        List<double[]> rocks = new ArrayList<>();
        List<double[]> chk = new ArrayList<>();
        for (Sample s : samples) {
            if (s.urlsSeen() <= 0 || !s.steady()) {
                continue;
            }
            double m = s.urlsSeen() / 1e6;
            rate.add(new double[] {m, s.rate() / 1e3});
            rocks.add(new double[] {m, (double) s.rocksDb() / s.urlsSeen()});
            chk.add(new double[] {m, (double) s.chk() / s.urlsSeen()});
        }
        chart(
                g,
                70,
                40,
                w - 110,
                260,
                "records/s (thousands) vs. URLs seen (millions)",
                maxUrls / 1e6,
                List.of(rate),
                List.of(new Color(31, 119, 180)),
                List.of("records/s"));
        chart(
                g,
                70,
                380,
                w - 110,
                260,
                "state bytes per URL seen vs. URLs seen (millions)",
                maxUrls / 1e6,
                List.of(rocks, chk),
                List.of(new Color(214, 39, 40), new Color(44, 160, 44)),
                List.of("RocksDB working directory", "checkpoint directory"));
        g.dispose();
        Files.createDirectories(png.getParent());
        ImageIO.write(img, "png", new File(png.toString()));
    }

    private static void chart(
            Graphics2D g,
            int x0,
            int y0,
            int cw,
            int ch,
            String title,
            double maxX,
            List<List<double[]>> series,
            List<Color> colors,
            List<String> names) {
        double maxY = 0;
        for (List<double[]> s : series) {
            for (double[] pt : s) {
                maxY = Math.max(maxY, pt[1]);
            }
        }
        maxY = maxY <= 0 ? 1 : maxY * 1.1;
        g.setColor(Color.BLACK);
        g.drawString(title, x0, y0 - 10);
        g.drawRect(x0, y0, cw, ch);
        for (int t = 0; t <= 5; t++) {
            int y = y0 + ch - t * ch / 5;
            int x = x0 + t * cw / 5;
            g.setColor(new Color(230, 230, 230));
            g.drawLine(x0 + 1, y, x0 + cw - 1, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, "%.1f", maxY * t / 5), x0 - 45, y + 4);
            g.drawString(String.format(Locale.ROOT, "%.0f", maxX * t / 5), x - 8, y0 + ch + 16);
        }
        g.setStroke(new BasicStroke(2f));
        for (int i = 0; i < series.size(); i++) {
            g.setColor(colors.get(i));
            int px = -1;
            int py = -1;
            for (double[] pt : series.get(i)) {
                int x = x0 + (int) (pt[0] / maxX * cw);
                int y = y0 + ch - (int) (pt[1] / maxY * ch);
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                px = x;
                py = y;
            }
            g.drawString(names.get(i), x0 + cw - 220, y0 + 20 + 16 * i);
        }
        g.setStroke(new BasicStroke(1f));
    }
}
