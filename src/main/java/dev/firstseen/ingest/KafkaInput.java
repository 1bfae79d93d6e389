package dev.firstseen.ingest;

import dev.firstseen.record.RawRecord;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** The Kafka source of raw URLs. */
public final class KafkaInput {
    private KafkaInput() {}

    // OffsetResetStrategy is deprecated in kafka-clients 4.x, but the connector's
    // committedOffsets(...) still takes it.
    @SuppressWarnings("deprecation")
    public static KafkaSource<RawRecord> source(SourceSettings s) {
        KafkaSourceBuilder<RawRecord> b =
                KafkaSource.<RawRecord>builder()
                        .setBootstrapServers(s.bootstrapServers())
                        .setTopics(s.topics())
                        .setGroupId(s.groupId())
                        .setClientIdPrefix(s.groupId())
                        .setDeserializer(new RawRecordDeserializer())
                        // Producers that write transactionally may abort: never read that.
                        .setProperty("isolation.level", "read_committed");
        s.kafkaProperties().forEach((k, v) -> b.setProperty((String) k, (String) v));
        switch (s.startingOffsets()) {
            case EARLIEST:
                b.setStartingOffsets(OffsetsInitializer.earliest());
                break;
            case LATEST:
                b.setStartingOffsets(OffsetsInitializer.latest());
                break;
            default:
                b.setStartingOffsets(
                        OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST));
        }
        if (s.bounded()) {
            b.setBounded(OffsetsInitializer.latest());
        }
        return b.build();
    }
}
