package dev.firstseen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScaleRunTest {
    @TempDir Path dir;

    /** RocksDB's local snapshots are hard links to the live SST files: not twice the disk. */
    @Test
    void aHardLinkedFileCountsOnce() throws Exception {
        Path sst = Files.write(dir.resolve("000012.sst"), new byte[1000]);
        Files.createDirectories(dir.resolve("chk-3"));
        Files.createLink(dir.resolve("chk-3/000012.sst"), sst);
        Files.write(dir.resolve("chk-3/MANIFEST-000001"), new byte[24]);
        assertThat(ScaleRun.bytesUnder(dir)).isEqualTo(1024);
    }

    /** --replot reads the table rows of a saved run and nothing else. */
    @Test
    void aSavedRunsRowsAreItsSamples() {
        var samples =
                ScaleRun.parseSamples(
                        List.of(
                                "building FirstSeen...",
                                " seconds        records      URLs seen    records/s  RocksDB bytes    checkpoints",
                                "      30      3,162,501      1,964,858      104,303     39,394,307     39,182,642",
                                "      60      6,000,000      3,500,000       94,000     50,000,000     49,000,000",
                                "plot: x.png"));
        assertThat(samples).hasSize(2);
        assertThat(samples.get(0).steady()).isFalse();
        assertThat(samples.get(1).steady()).isTrue();
        assertThat(samples.get(1).records()).isEqualTo(6_000_000);
        assertThat(samples.get(1).urlsSeen()).isEqualTo(3_500_000);
        assertThat(samples.get(1).rate()).isEqualTo(94_000);
        assertThat(samples.get(1).chk()).isEqualTo(49_000_000);
        assertThat(ScaleRun.lastUrlsSeen(samples)).isEqualTo(3_500_000);
    }

    /**
     * --sst-summary: a short approximate run with frequent checkpoints keeps them, and the largest
     * one's bytes by column family add up to the full state size Flink reported for it.
     */
    @Test
    void theLargestCheckpointIsBrokenDownByColumnFamily() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ScaleRun.freshWork(dir.resolve("work"));
        ScaleRun.sstSummary = true;
        try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            ScaleRun.run(
                    "firstseen",
                    500_000,
                    2,
                    1,
                    "128m",
                    Map.of(
                            "dedup.mode", "approximate",
                            "execution.checkpointing.interval", "300 ms"),
                    dir.resolve("work"),
                    out);
        } finally {
            ScaleRun.sstSummary = false;
        }
        String printed = buf.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("by column family");
        assertThat(printed).containsPattern("(?m)^  bloom-pages +[1-9]");
        assertThat(printed).containsPattern("(?m)^  all +[1-9]");
        assertThat(printed).doesNotContain("no checkpoint's files were kept");
        assertThat(printed).doesNotContain("differ from the");
    }
}
