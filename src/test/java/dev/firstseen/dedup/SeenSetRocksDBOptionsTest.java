package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.config.SeenSetRocksDBOptions;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.IncrementalKeyedStateHandle.HandleAndLocalPath;
import org.apache.flink.runtime.state.IncrementalRemoteKeyedStateHandle;
import org.apache.flink.runtime.state.KeyedStateHandle;
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

    @Test
    void theManifestLimitReachesRocksDb() throws Exception {
        assertThat(manifestLimitOfAJobConfiguredWith(Map.of())).isEqualTo(64 * 1024);
        assertThat(
                        manifestLimitOfAJobConfiguredWith(
                                Map.of("dedup.rocksdb.max-manifest-size", "1 mb")))
                .isEqualTo(1 << 20);
    }

    /**
     * Every flush and compaction adds to the MANIFEST and a checkpoint carries it whole: with
     * RocksDB's own limit (1 GiB) it grows with the job's age, with the job's limit it stays near
     * it. The same checkpoints run both ways, so the growth the limit stops is shown to happen.
     */
    @Test
    void aCheckpointsManifestStaysNearTheLimitWhereRocksDbsOwnWouldGrow() throws Exception {
        int checkpoints = 120;
        long limit = 8 * 1024;
        List<Long> unbounded = manifestsInCheckpoints(checkpoints, "1 gb", dbDir.resolve("a"));
        List<Long> bounded = manifestsInCheckpoints(checkpoints, limit + " b", dbDir.resolve("b"));
        assertThat(unbounded.get(unbounded.size() - 1))
                .as("MANIFEST in checkpoint %d with a limit of 1 GiB", checkpoints)
                .isGreaterThan(4 * limit);
        // A new MANIFEST starts at the first edit past the limit and lists the live files only.
        assertThat(bounded).allSatisfy(bytes -> assertThat(bytes).isLessThan(2 * limit));
        assertThat(bounded.get(bounded.size() - 1)).isLessThan(unbounded.get(unbounded.size() - 1));
    }

    /**
     * Bytes of the MANIFEST each of {@code checkpoints} incremental checkpoints of the operator
     * carries, in approximate mode (which compacts after every checkpoint) with new URLs between
     * them.
     */
    private List<Long> manifestsInCheckpoints(int checkpoints, String maxManifest, Path dir)
            throws Exception {
        Configuration conf =
                FirstSeenJob.withJobDefaults(
                        Configuration.fromMap(
                                Map.of(
                                        "dedup.mode", "APPROXIMATE",
                                        "dedup.rocksdb.max-manifest-size", maxManifest,
                                        "execution.checkpointing.incremental", "true")));
        EmbeddedRocksDBStateBackend backend =
                new EmbeddedRocksDBStateBackend().configure(conf, getClass().getClassLoader());
        backend.setDbStoragePath(dir.toString());
        backend.getMemoryConfiguration().setFixedMemoryPerSlot("64mb");
        DedupConfig cfg = DedupOperatorTest.config(DedupMode.APPROXIMATE, 100, 0.01, 64 << 20, 0);
        List<Long> manifests = new ArrayList<>();
        try (var h =
                new KeyedOneInputStreamOperatorTestHarness<String, CanonicalUrl, FrontierRecord>(
                        new DedupOperator(cfg), (CanonicalUrl u) -> u.key, Types.STRING)) {
            h.setStateBackend(backend);
            h.open();
            int id = 0;
            for (int c = 1; c <= checkpoints; c++) {
                for (int i = 0; i < 20; i++) {
                    h.processElement(new StreamRecord<>(DedupOperatorTest.url(i % 5, ++id)));
                }
                h.prepareSnapshotPreBarrier(c);
                OperatorSubtaskState snapshot = h.snapshot(c, c);
                h.notifyOfCompletedCheckpoint(c);
                manifests.add(manifestBytes(snapshot));
            }
        }
        return manifests;
    }

    private static long manifestBytes(OperatorSubtaskState snapshot) {
        long bytes = 0;
        int found = 0;
        for (KeyedStateHandle h : snapshot.getManagedKeyedState()) {
            for (HandleAndLocalPath file :
                    ((IncrementalRemoteKeyedStateHandle) h).getPrivateState()) {
                if (file.getLocalPath().startsWith("MANIFEST-")) {
                    bytes += file.getStateSize();
                    found++;
                }
            }
        }
        assertThat(found).as("MANIFEST files in the checkpoint").isEqualTo(1);
        return bytes;
    }

    private long manifestLimitOfAJobConfiguredWith(Map<String, String> options) throws Exception {
        for (String line : optionsOfAJobConfiguredWith(DedupMode.APPROXIMATE, options)) {
            String t = line.strip();
            if (t.startsWith("max_manifest_file_size=")) {
                return Long.parseLong(t.substring(t.indexOf('=') + 1));
            }
        }
        throw new AssertionError("no max_manifest_file_size in RocksDB's options file");
    }

    /** Runs the operator on a backend configured as a cluster would; per column family trigger. */
    private Map<String, Integer> triggersOfAJobConfiguredWith(
            DedupMode mode, Map<String, String> options) throws Exception {
        return triggers(optionsOfAJobConfiguredWith(mode, options));
    }

    /** The lines of the options file RocksDB wrote for the operator's state, read while it runs. */
    private List<String> optionsOfAJobConfiguredWith(DedupMode mode, Map<String, String> options)
            throws Exception {
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
            return Files.readAllLines(latestOptionsFile());
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
    private static Map<String, Integer> triggers(List<String> optionsFile) {
        Map<String, Integer> out = new HashMap<>();
        String family = null;
        for (String line : optionsFile) {
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
