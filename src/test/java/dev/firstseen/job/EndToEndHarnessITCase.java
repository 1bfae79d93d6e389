package dev.firstseen.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.bench.EndToEndHarness;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Smoke test of the benchmark harness on a small input: every job runs and every dedup job's output
 * count equals the generator's distinct count. It checks counts, never times.
 */
class EndToEndHarnessITCase {
    @Test
    void everyJobRunsAndDedupCountsMatchTheGenerator() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        EndToEndHarness h = new EndToEndHarness(100_000, 10_000, 2, "1 s", 3, log);
        List<EndToEndHarness.Result> results =
                h.run(
                        List.of(
                                "passthrough",
                                "naive",
                                "sql",
                                "exact",
                                "approximate",
                                "naive-cc",
                                "sql-cc"));
        h.print(results);
        assertThat(results).hasSize(7);
        EndToEndHarness.Result passthrough = results.get(0);
        EndToEndHarness.Result naive = results.get(1);
        EndToEndHarness.Result sql = results.get(2);
        EndToEndHarness.Result exact = results.get(3);
        EndToEndHarness.Result approximate = results.get(4);
        EndToEndHarness.Result naiveCc = results.get(5);
        EndToEndHarness.Result sqlCc = results.get(6);
        // crawler-commons merges and splits URLs differently, but it dedups the same stream.
        assertThat(naiveCc.recordsOut()).isBetween(10_000L, 100_000L);
        // SQL's first row per normalized URL is the same set as naive-cc's ValueState.
        assertThat(sqlCc.recordsOut()).isEqualTo(naiveCc.recordsOut());
        // Every job's own threads used CPU (a measurement, not a threshold).
        results.forEach(r -> assertThat(r.cpuNanos()).as(r.job()).isPositive());
        assertThat(sql.recordsOut()).isEqualTo(naive.recordsOut());
        assertThat(passthrough.recordsOut()).isEqualTo(100_000);
        assertThat(naive.recordsOut()).isEqualTo(naive.expectedOut()).isGreaterThan(10_000);
        assertThat(exact.recordsOut()).isEqualTo(naive.recordsOut());
        assertThat(approximate.recordsOut())
                .isLessThanOrEqualTo(exact.recordsOut())
                .isGreaterThan((long) (exact.recordsOut() * 0.99));
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .contains("ratio exact/naive")
                .contains("ratio exact/naive-cc")
                .contains("CPU per record")
                .contains("ratio exact/sql")
                .contains("ratio exact/sql-cc");
    }
}
