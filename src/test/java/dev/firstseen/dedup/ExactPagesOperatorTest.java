package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.accumulator;
import static dev.firstseen.dedup.DedupOperatorTest.builder;
import static dev.firstseen.dedup.DedupOperatorTest.checkpoint;
import static dev.firstseen.dedup.DedupOperatorTest.emitted;
import static dev.firstseen.dedup.DedupOperatorTest.feed;
import static dev.firstseen.dedup.DedupOperatorTest.stream;
import static dev.firstseen.dedup.DedupOperatorTest.url;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.metrics.FirstSeenMetrics;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.Op;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.RocksDBKeyedStateBackend;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Exact mode with {@code dedup.exact.store: PAGES}, on RocksDB: the fingerprint pages are the
 * seen-set, so what comes out must be exactly the first sighting of every URL (no false negative
 * and, unlike approximate mode, no false positive at these sizes: two of a key's n URLs share 63
 * bits of fingerprint with a chance of about n²/2^64).
 */
class ExactPagesOperatorTest {
    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    private static DedupConfig pages(long cacheBytes, int l1) {
        return store(ExactStoreType.PAGES, cacheBytes, l1);
    }

    private static DedupConfig store(ExactStoreType store, long cacheBytes, int l1) {
        return builder(DedupMode.EXACT, 50, 0.01, cacheBytes, l1).exactStore(store).build();
    }

    /** The URLs of {@code in} in order of first sighting: what an exact job must emit. */
    private static List<String> firstSightings(List<CanonicalUrl> in) {
        Set<String> s = new LinkedHashSet<>();
        in.forEach(u -> s.add(u.canonical));
        return new ArrayList<>(s);
    }

    private static List<CanonicalUrl> keys(List<CanonicalUrl> in, int offset) {
        List<CanonicalUrl> out = new ArrayList<>(in.size());
        for (CanonicalUrl u : in) {
            int key = Integer.parseInt(u.key.replaceAll("\\D", ""));
            String c = u.canonical;
            out.add(url(key + offset, Integer.parseInt(c.substring(c.lastIndexOf('/') + 1))));
        }
        return out;
    }

    @Test
    void emitsExactlyEveryFirstSighting() throws Exception {
        // Up to 20,000 pages per key: the busiest keys split their pages many times over.
        List<CanonicalUrl> in = stream(150_000, 40, 20_000, 21);
        var h = t.harness(pages(64 << 20, 0), 1, 0, null);
        feed(h, in);
        assertThat(emitted(h)).containsExactlyElementsOf(firstSightings(in));
        assertThat(accumulator(h, FirstSeenMetrics.L3_READS)).isZero();
        List<KeyFilter> filters = ((DedupOperator) h.getOperator()).cache().filters();
        assertThat(filters).allMatch(f -> f.meta.isExactFingerprints());
        assertThat(filters).anyMatch(f -> f.meta.fingerprintClass(0).level >= 4);
        assertThat(filters).allMatch(f -> f.meta.layerCount() == 1);
    }

    /** Smaller pages split sooner and answer the same; a restore with another size keeps them. */
    @Test
    void pageSizeDecidesSplitsOnly() throws Exception {
        List<CanonicalUrl> in = stream(60_000, 20, 8000, 29);
        var h = t.harness(pageEntries(32), 1, 0, null);
        feed(h, in.subList(0, 30_000));
        int smallLevel = deepest(h);
        var big = t.harness(pages(64 << 20, 0), 1, 0, checkpoint(h, 1));
        feed(big, in);
        List<String> expected = firstSightings(in);
        expected.removeAll(firstSightings(in.subList(0, 30_000)));
        assertThat(emitted(big)).containsExactlyElementsOf(expected);

        var reference = t.harness(pageEntries(512), 1, 0, null);
        feed(reference, in.subList(0, 30_000));
        assertThat(smallLevel).isGreaterThanOrEqualTo(deepest(reference) + 3);
    }

    private static DedupConfig pageEntries(int entries) {
        return builder(DedupMode.EXACT, 50, 0.01, 64 << 20, 0)
                .exactStore(ExactStoreType.PAGES)
                .exactPageEntries(entries)
                .build();
    }

    private static int deepest(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h) {
        return ((DedupOperator) h.getOperator())
                .cache().filters().stream()
                        .mapToInt(f -> f.meta.fingerprintClass(0).level)
                        .max()
                        .orElseThrow();
    }

    /**
     * Many small keys, checkpoints between the records: each checkpoint packs every key of one page
     * ({@link PackedFilter}), duplicates are answered from the packed form, new URLs are held
     * beside them, and what comes out is still exactly every first sighting, with a cache large
     * enough for all and with one that evicts packed keys, and after a restore.
     */
    @Test
    void keysPackedAtCheckpointsAnswerExactly() throws Exception {
        for (long cacheBytes : new long[] {64 << 20, 48 << 10}) {
            DedupConfig config = pages(cacheBytes, 0);
            List<CanonicalUrl> in = stream(40_000, 3000, 40, 23);
            var h = t.harness(config, 1, 0, null);
            DedupOperator op = (DedupOperator) h.getOperator();
            int packedAtSomeCheckpoint = 0;
            for (int i = 0; i < 4; i++) {
                feed(h, in.subList(i * 5000, (i + 1) * 5000));
                checkpoint(h, i + 1);
                packedAtSomeCheckpoint = Math.max(packedAtSomeCheckpoint, op.cache().packedKeys());
            }
            assertThat(packedAtSomeCheckpoint).as("keys packed").isGreaterThan(100);
            assertThat(op.cache().heldInserts())
                    .as("new URLs held beside packed keys")
                    .isGreaterThan(20);
            assertThat(op.cache().packedAnswers()).as("answered while packed").isGreaterThan(20);
            if (cacheBytes < 1 << 20) {
                assertThat(op.cache().evictions()).isPositive();
            }
            assertThat(emitted(h)).containsExactlyElementsOf(firstSightings(in.subList(0, 20_000)));
            OperatorSubtaskState snap = checkpoint(h, 5);

            var restored = t.harness(config, 1, 0, snap);
            feed(restored, in);
            List<String> expected = firstSightings(in);
            expected.removeAll(firstSightings(in.subList(0, 20_000)));
            assertThat(emitted(restored)).containsExactlyElementsOf(expected);
        }
    }

    /** A 64 KiB cache for 200 keys: pages go back to state and come again all the time. */
    @Test
    void evictionAndRestoreLoseNothing() throws Exception {
        DedupConfig tiny = pages(64 << 10, 1024);
        List<CanonicalUrl> in = stream(60_000, 200, 3000, 22);
        var h = t.harness(tiny, 1, 0, null);
        feed(h, in.subList(0, 30_000));
        assertThat(accumulator(h, "pagesFlushed")).isGreaterThan(0);
        assertThat(emitted(h)).containsExactlyElementsOf(firstSightings(in.subList(0, 30_000)));
        OperatorSubtaskState snap = checkpoint(h, 1);

        var restored = t.harness(tiny, 1, 0, snap);
        feed(restored, in);
        List<String> expected = firstSightings(in);
        expected.removeAll(firstSightings(in.subList(0, 30_000)));
        assertThat(emitted(restored)).containsExactlyElementsOf(expected);
    }

    @Test
    void rescaleOneToTwoAndBackReEmitsNothing() throws Exception {
        List<CanonicalUrl> phase1 = stream(8000, 40, 600, 23);
        List<CanonicalUrl> phase2 = stream(8000, 40, 1200, 24);
        List<String> out2 = t.rescaleOneToTwoAndBack(pages(64 << 20, 1024), phase1, phase2);
        List<String> expected = firstSightings(phase2);
        expected.removeAll(firstSightings(phase1));
        assertThat(out2).containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * Switching the store either way on restore changes no answer: each key keeps the layout it was
     * created with, old keys their exact-store entries, new keys their pages.
     */
    @Test
    void keysKeepTheirStoreWhenTheSettingChanges() throws Exception {
        List<CanonicalUrl> old = stream(20_000, 30, 2000, 25);
        var entries = t.harness(store(ExactStoreType.ENTRIES, 64 << 20, 0), 1, 0, null);
        feed(entries, old);
        OperatorSubtaskState snap = checkpoint(entries, 1);

        var pages = t.harness(pages(64 << 20, 0), 1, 0, snap);
        List<CanonicalUrl> later = new ArrayList<>(stream(20_000, 30, 4000, 26));
        later.addAll(keys(stream(10_000, 30, 2000, 27), 1000));
        feed(pages, old);
        feed(pages, later);
        List<String> expected = firstSightings(later);
        expected.removeAll(firstSightings(old));
        assertThat(emitted(pages)).containsExactlyElementsOf(expected);
        for (KeyFilter f : ((DedupOperator) pages.getOperator()).cache().filters()) {
            int key = Integer.parseInt(f.key().toString().replaceAll("\\D", ""));
            assertThat(f.meta.isExactFingerprints()).as(f.key().toString()).isEqualTo(key >= 1000);
        }
        assertThat(accumulator(pages, FirstSeenMetrics.L3_READS)).isPositive();

        var back =
                t.harness(store(ExactStoreType.ENTRIES, 64 << 20, 0), 1, 0, checkpoint(pages, 2));
        feed(back, old);
        feed(back, later);
        assertThat(emitted(back)).isEmpty();
        List<CanonicalUrl> newer = keys(stream(5000, 30, 6000, 28), 1000);
        feed(back, newer);
        List<String> fresh = firstSightings(newer);
        fresh.removeAll(firstSightings(later));
        assertThat(emitted(back)).containsExactlyElementsOf(fresh);
    }

    /**
     * A job that switches from exact mode to approximate mode with {@code
     * dedup.approximate.convert-exact-keys: false} keeps its pages keys exact: their class of
     * 63-bit fingerprints never fills, so their new URLs go on being kept whole and none is
     * dropped, through checkpoints, packing and a second restore. Keys created after the switch get
     * approximate mode's filter and drop their share of new URLs.
     */
    @Test
    void pagesKeysStayExactAfterASwitchToApproximateMode() throws Exception {
        List<CanonicalUrl> old = stream(20_000, 30, 2000, 25);
        var exact = t.harness(pages(64 << 20, 0), 1, 0, null);
        feed(exact, old);
        OperatorSubtaskState snap = checkpoint(exact, 1);

        DedupConfig approximate =
                builder(DedupMode.APPROXIMATE, 50, 0.1, 64 << 20, 0)
                        .convertExactKeys(false)
                        .build();
        List<String> expectedOld = new ArrayList<>();
        List<String> newKeysFirst = new ArrayList<>();
        List<String> emittedOld = new ArrayList<>();
        List<String> emittedNew = new ArrayList<>();
        List<CanonicalUrl> seen = new ArrayList<>(old);
        for (int round = 0; round < 2; round++) {
            var h = t.harness(approximate, 1, 0, snap);
            feed(h, seen);
            assertThat(emitted(h)).as("round %d, every URL seen before", round).isEmpty();
            List<CanonicalUrl> later = new ArrayList<>(stream(20_000, 30, 4000, 26 + round));
            later.addAll(keys(stream(10_000, 30, 2000, 28 + round), 1000));
            feed(h, later);
            checkpoint(h, 2); // packs every key, the pages keys among them
            List<CanonicalUrl> more = stream(5_000, 30, 6000, 30 + round);
            feed(h, more);
            later.addAll(more);

            List<String> fresh = firstSightings(later);
            fresh.removeAll(firstSightings(seen));
            for (String u : fresh) {
                (isNewKey(u) ? newKeysFirst : expectedOld).add(u);
            }
            for (String u : emitted(h)) {
                (isNewKey(u) ? emittedNew : emittedOld).add(u);
            }
            for (KeyFilter f : ((DedupOperator) h.getOperator()).cache().filters()) {
                boolean newKey = isNewKey("http://" + f.key() + "/");
                assertThat(f.meta.isExactFingerprints()).as(f.key().toString()).isEqualTo(!newKey);
            }
            seen.addAll(later);
            snap = checkpoint(h, 3);
        }
        assertThat(emittedOld).containsExactlyElementsOf(expectedOld);
        assertThat(expectedOld).hasSizeGreaterThan(10_000);
        // The new keys emit only first sightings, fewer than all: at 0.1 a tenth at most is lost.
        assertThat(newKeysFirst).containsAll(emittedNew);
        assertThat(emittedNew.size()).isLessThan(newKeysFirst.size() * 98 / 100);
    }

    /**
     * {@code dedup.approximate.convert-exact-keys}, the default: a job restored in approximate mode
     * from state written in exact mode turns every pages key into approximate mode's filter as it
     * opens, each key's journal inserted first, before any record. No URL the keys held is emitted
     * again, then or after a restore from the next checkpoint; their new URLs are dropped at the
     * rate their classes say, within the configured one; and the state shrinks to approximate
     * mode's bytes, keys no record touches included.
     */
    @Test
    void pagesKeysBecomeApproximateAfterASwitch() throws Exception {
        ExactState exact = exactState();
        List<CanonicalUrl> old = exact.urls();
        OperatorSubtaskState snap = exact.snap();
        long exactBytes = compactedSize(exact.harness(), 3);
        long keys = exact.keys();

        double p = 0.01;
        DedupConfig approximate = builder(DedupMode.APPROXIMATE, 512, p, 64 << 20, 0).build();
        var h = t.harness(approximate, 1, 0, snap);
        assertThat(accumulator(h, FirstSeenMetrics.EXACT_KEYS_CONVERTED)).isEqualTo(keys);
        assertThat(accumulator(h, FirstSeenMetrics.PAGE_JOURNAL_REPLAYED)).isPositive();
        // The exact state compacted, so that it holds no superseded entry; the converted one as
        // the subtask left it, which compacted what it deleted.
        long convertedBytes = checkpoint(h, 3).getStateSize();
        assertThat(convertedBytes).isLessThan(exactBytes / 3);
        feed(h, old);
        assertThat(emitted(h)).as("URLs the exact keys held").isEmpty();
        for (KeyFilter f : ((DedupOperator) h.getOperator()).cache().filters()) {
            assertThat(f.meta.isFingerprints() && !f.meta.isExactFingerprints())
                    .as(f.key().toString())
                    .isTrue();
            assertThat(FingerprintFilterMath.rate(f.meta)).isLessThanOrEqualTo(p);
        }

        // Pages 20,000 on: none of them seen before.
        List<CanonicalUrl> later = new ArrayList<>();
        for (CanonicalUrl u : stream(40_000, 30, 20_000, 27)) {
            later.add(url(Integer.parseInt(u.key.replaceAll("\\D", "")), 20_000 + page(u)));
        }
        feed(h, later);
        List<String> fresh = firstSightings(later);
        List<String> out = emitted(h);
        assertThat(fresh).containsAll(out);
        assertThat(out.size()).isLessThan(fresh.size()).isGreaterThan(fresh.size() * 98 / 100);
        var again = t.harness(approximate, 1, 0, checkpoint(h, 5));
        feed(again, old);
        feed(again, later);
        assertThat(emitted(again)).as("after a restore of the converted keys").isEmpty();
        assertThat(accumulator(again, FirstSeenMetrics.EXACT_KEYS_CONVERTED)).isZero();
    }

    /**
     * An exact-mode subtask of pages keys fed 65,000 records, the last 5,000 after a checkpoint so
     * that their keys' journals hold them, with its checkpoint after them.
     */
    private record ExactState(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> harness,
            List<CanonicalUrl> urls,
            OperatorSubtaskState snap) {
        long keys() {
            return Set.copyOf(urls.stream().map(u -> u.key).toList()).size();
        }
    }

    private ExactState exactState() throws Exception {
        List<CanonicalUrl> in = new ArrayList<>(stream(60_000, 30, 20_000, 25));
        var h = t.harness(pages(64 << 20, 0), 1, 0, null);
        feed(h, in);
        checkpoint(h, 1);
        List<CanonicalUrl> journaled = stream(5_000, 30, 20_000, 26);
        feed(h, journaled);
        in.addAll(journaled);
        return new ExactState(h, in, checkpoint(h, 2));
    }

    /**
     * Keys of exact mode's entries store convert from their stores' whole fingerprints as the
     * subtask opens, except one whose store a forget left with fewer URLs than its Bloom filter
     * counted: it keeps its filter, which still holds the forgotten URL. No URL is emitted again,
     * and the state shrinks from the entries store's bytes to approximate mode's.
     */
    @Test
    void entriesKeysConvertWhenTheirStoreHoldsEveryUrl() throws Exception {
        List<CanonicalUrl> old = stream(40_000, 30, 20_000, 31);
        var exact = t.harness(store(ExactStoreType.ENTRIES, 64 << 20, 0), 1, 0, null);
        feed(exact, old);
        feed(
                exact,
                List.of(
                        op(
                                Op.FORGET,
                                2,
                                page(
                                        old.stream()
                                                .filter(u -> u.key.equals("d2.com"))
                                                .findFirst()
                                                .orElseThrow()))));
        OperatorSubtaskState snap = checkpoint(exact, 1);
        long exactBytes = compactedSize(exact, 2);
        long keys = Set.copyOf(old.stream().map(u -> u.key).toList()).size();

        var h =
                t.harness(
                        builder(DedupMode.APPROXIMATE, 512, 0.01, 64 << 20, 0).build(), 1, 0, snap);
        assertThat(accumulator(h, FirstSeenMetrics.EXACT_KEYS_CONVERTED)).isEqualTo(keys - 1);
        long convertedBytes = checkpoint(h, 2).getStateSize();
        assertThat(convertedBytes).isLessThan(exactBytes / 4);
        feed(h, old);
        assertThat(emitted(h)).isEmpty();
        for (KeyFilter f : ((DedupOperator) h.getOperator()).cache().filters()) {
            assertThat(f.meta.isFingerprints())
                    .as(f.key().toString())
                    .isEqualTo(!f.key().equals("d2.com"));
        }
    }

    /**
     * A key whose newest class passes the conversion's class builder's limit as the subtask opens
     * (65,536 prefixes here, a 32nd of a 2 MB task heap and the least the limit goes to) converts
     * by merges into that class: every URL it held stays seen, before and after a restore.
     */
    @Test
    void aKeyPastTheBuildersLimitConvertsByMerges() throws Exception {
        int n = 160_000;
        List<CanonicalUrl> old = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            old.add(url(7, i));
        }
        var exact = t.harness(pages(64 << 20, 0), 1, 0, null);
        feed(exact, old);
        OperatorSubtaskState snap = checkpoint(exact, 1);

        Configuration taskManager = new Configuration();
        taskManager.set(TaskManagerOptions.TASK_HEAP_MEMORY, MemorySize.parse("2mb"));
        double p = 0.01;
        DedupConfig approximate = builder(DedupMode.APPROXIMATE, 512, p, 64 << 20, 0).build();
        var h = t.harnessIn(taskManager, approximate, snap);
        assertThat(accumulator(h, FirstSeenMetrics.EXACT_KEYS_CONVERTED)).isEqualTo(1);
        // Classes 0 to 3 hold 51,685 URLs at 1%; class 4 gathers 65,536 and merges the rest.
        assertThat(((DedupOperator) h.getOperator()).urlsConvertedByMerges())
                .isGreaterThan(n - 51_685 - 65_536 - 1_000)
                .isLessThanOrEqualTo(n - 51_685 - 65_536);
        feed(h, old);
        assertThat(emitted(h)).isEmpty();
        KeyFilter f = ((DedupOperator) h.getOperator()).cache().filters().iterator().next();
        assertThat(f.meta.classCount()).isEqualTo(5);
        assertThat(FingerprintFilterMath.rate(f.meta)).isLessThanOrEqualTo(p);
        var again = t.harness(approximate, 1, 0, checkpoint(h, 2));
        feed(again, old);
        assertThat(emitted(again)).as("after a restore").isEmpty();
    }

    /**
     * A switch to approximate mode together with a rescale from one subtask to two: each converts
     * the keys of its key groups as it opens, together every key, and neither emits a URL the exact
     * keys held.
     */
    @Test
    void aSwitchWithARescaleConvertsEveryKey() throws Exception {
        ExactState exact = exactState();
        var two =
                t.rescaled(
                        builder(DedupMode.APPROXIMATE, 512, 0.01, 64 << 20, 0).build(),
                        exact.snap(),
                        1,
                        2);
        long converted = 0;
        for (var h : two) {
            long n = accumulator(h, FirstSeenMetrics.EXACT_KEYS_CONVERTED);
            assertThat(n).isPositive();
            converted += n;
        }
        assertThat(converted).isEqualTo(exact.keys());
        for (CanonicalUrl u : exact.urls()) {
            two.get(DedupOperatorTest.subtaskOf(u.key, 2)).processElement(u, 0L);
        }
        assertThat(emitted(two.get(0))).isEmpty();
        assertThat(emitted(two.get(1))).isEmpty();
    }

    /**
     * Pages keys left exact by a job that did not convert them ({@code
     * dedup.approximate.convert-exact-keys: false}) are converted when a record loads them once a
     * job restored in approximate mode converts: the state no longer says it was written in exact
     * mode, so the keys are not converted as it opens, and the others stay exact meanwhile.
     */
    @Test
    void pagesKeysLeftExactAreConvertedWhenLoaded() throws Exception {
        ExactState exact = exactState();
        List<CanonicalUrl> old = exact.urls();
        var kept =
                t.harness(
                        builder(DedupMode.APPROXIMATE, 512, 0.01, 64 << 20, 0)
                                .convertExactKeys(false)
                                .build(),
                        1,
                        0,
                        exact.snap());
        assertThat(accumulator(kept, FirstSeenMetrics.EXACT_KEYS_CONVERTED)).isZero();
        OperatorSubtaskState snap = checkpoint(kept, 3);

        var h =
                t.harness(
                        builder(DedupMode.APPROXIMATE, 512, 0.01, 64 << 20, 0).build(), 1, 0, snap);
        assertThat(accumulator(h, FirstSeenMetrics.EXACT_KEYS_CONVERTED)).isZero();
        List<CanonicalUrl> someKeys =
                old.stream().filter(u -> u.key.equals("d3.com") || u.key.equals("d7.com")).toList();
        feed(h, someKeys);
        assertThat(emitted(h)).isEmpty();
        assertThat(accumulator(h, FirstSeenMetrics.EXACT_KEYS_CONVERTED)).isEqualTo(2);
        assertThat(((DedupOperator) h.getOperator()).cache().filters())
                .allMatch(f -> f.meta.isFingerprints() && !f.meta.isExactFingerprints());
        feed(h, old);
        assertThat(emitted(h)).isEmpty();
        assertThat(accumulator(h, FirstSeenMetrics.EXACT_KEYS_CONVERTED)).isEqualTo(exact.keys());
    }

    /** The size of a checkpoint of {@code h} taken after its filter state was compacted. */
    private static long compactedSize(
            KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h, long id)
            throws Exception {
        DedupOperator op = (DedupOperator) h.getOperator();
        var backend = (RocksDBKeyedStateBackend<?>) op.getKeyedStateBackend();
        backend.compactState(DedupState.bloomPages());
        backend.compactState(DedupState.pageJournal());
        backend.compactState(DedupState.bloomMeta());
        return checkpoint(h, id).getStateSize();
    }

    private static int page(CanonicalUrl u) {
        return Integer.parseInt(u.canonical.substring(u.canonical.lastIndexOf('/') + 1));
    }

    /** The keys {@link #keys} moved by 1000 or more. */
    private static boolean isNewKey(String url) {
        String host = url.substring("http://d".length(), url.indexOf(".com"));
        return Integer.parseInt(host) >= 1000;
    }

    private static CanonicalUrl op(Op op, int key, int page) {
        CanonicalUrl u = url(key, page);
        u.op = op;
        return u;
    }

    @Test
    void opsWorkOnPages() throws Exception {
        var h = t.harness(pages(64 << 20, 1024), 1, 0, null);
        List<CanonicalUrl> first = new ArrayList<>();
        for (int p = 0; p < 1500; p++) {
            first.add(url(1, p));
        }
        feed(h, first);
        int n = emitted(h).size();
        assertThat(n).isEqualTo(1500);
        feed(
                h,
                List.of(
                        op(Op.FORGET, 1, 7),
                        url(1, 7), // forgotten: new again
                        url(1, 8),
                        url(1, 7),
                        op(Op.MARK_SEEN, 1, 5000),
                        url(1, 5000), // marked seen: not emitted
                        op(Op.FORCE, 1, 9), // emitted though seen
                        url(1, 9)));
        List<String> after = emitted(h).subList(n, emitted(h).size());
        assertThat(after).containsExactly("http://d1.com/p/7", "http://d1.com/p/9");
        assertThat(h.extractOutputValues().get(emitted(h).size() - 1).forced).isTrue();
        CanonicalUrl forgetKey =
                new CanonicalUrl(null, null, "d1.com", null, new SourcePosition("in", 0, 0, -1));
        forgetKey.op = Op.FORGET_KEY;
        feed(h, List.of(forgetKey, url(1, 9), url(1, 10), url(1, 9)));
        List<String> all = emitted(h);
        assertThat(all.subList(all.size() - 2, all.size()))
                .containsExactly("http://d1.com/p/9", "http://d1.com/p/10");
        assertThat(accumulator(h, "opsForgotten")).isEqualTo(1);
        assertThat(accumulator(h, "opsForgetUnsupported")).isZero();
    }
}
