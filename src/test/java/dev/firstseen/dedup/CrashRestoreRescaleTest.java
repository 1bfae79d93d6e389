package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.builder;
import static dev.firstseen.dedup.DedupOperatorTest.checkpointAll;
import static dev.firstseen.dedup.DedupOperatorTest.processAtItsTime;
import static dev.firstseen.dedup.DedupOperatorTest.subtaskOf;
import static dev.firstseen.dedup.DedupOperatorTest.url;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.Op;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dedup operator on RocksDB (and, in two cases, on the heap backend) under a seeded random
 * schedule of what a job meets: checkpoints that complete, checkpoints whose flush ran but that
 * never completed, and failures that restore the last completed checkpoint at another parallelism
 * (1 to 3 subtasks) and replay the input from its position. Output counts as the exactly-once
 * sink's: what a subtask emitted is committed when the next checkpoint completes, and dropped if a
 * failure comes first.
 *
 * <p>Contract checked: exact mode commits every distinct URL of the input exactly once; approximate
 * mode commits none twice and drops at most a few (rate 1e-4), each of which shares a prefix with
 * another URL of its key. With ops mixed in, both modes are checked against a model of the
 * seen-set, approximate mode up to such shared prefixes. The stream is skewed so that one key grows
 * past what a key may pack (its journal batches reach keyed state between checkpoints), middle keys
 * are packed and then packed again as due or unpacked as hot, and the tail's new URLs are held
 * beside their packs; each case checks that its schedule exercised those paths, so a change that
 * stops them from running here fails instead of passing vacuously.
 */
class CrashRestoreRescaleTest {
    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    /**
     * The cases, and with {@code -Dfirstseen.test.sweep=N} each of them on N more seeds (seed +
     * 1000 k), for a longer search than CI's.
     */
    static Stream<Arguments> cases() {
        int more = Integer.getInteger("firstseen.test.sweep", 0);
        return baseCases()
                .flatMap(
                        a ->
                                LongStream.rangeClosed(0, more)
                                        .mapToObj(
                                                k -> {
                                                    Object[] o = a.get().clone();
                                                    o[2] = (Long) o[2] + 1000 * k;
                                                    return Arguments.of(o);
                                                }));
    }

    private static Stream<Arguments> baseCases() {
        return Stream.of(
                Arguments.of(
                        "exact pages, journal share 0.75", exactPages(64 << 20, 0.75), 1L, ROCKSDB),
                Arguments.of(
                        "exact pages, journal share 0.75", exactPages(64 << 20, 0.75), 2L, ROCKSDB),
                Arguments.of("exact pages, journals off", exactPages(64 << 20, 0), 3L, ROCKSDB),
                Arguments.of(
                        "exact pages, 16 KiB cache (eviction)",
                        exactPages(16 << 10, 0.25),
                        4L,
                        ROCKSDB),
                Arguments.of("exact entries store", entries(), 5L, ROCKSDB),
                Arguments.of(
                        "approximate 1e-4, journal share 0.75", approximate(64 << 20), 6L, ROCKSDB),
                Arguments.of(
                        "approximate 1e-4, 16 KiB cache (eviction)",
                        approximate(16 << 10),
                        7L,
                        ROCKSDB),
                Arguments.of(
                        "exact pages, share 0.25, written whole after checkpoints",
                        afterCheckpoints(exactPages(64 << 20, 0.25)),
                        10L,
                        ROCKSDB),
                Arguments.of(
                        "approximate 1e-4, share 0.25, written whole after checkpoints",
                        afterCheckpoints(approximate(64 << 20)),
                        11L,
                        ROCKSDB),
                Arguments.of(
                        "exact pages on the heap backend", exactPages(64 << 20, 0.75), 8L, HEAP),
                Arguments.of(
                        "approximate 1e-4 on the heap backend", approximate(64 << 20), 9L, HEAP));
    }

    static final String ROCKSDB = "rocksdb";

    /**
     * Flink's heap backend keeps the objects it is handed rather than their bytes: a cache that
     * went on changing a page or a metadata object it had handed over would change keyed state
     * behind the backend's back.
     */
    static final String HEAP = "heap";

    private static DedupConfig exactPages(long cacheBytes, double share) {
        return builder(DedupMode.EXACT, 50, 0.01, cacheBytes, 256)
                .exactStore(ExactStoreType.PAGES)
                .pageJournalShare(share)
                .build();
    }

    /** {@code cfg} with dedup.rocksdb.compact-after-checkpoint and a journal share of 0.25. */
    private static DedupConfig afterCheckpoints(DedupConfig cfg) {
        return builder(
                        cfg.mode(),
                        cfg.expectedUrlsPerKey(),
                        cfg.falsePositiveRate(),
                        cfg.filterCacheBytes(),
                        256)
                .exactStore(cfg.exactStore())
                .pageJournalShare(0.25)
                .compactAfterCheckpoint(true)
                .build();
    }

    private static DedupConfig entries() {
        return builder(DedupMode.EXACT, 50, 0.01, 64 << 20, 256).build();
    }

    private static DedupConfig approximate(long cacheBytes) {
        return builder(DedupMode.APPROXIMATE, 64, 1e-4, cacheBytes, 256)
                .pageJournalShare(0.75)
                .build();
    }

    /**
     * {@code n} records over {@code keys} keys, key {@code k} about {@code (k+1)^(1/3) - k^(1/3)}
     * of them, each key's pages drawn from a range that widens as the stream goes on: repeats
     * throughout, new URLs throughout.
     */
    private static List<CanonicalUrl> stream(int n, int keys, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<CanonicalUrl> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int key = (int) Math.floor(Math.pow(rnd.nextDouble(), 3) * keys);
            out.add(url(key, rnd.nextInt(40 + i / 4)));
        }
        return out;
    }

    /** What the cache did over every operator instance of a case. */
    private static final class Exercised {
        long packed;
        long held;
        long due;
        long early;
        long unpacked;
        long evicted;
        long writtenAfter;

        void add(
                List<KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>>
                        hs) {
            for (var h : hs) {
                FilterCache c = ((DedupOperator) h.getOperator()).cache();
                packed += c.packedKeys();
                held += c.heldInserts();
                due += c.duePacks();
                early += c.earlyJournals();
                unpacked += c.unpacks();
                evicted += c.evictions();
                writtenAfter += ((DedupOperator) h.getOperator()).keysWrittenAfterCheckpoint();
            }
        }

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "packed %d, held %d, due %d, early journals %d, unpacked %d, evicted %d,"
                            + " written whole after a checkpoint %d",
                    packed,
                    held,
                    due,
                    early,
                    unpacked,
                    evicted,
                    writtenAfter);
        }
    }

    /** What one schedule committed, where it ended, and what its cache did. */
    private static final class Run {
        final List<String> committed = new ArrayList<>();
        final Exercised exercised = new Exercised();
        OperatorSubtaskState last;
        int lastParallelism;
        int completed;
        int failures;
    }

    /**
     * Feeds {@code input} in chunks of 1 to 2,500 records; after each chunk a checkpoint completes
     * (40%), one is taken and never completes (15%), a failure restores the last completed
     * checkpoint into 1 to 3 subtasks and rewinds the input to its position (20%, always after
     * seven quiet chunks, and at the end of the input until there were three), or nothing happens.
     * A last checkpoint completes at the end.
     */
    private Run run(DedupConfig cfg, String backend, List<CanonicalUrl> input, SplittableRandom rnd)
            throws Exception {
        Run run = new Run();
        int parallelism = 1 + rnd.nextInt(3);
        var subtasks = start(cfg, backend, null, 0, parallelism);
        int[] marks = new int[parallelism]; // outputs of each subtask already committed
        int lastPosition = 0;
        long id = 0;
        int pos = 0;
        int sinceFailure = 0;
        while (pos < input.size() || run.failures < 3) {
            int end = Math.min(input.size(), pos + 1 + rnd.nextInt(2500));
            for (; pos < end; pos++) {
                CanonicalUrl u = input.get(pos);
                processAtItsTime(subtasks.get(subtaskOf(u.key, parallelism)), u);
            }
            boolean fewFailures = pos == input.size() && run.failures < 3;
            double r = ++sinceFailure >= 8 || fewFailures ? 0.7 : rnd.nextDouble();
            if (r < 0.4) { // a checkpoint completes: the sink commits what came before it
                run.last = checkpointAll(subtasks, ++id);
                run.lastParallelism = parallelism;
                lastPosition = pos;
                commit(subtasks, marks, run.committed);
                run.completed++;
            } else if (r < 0.55) { // the flush and snapshot ran, the checkpoint never completed
                checkpointAll(subtasks, ++id);
            } else if (r < 0.75) { // a failure: back to the last completed checkpoint
                run.exercised.add(subtasks);
                for (var h : subtasks) {
                    t.discard(h);
                }
                parallelism = 1 + rnd.nextInt(3);
                subtasks = start(cfg, backend, run.last, run.lastParallelism, parallelism);
                marks = new int[parallelism];
                pos = lastPosition;
                run.failures++;
                sinceFailure = 0;
            }
        }
        run.last = checkpointAll(subtasks, ++id);
        run.lastParallelism = parallelism;
        commit(subtasks, marks, run.committed);
        run.exercised.add(subtasks);
        assertThat(run.failures).as("failures in the schedule").isGreaterThanOrEqualTo(3);
        assertThat(run.completed).as("completed checkpoints").isGreaterThanOrEqualTo(3);
        return run;
    }

    /**
     * Approximate mode with {@code dedup.forget-after} (generations of a quarter of it): the input
     * spans three times forget-after, and a URL is new again from the moment its generation ended
     * forget-after ago, a rule a model applies exactly. What is committed parts from the model only
     * where the filter dropped a new URL for a prefix it shares with another URL of its key: an
     * early forget, a generation lost or kept at a restore or a rescale, or a timer that fired
     * wrong would part elsewhere.
     */
    @ParameterizedTest(name = "{0}, journal share {1}, seed {2}")
    @CsvSource({"rocksdb, 0.75, 21", "rocksdb, 0.05, 22", "heap, 0.75, 23"})
    void forgetAfterInApproximateModeCommitsWhatTheGenerationsModelSays(
            String backend, double share, long seed) throws Exception {
        long forgetAfter = 10_000;
        DedupConfig cfg =
                builder(DedupMode.APPROXIMATE, 64, 1e-4, 64 << 20, 256)
                        .forgetAfterMillis(forgetAfter)
                        .pageJournalShare(share)
                        .build();
        long generation = cfg.generationMillis();
        assertThat(generation).isEqualTo(2_500);
        long t0 = 1_795_000_000_000L;
        List<CanonicalUrl> input = new ArrayList<>();
        for (CanonicalUrl u : stream(30_000, 60, seed)) {
            long ts = t0 + input.size();
            input.add(
                    new CanonicalUrl(
                            u.url,
                            u.canonical,
                            u.key,
                            null,
                            new SourcePosition("in", 0, input.size(), ts)));
        }
        Map<String, Long> last = new HashMap<>();
        Map<String, Integer> surplus = new HashMap<>();
        int again = 0;
        for (CanonicalUrl u : input) {
            long ts = u.source.timestamp;
            Long l = last.get(u.canonical);
            if (l == null || ts >= (Math.floorDiv(l, generation) + 1) * generation + forgetAfter) {
                again += l == null ? 0 : 1;
                last.put(u.canonical, ts);
                surplus.merge(u.canonical, -1, Integer::sum);
            }
        }
        assertThat(again).as("URLs the model emits again").isGreaterThan(1000);
        Run run = run(cfg, backend, input, new SplittableRandom(seed * 43 + 17));
        run.committed.forEach(c -> surplus.merge(c, 1, Integer::sum));
        int parted = (int) surplus.values().stream().filter(d -> d != 0).count();
        assertThat(surplus.values())
                .as("URLs committed more often than the model says")
                .allMatch(d -> d <= 0);
        assertThat(PrefixCollisions.unexplained(cfg, input, surplus))
                .as("URLs committed less often than the model says, with no shared prefix")
                .isEmpty();
        assertThat(parted).as("URLs parted from the model").isLessThanOrEqualTo(20);
        // Keys in generations pack at checkpoints and unpack for their records like any key.
        assertThat(run.exercised.packed).as(run.exercised.toString()).isPositive();
        assertThat(run.exercised.unpacked).as(run.exercised.toString()).isPositive();
    }

    @ParameterizedTest(name = "{0}, seed {2}")
    @MethodSource("cases")
    void committedOutputHoldsEveryFirstSightingOnce(
            String name, DedupConfig cfg, long seed, String backend) throws Exception {
        List<CanonicalUrl> input = stream(30_000, 60, seed);
        SplittableRandom rnd = new SplittableRandom(seed * 31 + 7);
        Run run = run(cfg, backend, input, rnd);
        List<String> committed = run.committed;

        Set<String> distinct = new LinkedHashSet<>();
        input.forEach(u -> distinct.add(u.canonical));
        assertThat(new HashSet<>(committed)).as("nothing committed twice").hasSameSizeAs(committed);
        if (cfg.mode() == DedupMode.EXACT) {
            assertThat(committed).containsExactlyInAnyOrderElementsOf(distinct);
        } else {
            assertThat(distinct).containsAll(committed);
            // At most 1e-4 of a new URL's probes match; 20 is far beyond this stream's ~1 expected.
            assertThat(distinct.size() - committed.size()).as("dropped").isLessThanOrEqualTo(20);
            assertThat(PrefixCollisions.unexplainedDrops(cfg, input, distinct, committed))
                    .as("dropped URLs that share no prefix with another URL of their key")
                    .isEmpty();
        }

        // Restored once more, at any parallelism, the whole input again is old news.
        var again = start(cfg, backend, run.last, run.lastParallelism, 1 + rnd.nextInt(3));
        int p = again.size();
        for (CanonicalUrl u : input) {
            again.get(subtaskOf(u.key, p)).processElement(u, 0L);
        }
        for (var h : again) {
            assertThat(DedupOperatorTest.emitted(h))
                    .as("re-emitted after the last restore")
                    .isEmpty();
        }

        Exercised exercised = run.exercised;
        String what = exercised.toString();
        if (cfg.exactStore() == ExactStoreType.ENTRIES && cfg.mode() == DedupMode.EXACT) {
            return; // Bloom filters over the entries store, too large here to pack; nothing held
        }
        assertThat(exercised.packed).as(what).isPositive();
        assertThat(exercised.held).as(what).isPositive();
        assertThat(exercised.due + exercised.unpacked).as(what).isPositive();
        if (cfg.filterCacheBytes() < 1 << 20) {
            assertThat(exercised.evicted).as(what).isPositive();
        } else if (cfg.pageJournalShare() > 0) {
            assertThat(exercised.early).as(what).isPositive();
        }
        if (name.contains("written whole after checkpoints")) {
            assertThat(exercised.writtenAfter).as(what).isPositive();
        }
    }

    static Stream<Arguments> exactCases() {
        return cases().filter(a -> ((DedupConfig) a.get()[1]).mode() == DedupMode.EXACT);
    }

    /**
     * Exact mode with ops mixed in (3% mark-seen, 3% forget, 1% force, a forget-key now and then),
     * which take a packed key's held URLs into its filter and write its pages whole: what is
     * committed is what {@link DedupOpsTest.Model} emits for the input read once, in order.
     */
    @ParameterizedTest(name = "{0}, seed {2}")
    @MethodSource("exactCases")
    void opsCommitWhatTheModelEmits(String name, DedupConfig cfg, long seed, String backend)
            throws Exception {
        List<CanonicalUrl> input = withOps(seed + 100);
        DedupOpsTest.Model model = new DedupOpsTest.Model();
        List<String> expected = new ArrayList<>();
        for (CanonicalUrl u : input) {
            String out = model.apply(u);
            if (out != null) {
                expected.add(out);
            }
        }
        Run run = run(cfg, backend, input, new SplittableRandom(seed * 37 + 11));
        assertThat(run.committed).containsExactlyInAnyOrderElementsOf(expected);
    }

    static Stream<Arguments> approximateCases() {
        return cases().filter(a -> ((DedupConfig) a.get()[1]).mode() == DedupMode.APPROXIMATE);
    }

    /**
     * Approximate mode with the same ops, against the same model. The filter keeps prefixes of at
     * least its first class's width, so it may part from the model only where two URLs of one key
     * share such a prefix: a new URL answered as seen (one of the key's URLs shares its prefix),
     * and a {@code forget} that removes the prefix another URL of the key shares (that URL is then
     * emitted again, as README, Ops, says). Every URL committed fewer or more times than the model
     * says must be so explained: a lost insert, a lost removal or a journal inserted again over a
     * removal, at a restore or a rescale, would part from the model for URLs that share no prefix
     * (at 1e-4, a URL shares its 21-bit first-class prefix with none of its key's up to 7,540 other
     * URLs with probability above 99%).
     */
    @ParameterizedTest(name = "{0}, seed {2}")
    @MethodSource("approximateCases")
    void approximateOpsPartFromTheModelOnlyWherePrefixesCollide(
            String name, DedupConfig cfg, long seed, String backend) throws Exception {
        List<CanonicalUrl> input = withOps(seed + 200);
        DedupOpsTest.Model model = new DedupOpsTest.Model();
        Map<String, Integer> surplus = new HashMap<>(); // committed less the model's, per URL
        for (CanonicalUrl u : input) {
            String out = model.apply(u);
            if (out != null) {
                surplus.merge(out, -1, Integer::sum);
            }
        }
        Run run = run(cfg, backend, input, new SplittableRandom(seed * 41 + 13));
        run.committed.forEach(c -> surplus.merge(c, 1, Integer::sum));

        int parted = (int) surplus.values().stream().filter(d -> d != 0).count();
        List<String> unexplained = PrefixCollisions.unexplained(cfg, input, surplus);
        assertThat(unexplained)
                .as("URLs committed more or less often than the model says, with no shared prefix")
                .isEmpty();
        assertThat(parted).as("URLs parted from the model").isLessThanOrEqualTo(20);
        Exercised exercised = run.exercised;
        assertThat(exercised.packed).as(exercised.toString()).isPositive();
        assertThat(exercised.held).as(exercised.toString()).isPositive();
        assertThat(exercised.due + exercised.unpacked).as(exercised.toString()).isPositive();
    }

    /**
     * {@link #stream} with ops mixed in: 3% mark-seen, 3% forget, 1% force, a forget-key now and
     * then.
     */
    private static List<CanonicalUrl> withOps(long seed) {
        SplittableRandom ops = new SplittableRandom(seed);
        List<CanonicalUrl> input = new ArrayList<>();
        for (CanonicalUrl u : stream(30_000, 60, seed)) {
            int dice = ops.nextInt(100);
            u.op = dice < 3 ? Op.MARK_SEEN : dice < 6 ? Op.FORGET : dice < 7 ? Op.FORCE : Op.SEEN;
            input.add(u);
            if (ops.nextInt(3000) == 0) {
                int key = (int) Math.floor(Math.pow(ops.nextDouble(), 3) * 60);
                input.add(DedupOpsTest.forgetKey(key));
            }
        }
        return input;
    }

    private List<KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>>
            start(
                    DedupConfig cfg,
                    String backend,
                    OperatorSubtaskState from,
                    int fromParallelism,
                    int to)
                    throws Exception {
        return t.rescaled(
                cfg,
                from,
                fromParallelism,
                to,
                backend.equals(HEAP) ? HashMapStateBackend::new : null);
    }

    /** Moves each subtask's output since its mark into {@code committed}. */
    private static void commit(
            List<KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>> hs,
            int[] marks,
            List<String> committed) {
        for (int i = 0; i < hs.size(); i++) {
            List<String> out = DedupOperatorTest.emitted(hs.get(i));
            committed.addAll(out.subList(marks[i], out.size()));
            marks[i] = out.size();
        }
    }
}
