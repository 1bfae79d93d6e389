package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.accumulator;
import static dev.firstseen.dedup.DedupOperatorTest.builder;
import static dev.firstseen.dedup.DedupOperatorTest.checkpoint;
import static dev.firstseen.dedup.DedupOperatorTest.emitted;
import static dev.firstseen.dedup.DedupOperatorTest.feed;
import static dev.firstseen.dedup.DedupOperatorTest.stream;
import static dev.firstseen.dedup.DedupOperatorTest.url;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.Op;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Approximate mode's compressed-fingerprint filter in the operator, on RocksDB (issue 14). */
class ApproximateFilterOperatorTest {
    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    private static DedupConfig approximate(ApproximateFilter f, long cacheBytes) {
        return builder(DedupMode.APPROXIMATE, 50, 1e-4, cacheBytes, 0).approximateFilter(f).build();
    }

    private static CanonicalUrl op(Op op, int key, int page) {
        CanonicalUrl u = url(key, page);
        u.op = op;
        return u;
    }

    private static Set<String> canonicals(List<CanonicalUrl> in) {
        Set<String> s = new HashSet<>();
        in.forEach(u -> s.add(u.canonical));
        return s;
    }

    /** Keys stored with a Bloom filter keep it; keys created after the upgrade get fingerprints. */
    @Test
    void bloomStateWrittenBeforeKeepsWorking() throws Exception {
        List<CanonicalUrl> before = stream(20_000, 30, 2000, 11);
        var old = t.harness(approximate(ApproximateFilter.BLOOM, 64 << 20), 1, 0, null);
        feed(old, before);
        OperatorSubtaskState snap = checkpoint(old, 1);

        var now = t.harness(approximate(ApproximateFilter.FINGERPRINTS, 64 << 20), 1, 0, snap);
        feed(now, before);
        assertThat(emitted(now)).isEmpty();
        List<CanonicalUrl> fresh = stream(5000, 10, 500, 12);
        fresh.replaceAll(u -> url(1000 + u.key.length() + u.hashCode() % 5, page(u)));
        feed(now, fresh);
        List<String> out = emitted(now);
        assertThat(out).doesNotHaveDuplicates();
        assertThat(out.size()).isGreaterThan(canonicals(fresh).size() * 99 / 100);
        for (KeyFilter f : ((DedupOperator) now.getOperator()).cache().filters()) {
            int key = Integer.parseInt(f.key().toString().replaceAll("\\D", ""));
            assertThat(f.meta.isFingerprints()).as(f.key().toString()).isEqualTo(key >= 1000);
        }
    }

    /**
     * Approximate mode stores its pages Rice-coded (since the forty-fourth session): every page in
     * RocksDB after a checkpoint is. Fingerprint pages written before the thirty-eighth session had
     * their low bits before their high parts. State in RocksDB whose pages are all in that layout
     * (turned around in place here, with each key's stored metadata) restores: no URL seen before
     * comes out again, and new URLs of the same keys come out once, their pages written Rice-coded.
     */
    @Test
    void pagesStoredInTheFormerLayoutAreReadAfterARestore() throws Exception {
        DedupConfig cfg = approximate(ApproximateFilter.FINGERPRINTS, 64 << 20);
        List<CanonicalUrl> before = stream(20_000, 30, 2000, 21);
        var old = t.harness(cfg, 1, 0, null);
        feed(old, before);
        checkpoint(old, 1);
        var backend = ((DedupOperator) old.getOperator()).getKeyedStateBackend();
        int turned = 0;
        for (String key : keysOf(before)) {
            backend.setCurrentKey(key);
            FilterMeta meta =
                    backend.getPartitionedState(
                                    VoidNamespace.INSTANCE,
                                    VoidNamespaceSerializer.INSTANCE,
                                    DedupState.bloomMeta())
                            .value();
            MapState<Integer, byte[]> pages =
                    backend.getPartitionedState(
                            VoidNamespace.INSTANCE,
                            VoidNamespaceSerializer.INSTANCE,
                            DedupState.bloomPages());
            List<Map.Entry<Integer, byte[]>> stored = new ArrayList<>();
            pages.entries().forEach(stored::add);
            for (Map.Entry<Integer, byte[]> e : stored) {
                int id = e.getKey();
                if (e.getValue().length > 0) {
                    assertThat(FingerprintPage.isStoredRice(e.getValue())).isTrue();
                    int s = meta.suffixBits(id >>> 24, id & 0xFFFFFF);
                    byte[] heapLayout = FingerprintPage.fromStored(e.getValue(), s);
                    pages.put(id, FingerprintPageTest.formerLayout(heapLayout, s));
                    turned++;
                }
            }
        }
        assertThat(turned).isGreaterThan(30);
        OperatorSubtaskState snap = checkpoint(old, 2);

        assertThat(((DedupOperator) old.getOperator()).formerLayoutPagesRead()).isZero();

        var now = t.harness(cfg, 1, 0, snap);
        feed(now, before);
        assertThat(emitted(now)).isEmpty();
        // Counted as they load (the summary in the log reports it).
        assertThat(((DedupOperator) now.getOperator()).formerLayoutPagesRead())
                .isPositive()
                .isLessThanOrEqualTo(turned);
        List<CanonicalUrl> fresh = new ArrayList<>();
        for (CanonicalUrl u : stream(10_000, 30, 2000, 22)) {
            fresh.add(url(Integer.parseInt(u.key.replaceAll("\\D", "")), 5000 + page(u)));
        }
        feed(now, fresh);
        List<String> out = emitted(now);
        assertThat(out).doesNotHaveDuplicates();
        assertThat(out.size()).isGreaterThan(canonicals(fresh).size() * 999 / 1000);
        List<CanonicalUrl> given = new ArrayList<>(before);
        given.addAll(fresh);
        assertThat(PrefixCollisions.unexplainedDrops(cfg, given, canonicals(fresh), out))
                .as("dropped URLs that share no prefix with another URL of their key")
                .isEmpty();
        feed(now, fresh);
        assertThat(emitted(now)).hasSameSizeAs(out); // the new ones are in the filter now
    }

    private static Set<String> keysOf(List<CanonicalUrl> in) {
        Set<String> s = new HashSet<>();
        in.forEach(u -> s.add(u.key));
        return s;
    }

    /**
     * Approximate mode's first class became 512 URLs by default (it was 128): keys written with 128
     * keep their classes, keys created after the restore get 512, and nothing is re-emitted, also
     * after a second checkpoint that packs keys of both sizes.
     */
    @Test
    void keysKeepTheFirstClassTheyWereCreatedWith() throws Exception {
        assertThat(DedupConfig.builder().mode(DedupMode.APPROXIMATE).build().expectedUrlsPerKey())
                .isEqualTo(512);
        List<CanonicalUrl> in = stream(40_000, 40, 3000, 17);
        List<CanonicalUrl> first = in.subList(0, 20_000);
        var old = t.harness(firstClass(128), 1, 0, null);
        feed(old, first);
        var now = t.harness(firstClass(512), 1, 0, checkpoint(old, 1));
        List<CanonicalUrl> fresh = new ArrayList<>();
        for (CanonicalUrl u : stream(10_000, 10, 2000, 18)) {
            fresh.add(url(1000 + Integer.parseInt(u.key.replaceAll("\\D", "")), page(u)));
        }
        feed(now, in);
        feed(now, fresh);
        Set<String> before = canonicals(first);
        Set<String> rest = canonicals(in.subList(20_000, 40_000));
        rest.addAll(canonicals(fresh));
        rest.removeAll(before);
        List<String> out = emitted(now);
        assertThat(out).doesNotHaveDuplicates().noneMatch(before::contains);
        assertThat(rest).containsAll(out);
        assertThat(out.size()).isGreaterThanOrEqualTo((int) (rest.size() * 0.999));
        List<CanonicalUrl> given = new ArrayList<>(in);
        given.addAll(fresh);
        assertThat(PrefixCollisions.unexplainedDrops(firstClass(128), given, rest, out))
                .as("dropped URLs that share no prefix with another URL of their key")
                .isEmpty();
        boolean grownOldKey = false;
        for (KeyFilter f : ((DedupOperator) now.getOperator()).cache().filters()) {
            int key = Integer.parseInt(f.key().toString().replaceAll("\\D", ""));
            assertThat(f.meta.initialCapacity())
                    .as(f.key().toString())
                    .isEqualTo(key >= 1000 ? 512 : 128);
            grownOldKey |= key < 1000 && f.meta.layerCount() > 2;
        }
        assertThat(grownOldKey).as("an old key grew on its own schedule").isTrue();

        var again = t.harness(firstClass(512), 1, 0, checkpoint(now, 2));
        feed(again, in);
        feed(again, fresh);
        assertThat(emitted(again)).isEmpty();
    }

    /**
     * The expectedFalsePositives metric against the drops counted: every URL of the stream is new,
     * so each one not emitted is a false positive. The count varies about the metric's mean with a
     * standard deviation near its square root: fed to one filter a key without the operator, with
     * random fingerprints instead of the test key's, this stream lost 2,376 to 2,540 URLs in eleven
     * runs against 2,459 to 2,465 expected (standard deviation 50); with the test key the operator
     * drops 2,353 against 2,466, 2.3 deviations under. Checkpoints every 4,000 records pack the
     * keys, so that most new URLs come to packed keys and are held beside them
     * (FilterCache#heldNewRate): the metric without them would expect 472, without the keys that
     * are objects 1,994, both far outside the bound.
     */
    @Test
    void expectedFalsePositivesMatchTheDropsCounted() throws Exception {
        int n = 80_000;
        SplittableRandom rnd = new SplittableRandom(41);
        int[] pages = new int[400];
        List<CanonicalUrl> in = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int key = (int) Math.floor(Math.pow(rnd.nextDouble(), 3) * pages.length);
            in.add(url(key, pages[key]++));
        }
        DedupConfig cfg = builder(DedupMode.APPROXIMATE, 16, 0.05, 64 << 20, 0).build();
        var h = t.harness(cfg, 1, 0, null);
        for (int from = 0; from < n; from += 4000) {
            feed(h, in.subList(from, from + 4000));
            checkpoint(h, 1 + from / 4000);
        }
        DedupOperator op = (DedupOperator) h.getOperator();
        long dropped = n - emitted(h).size();
        double expected = op.expectedFalsePositives();
        assertThat(op.cache().heldInserts())
                .as("new URLs held beside packed keys")
                .isGreaterThan(n / 5);
        assertThat(expected).as("expected drops").isGreaterThan(300);
        assertThat((double) dropped)
                .as("dropped against expected %.1f", expected)
                .isBetween(
                        expected - 4.5 * Math.sqrt(expected), expected + 4.5 * Math.sqrt(expected));
    }

    /** The metric counts nothing in exact mode, which drops no new URL. */
    @Test
    void exactModeExpectsNoFalsePositives() throws Exception {
        DedupConfig cfg = builder(DedupMode.EXACT, 16, 0.05, 64 << 20, 0).build();
        var h = t.harness(cfg, 1, 0, null);
        feed(h, stream(5000, 20, 2000, 43));
        checkpoint(h, 1);
        feed(h, stream(5000, 20, 4000, 44));
        assertThat(emitted(h)).isNotEmpty();
        assertThat(((DedupOperator) h.getOperator()).expectedFalsePositives()).isZero();
    }

    /**
     * filterCachePeakBytes is the most the cache held in the last interval, not what it holds at
     * the checkpoint: a large key forgotten before the checkpoint (forget-key drops its filter)
     * still counts, and the next interval counts afresh.
     */
    @Test
    void theCachePeakIsTheIntervalsMostNotTheCheckpoints() throws Exception {
        DedupConfig cfg = builder(DedupMode.APPROXIMATE, 512, 1e-4, 64 << 20, 0).build();
        var h = t.harness(cfg, 1, 0, null);
        DedupOperator op = (DedupOperator) h.getOperator();
        feed(h, stream(2_000, 10, 1000, 51));
        checkpoint(h, 1);
        long most = 0;
        // About 240 KB of pages: the 64 KiB chunk a small arena takes for a moment at a flush is
        // small beside it.
        for (int i = 0; i < 100_000; i++) {
            h.processElement(url(99, i), 0L);
            most = Math.max(most, op.filterCacheBytes());
        }
        CanonicalUrl forget = url(99, 0);
        forget.op = Op.FORGET_KEY;
        h.processElement(forget, 0L);
        long atCheckpoint = op.filterCacheBytes();
        checkpoint(h, 2);
        assertThat(atCheckpoint).isLessThan(most / 2);
        assertThat(op.filterCachePeakBytesLastInterval()).isGreaterThanOrEqualTo(most);
        feed(h, stream(200, 10, 1000, 52));
        checkpoint(h, 3);
        assertThat(op.filterCachePeakBytesLastInterval())
                .isGreaterThanOrEqualTo(op.filterCacheBytes())
                .isLessThan(most / 2);
    }

    private static DedupConfig firstClass(long urls) {
        return builder(DedupMode.APPROXIMATE, urls, 1e-4, 64 << 20, 0).build();
    }

    private static int page(CanonicalUrl u) {
        return Integer.parseInt(u.canonical.substring(u.canonical.lastIndexOf('/') + 1));
    }

    /** A 64 KiB cache for 200 keys: pages (split ones too) are evicted and loaded all the time. */
    @Test
    void evictionAndRestoreLoseNoPrefix() throws Exception {
        DedupConfig tiny = approximate(ApproximateFilter.FINGERPRINTS, 64 << 10);
        List<CanonicalUrl> in = stream(60_000, 200, 3000, 13);
        var h = t.harness(tiny, 1, 0, null);
        feed(h, in.subList(0, 30_000));
        assertThat(accumulator(h, "pagesFlushed")).isGreaterThan(0);
        assertThat(((DedupOperator) h.getOperator()).cache().filters())
                .anyMatch(f -> f.meta.layerCount() > 1);
        OperatorSubtaskState snap = checkpoint(h, 1);
        var restored = t.harness(tiny, 1, 0, snap);
        feed(restored, in);
        List<String> out = emitted(restored);
        assertThat(out).doesNotHaveDuplicates();
        Set<String> first = canonicals(in.subList(0, 30_000));
        assertThat(out).noneMatch(first::contains);
        Set<String> rest = canonicals(in.subList(30_000, 60_000));
        rest.removeAll(first);
        assertThat(rest).containsAll(out);
        // Few drops (10x the 1e-4 rate is a wide bound), and each a collision of prefixes, not a
        // prefix made up on the way: the test key (DedupOperatorTest.TEST_FINGERPRINTS) is fixed,
        // so the drops are the same on every run and the check sees the fingerprints the job used.
        assertThat(out.size()).isGreaterThanOrEqualTo((int) (rest.size() * 0.999));
        assertThat(PrefixCollisions.unexplainedDrops(tiny, in, rest, out))
                .as("dropped URLs that share no prefix with another URL of their key")
                .isEmpty();
    }

    /**
     * dedup.approximate.page-entries: smaller pages split sooner; a restore with another size reads
     * them as they are and re-emits nothing.
     */
    @Test
    void pageSizeDecidesSplitsOnly() throws Exception {
        List<CanonicalUrl> in = stream(40_000, 20, 8000, 31);
        List<CanonicalUrl> first = in.subList(0, 20_000);
        var small = t.harness(pageEntries(32), 1, 0, null);
        feed(small, first);
        var reference = t.harness(pageEntries(512), 1, 0, null);
        feed(reference, first);
        assertThat(deepestSplit(small)).isGreaterThanOrEqualTo(deepestSplit(reference) + 3);
        assertThat(emitted(small)).containsExactlyElementsOf(emitted(reference));

        var restored = t.harness(pageEntries(512), 1, 0, checkpoint(small, 1));
        feed(restored, in);
        Set<String> before = canonicals(first);
        Set<String> rest = canonicals(in.subList(20_000, 40_000));
        rest.removeAll(before);
        List<String> out = emitted(restored);
        assertThat(out).doesNotHaveDuplicates().noneMatch(before::contains);
        assertThat(rest).containsAll(out);
        assertThat(out.size()).isGreaterThanOrEqualTo((int) (rest.size() * 0.999));
        assertThat(PrefixCollisions.unexplainedDrops(pageEntries(32), in, rest, out))
                .as("dropped URLs that share no prefix with another URL of their key")
                .isEmpty();
    }

    private static DedupConfig pageEntries(int entries) {
        return builder(DedupMode.APPROXIMATE, 50, 1e-4, 64 << 20, 0)
                .approximatePageEntries(entries)
                .build();
    }

    private static int deepestSplit(
            org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness<
                            String, CanonicalUrl, dev.firstseen.record.FrontierRecord>
                    h) {
        int deepest = 0;
        for (KeyFilter f : ((DedupOperator) h.getOperator()).cache().filters()) {
            for (int c = 0; c < f.meta.layerCount(); c++) {
                deepest = Math.max(deepest, f.meta.fingerprintClass(c).level);
            }
        }
        return deepest;
    }

    @Test
    void rescaleOneToTwoAndBackReEmitsNothing() throws Exception {
        List<CanonicalUrl> phase1 = stream(8000, 40, 600, 14);
        List<String> out2 =
                t.rescaleOneToTwoAndBack(
                        approximate(ApproximateFilter.FINGERPRINTS, 64 << 20),
                        phase1,
                        stream(8000, 40, 1200, 15));
        Set<String> seen = canonicals(phase1);
        assertThat(out2).doesNotHaveDuplicates().noneMatch(seen::contains);
    }

    @Test
    void forgetAndForgetKeyWork() throws Exception {
        var h = t.harness(approximate(ApproximateFilter.FINGERPRINTS, 64 << 20), 1, 0, null);
        List<CanonicalUrl> pages = new ArrayList<>();
        for (int p = 0; p < 300; p++) {
            pages.add(url(1, p));
        }
        feed(h, pages);
        feed(h, List.of(op(Op.FORGET, 1, 7), url(1, 7), url(1, 8), url(1, 7)));
        assertThat(emitted(h).subList(300, emitted(h).size())).containsExactly("http://d1.com/p/7");
        CanonicalUrl forgetKey =
                new CanonicalUrl(null, null, "d1.com", null, new SourcePosition("in", 0, 0, -1));
        forgetKey.op = Op.FORGET_KEY;
        feed(h, List.of(forgetKey, url(1, 9)));
        assertThat(emitted(h).get(emitted(h).size() - 1)).isEqualTo("http://d1.com/p/9");
        assertThat(accumulator(h, "opsForgotten")).isEqualTo(1);
    }

    /** A key still on a Bloom filter cannot forget one URL: counted, nothing forgotten. */
    @Test
    void forgetOnABloomKeyIsCountedAndIgnored() throws Exception {
        var old = t.harness(approximate(ApproximateFilter.BLOOM, 64 << 20), 1, 0, null);
        feed(old, List.of(url(1, 1)));
        OperatorSubtaskState snap = checkpoint(old, 1);
        var h = t.harness(approximate(ApproximateFilter.FINGERPRINTS, 64 << 20), 1, 0, snap);
        feed(h, List.of(op(Op.FORGET, 1, 1), url(1, 1)));
        assertThat(emitted(h)).isEmpty();
        assertThat(accumulator(h, "opsForgetUnsupported")).isEqualTo(1);
        assertThat(accumulator(h, "opsForgotten")).isZero();
    }
}
