package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.config.SeenSetRocksDBOptions;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's default configuration reaches RocksDB: the options file RocksDB writes for each column
 * family of the dedup operator's state shows the level-0 trigger {@link SeenSetRocksDBOptions} set,
 * through the same path a cluster takes ({@code EmbeddedRocksDBStateBackend#configure}).
 */
class SeenSetRocksDBOptionsTest {
    @TempDir Path dbDir;

    /**
     * Approximate mode compacts after every checkpoint itself by default
     * (dedup.rocksdb.compact-after-checkpoint), so RocksDB keeps its own trigger; without that it
     * compacts level 0 after every flush.
     */
    @Test
    void approximateModeCompactsLevel0AfterEveryFlushUnlessItCompactsAfterCheckpoints()
            throws Exception {
        assertThat(triggersOfAJobConfiguredWith(DedupMode.APPROXIMATE, Map.of()))
                .containsEntry("bloom-pages", 4)
                .containsEntry("bloom-meta", 4);
        assertThat(
                        triggersOfAJobConfiguredWith(
                                DedupMode.APPROXIMATE,
                                Map.of("dedup.rocksdb.compact-after-checkpoint", "false")))
                .containsEntry("bloom-pages", 1)
                .containsEntry("bloom-meta", 1);
    }

    @Test
    void exactModesEntriesStoreKeepsRocksDbsOwnTrigger() throws Exception {
        assertThat(
                        triggersOfAJobConfiguredWith(
                                DedupMode.EXACT, Map.of("dedup.exact.store", "ENTRIES")))
                .containsEntry("bloom-pages", 4)
                .containsEntry("seen-64", 4);
        // A job-wide time rule makes the default store resolve to entries.
        assertThat(
                        triggersOfAJobConfiguredWith(
                                DedupMode.EXACT, Map.of("dedup.revisit-after", "30 d")))
                .containsEntry("seen-64", 4);
    }

    @Test
    void exactModesFingerprintPagesCompactLevel0AfterEveryFlushByDefault() throws Exception {
        assertThat(triggersOfAJobConfiguredWith(DedupMode.EXACT, Map.of()))
                .containsEntry("bloom-pages", 1);
        assertThat(
                        triggersOfAJobConfiguredWith(
                                DedupMode.EXACT, Map.of("dedup.exact.store", "PAGES")))
                .containsEntry("bloom-pages", 1);
    }

    @Test
    void theTriggerIsAnOptionInEitherMode() throws Exception {
        Map<String, String> three = Map.of("dedup.rocksdb.level0-compaction-trigger", "3");
        assertThat(triggersOfAJobConfiguredWith(DedupMode.EXACT, three))
                .containsEntry("seen-64", 3);
        Map<String, String> zero = Map.of("dedup.rocksdb.level0-compaction-trigger", "0");
        assertThat(triggersOfAJobConfiguredWith(DedupMode.APPROXIMATE, zero))
                .containsEntry("bloom-pages", 4);
    }

    /** Runs the operator on a backend configured as a cluster would; per column family trigger. */
    private Map<String, Integer> triggersOfAJobConfiguredWith(
            DedupMode mode, Map<String, String> options) throws Exception {
        Map<String, String> args = new HashMap<>(options);
        args.put("dedup.mode", mode.name());
        Configuration conf = FirstSeenJob.withJobDefaults(Configuration.fromMap(args));
        EmbeddedRocksDBStateBackend backend =
                new EmbeddedRocksDBStateBackend().configure(conf, getClass().getClassLoader());
        backend.setDbStoragePath(dbDir.toString());
        backend.getMemoryConfiguration().setFixedMemoryPerSlot("64mb");
        DedupConfig cfg = DedupOperatorTest.config(mode, 100, 0.01, 64 << 20, 0);
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>(
                        new DedupOperator(cfg), (CanonicalUrl u) -> u.key, Types.STRING)) {
            h.setStateBackend(backend);
            h.open();
            h.processElement(new StreamRecord<>(DedupOperatorTest.url(1, 1)));
            h.prepareSnapshotPreBarrier(1);
            h.snapshot(1, 1);
            return triggers(latestOptionsFile());
        }
    }

    private Path latestOptionsFile() throws IOException {
        try (Stream<Path> files = Files.walk(dbDir)) {
            List<Path> options =
                    files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-"))
                            .sorted()
                            .toList();
            assertThat(options).as("RocksDB options files under %s", dbDir).isNotEmpty();
            return options.get(options.size() - 1);
        }
    }

    /** {@code level0_file_num_compaction_trigger} of each {@code [CFOptions "name"]} section. */
    private static Map<String, Integer> triggers(Path optionsFile) throws IOException {
        Map<String, Integer> out = new HashMap<>();
        String family = null;
        for (String line : Files.readAllLines(optionsFile)) {
            String t = line.strip();
            if (t.startsWith("[")) {
                family = t.startsWith("[CFOptions \"") ? t.substring(12, t.length() - 2) : null;
            } else if (family != null && t.startsWith("level0_file_num_compaction_trigger=")) {
                out.put(family, Integer.parseInt(t.substring(t.indexOf('=') + 1)));
            }
        }
        return out;
    }
}
