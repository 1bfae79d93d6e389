package dev.firstseen.tools;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a {@link CrawlStream} to a topic or a file (one record per line; records containing a line
 * break are then written as-is and split by readers, so prefer --topic). With {@code --hostile H},
 * H of the {@code --count} records are {@link HostileRecords} spread evenly through the stream;
 * with {@code --rate R} it sends at most R records per second, so a job can be failed while input
 * is still flowing.
 */
public final class SampleUrls {
    private SampleUrls() {}

    static final String USAGE =
            "Usage: SampleUrls --count N [--seed S] [--domains D] [--bad-rate R] [--hostile H]"
                    + " [--rate RECORDS_PER_S] (--bootstrap HOST:PORT --topic TOPIC | --out FILE)";

    public static void main(String[] argv) throws Exception {
        ToolArgs args = new ToolArgs(argv, USAGE);
        long count = args.getLong("count", 100_000);
        CrawlStream stream =
                new CrawlStream(
                        args.getLong("seed", 1),
                        (int) args.getLong("domains", 500),
                        Double.parseDouble(args.get("bad-rate", "0.01")));
        long hostileCount = args.getLong("hostile", 0);
        HostileRecords hostile = new HostileRecords(args.getLong("seed", 1) + 1);
        long rate = args.getLong("rate", 0);
        long start = System.nanoTime();
        long lastReport = start;
        if (args.has("out")) {
            if (hostileCount > 0) {
                throw new IllegalArgumentException(
                        "--hostile needs --topic: hostile records include null values");
            }
            try (OutputStream out =
                    new BufferedOutputStream(
                            Files.newOutputStream(Path.of(args.required("out"))))) {
                for (long i = 0; i < count; i++) {
                    out.write(stream.next());
                    out.write('\n');
                }
            }
        } else {
            String topic = args.required("topic");
            try (KafkaProducer<byte[], byte[]> producer =
                    Produce.producer(args.required("bootstrap"))) {
                for (long i = 0; i < count; i++) {
                    boolean bad = (i + 1) * hostileCount / count > i * hostileCount / count;
                    producer.send(
                            new ProducerRecord<>(topic, bad ? hostile.next() : stream.next()));
                    if (rate > 0) {
                        pace(start, i + 1, rate);
                    }
                    long now = System.nanoTime();
                    if (now - lastReport > 1_000_000_000L) {
                        System.err.printf(Locale.ROOT, "\r  producing %,d / %,d", i + 1, count);
                        lastReport = now;
                    }
                }
                producer.flush();
            }
        }
        System.err.printf(
                Locale.ROOT,
                "\rgenerated %,d records in %.1f s: %,d distinct URLs, %,d bad records,"
                        + " %,d hostile records%n",
                count,
                (System.nanoTime() - start) / 1e9,
                stream.distinct(),
                stream.bad(),
                hostile.made());
    }

    /** Sleeps until {@code sent} records are due at {@code rate} per second since {@code start}. */
    private static void pace(long start, long sent, long rate) throws InterruptedException {
        long due = start + sent * 1_000_000_000L / rate;
        long ahead = due - System.nanoTime();
        if (ahead > 1_000_000L) {
            Thread.sleep(ahead / 1_000_000L);
        }
    }
}
