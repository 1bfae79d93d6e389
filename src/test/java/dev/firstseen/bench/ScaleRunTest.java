package dev.firstseen.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
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
}
