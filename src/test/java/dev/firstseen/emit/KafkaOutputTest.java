package dev.firstseen.emit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.job.FirstSeenJob;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Kafka client properties given as kafka.properties.* reach the sinks' producers. */
class KafkaOutputTest {
    @Test
    void securityPropertiesReachTheProducersAndMayOverrideDefaults() {
        FirstSeenSettings s =
                FirstSeenSettings.from(
                        FirstSeenJob.parseArgs(
                                new String[] {
                                    "--kafka.bootstrap-servers", "broker:9093",
                                    "--input.topics", "urls",
                                    "--sink.transaction-timeout", "10 min",
                                    "--kafka.properties.security.protocol", "SASL_SSL",
                                    "--kafka.properties.sasl.mechanism", "SCRAM-SHA-512",
                                    "--kafka.properties.compression.type", "zstd"
                                }));
        Properties p = KafkaOutput.producerProperties(s.sinkSettings());
        assertThat(p.getProperty("security.protocol")).isEqualTo("SASL_SSL");
        assertThat(p.getProperty("sasl.mechanism")).isEqualTo("SCRAM-SHA-512");
        assertThat(p.getProperty("compression.type")).isEqualTo("zstd");
        assertThat(p.getProperty("transaction.timeout.ms")).isEqualTo("600000");
    }

    @Test
    void producersBatchForTheCheckpointUnlessTold() {
        String[] base = {"--kafka.bootstrap-servers", "broker:9093", "--input.topics", "urls"};
        Properties defaults =
                KafkaOutput.producerProperties(
                        FirstSeenSettings.from(FirstSeenJob.parseArgs(base)).sinkSettings());
        assertThat(defaults.getProperty("compression.type")).isEqualTo("lz4");
        assertThat(defaults.getProperty("linger.ms")).isEqualTo("100");
        assertThat(defaults.getProperty("batch.size")).isEqualTo("262144");
        String[] told = java.util.Arrays.copyOf(base, base.length + 4);
        told[base.length] = "--kafka.properties.linger.ms";
        told[base.length + 1] = "5";
        told[base.length + 2] = "--kafka.properties.batch.size";
        told[base.length + 3] = "16384";
        Properties p =
                KafkaOutput.producerProperties(
                        FirstSeenSettings.from(FirstSeenJob.parseArgs(told)).sinkSettings());
        assertThat(p.getProperty("linger.ms")).isEqualTo("5");
        assertThat(p.getProperty("batch.size")).isEqualTo("16384");
    }
}
