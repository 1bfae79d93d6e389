package dev.firstseen.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.IncrementalKeyedStateHandle.HandleAndLocalPath;
import org.apache.flink.runtime.state.IncrementalRemoteKeyedStateHandle;
import org.apache.flink.runtime.state.KeyedStateHandle;
import org.apache.flink.runtime.state.StateObject;
import org.apache.flink.runtime.state.StreamStateHandle;
import org.apache.flink.runtime.state.filesystem.FileStateHandle;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.TableProperties;

/**
 * Where a RocksDB checkpoint's bytes go, by column family (one per state): what each SST file's
 * table properties say of its entries, their keys and values before compression, and its data
 * blocks as stored, beside the file's whole size; and, reading every entry's key, how many are
 * older versions of a key that a newer file holds too. It answers what a checkpoint's total cannot:
 * how much of it is the filter's pages, how much the keys and per-entry overhead around them, and
 * how much superseded versions not yet compacted.
 */
final class SstSummary {
    private SstSummary() {}

    /**
     * The pseudo-family of the rest of a snapshot: RocksDB's manifest, options and current file,
     * Flink's metadata of the keyed snapshot, and the operator's non-keyed state.
     */
    static final String NOT_SST = "(other)";

    /** One column family's SST files in a snapshot, summed. */
    static final class Family {
        long files;
        long entries;
        long deletions;
        long mergeOperands;
        long rawKeyBytes;
        long rawValueBytes;
        long dataBytes;
        long fileBytes;

        /**
         * Entries whose key a newer SST file of the snapshot holds too (the higher file number),
         * and their raw value bytes. In a family of puts (pages, metadata) these are superseded
         * versions that a compaction would drop; in one of merges (the journal) an operand over an
         * older value is counted too, though it is live.
         */
        long olderEntries;

        long olderValueBytes;

        /** Per key: the newest file number that holds it and its value's length there. */
        final Map<ByteBuffer, long[]> newest = new HashMap<>();

        /** The compressions the files' blocks were written with, as RocksDB names them. */
        final Set<String> compressions = new TreeSet<>();

        void add(Family o) {
            files += o.files;
            entries += o.entries;
            deletions += o.deletions;
            mergeOperands += o.mergeOperands;
            rawKeyBytes += o.rawKeyBytes;
            rawValueBytes += o.rawValueBytes;
            dataBytes += o.dataBytes;
            fileBytes += o.fileBytes;
            olderEntries += o.olderEntries;
            olderValueBytes += o.olderValueBytes;
            compressions.addAll(o.compressions);
        }
    }

    /**
     * The SST files of the incremental RocksDB snapshots in {@code snapshot}, summed by column
     * family name, and the rest of the snapshot as {@link #NOT_SST}; the file bytes of all of them
     * add up to the snapshot's state size.
     *
     * @throws IllegalArgumentException if a keyed state handle is not an incremental RocksDB one
     */
    static Map<String, Family> of(OperatorSubtaskState snapshot)
            throws IOException, RocksDBException {
        return of(List.of(snapshot), UnaryOperator.identity());
    }

    /**
     * {@link #of(OperatorSubtaskState)} summed over {@code snapshots}, e.g. a checkpoint's, reading
     * each file the snapshots name at {@code relocate} of its path (where a copy was kept).
     */
    static Map<String, Family> of(
            Collection<OperatorSubtaskState> snapshots, UnaryOperator<Path> relocate)
            throws IOException, RocksDBException {
        Map<String, Family> byFamily = new TreeMap<>();
        for (OperatorSubtaskState snapshot : snapshots) {
            add(byFamily, snapshot, relocate);
        }
        return byFamily;
    }

    private static void add(
            Map<String, Family> byFamily,
            OperatorSubtaskState snapshot,
            UnaryOperator<Path> relocate)
            throws IOException, RocksDBException {
        Family other = byFamily.computeIfAbsent(NOT_SST, k -> new Family());
        Path scratch = Files.createTempFile("firstseen-sst", ".sst");
        try (Options options = new Options()) {
            for (KeyedStateHandle h : snapshot.getManagedKeyedState()) {
                if (!(h instanceof IncrementalRemoteKeyedStateHandle inc)) {
                    throw new IllegalArgumentException(
                            "not an incremental RocksDB snapshot: " + h.getClass().getName());
                }
                for (var files : List.of(inc.getSharedState(), inc.getPrivateState())) {
                    for (HandleAndLocalPath file : files) {
                        if (file.getLocalPath().endsWith(".sst")) {
                            add(
                                    byFamily,
                                    file.getHandle(),
                                    fileNumber(file.getLocalPath()),
                                    scratch,
                                    options,
                                    relocate);
                        } else {
                            other.files++;
                            other.fileBytes += file.getStateSize();
                        }
                    }
                }
                other.files++;
                other.fileBytes += inc.getMetaDataStateHandle().getStateSize();
            }
        } finally {
            Files.deleteIfExists(scratch);
        }
        for (Collection<? extends StateObject> states :
                List.<Collection<? extends StateObject>>of(
                        snapshot.getManagedOperatorState(),
                        snapshot.getRawOperatorState(),
                        snapshot.getRawKeyedState(),
                        snapshot.getInputChannelState(),
                        snapshot.getResultSubpartitionState())) {
            for (StateObject state : states) {
                other.files++;
                other.fileBytes += state.getStateSize();
            }
        }
    }

    /**
     * Prints {@link #of} as a table headed by {@code what} (the checkpoint), with each family's
     * file bytes per URL of {@code urls}.
     */
    static void print(String what, Map<String, Family> byFamily, double urls, PrintStream out) {
        out.printf(
                Locale.ROOT,
                "%s by column family (its SST files; raw: keys and values as written, before"
                        + " compression; data: blocks as stored; older: entries whose key a newer"
                        + " file holds too, superseded unless merge operands):%n",
                what);
        out.printf(
                Locale.ROOT,
                "  %-16s %5s %10s %9s %9s %9s %12s %12s %12s %12s %12s %7s  %s%n",
                "column family",
                "files",
                "entries",
                "deletes",
                "merges",
                "older",
                "raw key B",
                "raw value B",
                "older val B",
                "data B",
                "file B",
                "B/URL",
                "compression");
        Family all = new Family();
        for (Map.Entry<String, Family> e : byFamily.entrySet()) {
            line(out, e.getKey(), e.getValue(), urls);
            all.add(e.getValue());
        }
        line(out, "all", all, urls);
    }

    private static void line(PrintStream out, String name, Family f, double urls) {
        out.printf(
                Locale.ROOT,
                "  %-16s %5d %,10d %,9d %,9d %,9d %,12d %,12d %,12d %,12d %,12d %7.3f  %s%n",
                name,
                f.files,
                f.entries,
                f.deletions,
                f.mergeOperands,
                f.olderEntries,
                f.rawKeyBytes,
                f.rawValueBytes,
                f.olderValueBytes,
                f.dataBytes,
                f.fileBytes,
                f.fileBytes / urls,
                f.compressions.isEmpty() ? "-" : String.join(",", f.compressions));
    }

    private static void add(
            Map<String, Family> byFamily,
            StreamStateHandle handle,
            long fileNumber,
            Path scratch,
            Options options,
            UnaryOperator<Path> relocate)
            throws IOException, RocksDBException {
        String path;
        if (handle instanceof FileStateHandle f) {
            path = relocate.apply(Path.of(f.getFilePath().toUri())).toString();
        } else { // a small file kept in the checkpoint's metadata
            try (InputStream in = handle.openInputStream()) {
                Files.write(scratch, in.readAllBytes());
            }
            path = scratch.toString();
        }
        try (SstFileReader reader = new SstFileReader(options)) {
            reader.open(path);
            TableProperties p = reader.getTableProperties();
            String name = new String(p.getColumnFamilyName(), StandardCharsets.UTF_8);
            Family f = byFamily.computeIfAbsent(name, k -> new Family());
            f.files++;
            f.entries += p.getNumEntries();
            f.deletions += p.getNumDeletions();
            f.mergeOperands += p.getNumMergeOperands();
            f.rawKeyBytes += p.getRawKeySize();
            f.rawValueBytes += p.getRawValueSize();
            f.dataBytes += p.getDataSize();
            f.fileBytes += handle.getStateSize();
            f.compressions.add(p.getCompressionName());
            try (ReadOptions read = new ReadOptions();
                    SstFileReaderIterator it = reader.newIterator(read)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    older(f, ByteBuffer.wrap(it.key()), fileNumber, it.value().length);
                }
            }
        }
    }

    /** Notes that file {@code fileNumber} holds {@code key} with a value of {@code length}. */
    static void older(Family f, ByteBuffer key, long fileNumber, int length) {
        long[] seen = f.newest.get(key);
        if (seen == null) {
            f.newest.put(key, new long[] {fileNumber, length});
        } else if (seen[0] == fileNumber) {
            return; // one file holds a key once, but for merge operands
        } else if (seen[0] > fileNumber) {
            f.olderEntries++;
            f.olderValueBytes += length;
        } else {
            f.olderEntries++;
            f.olderValueBytes += seen[1];
            seen[0] = fileNumber;
            seen[1] = length;
        }
    }

    /** RocksDB's number of an SST file, from its name ({@code 000123.sst}). */
    static long fileNumber(String localPath) {
        String name = Path.of(localPath).getFileName().toString();
        return Long.parseLong(name.substring(0, name.length() - ".sst".length()));
    }
}
