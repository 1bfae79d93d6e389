package dev.firstseen.tools;

import dev.firstseen.emit.internal.JsonWriter;
import dev.firstseen.record.Op;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces each line of a file (or standard input) as one record value. With {@code --op OP} each
 * non-blank line is a URL and goes out as {@code {"url":LINE,"op":OP}}: {@code --op mark-seen}
 * imports an earlier crawl's URLs into the seen-set, {@code --op forget} removes them.
 */
public final class Produce {
    private Produce() {}

    static final String USAGE =
            "Usage: Produce --bootstrap HOST:PORT --topic TOPIC [--file PATH] [--op OP]"
                    + "   (default: stdin; OP: seen, force, mark-seen, forget)";

    public static void main(String[] argv) throws Exception {
        ToolArgs args = new ToolArgs(argv, USAGE);
        String topic = args.required("topic");
        Op op = null;
        if (args.has("op")) {
            op = Op.of(args.required("op"));
            if (op == null || op == Op.FORGET_KEY) {
                System.err.println("--op must be one of seen, force, mark-seen, forget");
                System.exit(2);
            }
        }
        JsonWriter json = new JsonWriter();
        long n = 0;
        try (KafkaProducer<byte[], byte[]> producer = producer(args.required("bootstrap"));
                BufferedReader in =
                        args.has("file")
                                ? Files.newBufferedReader(
                                        Path.of(args.required("file")), StandardCharsets.UTF_8)
                                : new BufferedReader(
                                        new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                byte[] value;
                if (op == null) {
                    value = line.getBytes(StandardCharsets.UTF_8);
                } else if (line.isBlank()) {
                    continue;
                } else {
                    value =
                            json.reset()
                                    .raw("{\"url\":")
                                    .string(line.strip())
                                    .raw(",\"op\":")
                                    .string(op.code())
                                    .raw('}')
                                    .toBytes();
                }
                producer.send(new ProducerRecord<>(topic, value));
                n++;
                if (n % 1_000_000 == 0) {
                    System.err.printf(Locale.ROOT, "%,d records sent to %s%n", n, topic);
                }
            }
            producer.flush();
        }
        System.err.printf(Locale.ROOT, "produced %,d records to %s%n", n, topic);
    }

    static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("linger.ms", "20");
        p.put("batch.size", Integer.toString(256 << 10));
        p.put("compression.type", "lz4");
        p.put("max.request.size", Integer.toString(4 << 20));
        return new KafkaProducer<>(p);
    }
}
