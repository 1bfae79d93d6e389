package dev.firstseen.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.ingest.MessageDecoder;
import dev.firstseen.job.FirstSeenJob;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The exactly-once oracle of the fault tests. It derives what the frontier and the dead-letter
 * topic must hold from the input topic itself, with the job's own decoder and canonicalizer and the
 * same options, then reads both outputs with {@code read_committed} and reports every canonical URL
 * that is missing, repeated or unexpected, and every bad input record whose dead letter is missing,
 * repeated or unexpected (identified by input partition and offset).
 *
 * <p>Takes the job's own arguments ({@code --kafka.bootstrap-servers}, {@code --input.topics},
 * {@code --frontier.topic}, {@code --dead-letter.topic}, {@code --canonical.*}, ...) plus {@code
 * --verify.wait SECONDS}: how long to keep reading the outputs while URLs are still missing (the
 * job may still be catching up). Repeats end the wait at once: a committed record never goes away.
 * Exits 0 when nothing is missing, repeated or unexpected, 1 otherwise.
 */
public final class Verify {
    private Verify() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    static final ConfigOption<Long> WAIT_SECONDS =
            ConfigOptions.key("verify.wait")
                    .longType()
                    .defaultValue(0L)
                    .withDescription("Seconds to keep reading the outputs while URLs are missing.");

    /** What one verification found. */
    public record Result(
            long inputRecords,
            long expectedUrls,
            long expectedDead,
            long frontierRecords,
            long duplicates,
            long lost,
            long unexpected,
            long deadRecords,
            long deadDuplicates,
            long deadLost,
            long deadUnexpected) {
        public boolean passed() {
            return duplicates == 0
                    && lost == 0
                    && unexpected == 0
                    && deadDuplicates == 0
                    && deadLost == 0
                    && deadUnexpected == 0;
        }

        boolean repeated() {
            return duplicates > 0 || deadDuplicates > 0;
        }

        String summary() {
            return String.format(
                    Locale.ROOT,
                    "input %,d records: %,d distinct URLs, %,d bad | frontier %,d records:"
                            + " duplicates %,d, lost %,d, unexpected %,d | dead letters %,d:"
                            + " duplicates %,d, lost %,d, unexpected %,d | %s",
                    inputRecords,
                    expectedUrls,
                    expectedDead,
                    frontierRecords,
                    duplicates,
                    lost,
                    unexpected,
                    deadRecords,
                    deadDuplicates,
                    deadLost,
                    deadUnexpected,
                    passed() ? "PASS" : "FAIL");
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = FirstSeenJob.parseArgs(args);
        FirstSeenSettings settings = ToolArgs.settingsOrExit(conf);
        Result r = verify(settings, Duration.ofSeconds(conf.get(WAIT_SECONDS)), System.err);
        System.out.println("verify: " + r.summary());
        System.exit(r.passed() ? 0 : 1);
    }

    /** Verifies the job's outputs against its input, waiting up to {@code wait} for lost URLs. */
    public static Result verify(FirstSeenSettings s, Duration wait, PrintStream progress) {
        MessageDecoder decoder = s.messageDecoder();
        Canonicalizer canonicalizer = s.canonicalizer();
        Set<String> expected = new HashSet<>();
        Set<Long> expectedDead = new HashSet<>();
        long[] inputRecords = new long[1];
        for (int i = 0; i < s.inputTopics().size(); i++) {
            int topicIndex = i;
            readAll(
                    s.bootstrapServers(),
                    s.inputTopics().get(i),
                    r -> {
                        inputRecords[0]++;
                        MessageDecoder.Decoded d = decoder.decode(r.value());
                        Canonicalization c =
                                d.reason == null ? canonicalizer.canonicalize(d.url) : null;
                        if (c != null && c.isAccepted()) {
                            expected.add(c.url());
                        } else {
                            expectedDead.add(sourceId(topicIndex, r.partition(), r.offset()));
                        }
                    });
        }
        Map<String, Integer> frontier = new HashMap<>();
        Map<Long, Integer> dead = new HashMap<>();
        long[] frontierRecords = new long[1];
        long[] deadRecords = new long[1];
        long deadline = System.nanoTime() + wait.toNanos();
        try (TopicReader f = new TopicReader(s.bootstrapServers(), s.frontierTopic());
                TopicReader d = new TopicReader(s.bootstrapServers(), s.deadLetterTopic())) {
            while (true) {
                f.drain(
                        r -> {
                            frontierRecords[0]++;
                            frontier.merge(field(r.value(), "canonical"), 1, Integer::sum);
                        });
                d.drain(
                        r -> {
                            deadRecords[0]++;
                            JsonNode src = tree(r.value()).path("source");
                            int topicIndex = s.inputTopics().indexOf(src.path("topic").asText());
                            long id =
                                    sourceId(
                                            topicIndex,
                                            src.path("partition").asInt(),
                                            src.path("offset").asLong());
                            dead.merge(id, 1, Integer::sum);
                        });
                Result r =
                        compare(
                                inputRecords[0],
                                expected,
                                expectedDead,
                                frontier,
                                frontierRecords[0],
                                dead,
                                deadRecords[0]);
                if (r.passed() || r.repeated() || System.nanoTime() >= deadline) {
                    return r;
                }
                progress.printf(Locale.ROOT, "verify: waiting for the job (%s)%n", r.summary());
                sleep(Duration.ofSeconds(2));
            }
        }
    }

    static Result compare(
            long inputRecords,
            Set<String> expected,
            Set<Long> expectedDead,
            Map<String, Integer> frontier,
            long frontierRecords,
            Map<Long, Integer> dead,
            long deadRecords) {
        long dup = 0;
        long unexpected = 0;
        for (Map.Entry<String, Integer> e : frontier.entrySet()) {
            dup += e.getValue() - 1;
            if (!expected.contains(e.getKey())) {
                unexpected++;
            }
        }
        long lost = 0;
        for (String u : expected) {
            if (!frontier.containsKey(u)) {
                lost++;
            }
        }
        long deadDup = 0;
        long deadUnexpected = 0;
        for (Map.Entry<Long, Integer> e : dead.entrySet()) {
            deadDup += e.getValue() - 1;
            if (!expectedDead.contains(e.getKey())) {
                deadUnexpected++;
            }
        }
        long deadLost = 0;
        for (Long id : expectedDead) {
            if (!dead.containsKey(id)) {
                deadLost++;
            }
        }
        return new Result(
                inputRecords,
                expected.size(),
                expectedDead.size(),
                frontierRecords,
                dup,
                lost,
                unexpected,
                deadRecords,
                deadDup,
                deadLost,
                deadUnexpected);
    }

    /** Input topic index (up to 255), partition (up to 2^16) and offset (up to 2^40) in a long. */
    private static long sourceId(int topicIndex, int partition, long offset) {
        return ((long) topicIndex << 56) | ((long) partition << 40) | offset;
    }

    private static String field(byte[] json, String name) {
        return tree(json).path(name).asText();
    }

    private static JsonNode tree(byte[] json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("output record is not JSON: " + e.getMessage(), e);
        }
    }

    private static void readAll(
            String bootstrap, String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        try (TopicReader t = new TopicReader(bootstrap, topic)) {
            t.drain(each);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
