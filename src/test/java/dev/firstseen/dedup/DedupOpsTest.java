package dev.firstseen.dedup;

import static dev.firstseen.dedup.DedupOperatorTest.checkpoint;
import static dev.firstseen.dedup.DedupOperatorTest.emitted;
import static dev.firstseen.dedup.DedupOperatorTest.exact;
import static dev.firstseen.dedup.DedupOperatorTest.feed;
import static dev.firstseen.dedup.DedupOperatorTest.url;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.Op;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The seen-set ops (issue 15) on the operator harness with RocksDB. */
class DedupOpsTest {
    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    private static CanonicalUrl op(Op op, int key, int page) {
        CanonicalUrl u = url(key, page);
        u.op = op;
        return u;
    }

    static CanonicalUrl forgetKey(int key) {
        CanonicalUrl u =
                new CanonicalUrl(
                        null, null, "d" + key + ".com", null, new SourcePosition("in", 0, 0, -1));
        u.op = Op.FORGET_KEY;
        return u;
    }

    private static List<CanonicalUrl> pagesOf(int key, int n) {
        List<CanonicalUrl> out = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            out.add(url(key, p));
        }
        return out;
    }

    @Test
    void forceEmitsWhateverTheStateSaysAndSaysSo() throws Exception {
        var h = t.harness(exact(), 1, 0, null);
        feed(h, List.of(url(1, 1), op(Op.FORCE, 1, 1), url(1, 1), op(Op.FORCE, 1, 2), url(1, 2)));
        List<FrontierRecord> out = h.extractOutputValues();
        assertThat(emitted(h))
                .containsExactly("http://d1.com/p/1", "http://d1.com/p/1", "http://d1.com/p/2");
        assertThat(out.get(0).forced).isFalse();
        assertThat(out.get(1).forced).isTrue();
        assertThat(out.get(2).forced).isTrue(); // forced and new: seen from now on
    }

    /** The URLs the one key's filter counts (approximate mode's may miss a colliding prefix). */
    private static long count(
            org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness<
                            String, CanonicalUrl, FrontierRecord>
                    h) {
        return ((DedupOperator) h.getOperator())
                .cache().filters().stream().mapToLong(f -> f.meta.count()).sum();
    }

    @Test
    void markSeenRecordsWithoutEmitting() throws Exception {
        for (DedupMode mode : DedupMode.values()) {
            var h =
                    t.harness(
                            DedupOperatorTest.config(mode, 100, 0.01, 64 << 20, 1024), 1, 0, null);
            List<CanonicalUrl> imported = new ArrayList<>();
            for (int p = 0; p < 500; p++) {
                imported.add(op(Op.MARK_SEEN, 2, p));
            }
            feed(h, imported);
            long once = count(h);
            feed(h, imported); // marked twice: known the second time, not inserted again
            assertThat(count(h)).as(mode.name()).isEqualTo(once).isBetween(490L, 500L);
            assertThat(emitted(h)).as(mode.name()).isEmpty();
            feed(h, pagesOf(2, 500));
            assertThat(emitted(h)).as(mode.name()).isEmpty();
            feed(h, List.of(url(2, 500)));
            assertThat(emitted(h)).containsExactly("http://d2.com/p/500");
        }
    }

    @Test
    void forgetMakesAUrlNewAgainAndSurvivesRestore() throws Exception {
        var h = t.harness(exact(), 1, 0, null);
        feed(h, pagesOf(3, 50));
        assertThat(emitted(h)).hasSize(50);
        // Forgotten right after it was seen: L1 holds it, and must let go of it too.
        feed(h, List.of(op(Op.FORGET, 3, 7), url(3, 7), url(3, 8)));
        assertThat(emitted(h)).hasSize(51).endsWith("http://d3.com/p/7");
        feed(h, List.of(op(Op.FORGET, 3, 9)));
        OperatorSubtaskState snap = checkpoint(h, 1);
        var restored = t.harness(exact(), 1, 0, snap);
        feed(restored, pagesOf(3, 50));
        assertThat(emitted(restored)).containsExactly("http://d3.com/p/9");
    }

    @Test
    void forgetKeyForgetsEveryUrlOfThatKeyAndNoOther() throws Exception {
        var h = t.harness(exact(), 1, 0, null);
        feed(h, pagesOf(4, 300)); // enough to rebuild the filter once or twice
        feed(h, pagesOf(5, 30));
        feed(h, List.of(forgetKey(4)));
        feed(h, pagesOf(4, 300));
        feed(h, pagesOf(5, 30));
        assertThat(emitted(h)).hasSize(300 + 30 + 300);
        // After a checkpoint and restore, key 4 holds only what came after the forget.
        OperatorSubtaskState snap = checkpoint(h, 1);
        var restored = t.harness(exact(), 1, 0, snap);
        feed(restored, pagesOf(4, 301));
        feed(restored, pagesOf(5, 30));
        assertThat(emitted(restored)).containsExactly("http://d4.com/p/300");
    }

    @Test
    void opsAreCounted() throws Exception {
        KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord> h =
                t.harness(exact(), 1, 0, null);
        feed(
                h,
                List.of(
                        op(Op.FORCE, 6, 1),
                        op(Op.MARK_SEEN, 6, 2),
                        op(Op.FORGET, 6, 1),
                        forgetKey(6)));
        assertThat(DedupOperatorTest.accumulator(h, "opsForced")).isEqualTo(1);
        assertThat(DedupOperatorTest.accumulator(h, "opsMarkedSeen")).isEqualTo(1);
        assertThat(DedupOperatorTest.accumulator(h, "opsForgotten")).isEqualTo(1);
        assertThat(DedupOperatorTest.accumulator(h, "opsKeysForgotten")).isEqualTo(1);
    }

    /**
     * The seen-set as a set of canonical URLs: what the job must emit for a stream of data and ops,
     * the reference the operator is checked against.
     */
    static final class Model {
        final java.util.Set<String> seen = new java.util.HashSet<>();

        /** The canonical URL {@code u} emits, or null. */
        String apply(CanonicalUrl u) {
            switch (u.op) {
                case FORGET_KEY:
                    seen.removeIf(c -> c.startsWith("http://" + u.key + "/"));
                    return null;
                case FORGET:
                    seen.remove(u.canonical);
                    return null;
                case MARK_SEEN:
                    seen.add(u.canonical);
                    return null;
                case FORCE:
                    seen.add(u.canonical);
                    return u.canonical;
                default:
                    return seen.add(u.canonical) ? u.canonical : null;
            }
        }
    }

    /** A crawl stream with ops mixed in: marks, forgets, forces and a forget-key or two. */
    private static List<CanonicalUrl> mixed(int n, long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        List<CanonicalUrl> out = new ArrayList<>();
        for (CanonicalUrl u : DedupOperatorTest.stream(n, 30, 300, seed)) {
            int dice = r.nextInt(100);
            if (dice < 5) {
                u.op = Op.MARK_SEEN;
            } else if (dice < 9) {
                u.op = Op.FORGET;
            } else if (dice < 10) {
                u.op = Op.FORCE;
            }
            out.add(u);
            if (r.nextInt(2000) == 0) {
                out.add(forgetKey(r.nextInt(30)));
            }
        }
        return out;
    }

    @Test
    void opsMatchTheModelAcrossRescaleOneToTwoToOne() throws Exception {
        Model model = new Model();
        List<CanonicalUrl> phase1 = mixed(6000, 21);
        List<CanonicalUrl> phase2 = mixed(6000, 22);
        List<CanonicalUrl> phase3 = mixed(6000, 23);
        List<String> expected1 = new ArrayList<>();
        phase1.forEach(
                u -> java.util.Optional.ofNullable(model.apply(u)).ifPresent(expected1::add));

        var one = t.harness(exact(), 1, 0, null);
        feed(one, phase1);
        assertThat(emitted(one)).containsExactlyElementsOf(expected1);
        OperatorSubtaskState snap1 = checkpoint(one, 1);

        var two = t.rescaled(exact(), snap1, 1, 2);
        List<String> expected2 = new ArrayList<>();
        for (CanonicalUrl u : phase2) {
            two.get(DedupOperatorTest.subtaskOf(u.key, 2)).processElement(u, 0L);
            java.util.Optional.ofNullable(model.apply(u)).ifPresent(expected2::add);
        }
        List<String> out2 = new ArrayList<>();
        two.forEach(h -> out2.addAll(emitted(h)));
        assertThat(out2).containsExactlyInAnyOrderElementsOf(expected2);

        var back = t.rescaled(exact(), DedupOperatorTest.checkpointAll(two, 2), 2, 1).get(0);
        List<String> expected3 = new ArrayList<>();
        phase3.forEach(
                u -> java.util.Optional.ofNullable(model.apply(u)).ifPresent(expected3::add));
        feed(back, phase3);
        assertThat(emitted(back)).containsExactlyElementsOf(expected3);
    }
}
