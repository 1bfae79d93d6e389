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
}
