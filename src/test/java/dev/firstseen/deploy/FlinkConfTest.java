package dev.firstseen.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.config.FirstSeenOptions;
import dev.firstseen.job.FirstSeenJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code flink-conf/config.yaml} true: Flink itself loads it, the settings it recommends are
 * those the project's measurements support, every measurement its comments cite exists, and the
 * FirstSeen defaults its comments quote are the code's.
 */
class FlinkConfTest {
    private static final Path DIR = DeploymentFiles.root().resolve("flink-conf");

    @Test
    void flinkLoadsTheRecommendedConfiguration() {
        Configuration conf = GlobalConfiguration.loadConfiguration(DIR.toString());
        assertThat(conf.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("rocksdb");
        assertThat(conf.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS)).isTrue();
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(FirstSeenJob.DEFAULT_CHECKPOINT_INTERVAL);
    }

    @Test
    void theJobsRocksDbOptionsFactoryIsNotOverridden() {
        // The job's SeenSetRocksDBOptions replaces a factory the cluster names: recommending
        // one here would only mislead.
        Configuration conf = GlobalConfiguration.loadConfiguration(DIR.toString());
        assertThat(conf.getOptional(RocksDBOptions.OPTIONS_FACTORY)).isEmpty();
    }

    @Test
    void rocksDbBloomFiltersStayOffAsMeasured() {
        // docs/scale-50m-rocksdb-bloom.txt: with them the 50 M-URL run fell to 14-25 k records/s.
        Configuration conf = GlobalConfiguration.loadConfiguration(DIR.toString());
        assertThat(conf.get(RocksDBConfigurableOptions.USE_BLOOM_FILTER)).isFalse();
    }

    @Test
    void everyMeasurementTheCommentsCiteExists() throws Exception {
        String text = Files.readString(DIR.resolve("config.yaml"));
        Matcher m = Pattern.compile("docs/[A-Za-z0-9._-]+").matcher(text);
        List<String> cited = new ArrayList<>();
        while (m.find()) {
            cited.add(m.group());
        }
        assertThat(cited).isNotEmpty();
        for (String doc : cited) {
            assertThat(DeploymentFiles.root().resolve(doc)).as(doc).isRegularFile();
        }
    }

    @Test
    void theDefaultsTheCommentsQuoteAreTheCodes() throws Exception {
        String text = Files.readString(DIR.resolve("config.yaml"));
        double fraction = FirstSeenOptions.FILTER_CACHE_HEAP_FRACTION.defaultValue();
        assertThat(text).contains("dedup.bloom.cache-heap-fraction (" + fraction + " by default)");
        // The per-slot figure the comment quotes: the fraction of the task heap over the slots.
        long perSlotMb = Math.round(fraction * 512 / 2);
        assertThat(text).contains("heap:\n        size: 512m");
        assertThat(text).contains("numberOfTaskSlots: 2");
        assertThat(text).contains("about " + perSlotMb + " mb per slot here");
        Duration timeout = FirstSeenOptions.TRANSACTION_TIMEOUT.defaultValue();
        assertThat(text).contains("sink.transaction-timeout (" + timeout.toMinutes() + " min)");
        assertThat(FirstSeenOptions.FILTER_CACHE_HEAP_FRACTION.key())
                .isEqualTo("dedup.bloom.cache-heap-fraction");
        assertThat(FirstSeenOptions.TRANSACTION_TIMEOUT.key())
                .isEqualTo("sink.transaction-timeout");
    }
}
