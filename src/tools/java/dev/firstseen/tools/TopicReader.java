package dev.firstseen.tools;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads every partition of a topic from the beginning with {@code isolation.level=read_committed},
 * as every consumer of FirstSeen's exactly-once output must. Each {@link #drain} reads up to the
 * end offsets current when it starts; a later drain continues where the last one stopped.
 */
final class TopicReader implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> parts = new ArrayList<>();

    TopicReader(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("isolation.level", "read_committed");
        p.put("enable.auto.commit", "false");
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        consumer = new KafkaConsumer<>(p);
        consumer.partitionsFor(topic)
                .forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
    }

    /** Hands every record to {@code each} until caught up. */
    void drain(Consumer<ConsumerRecord<byte[], byte[]>> each) {
        drainWhile(
                r -> {
                    each.accept(r);
                    return true;
                });
    }

    /** Hands records to {@code each} until caught up, or until it returns false. */
    void drainWhile(Predicate<ConsumerRecord<byte[], byte[]>> each) {
        Map<TopicPartition, Long> end = consumer.endOffsets(parts);
        while (!caughtUp(end)) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                if (!each.test(r)) {
                    return;
                }
            }
        }
    }

    private boolean caughtUp(Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
