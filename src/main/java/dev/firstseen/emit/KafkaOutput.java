package dev.firstseen.emit;

import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.FrontierRecord;
import java.util.Properties;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;

/**
 * The Kafka sinks of the frontier and the dead letters. With EXACTLY_ONCE both write in Kafka
 * transactions committed when a checkpoint completes; their consumers must read with {@code
 * isolation.level=read_committed} or they also see records of aborted attempts.
 */
public final class KafkaOutput {
    private KafkaOutput() {}

    public static KafkaSink<FrontierRecord> frontier(SinkSettings s) {
        return KafkaSink.<FrontierRecord>builder()
                .setBootstrapServers(s.bootstrapServers())
                .setKafkaProducerConfig(producerProperties(s))
                .setDeliveryGuarantee(s.deliveryGuarantee())
                .setTransactionalIdPrefix(s.transactionalIdPrefix() + "-frontier")
                .setTransactionNamingStrategy(s.transactionNaming())
                .setRecordSerializer(
                        KafkaRecordSerializationSchema.<FrontierRecord>builder()
                                .setTopic(s.frontierTopic())
                                .setKeySerializationSchema(FrontierSerializer.key())
                                .setValueSerializationSchema(FrontierSerializer.value())
                                .build())
                .build();
    }

    public static KafkaSink<DeadLetter> deadLetters(SinkSettings s) {
        return KafkaSink.<DeadLetter>builder()
                .setBootstrapServers(s.bootstrapServers())
                .setKafkaProducerConfig(producerProperties(s))
                .setDeliveryGuarantee(s.deliveryGuarantee())
                .setTransactionalIdPrefix(s.transactionalIdPrefix() + "-dead-letters")
                .setTransactionNamingStrategy(s.transactionNaming())
                .setRecordSerializer(
                        KafkaRecordSerializationSchema.<DeadLetter>builder()
                                .setTopic(s.deadLetterTopic())
                                .setValueSerializationSchema(
                                        DeadLetterSerializer.value(s.deadLetterMaxRawBytes()))
                                .build())
                .build();
    }

    /** The producers' {@code batch.size} unless {@code kafka.properties.batch.size} is set. */
    static final int BATCH_BYTES = 256 * 1024;

    /**
     * Producer properties of both sinks: FirstSeen defaults, then every kafka.properties.* option.
     */
    static Properties producerProperties(SinkSettings s) {
        Properties p = new Properties();
        // The connector's default (1 h) exceeds the broker's default maximum (15 min) and the
        // job would fail at its first transaction.
        p.setProperty("transaction.timeout.ms", Long.toString(s.transactionTimeout().toMillis()));
        p.setProperty("compression.type", "lz4");
        // Frontier records are read when the checkpoint's transaction commits, so waiting up to
        // 100 ms to fill a batch delays no reader. Fewer, larger batches pay each batch's fixed
        // costs (an LZ4 stream allocates and zeroes 128 KB of buffers) over more records: 0.86x
        // the approximate job's CPU per record against the client's 16 KB and 5 ms
        // (docs/bench-1m-producer-batching-session15.txt).
        p.setProperty("linger.ms", "100");
        p.setProperty("batch.size", Integer.toString(BATCH_BYTES));
        p.putAll(s.kafkaProperties());
        return p;
    }
}
