package dev.firstseen.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The local run's summary: each dedup layer's counter on its own line, and the ops it applied only
 * when there were any.
 */
class LocalRunSummaryTest {
    @Test
    void opsAppearWhenThereWereAny() {
        String plain = LocalRun.summary(Map.of("recordsIn", 10L, "firstSeen", 4L), 2.0);
        assertThat(plain).contains("records in").doesNotContain("ops:");
        String withOps =
                LocalRun.summary(
                        Map.of("recordsIn", 10L, "opsMarkedSeen", 7L, "revisits", 1L), 2.0);
        assertThat(withOps).contains("ops: forced 0, marked seen 7").contains("revisits 1");
    }

    @Test
    void eachLayerOnItsLine() {
        String s =
                LocalRun.summary(
                        Map.of(
                                "recordsIn", 100L,
                                "firstSeen", 40L,
                                "duplicates", 60L,
                                "l1Hits", 50L,
                                "l2DefinitelyNew", 40L,
                                "l2Maybe", 11L,
                                "l3Reads", 3L,
                                "falsePositivesCaught", 1L,
                                "pagesFlushed", 7L,
                                "pagesLoaded", 2L),
                        1.0);
        assertThat(s)
                .containsPattern("L1 recent-cache hits +50 +\\(83\\.3%\\) of duplicates")
                .containsPattern("L2 filter said new +40 ")
                .containsPattern("L2 filter said seen +11 ")
                .containsPattern(
                        "L3 exact-store reads +3 +\\(Bloom false positives caught: 1 of the 40")
                .containsPattern("filter pages written +7 +loaded 2")
                .doesNotContain("expected dropped");
    }

    /** Approximate mode's expected false positives, when it expects any. */
    @Test
    void expectedDropsAppearInApproximateMode() {
        String s =
                LocalRun.summary(
                        Map.of("recordsIn", 100L, "firstSeen", 40L, "expectedFalsePositives", 2.25),
                        1.0);
        assertThat(s).containsPattern("expected dropped +2\\.3 +\\(approximate mode");
        assertThat(LocalRun.summary(Map.of("expectedFalsePositives", 0.0), 1.0))
                .doesNotContain("expected dropped");
    }
}
