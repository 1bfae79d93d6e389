package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.firstseen.metrics.FirstSeenMetrics;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.flink.api.common.accumulators.Accumulator;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.util.TestingTaskManagerRuntimeInfo;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.state.rocksdb.RocksDBKeyedStateBackend;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.ParameterTool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The dedup operator on Flink's keyed test harness with the RocksDB state backend.
 *
 * <p>The harness's {@code snapshot()} does not call {@code prepareSnapshotPreBarrier}, which is
 * where dirty Bloom pages reach state; {@link #checkpoint} calls it as the task would. {@link
 * #withoutPreBarrierFlushOldUrlsComeBack} shows what happens otherwise, so these tests can fail.
 */
class DedupOperatorTest {
    static final int MAX_PARALLELISM = 128;
    private final List<KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>>
            open = new ArrayList<>();

    private final List<MockEnvironment> environments = new ArrayList<>();

    @AfterEach
    void closeHarnesses() throws Exception {
        for (var h : open) {
            h.close();
        }
        for (MockEnvironment env : environments) {
            env.close();
        }
    }

    static DedupConfig config(DedupMode mode, long perKey, double p, long cacheBytes, int l1) {
        return builder(mode, perKey, p, cacheBytes, l1).build();
    }

    /**
     * A fixed fingerprint key, so that what approximate mode drops (its rate's share of new URLs)
     * is the same on every run; a job draws a random key, which made a test that expected no drop
     * at 1e-6 fail about once in fifty runs.
     */
    static final FingerprintFunction TEST_FINGERPRINTS = FingerprintFunction.withKey(64, 41, 43);

    static DedupConfig.Builder builder(
            DedupMode mode, long perKey, double p, long cacheBytes, int l1) {
        // Exact mode's tests here are about the entries store and its Bloom filter (the
        // builder's AUTO would give pages); ExactPagesOperatorTest covers the pages.
        return DedupConfig.builder()
                .fingerprints(TEST_FINGERPRINTS)
                .exactStore(ExactStoreType.ENTRIES)
                .mode(mode)
                .expectedUrlsPerKey(perKey)
                .falsePositiveRate(p)
                .filterCacheBytes(cacheBytes)
                .recentCacheEntries(l1)
                .guarded(Map.of("canonical.profile", "test/1", "keying.mode", "DOMAIN"));
    }

    static DedupConfig exact() {
        return config(DedupMode.EXACT, 1000, 0.01, 64 << 20, 1024);
    }

    KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> harness(
            DedupConfig cfg, int parallelism, int subtask, OperatorSubtaskState restore)
            throws Exception {
        return harness(cfg, parallelism, subtask, restore, Map.of());
    }

    KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> harness(
            DedupConfig cfg,
            int parallelism,
            int subtask,
            OperatorSubtaskState restore,
            Map<String, String> jobParameters)
            throws Exception {
        // The mock environment's 3 MB of managed memory would flush RocksDB's memtable every few
        // hundred writes; a fixed budget keeps these tests about the operator, not compaction.
        EmbeddedRocksDBStateBackend backend = new EmbeddedRocksDBStateBackend();
        backend.getMemoryConfiguration().setFixedMemoryPerSlot("64mb");
        return harness(cfg, parallelism, subtask, restore, jobParameters, backend);
    }

    /** Closes {@code h} now, as a task that failed would be torn down. */
    void discard(KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h)
            throws Exception {
        if (open.remove(h)) {
            h.close();
        }
    }

    /**
     * A harness of one subtask whose TaskManager has {@code taskManager}'s settings (its task heap
     * and slots, which size the filter cache and the conversion's class builder), on RocksDB.
     */
    KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> harnessIn(
            Configuration taskManager, DedupConfig cfg, OperatorSubtaskState restore)
            throws Exception {
        MockEnvironment env =
                new MockEnvironmentBuilder()
                        .setTaskName("dedup")
                        .setManagedMemorySize(3 << 20)
                        .setMaxParallelism(MAX_PARALLELISM)
                        .setParallelism(1)
                        .setSubtaskIndex(0)
                        .setTaskManagerRuntimeInfo(new TestingTaskManagerRuntimeInfo(taskManager))
                        .build();
        environments.add(env);
        EmbeddedRocksDBStateBackend backend = new EmbeddedRocksDBStateBackend();
        backend.getMemoryConfiguration().setFixedMemoryPerSlot("64mb");
        return start(
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new DedupOperator(cfg), (CanonicalUrl u) -> u.key, Types.STRING, env),
                backend,
                restore);
    }

    /** Opens {@code h} on {@code backend}, from {@code restore} if not null. */
    private KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> start(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h,
            StateBackend backend,
            OperatorSubtaskState restore)
            throws Exception {
        h.setStateBackend(backend);
        open.add(h);
        h.setup();
        if (restore != null) {
            h.initializeState(restore);
        }
        h.open();
        return h;
    }

    /** A harness on {@code backend} (the others run on RocksDB). */
    KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> harness(
            DedupConfig cfg,
            int parallelism,
            int subtask,
            OperatorSubtaskState restore,
            Map<String, String> jobParameters,
            StateBackend backend)
            throws Exception {
        var h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new DedupOperator(cfg),
                        (CanonicalUrl u) -> u.key,
                        Types.STRING,
                        MAX_PARALLELISM,
                        parallelism,
                        subtask);
        h.getExecutionConfig().setGlobalJobParameters(ParameterTool.fromMap(jobParameters));
        return start(h, backend, restore);
    }

    /**
     * {@code snap}, taken at parallelism {@code from}, restored into {@code to} subtasks as Flink
     * repartitions it on a rescale.
     */
    List<KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>> rescaled(
            DedupConfig cfg, OperatorSubtaskState snap, int from, int to) throws Exception {
        return rescaled(cfg, snap, from, to, null);
    }

    /**
     * The same on a backend of {@code backend}'s making (RocksDB if null); with no {@code snap},
     * {@code to} fresh subtasks.
     */
    List<KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>> rescaled(
            DedupConfig cfg,
            OperatorSubtaskState snap,
            int from,
            int to,
            Supplier<StateBackend> backend)
            throws Exception {
        List<KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>> out =
                new ArrayList<>();
        for (int i = 0; i < to; i++) {
            OperatorSubtaskState restore =
                    snap == null
                            ? null
                            : AbstractStreamOperatorTestHarness.repartitionOperatorState(
                                    snap, MAX_PARALLELISM, from, to, i);
            out.add(
                    backend == null
                            ? harness(cfg, to, i, restore)
                            : harness(cfg, to, i, restore, Map.of(), backend.get()));
        }
        return out;
    }

    /**
     * {@code phase1} into one subtask; a rescale to two subtasks that take {@code phase2}, both of
     * which must emit something; a rescale back to one subtask that is fed both phases again and
     * must emit nothing. Returns what the two subtasks emitted, for the caller's own check.
     */
    List<String> rescaleOneToTwoAndBack(
            DedupConfig cfg, List<CanonicalUrl> phase1, List<CanonicalUrl> phase2)
            throws Exception {
        var one = harness(cfg, 1, 0, null);
        feed(one, phase1);
        var two = rescaled(cfg, checkpoint(one, 1), 1, 2);
        for (CanonicalUrl u : phase2) {
            two.get(subtaskOf(u.key, 2)).processElement(u, 0L);
        }
        List<String> out2 = new ArrayList<>();
        two.forEach(h -> out2.addAll(emitted(h)));
        assertThat(emitted(two.get(0))).isNotEmpty();
        assertThat(emitted(two.get(1))).isNotEmpty();

        var back = rescaled(cfg, checkpointAll(two, 2), 2, 1).get(0);
        feed(back, phase1);
        feed(back, phase2);
        assertThat(emitted(back)).isEmpty();
        return out2;
    }

    /** Checkpoint {@code id} of every subtask, as the one state a rescale starts from. */
    static OperatorSubtaskState checkpointAll(
            List<KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>>
                    subtasks,
            long id)
            throws Exception {
        OperatorSubtaskState[] states = new OperatorSubtaskState[subtasks.size()];
        for (int i = 0; i < states.length; i++) {
            states[i] = checkpoint(subtasks.get(i), id);
        }
        return AbstractStreamOperatorTestHarness.repackageState(states);
    }

    /** What the task does at a checkpoint: pre-barrier flush, then the snapshot. */
    static OperatorSubtaskState checkpoint(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h, long id)
            throws Exception {
        h.prepareSnapshotPreBarrier(id);
        return h.snapshot(id, id);
    }

    static CanonicalUrl url(int key, int page) {
        String k = "d" + key + ".com";
        String c = "http://" + k + "/p/" + page;
        return new CanonicalUrl(c + "?orig", c, k, null, new SourcePosition("in", 0, page, -1));
    }

    /** A crawler-like stream: keys skewed, pages repeated. */
    static List<CanonicalUrl> stream(int n, int keys, int pagesPerKey, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<CanonicalUrl> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int key = (int) Math.floor(Math.pow(rnd.nextDouble(), 3) * keys);
            out.add(url(key, rnd.nextInt(pagesPerKey)));
        }
        return out;
    }

    static List<String> emitted(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h) {
        return h.extractOutputValues().stream().map(r -> r.canonical).collect(Collectors.toList());
    }

    static void feed(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h,
            List<CanonicalUrl> urls)
            throws Exception {
        for (CanonicalUrl u : urls) {
            h.processElement(u, 0L);
        }
    }

    /**
     * Hands {@code u} to {@code h}, first moving its processing time up to the record's timestamp
     * if it has one: a job's clock is never behind its records, and the sweep timers of {@code
     * dedup.forget-after} fire as it moves.
     */
    static void processAtItsTime(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h,
            CanonicalUrl u)
            throws Exception {
        if (u.source.timestamp > h.getProcessingTime()) {
            h.setProcessingTime(u.source.timestamp);
        }
        h.processElement(u, 0L);
    }

    static long accumulator(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h,
            String name) {
        Accumulator<?, ?> acc = h.getOperator().getRuntimeContext().getAccumulator(name);
        return (Long) acc.getLocalValue();
    }

    static int subtaskOf(String key, int parallelism) {
        return KeyGroupRangeAssignment.assignKeyToParallelOperator(
                key, MAX_PARALLELISM, parallelism);
    }

    /** The cache-thrashing warning's rule: the alert's 0.2 pages per record, on enough records. */
    @ParameterizedTest(name = "{0} pages for {1} records: {2}")
    @CsvSource({
        "2001, 10000, true",
        "2000, 10000, false",
        "0, 1000000, false",
        "5000, 9999, false", // too few records to judge
        "300000, 1000000, true",
    })
    void thrashingIsMoreThanAFifthOfAPagePerRecord(long pages, long records, boolean warn) {
        assertThat(DedupOperator.thrashing(pages, records)).isEqualTo(warn);
    }

    @Test
    void countersAreAccumulatorsOnlyWhenTheJobWantsThem() throws Exception {
        var off =
                harness(
                        exact(),
                        1,
                        0,
                        null,
                        Map.of(FirstSeenMetrics.ACCUMULATORS_PARAMETER, "false"));
        feed(off, List.of(url(1, 1), url(1, 1)));
        assertThat(off.getOperator().getRuntimeContext().getAccumulator("firstSeen")).isNull();
        assertThat(emitted(off)).hasSize(1);
        var on = harness(exact(), 1, 0, null);
        feed(on, List.of(url(1, 1), url(1, 1)));
        assertThat(accumulator(on, "firstSeen")).isEqualTo(1);
    }

    @Test
    void shouldEmitFirstSeenUrlOnce() throws Exception {
        var h = harness(exact(), 1, 0, null);
        feed(h, List.of(url(1, 1), url(1, 2), url(1, 1), url(2, 1), url(1, 2), url(2, 1)));
        assertThat(emitted(h))
                .containsExactly("http://d1.com/p/1", "http://d1.com/p/2", "http://d2.com/p/1");
        FrontierRecord first = h.extractOutputValues().get(0);
        assertThat(first.url).isEqualTo("http://d1.com/p/1?orig"); // the original goes out
        assertThat(first.key).isEqualTo("d1.com");
        assertThat(accumulator(h, "firstSeen")).isEqualTo(3);
        assertThat(accumulator(h, "duplicates")).isEqualTo(3);
        assertThat(accumulator(h, "l1Hits")).isEqualTo(3);
    }

    @Test
    void exactModeMatchesAHashSetModelWithATinyFilterAndNoL1() throws Exception {
        // 8 URLs per key at a 30% rate: the filter says "maybe" constantly, L3 must sort it out.
        var h = harness(config(DedupMode.EXACT, 8, 0.3, 64 << 20, 0), 1, 0, null);
        List<CanonicalUrl> in = stream(20_000, 50, 400, 1);
        feed(h, in);
        Set<String> model = new LinkedHashSet<>();
        in.forEach(u -> model.add(u.canonical));
        assertThat(emitted(h)).containsExactlyElementsOf(model);
        assertThat(accumulator(h, "falsePositivesCaught")).isGreaterThan(20);
        assertThat(accumulator(h, "l3Reads"))
                .isEqualTo(accumulator(h, "duplicates") + accumulator(h, "falsePositivesCaught"));
    }

    /**
     * Exact mode grows one key's filter by rebuilding it from the exact store: 16 → 32 → … →
     * 131,072 URLs for 100,000 URLs is 13 rebuilds reading 16 + 32 + … + 65,536 entries. The
     * rebuilt filter holds every URL (the second pass emits nothing), answers new URLs at no more
     * than the target rate (it is never over full), and costs at most the bits of a filter for
     * twice the URLs: 2 × 1.25 bytes per URL at 1% plus the page table.
     */
    @Test
    void exactModeRebuildsTheFilterFromTheExactStore() throws Exception {
        // Every rebuild at once, so that the ladder's reads are exact (SpreadRebuildTest spreads).
        var h =
                harness(
                        builder(DedupMode.EXACT, 16, 0.01, 64 << 20, 0)
                                .rebuildStep(Long.MAX_VALUE)
                                .build(),
                        1,
                        0,
                        null);
        List<CanonicalUrl> urls = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            urls.add(url(7, i));
        }
        feed(h, urls);
        assertThat(emitted(h)).hasSize(100_000);
        assertThat(accumulator(h, "filterRebuilds")).isEqualTo(13);
        assertThat(accumulator(h, "filterRebuildReads")).isEqualTo(131_072 - 16);
        double rate = (double) accumulator(h, "falsePositivesCaught") / 100_000;
        assertThat(rate).isGreaterThan(0).isLessThan(0.01);
        assertThat(((DedupOperator) h.getOperator()).filterCacheBytes())
                .isBetween(100_000L, 260_000L);

        feed(h, urls);
        assertThat(emitted(h)).hasSize(100_000);
        assertThat(accumulator(h, "duplicates")).isEqualTo(100_000);
    }

    /**
     * Without a fixed size the cache takes its fraction of the slot's task heap; the harness's
     * TaskManager sets none and has one slot, so the JVM's heap stands in.
     */
    @Test
    void withoutAFixedSizeTheCacheTakesItsShareOfTheHeap() throws Exception {
        var h =
                harness(
                        builder(DedupMode.EXACT, 16, 0.01, 0, 0)
                                .filterCacheHeapFraction(0.25)
                                .build(),
                        1,
                        0,
                        null);
        FilterCache cache = ((DedupOperator) h.getOperator()).cache();
        assertThat(cache.budget()).isEqualTo((long) (0.25 * Runtime.getRuntime().maxMemory()));
        var fixed = harness(exact(), 1, 0, null);
        assertThat(((DedupOperator) fixed.getOperator()).cache().budget()).isEqualTo(64 << 20);
    }

    /** A rebuild deletes the key's old pages from state; the new ones must reach the checkpoint. */
    @Test
    void rebuildsSurviveSnapshotAndRestore() throws Exception {
        DedupConfig cfg = config(DedupMode.EXACT, 16, 0.01, 64 << 20, 0);
        var h = harness(cfg, 1, 0, null);
        List<CanonicalUrl> before = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            before.add(url(i % 3, i));
        }
        feed(h, before);
        assertThat(accumulator(h, "filterRebuilds")).isGreaterThan(0);
        OperatorSubtaskState snap = checkpoint(h, 1);

        var restored = harness(cfg, 1, 0, snap);
        List<CanonicalUrl> after = new ArrayList<>();
        for (int i = 3_000; i < 9_000; i++) {
            after.add(url(i % 3, i));
        }
        feed(restored, after); // rebuilds again, from the restored exact store
        feed(restored, before);
        assertThat(accumulator(restored, "filterRebuilds")).isGreaterThan(0);
        assertThat(emitted(restored))
                .containsExactlyElementsOf(after.stream().map(u -> u.canonical).toList());
        // The restored filter still knows the old URLs: they are answered by L3 only after a
        // "maybe".
        assertThat(accumulator(restored, "l2DefinitelyNew")).isLessThanOrEqualTo(after.size());
        assertThat(accumulator(restored, "duplicates")).isEqualTo(before.size());
        assertThat(accumulator(restored, "l3Reads"))
                .isEqualTo(before.size() + accumulator(restored, "falsePositivesCaught"));
    }

    @Test
    void approximateModeNeverRepeatsAndDropsFewNewUrls() throws Exception {
        var h = harness(config(DedupMode.APPROXIMATE, 100, 0.01, 64 << 20, 1024), 1, 0, null);
        List<CanonicalUrl> in = stream(50_000, 20, 2000, 2);
        feed(h, in);
        Set<String> model = new LinkedHashSet<>();
        in.forEach(u -> model.add(u.canonical));
        List<String> out = emitted(h);
        assertThat(new HashSet<>(out)).hasSameSizeAs(out); // nothing twice
        assertThat(model).containsAll(out);
        double dropped = 1 - (double) out.size() / model.size();
        assertThat(dropped).isLessThan(0.01 * 1.3);
    }

    @Test
    void snapshotRestoreSuppressesEveryOldUrl() throws Exception {
        for (DedupMode mode : DedupMode.values()) {
            var h = harness(config(mode, 100, 0.01, 64 << 20, 1024), 1, 0, null);
            List<CanonicalUrl> before = stream(5000, 30, 500, 3);
            feed(h, before);
            OperatorSubtaskState snap = checkpoint(h, 1);
            var restored = harness(config(mode, 100, 0.01, 64 << 20, 1024), 1, 0, snap);
            feed(restored, before);
            assertThat(emitted(restored)).as(mode.name()).isEmpty();
            feed(restored, List.of(url(999, 1), url(999, 1)));
            assertThat(emitted(restored)).containsExactly("http://d999.com/p/1");
        }
    }

    /** Negative control: the snapshot alone misses the heap pages; the pre-barrier flush is key. */
    @Test
    void withoutPreBarrierFlushOldUrlsComeBack() throws Exception {
        var h = harness(exact(), 1, 0, null);
        List<CanonicalUrl> before = stream(2000, 5, 300, 4);
        feed(h, before);
        OperatorSubtaskState snap = h.snapshot(1, 1); // no prepareSnapshotPreBarrier
        var restored = harness(exact(), 1, 0, snap);
        feed(restored, before);
        assertThat(emitted(restored)).isNotEmpty();
    }

    @Test
    void evictionWritesPagesBackUnderTheirOwnKey() throws Exception {
        // 16 KiB of cache for 200 keys: keys are evicted and reloaded all the time.
        DedupConfig tiny = config(DedupMode.EXACT, 50, 0.01, 16 << 10, 0);
        var h = harness(tiny, 1, 0, null);
        List<CanonicalUrl> in = stream(30_000, 200, 300, 5);
        feed(h, in.subList(0, 15_000));
        assertThat(accumulator(h, "pagesFlushed")).isGreaterThan(0);
        OperatorSubtaskState snap = checkpoint(h, 1);
        var restored = harness(tiny, 1, 0, snap);
        feed(restored, in.subList(15_000, 30_000));

        Set<String> seenBefore = new HashSet<>();
        in.subList(0, 15_000).forEach(u -> seenBefore.add(u.canonical));
        Set<String> model = new LinkedHashSet<>();
        for (CanonicalUrl u : in.subList(15_000, 30_000)) {
            if (!seenBefore.contains(u.canonical)) {
                model.add(u.canonical);
            }
        }
        assertThat(emitted(restored)).containsExactlyElementsOf(model);
        // Almost every new URL was answered by the filter, not by a RocksDB read.
        assertThat(accumulator(restored, "l2DefinitelyNew"))
                .isGreaterThan(accumulator(restored, "falsePositivesCaught") * 20);
    }

    @Test
    void rescaleOneToTwoAndBackReEmitsNothing() throws Exception {
        DedupConfig cfg = config(DedupMode.EXACT, 100, 0.01, 64 << 20, 1024);
        List<CanonicalUrl> phase1 = stream(6000, 40, 400, 6);
        List<CanonicalUrl> phase2 = stream(6000, 40, 800, 7);
        List<CanonicalUrl> phase3 = stream(6000, 40, 1200, 8);

        var one = harness(cfg, 1, 0, null);
        feed(one, phase1);
        OperatorSubtaskState snap1 = checkpoint(one, 1);

        // 1 -> 2
        var two = rescaled(cfg, snap1, 1, 2);
        for (CanonicalUrl u : phase2) {
            two.get(subtaskOf(u.key, 2)).processElement(u, 0L);
        }
        Set<String> seen = new HashSet<>();
        phase1.forEach(u -> seen.add(u.canonical));
        Set<String> expected2 = new LinkedHashSet<>();
        phase2.stream()
                .map(u -> u.canonical)
                .filter(c -> !seen.contains(c))
                .forEach(expected2::add);
        List<String> out2 = new ArrayList<>();
        two.forEach(h -> out2.addAll(emitted(h)));
        assertThat(out2).containsExactlyInAnyOrderElementsOf(expected2);
        assertThat(emitted(two.get(0))).isNotEmpty();
        assertThat(emitted(two.get(1))).isNotEmpty();

        // 2 -> 1
        var back = rescaled(cfg, checkpointAll(two, 2), 2, 1).get(0);
        feed(back, phase3);
        phase2.forEach(u -> seen.add(u.canonical));
        Set<String> expected3 = new LinkedHashSet<>();
        phase3.stream()
                .map(u -> u.canonical)
                .filter(c -> !seen.contains(c))
                .forEach(expected3::add);
        assertThat(emitted(back)).containsExactlyElementsOf(expected3);
    }

    @Test
    void restoreWithAnotherProfileOrKeyModeIsRefused() throws Exception {
        var h = harness(exact(), 1, 0, null);
        feed(h, List.of(url(1, 1)));
        OperatorSubtaskState snap = checkpoint(h, 1);

        DedupConfig otherProfile =
                builder(DedupMode.EXACT, 1000, 0.01, 64 << 20, 1024)
                        .guarded("canonical.profile", "test/2")
                        .build();
        assertThatThrownBy(() -> harness(otherProfile, 1, 0, snap))
                .isInstanceOf(SuppressRestartsException.class)
                .cause()
                .hasMessageContaining("'canonical.profile' was 'test/1'")
                .hasMessageContaining("is 'test/2' now")
                .hasMessageContaining("dedup.allow-settings-change");
        DedupConfig otherKeys =
                builder(DedupMode.EXACT, 1000, 0.01, 64 << 20, 1024)
                        .guarded("keying.mode", "HOST")
                        .build();
        assertThatThrownBy(() -> harness(otherKeys, 1, 0, snap))
                .cause()
                .hasMessageContaining("'keying.mode' was 'DOMAIN'");

        DedupConfig allowed =
                builder(DedupMode.EXACT, 1000, 0.01, 64 << 20, 1024)
                        .guarded("canonical.profile", "test/2")
                        .allowGuardedChange(true)
                        .build();
        harness(allowed, 1, 0, snap); // restores, with a warning
    }

    @Test
    void approximateToExactIsRefusedButExactToApproximateIsFine() throws Exception {
        var approx = harness(config(DedupMode.APPROXIMATE, 100, 0.01, 64 << 20, 16), 1, 0, null);
        feed(approx, List.of(url(1, 1)));
        OperatorSubtaskState approxSnap = checkpoint(approx, 1);
        assertThatThrownBy(() -> harness(exact(), 1, 0, approxSnap))
                .cause()
                .hasMessageContaining("'dedup.mode' was APPROXIMATE");

        var ex = harness(exact(), 1, 0, null);
        feed(ex, List.of(url(1, 1)));
        OperatorSubtaskState exactSnap = checkpoint(ex, 1);
        var now = harness(config(DedupMode.APPROXIMATE, 100, 0.01, 64 << 20, 16), 1, 0, exactSnap);
        feed(now, List.of(url(1, 1), url(1, 2)));
        assertThat(emitted(now)).containsExactly("http://d1.com/p/2");
    }

    /**
     * dedup.rocksdb.compact-after-checkpoint: keys whose journal passes its bound at a checkpoint
     * are journaled all the same, written whole when the checkpoint completes (or at the next
     * record), and compacted in the background, so that the next checkpoint holds no superseded
     * versions of their pages or journals: as large as the same state fully compacted. Without it
     * they are written whole at the checkpoint, and the next one (the harness keeps RocksDB's
     * level-0 trigger of 4) still holds the old versions. Same output either way, and the
     * checkpoint with the over-bound journals restores to the same decisions.
     */
    @Test
    void writingWholeAfterACheckpointLeavesNoSupersededVersionsInTheNext() throws Exception {
        FingerprintFunction fingerprints = FingerprintFunction.withKey(64, 14, 12);
        List<CanonicalUrl> base = stream(200_000, 50, 1_000_000, 21);
        List<CanonicalUrl> growth = stream(20_000, 50, 1_000_000, 22);
        List<CanonicalUrl> later = stream(20_000, 50, 1_000_000, 23);
        List<List<String>> outputs = new ArrayList<>();
        OperatorSubtaskState overBound = null;
        int emittedByTwo = 0;
        for (int run = 0; run < 2; run++) {
            DedupConfig cfg = quarterShare(fingerprints, run == 1);
            var h = harness(cfg, 1, 0, null);
            DedupOperator op = (DedupOperator) h.getOperator();
            feed(h, base);
            checkpoint(h, 1); // every key new: written whole
            feed(h, growth);
            OperatorSubtaskState second = checkpoint(h, 2);
            h.notifyOfCompletedCheckpoint(2);
            op.awaitCompaction();
            long next = checkpoint(h, 3).getStateSize(); // nothing changed since the second
            var backend = (RocksDBKeyedStateBackend<?>) op.getKeyedStateBackend();
            backend.compactState(DedupState.bloomPages());
            backend.compactState(DedupState.pageJournal());
            backend.compactState(DedupState.bloomMeta());
            long compacted = checkpoint(h, 4).getStateSize();
            String sizes =
                    String.format(
                            Locale.ROOT,
                            "run %d: next checkpoint %d B, the same state compacted %d B",
                            run,
                            next,
                            compacted);
            if (run == 1) {
                assertThat(op.keysWrittenAfterCheckpoint()).as(sizes).isPositive();
                assertThat(op.compactionsAfterCheckpoint()).as(sizes).isPositive();
                assertThat((double) next).as(sizes).isLessThanOrEqualTo(compacted * 1.02);
                overBound = second;
                emittedByTwo = emitted(h).size();
            } else {
                assertThat(op.keysWrittenAfterCheckpoint()).isZero();
                assertThat((double) next).as(sizes).isGreaterThan(compacted * 1.2);
            }
            feed(h, later);
            outputs.add(emitted(h));
        }
        assertThat(outputs.get(1)).isEqualTo(outputs.get(0));
        var restored = harness(quarterShare(fingerprints, true), 1, 0, overBound);
        feed(restored, base);
        feed(restored, growth);
        assertThat(emitted(restored)).isEmpty();
        feed(restored, later);
        List<String> uninterrupted = outputs.get(1);
        assertThat(emitted(restored))
                .isEqualTo(uninterrupted.subList(emittedByTwo, uninterrupted.size()));
    }

    /**
     * dedup.rocksdb.compact-after-checkpoint: the keys to write whole after a checkpoint are
     * written a few pages a record by the records that follow it, not all by the first, and the
     * checkpoint-complete notification that comes among them leaves them to the records. New URLs
     * those records add to keys not written yet are kept: the output is the same as when every key
     * is written before any record (the notification of an idle input), the background compaction
     * starts once the last key is written, and the next checkpoint restores to every URL seen.
     */
    @Test
    void theWholeWritesAfterACheckpointAreSpreadOverTheRecordsThatFollow() throws Exception {
        FingerprintFunction fingerprints = FingerprintFunction.withKey(64, 14, 13);
        List<CanonicalUrl> base = stream(200_000, 50, 1_000_000, 31);
        List<CanonicalUrl> growth = stream(20_000, 50, 1_000_000, 32);
        List<CanonicalUrl> later = stream(20_000, 50, 1_000_000, 33);
        List<CanonicalUrl> all = new ArrayList<>(base);
        all.addAll(growth);
        all.addAll(later);
        DedupConfig cfg = quarterShare(fingerprints, true);
        List<List<String>> outputs = new ArrayList<>();
        long atOnce = 0;
        for (int run = 0; run < 2; run++) {
            var h = harness(cfg, 1, 0, null);
            DedupOperator op = (DedupOperator) h.getOperator();
            op.wholePagesPerRecord(4);
            feed(h, base);
            checkpoint(h, 1);
            feed(h, growth);
            checkpoint(h, 2);
            long keysBefore = op.keysWrittenAfterCheckpoint();
            long compactionsBefore = op.compactionsAfterCheckpoint();
            if (run == 0) {
                h.notifyOfCompletedCheckpoint(2); // no record first: all at once
                atOnce = op.keysWrittenAfterCheckpoint() - keysBefore;
                assertThat(atOnce).as("keys written whole after the checkpoint").isGreaterThan(4);
                assertThat(op.compactionsAfterCheckpoint()).isGreaterThan(compactionsBefore);
                feed(h, later);
            } else {
                feed(h, later.subList(0, 1));
                long byOne = op.keysWrittenAfterCheckpoint() - keysBefore;
                assertThat(byOne).as("written by the first record").isBetween(1L, atOnce - 1);
                h.notifyOfCompletedCheckpoint(2);
                assertThat(op.keysWrittenAfterCheckpoint() - keysBefore)
                        .as("the notification after the first record")
                        .isEqualTo(byOne);
                assertThat(op.compactionsAfterCheckpoint()).isEqualTo(compactionsBefore);
                feed(h, later.subList(1, later.size()));
                assertThat(op.keysWrittenAfterCheckpoint() - keysBefore).isEqualTo(atOnce);
                assertThat(op.compactionsAfterCheckpoint()).isGreaterThan(compactionsBefore);
            }
            outputs.add(emitted(h));
            op.awaitCompaction();
            var restored = harness(cfg, 1, 0, checkpoint(h, 3));
            feed(restored, all);
            assertThat(emitted(restored)).as("run %d restored", run).isEmpty();
        }
        assertThat(outputs.get(1)).isEqualTo(outputs.get(0));
    }

    /**
     * The compact-after-checkpoint tests' setting: approximate mode at 1%, a journal share of 0.25
     * (keys pass their bound within a few checkpoints), the option on or off.
     */
    private static DedupConfig quarterShare(FingerprintFunction fingerprints, boolean after) {
        return builder(DedupMode.APPROXIMATE, 100, 0.01, 64 << 20, 0)
                .fingerprints(fingerprints)
                .pageJournalShare(0.25)
                .compactAfterCheckpoint(after)
                .build();
    }

    /**
     * dedup.rocksdb.compact-before-checkpoint: the pages rewritten between two checkpoints leave
     * their old versions in the second checkpoint unless it compacts first (the harness's backend
     * keeps RocksDB's level-0 trigger of 4, so nothing compacts them in the background). Compacted,
     * the second checkpoint is as large as one that wrote the same state once; same output either
     * way, and the compacted checkpoint restores with every URL seen.
     */
    @Test
    void compactingBeforeACheckpointLeavesNoSupersededPagesInIt() throws Exception {
        FingerprintFunction fingerprints = FingerprintFunction.withKey(64, 14, 11);
        List<CanonicalUrl> first = stream(100_000, 50, 1_000_000, 1);
        List<CanonicalUrl> second = stream(100_000, 50, 1_000_000, 2);
        List<CanonicalUrl> both = new ArrayList<>(first);
        both.addAll(second);
        // Two checkpoints without and with compaction, and the same state written in one. Page
        // journals off: with them the second checkpoint would append journals instead of writing
        // the pages again, and there would be few superseded pages to compact.
        long plain = 0;
        long compactedSize = 0;
        long once = 0;
        List<List<String>> outputs = new ArrayList<>();
        OperatorSubtaskState compacted = null;
        for (int run = 0; run < 3; run++) {
            var h =
                    harness(
                            builder(DedupMode.APPROXIMATE, 100, 0.01, 64 << 20, 0)
                                    .fingerprints(fingerprints)
                                    .compactBeforeCheckpoint(run == 1)
                                    .compactAfterCheckpoint(false)
                                    .pageJournalShare(0)
                                    .build(),
                            1,
                            0,
                            null);
            if (run < 2) {
                feed(h, first);
                checkpoint(h, 1);
                feed(h, second);
            } else {
                feed(h, both);
            }
            OperatorSubtaskState snap = checkpoint(h, 2);
            outputs.add(emitted(h));
            if (run == 0) {
                plain = snap.getStateSize();
            } else if (run == 1) {
                compactedSize = snap.getStateSize();
                compacted = snap;
            } else {
                once = snap.getStateSize();
            }
        }
        assertThat(outputs.get(1)).isEqualTo(outputs.get(0)).isEqualTo(outputs.get(2));
        assertThat((double) compactedSize)
                .as(
                        "compacted %d B, written once %d B, not compacted %d B",
                        compactedSize, once, plain)
                .isCloseTo(once, within(once * 0.05));
        assertThat(plain).isGreaterThan(once * 6 / 5);
        var restored =
                harness(
                        builder(DedupMode.APPROXIMATE, 100, 0.01, 64 << 20, 0)
                                .fingerprints(fingerprints)
                                .compactBeforeCheckpoint(true)
                                .pageJournalShare(0)
                                .build(),
                        1,
                        0,
                        compacted);
        feed(restored, both);
        assertThat(emitted(restored)).isEmpty();
    }
}
