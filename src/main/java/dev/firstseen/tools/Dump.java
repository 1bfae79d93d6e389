package dev.firstseen.tools;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Prints the committed values of a topic, one per line, from the beginning, and exits when it has
 * read up to the end that was current at its start. Reads with {@code isolation.level=
 * read_committed}, as every consumer of FirstSeen's exactly-once output must.
 */
public final class Dump {
    private Dump() {}

    static final String USAGE =
            "Usage: Dump --bootstrap HOST:PORT --topic TOPIC [--limit N] [--count]";

    public static void main(String[] argv) {
        ToolArgs args = new ToolArgs(argv, USAGE);
        String topic = args.required("topic");
        long limit = args.getLong("limit", Long.MAX_VALUE);
        boolean countOnly = args.has("count");
        long n = 0;
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(args.required("bootstrap"))) {
            List<TopicPartition> parts =
                    consumer.partitionsFor(topic).stream()
                            .map(i -> new TopicPartition(topic, i.partition()))
                            .collect(Collectors.toList());
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            while (n < limit && !caughtUp(consumer, end)) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (n++ >= limit) {
                        break;
                    }
                    if (!countOnly) {
                        out.println(
                                r.value() == null
                                        ? "null"
                                        : new String(r.value(), StandardCharsets.UTF_8));
                    }
                }
            }
        }
        if (countOnly) {
            out.println(Math.min(n, limit));
        }
        out.flush();
    }

    static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("isolation.level", "read_committed");
        p.put("enable.auto.commit", "false");
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(p);
    }

    private static boolean caughtUp(
            KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
