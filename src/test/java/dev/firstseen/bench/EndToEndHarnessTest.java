package dev.firstseen.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firstseen.config.SeenSetRocksDBOptions;
import dev.firstseen.job.FirstSeenJob;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** The harness's job names and what reaches a job's environment (no broker, no cluster). */
class EndToEndHarnessTest {

    @Test
    void aVariantIsItsBaseJobWithOptions() {
        String job = "exact@state.backend.type=forst@dedup.bloom.rebuild-step=128";
        assertThat(EndToEndHarness.baseJob(job)).isEqualTo("exact");
        assertThat(EndToEndHarness.variantOptions(job))
                .containsExactly(
                        Map.entry("state.backend.type", "forst"),
                        Map.entry("dedup.bloom.rebuild-step", "128"));
        assertThat(EndToEndHarness.baseJob("naive")).isEqualTo("naive");
        assertThat(EndToEndHarness.variantOptions("naive")).isEmpty();
        assertThatThrownBy(() -> EndToEndHarness.variantOptions("exact@forst"))
                .hasMessageContaining("@key=value");
    }

    @Test
    void anUnknownJobFailsBeforeAnythingStarts() {
        EndToEndHarness h = new EndToEndHarness(10, 10, 1, "1 s", 1, System.out);
        assertThatThrownBy(() -> h.run(List.of("exact", "exakt@state.backend.type=forst")))
                .hasMessageContaining("Unknown job 'exakt@state.backend.type=forst'");
    }

    /**
     * The options a job's environment is made from carry its mode, the --firstseen options and its
     * variant's, so the RocksDB options factory sees approximate mode (it did not before 2026-11-23
     * 19:13 UTC) and Flink options such as the state backend apply.
     */
    @Test
    void theEnvironmentGetsTheModeAndEveryOption() {
        // Approximate mode compacts after every checkpoint itself by default.
        assertThat(factoryOf("approximate", Map.of()))
                .contains("level0CompactionTrigger=RocksDB's own");
        assertThat(factoryOf("approximate@dedup.rocksdb.compact-after-checkpoint=false", Map.of()))
                .contains("level0CompactionTrigger=1");
        // Exact mode's default store is fingerprint pages, rewritten like approximate mode's.
        assertThat(factoryOf("exact", Map.of())).contains("level0CompactionTrigger=1");
        assertThat(factoryOf("exact@dedup.exact.store=ENTRIES", Map.of()))
                .contains("level0CompactionTrigger=RocksDB's own");
        assertThat(
                        factoryOf(
                                "approximate@dedup.rocksdb.level0-compaction-trigger=4",
                                Map.of("dedup.rocksdb.level0-compaction-trigger", "2")))
                .contains("level0CompactionTrigger=4");
        assertThat(factoryOf("approximate", Map.of("dedup.rocksdb.level0-compaction-trigger", "2")))
                .contains("level0CompactionTrigger=2");

        Configuration c = environmentOf("exact@state.backend.type=forst", Map.of());
        assertThat(c.toMap()).containsEntry("state.backend.type", "forst");
        // --firstseen options are for FirstSeen's jobs only; a baseline's variant takes its own.
        Configuration naive =
                environmentOf(
                        "naive@state.backend.type=forst", Map.of("dedup.bloom.cache-size", "1mb"));
        assertThat(naive.toMap())
                .containsEntry("state.backend.type", "forst")
                .doesNotContainKeys("dedup.mode", "dedup.bloom.cache-size");
    }

    private static Configuration environmentOf(String job, Map<String, String> firstseen) {
        Configuration conf = new Configuration();
        EndToEndHarness.addJobOptions(conf, job, firstseen);
        return FirstSeenJob.withJobDefaults(conf);
    }

    private static String factoryOf(String job, Map<String, String> firstseen) {
        return new SeenSetRocksDBOptions().configure(environmentOf(job, firstseen)).toString();
    }

    /** Round by round, a job's CPU per record is divided by its baseline's in the same round. */
    @Test
    void roundRatiosPairEachRoundWithItsBaseline() {
        List<EndToEndHarness.Result> job = List.of(cpu(300), cpu(200), cpu(330));
        List<EndToEndHarness.Result> base = List.of(cpu(200), cpu(160), cpu(200), cpu(100));
        double[] r = EndToEndHarness.roundRatios(job, base);
        assertThat(r).containsExactly(1.5, 1.25, 1.65);
        double[] sorted = r.clone();
        java.util.Arrays.sort(sorted);
        assertThat(EndToEndHarness.medianOf(sorted)).isEqualTo(1.5);
        assertThat(EndToEndHarness.medianOf(new double[] {1.0, 2.0})).isEqualTo(1.5);
    }

    private static EndToEndHarness.Result cpu(long nanos) {
        return new EndToEndHarness.Result("j", 1, 1, 1, 1, 0, Map.of(), nanos, 0, 0, 0, 0);
    }
}
