package dev.firstseen.emit;

import java.time.Duration;
import java.util.Properties;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;

/**
 * What the two Kafka sinks need, taken from the job's options by {@code FirstSeenSettings}.
 *
 * @param transactionalIdPrefix prefix of both sinks' transactional ids (each adds its own suffix)
 * @param deadLetterMaxRawBytes JSON bytes a dead letter keeps of the bad value
 * @param kafkaProperties extra Kafka client properties ({@code kafka.properties.*})
 */
public record SinkSettings(
        String bootstrapServers,
        String frontierTopic,
        String deadLetterTopic,
        DeliveryGuarantee deliveryGuarantee,
        String transactionalIdPrefix,
        TransactionNamingStrategy transactionNaming,
        Duration transactionTimeout,
        int deadLetterMaxRawBytes,
        Properties kafkaProperties) {}
