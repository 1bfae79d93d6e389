package dev.firstseen.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The local run's summary names the ops it applied, and only when there were any. */
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
}
