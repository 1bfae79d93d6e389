package dev.firstseen.tools;

import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.metrics.FirstSeenMetrics;
import java.io.File;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Runs FirstSeen in a local Flink (MiniCluster) with RocksDB and checkpoints, shows a progress line
 * while it runs (input offsets committed by the job against the end of the input), and prints a
 * summary when a bounded run finishes. Takes the same {@code --key value} options as the job; local
 * defaults apply where they are not given. Ctrl-C cancels the job.
 */
public final class LocalRun {
    private LocalRun() {}

    /** Defaults for a laptop; each can be overridden with --key value. */
    static Configuration localDefaults(Configuration given) {
        Configuration c = new Configuration();
        c.setString("kafka.bootstrap-servers", "127.0.0.1:19092");
        c.setString("state.backend.type", "rocksdb");
        // Incremental, as in every measured run (docs/). The short interval is for the demo's
        // latency: the frontier is committed on checkpoints. Not a throughput setting, and not
        // measured as one; clusters use flink-conf/config.yaml's 10 s.
        c.setString("execution.checkpointing.incremental", "true");
        c.setString("execution.checkpointing.interval", "2 s");
        c.setString(
                "execution.checkpointing.dir",
                new File(".local/checkpoints").getAbsoluteFile().toURI().toString());
        c.setString("parallelism.default", "2");
        c.setString("restart-strategy.type", "fixed-delay");
        c.setString("restart-strategy.fixed-delay.attempts", "5");
        c.setString("restart-strategy.fixed-delay.delay", "2 s");
        c.setString("rest.bind-address", "127.0.0.1");
        c.setString("rest.address", "127.0.0.1");
        c.setString("taskmanager.host", "127.0.0.1");
        c.setString("jobmanager.bind-host", "127.0.0.1");
        c.setString("taskmanager.bind-host", "127.0.0.1");
        c.addAll(given);
        return c;
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = localDefaults(FirstSeenJob.parseArgs(args));
        FirstSeenSettings settings = ToolArgs.settingsOrExit(conf);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        FirstSeenJob.withJobDefaults(conf));
        FirstSeenJob.onKafka(settings).build(env);
        long start = System.nanoTime();
        JobClient client = env.executeAsync("FirstSeen (local)");
        Thread cancel =
                new Thread(
                        () -> {
                            try {
                                client.cancel().get(10, TimeUnit.SECONDS);
                            } catch (Exception ignored) {
                                // the job has already finished
                            }
                        });
        Runtime.getRuntime().addShutdownHook(cancel);
        System.err.printf(
                Locale.ROOT,
                "FirstSeen running locally: %s -> %s (dead letters: %s), job %s%n",
                settings.inputTopics(),
                settings.frontierTopic(),
                settings.deadLetterTopic(),
                client.getJobID());
        // A local MiniCluster shuts down with its job, so watch the result, not the status.
        CompletableFuture<JobExecutionResult> done = client.getJobExecutionResult();
        boolean tty = System.console() != null;
        try (Admin admin =
                Admin.create(
                        Map.of(
                                "bootstrap.servers",
                                settings.bootstrapServers(),
                                "request.timeout.ms",
                                "5000"))) {
            Map<TopicPartition, Long> end = endOffsets(admin, settings);
            long total = end.values().stream().mapToLong(Long::longValue).sum();
            while (!done.isDone()) {
                long committed = committed(admin, settings.groupId(), end);
                System.err.printf(
                        Locale.ROOT,
                        "%s  [%5.1fs] input committed by checkpoints: %,d / %,d%s%s",
                        tty ? "\r" : "",
                        (System.nanoTime() - start) / 1e9,
                        committed,
                        total,
                        total == 0
                                ? ""
                                : String.format(
                                        Locale.ROOT, " (%.0f%%)", 100.0 * committed / total),
                        tty ? "   " : "\n");
                try {
                    done.get(tty ? 1 : 3, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    // keep reporting
                }
            }
        }
        if (tty) {
            System.err.println();
        }
        JobExecutionResult result = done.get();
        Runtime.getRuntime().removeShutdownHook(cancel);
        System.out.print(
                summary(result.getAllAccumulatorResults(), (System.nanoTime() - start) / 1e9));
    }

    private static Map<TopicPartition, Long> endOffsets(Admin admin, FirstSeenSettings s)
            throws Exception {
        Map<TopicPartition, OffsetSpec> req = new TreeMap<>(LocalRun::compare);
        for (var d : admin.describeTopics(s.inputTopics()).allTopicNames().get().values()) {
            d.partitions()
                    .forEach(
                            p ->
                                    req.put(
                                            new TopicPartition(d.name(), p.partition()),
                                            OffsetSpec.latest()));
        }
        Map<TopicPartition, Long> end = new TreeMap<>(LocalRun::compare);
        for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e :
                admin.listOffsets(req).all().get().entrySet()) {
            end.put(e.getKey(), e.getValue().offset());
        }
        return end;
    }

    private static long committed(Admin admin, String group, Map<TopicPartition, Long> end) {
        try {
            Map<TopicPartition, OffsetAndMetadata> c =
                    admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get(5, TimeUnit.SECONDS);
            long n = 0;
            for (TopicPartition tp : end.keySet()) {
                OffsetAndMetadata o = c.get(tp);
                n += o == null ? 0 : Math.min(o.offset(), end.get(tp));
            }
            return n;
        } catch (Exception e) {
            return 0;
        }
    }

    private static int compare(TopicPartition a, TopicPartition b) {
        int t = a.topic().compareTo(b.topic());
        return t != 0 ? t : Integer.compare(a.partition(), b.partition());
    }

    /** The run's totals, from the counters' accumulators. */
    static String summary(Map<String, Object> acc, double seconds) {
        long in = get(acc, FirstSeenMetrics.RECORDS_IN);
        long first = get(acc, FirstSeenMetrics.FIRST_SEEN);
        long dup = get(acc, FirstSeenMetrics.DUPLICATES);
        Map<String, Long> dead = new TreeMap<>();
        acc.forEach(
                (k, v) -> {
                    if (k.startsWith(FirstSeenMetrics.DEAD_LETTERS + ".")) {
                        String reason = k.substring(FirstSeenMetrics.DEAD_LETTERS.length() + 1);
                        reason = reason.substring(0, reason.lastIndexOf('.'));
                        dead.merge(reason, (Long) v, Long::sum);
                    }
                });
        long deadTotal = dead.values().stream().mapToLong(Long::longValue).sum();
        long l1 = get(acc, FirstSeenMetrics.L1_HITS);
        long l2New = get(acc, FirstSeenMetrics.L2_DEFINITELY_NEW);
        long l2Maybe = get(acc, FirstSeenMetrics.L2_MAYBE);
        long l3 = get(acc, FirstSeenMetrics.L3_READS);
        long fp = get(acc, FirstSeenMetrics.FALSE_POSITIVES_CAUGHT);
        StringBuilder sb = new StringBuilder();
        sb.append(
                String.format(
                        Locale.ROOT,
                        "FirstSeen summary (%.1f s, %,.0f records/s)%n",
                        seconds,
                        in / seconds));
        sb.append(String.format(Locale.ROOT, "  records in             %,12d%n", in));
        sb.append(
                String.format(
                        Locale.ROOT,
                        "  first-seen (frontier)  %,12d  %s%n",
                        first,
                        pct(first, in)));
        sb.append(
                String.format(
                        Locale.ROOT, "  duplicates             %,12d  %s%n", dup, pct(dup, in)));
        sb.append(
                String.format(
                        Locale.ROOT,
                        "  dead letters           %,12d  %s%n",
                        deadTotal,
                        pct(deadTotal, in)));
        dead.forEach((r, n) -> sb.append(String.format(Locale.ROOT, "      %-20s %,10d%n", r, n)));
        sb.append(
                String.format(
                        Locale.ROOT,
                        "  L1 recent-cache hits   %,12d  %s of duplicates%n",
                        l1,
                        pct(l1, dup)));
        // The layers' counters keep the names of the entries store's Bloom filter (README,
        // Metrics); the lines say what they count with every store and filter.
        sb.append(
                String.format(
                        Locale.ROOT, "  L2 filter said new     %,12d  (no RocksDB read)%n", l2New));
        sb.append(
                String.format(
                        Locale.ROOT,
                        "  L2 filter said seen    %,12d  (with the entries store a Bloom maybe; otherwise"
                                + " dropped as seen)%n",
                        l2Maybe));
        sb.append(
                String.format(
                        Locale.ROOT,
                        "  L3 exact-store reads   %,12d  (Bloom false positives caught: %,d of the"
                                + " %,d first-seen URLs)%n",
                        l3,
                        fp,
                        first));
        Object expected = acc.get(FirstSeenMetrics.EXPECTED_FALSE_POSITIVES);
        if (expected instanceof Double e && e > 0) { // approximate mode: none dropped in exact
            sb.append(
                    String.format(
                            Locale.ROOT,
                            "  expected dropped       %,14.1f  (approximate mode: new URLs taken for"
                                    + " seen at the rates they met)%n",
                            e));
        }
        sb.append(
                String.format(
                        Locale.ROOT,
                        "  filter pages written   %,12d   loaded %,d%n",
                        get(acc, FirstSeenMetrics.PAGES_FLUSHED),
                        get(acc, FirstSeenMetrics.PAGES_LOADED)));
        long forced = get(acc, FirstSeenMetrics.OPS_FORCED);
        long marked = get(acc, FirstSeenMetrics.OPS_MARKED_SEEN);
        long forgotten = get(acc, FirstSeenMetrics.OPS_FORGOTTEN);
        long keys = get(acc, FirstSeenMetrics.OPS_KEYS_FORGOTTEN);
        long revisits = get(acc, FirstSeenMetrics.REVISITS);
        if (forced + marked + forgotten + keys + revisits > 0) {
            sb.append(
                    String.format(
                            Locale.ROOT,
                            "  ops: forced %,d, marked seen %,d, forgotten %,d, keys forgotten %,d;"
                                    + " revisits %,d%n",
                            forced,
                            marked,
                            forgotten,
                            keys,
                            revisits));
        }
        return sb.toString();
    }

    private static long get(Map<String, Object> acc, String name) {
        Object v = acc.get(name);
        return v instanceof Long ? (Long) v : 0L;
    }

    private static String pct(long a, long b) {
        return b == 0 ? "" : String.format(Locale.ROOT, "(%.1f%%)", 100.0 * a / b);
    }
}
