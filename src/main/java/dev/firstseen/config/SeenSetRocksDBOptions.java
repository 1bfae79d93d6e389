package dev.firstseen.config;

import dev.firstseen.dedup.DedupMode;
import dev.firstseen.dedup.ExactStoreType;
import java.util.Collection;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.state.rocksdb.ConfigurableRocksDBOptionsFactory;
import org.apache.flink.state.rocksdb.RocksDBOptionsFactory;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;

/**
 * RocksDB options for the seen-set: compacts level 0 into level 1 after {@link
 * FirstSeenOptions#ROCKSDB_LEVEL0_COMPACTION_TRIGGER} flushes (default 1 where pages are rewritten
 * and no compaction follows each checkpoint) instead of RocksDB's 4, and starts a new MANIFEST past
 * {@link FirstSeenOptions#ROCKSDB_MAX_MANIFEST_SIZE}. The job names this class as {@code
 * state.backend.rocksdb.options-factory} unless the configuration names another; Flink applies it
 * after its own {@code state.backend.rocksdb.*} options, and it changes nothing else.
 *
 * <p>Why: every checkpoint flushes the memtable, and with pages rewritten rather than appended
 * (approximate mode's fingerprint pages, exact mode's Bloom pages) that level-0 file holds a new
 * version of nearly every page a busy key touched in the interval. Flink 2's RocksDB checkpoints,
 * incremental or full (the "native" full strategy, RocksNativeFullSnapshotStrategy), consist of the
 * SST files themselves, so every stale version still in level 0 is part of the checkpoint until a
 * compaction drops it. With the default trigger up to four such files sat beside level 1: a 20 M
 * scale run in approximate mode at 1e-4 checkpointed 6.68 bytes per URL for 2.35 of live pages,
 * 3.12 with a trigger of 1. Exact mode's state is mostly its append-only exact store: there a 20 M
 * run checkpointed 20.4 bytes per URL either way and ran at 0.84× the rate with 1, so exact mode
 * with its entries keeps RocksDB's trigger unless told (docs/design/state.md, "Checkpoints and
 * compaction"). With fingerprint pages ({@code dedup.exact.store: PAGES}) exact mode's state is
 * rewritten pages too.
 *
 * <p>It also bounds the MANIFEST ({@link FirstSeenOptions#ROCKSDB_MAX_MANIFEST_SIZE}). RocksDB
 * appends an edit to it at every flush and compaction and keeps it until it passes {@code
 * max_manifest_file_size}, 1 GiB by default; a checkpoint copies it whole as the backend's private
 * state, so a job that ran for weeks would carry a MANIFEST of up to that size per subtask in every
 * checkpoint (460 KB after 399 checkpoints of the subtask simulation). Past the limit RocksDB
 * starts a new MANIFEST that lists only the live files.
 */
public final class SeenSetRocksDBOptions implements ConfigurableRocksDBOptionsFactory {
    private static final long serialVersionUID = 1L;

    private final int level0CompactionTrigger;

    /** RocksDB's {@code max_manifest_file_size}, or 0 to leave RocksDB's own. */
    private final long maxManifestBytes;

    /** Sets nothing until {@link #configure} gives it the job's configuration. */
    public SeenSetRocksDBOptions() {
        this(0, 0);
    }

    private SeenSetRocksDBOptions(int level0CompactionTrigger, long maxManifestBytes) {
        this.level0CompactionTrigger = level0CompactionTrigger;
        this.maxManifestBytes = maxManifestBytes;
    }

    @Override
    public RocksDBOptionsFactory configure(ReadableConfig configuration) {
        return new SeenSetRocksDBOptions(
                level0CompactionTrigger(configuration),
                configuration.get(FirstSeenOptions.ROCKSDB_MAX_MANIFEST_SIZE).getBytes());
    }

    /**
     * The trigger a configuration asks for: the option, else 1 where the state is mostly rewritten
     * pages (approximate mode, exact mode's fingerprint pages) unless the dedup operator compacts
     * them after every checkpoint itself ({@link
     * FirstSeenOptions#ROCKSDB_COMPACT_AFTER_CHECKPOINT}), else 0.
     */
    private static int level0CompactionTrigger(ReadableConfig configuration) {
        boolean pages =
                (configuration.get(FirstSeenOptions.DEDUP_MODE) == DedupMode.APPROXIMATE
                                || FirstSeenSettings.exactStore(configuration)
                                        == ExactStoreType.PAGES)
                        && !FirstSeenSettings.compactAfterCheckpoint(configuration);
        return configuration
                .getOptional(FirstSeenOptions.ROCKSDB_LEVEL0_COMPACTION_TRIGGER)
                .orElse(pages ? 1 : 0);
    }

    @Override
    public DBOptions createDBOptions(DBOptions current, Collection<AutoCloseable> handlesToClose) {
        return maxManifestBytes > 0 ? current.setMaxManifestFileSize(maxManifestBytes) : current;
    }

    @Override
    public ColumnFamilyOptions createColumnOptions(
            ColumnFamilyOptions current, Collection<AutoCloseable> handlesToClose) {
        return level0CompactionTrigger > 0
                ? current.setLevel0FileNumCompactionTrigger(level0CompactionTrigger)
                : current;
    }

    /** What Flink's "Using configured options factory" log line shows. */
    @Override
    public String toString() {
        return "SeenSetRocksDBOptions{level0CompactionTrigger="
                + (level0CompactionTrigger > 0 ? level0CompactionTrigger : "RocksDB's own")
                + ", maxManifestFileSize="
                + (maxManifestBytes > 0 ? maxManifestBytes : "RocksDB's own")
                + "}";
    }
}
