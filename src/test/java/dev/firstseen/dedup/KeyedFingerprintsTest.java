package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.SourcePosition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.StateObjectCollection;
import org.apache.flink.runtime.state.OperatorStateHandle;
import org.apache.flink.runtime.state.OperatorStreamStateHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12.1: with MurmurHash3 under the public seed 0, colliding URLs can be built on purpose, and
 * a page that links to one first hides the other forever, in exact mode. Fingerprints are now keyed
 * by a per-job secret that the state keeps.
 */
class KeyedFingerprintsTest {
    /** Two canonical URLs of one host with the same MurmurHash3 (issue 12.1). */
    private static final String FORGED =
            "https://shop.example.com/item?q=QwyGgJQ41LF-vKwmjT-dDT5lhJtg~FX.&page=1";

    private static final String TARGET =
            "https://shop.example.com/item?q=2s0gnadA7cSu1VKN~HpsQ0JSlcwGWQxA&page=1";

    private final DedupOperatorTest t = new DedupOperatorTest();

    @AfterEach
    void close() throws Exception {
        t.closeHarnesses();
    }

    private static CanonicalUrl url(String canonical) {
        return new CanonicalUrl(
                canonical, canonical, "example.com", null, new SourcePosition("in", 0, 0, -1));
    }

    private static DedupConfig.Builder exact() {
        return DedupConfig.builder().mode(DedupMode.EXACT).expectedUrlsPerKey(1000);
    }

    @Test
    void aForgedCollisionNoLongerHidesItsTarget() throws Exception {
        // The precondition: the two URLs do collide under the legacy function.
        assertThat(Fingerprint.of(FORGED)).isEqualTo(Fingerprint.of(TARGET));

        var legacy =
                t.harness(
                        exact().fingerprints(FingerprintFunction.LEGACY_MURMUR3).build(),
                        1,
                        0,
                        null);
        DedupOperatorTest.feed(legacy, List.of(url(FORGED), url(TARGET)));
        assertThat(DedupOperatorTest.emitted(legacy)).containsExactly(FORGED); // the attack

        var keyed = t.harness(exact().build(), 1, 0, null);
        DedupOperatorTest.feed(keyed, List.of(url(FORGED), url(TARGET)));
        assertThat(DedupOperatorTest.emitted(keyed)).containsExactly(FORGED, TARGET);
    }

    @Test
    void theStoredKeyWinsOverTheConfiguredOne() throws Exception {
        FingerprintFunction first = FingerprintFunction.keyed(11, 12);
        var h = t.harness(exact().fingerprints(first).build(), 1, 0, null);
        List<CanonicalUrl> urls = DedupOperatorTest.stream(3000, 10, 400, 5);
        DedupOperatorTest.feed(h, urls);
        OperatorSubtaskState snap = DedupOperatorTest.checkpoint(h, 1);
        // Restored under another configured key: nothing comes back.
        var restored =
                t.harness(
                        exact().fingerprints(FingerprintFunction.keyed(98, 99)).build(),
                        1,
                        0,
                        snap);
        DedupOperatorTest.feed(restored, urls);
        assertThat(DedupOperatorTest.emitted(restored)).isEmpty();
    }

    @Test
    void stateWithoutARecordedFunctionIsReadWithMurmur3() throws Exception {
        var h =
                t.harness(
                        exact().fingerprints(FingerprintFunction.LEGACY_MURMUR3).build(),
                        1,
                        0,
                        null);
        List<CanonicalUrl> urls = DedupOperatorTest.stream(2000, 10, 300, 6);
        DedupOperatorTest.feed(h, urls);
        // What a version before keyed fingerprints wrote: the same state without the record.
        OperatorSubtaskState old =
                without(DedupOperatorTest.checkpoint(h, 1), "firstseen-fingerprint");
        var restored = t.harness(exact().build(), 1, 0, old); // configured: a new secret key
        DedupOperatorTest.feed(restored, urls);
        assertThat(DedupOperatorTest.emitted(restored)).isEmpty();
        // And it records the legacy function from now on.
        OperatorSubtaskState again = DedupOperatorTest.checkpoint(restored, 2);
        var once = t.harness(exact().build(), 1, 0, again);
        DedupOperatorTest.feed(once, urls);
        assertThat(DedupOperatorTest.emitted(once)).isEmpty();
    }

    /**
     * State written with 128-bit fingerprints (every job before 2026-11-23 12:30 UTC) keeps them,
     * and its 24-byte store, under a job now configured for 64 bits: through restore, rebuilds and
     * a rescale, no URL comes back and every new one is emitted.
     */
    @Test
    void stateOf128BitFingerprintsKeepsThemUnderA64BitJob() throws Exception {
        var h = t.harness(exact().fingerprintBits(128).expectedUrlsPerKey(50).build(), 1, 0, null);
        List<CanonicalUrl> urls = DedupOperatorTest.stream(3000, 10, 400, 7);
        DedupOperatorTest.feed(h, urls);
        int distinct = DedupOperatorTest.emitted(h).size();
        OperatorSubtaskState snap = DedupOperatorTest.checkpoint(h, 1);
        DedupConfig now = exact().expectedUrlsPerKey(50).build();
        assertThat(now.fingerprints().bits()).isEqualTo(64);
        var restored = t.harness(now, 1, 0, snap);
        DedupOperatorTest.feed(restored, urls);
        assertThat(DedupOperatorTest.emitted(restored)).isEmpty();
        List<CanonicalUrl> more = DedupOperatorTest.stream(3000, 10, 400, 8);
        DedupOperatorTest.feed(restored, more);
        int added = DedupOperatorTest.emitted(restored).size();
        var backend = restored.getOperator().getKeyedStateBackend();
        try (var keys =
                backend.getKeys("seen", org.apache.flink.runtime.state.VoidNamespace.INSTANCE)) {
            assertThat(keys.count()).as("keys with a 128-bit store").isEqualTo(10);
        }
        OperatorSubtaskState again = DedupOperatorTest.checkpoint(restored, 2);
        long seenAgain = 0;
        for (int sub = 0; sub < 2; sub++) {
            var scaled = t.harness(now, 2, sub, again);
            List<CanonicalUrl> mine = new ArrayList<>();
            for (CanonicalUrl u : urls) {
                if (DedupOperatorTest.subtaskOf(u.key, 2) == sub) {
                    mine.add(u);
                }
            }
            for (CanonicalUrl u : more) {
                if (DedupOperatorTest.subtaskOf(u.key, 2) == sub) {
                    mine.add(u);
                }
            }
            DedupOperatorTest.feed(scaled, mine);
            seenAgain += DedupOperatorTest.emitted(scaled).size();
        }
        assertThat(seenAgain).isZero();
        assertThat(distinct).isPositive();
        assertThat(added).isPositive();
    }

    /** {@code s} with the operator state named {@code name} removed. */
    private static OperatorSubtaskState without(OperatorSubtaskState s, String name) {
        List<OperatorStateHandle> handles = new ArrayList<>();
        for (OperatorStateHandle h : s.getManagedOperatorState()) {
            Map<String, OperatorStateHandle.StateMetaInfo> offsets =
                    new HashMap<>(h.getStateNameToPartitionOffsets());
            assertThat(offsets.remove(name)).as(name).isNotNull();
            handles.add(new OperatorStreamStateHandle(offsets, h.getDelegateStateHandle()));
        }
        return OperatorSubtaskState.builder()
                .setManagedOperatorState(new StateObjectCollection<>(handles))
                .setManagedKeyedState(s.getManagedKeyedState())
                .build();
    }
}
