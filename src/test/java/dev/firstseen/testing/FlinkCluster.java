package dev.firstseen.testing;

import java.io.File;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The MiniCluster of the ITCases: one TaskManager, two slots, RocksDB, incremental checkpoints. */
public final class FlinkCluster {
    private FlinkCluster() {}

    /** A MiniCluster extension with the ITCase defaults plus {@code extra}. */
    public static MiniClusterExtension withRocksDb(Configuration extra) {
        Configuration c = new Configuration();
        c.setString("state.backend.type", "rocksdb");
        c.setString("execution.checkpointing.incremental", "true");
        c.setString(
                "execution.checkpointing.dir",
                new File("target/it-checkpoints").getAbsoluteFile().toURI().toString());
        c.addAll(extra);
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(2)
                        .setConfiguration(c)
                        .build());
    }
}
