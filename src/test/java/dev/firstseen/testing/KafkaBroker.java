package dev.firstseen.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real single-node KRaft Kafka broker in the test JVM (Kafka's own {@link KafkaClusterTestKit}),
 * started once per test class, plus the helpers tests need: fresh topics, produce, and a {@code
 * read_committed} drain. No Docker.
 */
public final class KafkaBroker implements BeforeAllCallback, AfterAllCallback {
    private KafkaClusterTestKit kit;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        kit =
                new KafkaClusterTestKit.Builder(
                                new TestKitNodes.Builder()
                                        .setCombined(true)
                                        .setNumBrokerNodes(1)
                                        .setNumControllerNodes(1)
                                        .build())
                        .setConfigProp("offsets.topic.replication.factor", "1")
                        .setConfigProp("transaction.state.log.replication.factor", "1")
                        .setConfigProp("transaction.state.log.min.isr", "1")
                        .setConfigProp("group.initial.rebalance.delay.ms", "0")
                        .build();
        kit.format();
        kit.startup();
        kit.waitForReadyBrokers();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (kit != null) {
            kit.close();
        }
    }

    public String bootstrapServers() {
        return kit.bootstrapServers();
    }

    /** Creates a topic with a unique name starting with {@code prefix}. */
    public String freshTopic(String prefix, int partitions) throws Exception {
        return freshTopic(prefix, partitions, Map.of());
    }

    /** Creates a topic with a unique name starting with {@code prefix} and topic configs. */
    public String freshTopic(String prefix, int partitions, Map<String, String> configs)
            throws Exception {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
                    .all()
                    .get();
        }
        return name;
    }

    /** Produces values (round-robin over partitions), null keys. */
    /**
     * FirstSeen options for a job from {@code in} to {@code frontier} and {@code dead} on this
     * broker: reading from the start, transactional ids named after {@code in}, a checkpoint every
     * 300 ms (the sinks commit on checkpoints).
     */
    public org.apache.flink.configuration.Configuration jobOptions(
            String in, String frontier, String dead) {
        var conf = new org.apache.flink.configuration.Configuration();
        conf.setString("kafka.bootstrap-servers", bootstrapServers());
        conf.setString("input.topics", in);
        conf.setString("input.starting-offsets", "EARLIEST");
        conf.setString("frontier.topic", frontier);
        conf.setString("dead-letter.topic", dead);
        conf.setString("sink.transactional-id-prefix", "it-" + in);
        conf.setString("execution.checkpointing.interval", "300 ms");
        return conf;
    }

    public void produce(String topic, Collection<byte[]> values) {
        produce(topic, new ArrayList<>(values), null);
    }

    /**
     * {@code values} in order, each with the Kafka timestamp (CreateTime) at the same index of
     * {@code timestamps}, or the producer's clock if that is null.
     */
    public void produce(String topic, List<byte[]> values, List<Long> timestamps) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 << 20);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < values.size(); i++) {
                Long ts = timestamps == null ? null : timestamps.get(i);
                producer.send(new ProducerRecord<>(topic, null, ts, null, values.get(i)));
            }
            producer.flush();
        }
    }

    /** Every committed record of {@code topic}, read with read_committed until caught up. */
    public List<ConsumerRecord<byte[], byte[]>> drain(String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts =
                    consumer.partitionsFor(topic).stream()
                            .map(i -> new TopicPartition(topic, i.partition()))
                            .collect(Collectors.toList());
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!caughtUp(consumer, end) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            if (!caughtUp(consumer, end)) {
                throw new IllegalStateException("Could not read " + topic + " to its end");
            }
        }
        return out;
    }

    private static boolean caughtUp(
            KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        Map<TopicPartition, Long> pos = new HashMap<>();
        Set<TopicPartition> parts = end.keySet();
        for (TopicPartition tp : parts) {
            pos.put(tp, consumer.position(tp));
        }
        return parts.stream().allMatch(tp -> pos.get(tp) >= end.get(tp));
    }
}
