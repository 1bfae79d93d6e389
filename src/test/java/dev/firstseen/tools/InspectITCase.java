package dev.firstseen.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.dedup.ExactStoreType;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.testing.FlinkCluster;
import dev.firstseen.testing.KafkaBroker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Inspect} on a savepoint a real job takes: the job dedups a stream from the broker, stops
 * with a savepoint, and the State Processor API reads back what it saw.
 */
class InspectITCase {
    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkCluster.withRocksDb(new Configuration());

    /**
     * Both exact-mode stores (entries with times, fingerprint pages without) and approximate mode,
     * whose filter tells a URL it never had for sure and one it has up to its key's rate.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ENTRIES", "PAGES", "APPROXIMATE"})
    void readsTotalsAndAnswersChecksFromASavepoint(String store, @TempDir Path dir)
            throws Exception {
        boolean approximate = store.equals("APPROXIMATE");
        String in = KAFKA.freshTopic("in", 2);
        String frontier = KAFKA.freshTopic("frontier", 2);
        String dead = KAFKA.freshTopic("dead", 1);
        List<byte[]> records = new ArrayList<>();
        // 3 keys with 100, 200 and 300 distinct pages, every URL twice: 600 distinct URLs.
        String[] sites = {"site0.com", "site1.org", "site2.net"};
        for (int round = 0; round < 2; round++) {
            for (int site = 0; site < 3; site++) {
                for (int page = 0; page < 100 * (site + 1); page++) {
                    records.add(
                            ("http://" + sites[site] + "/p" + page)
                                    .getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        KAFKA.produce(in, records);
        Configuration conf = KAFKA.jobOptions(in, frontier, dead);
        conf.setString("parallelism.default", "2");
        if (approximate) {
            // At 1e-9 the 600 URLs lose one with a chance of about 5e-8, so all 600 are counted.
            conf.setString("dedup.mode", "APPROXIMATE");
            conf.setString("dedup.bloom.false-positive-rate", "1e-9");
        } else {
            conf.setString("dedup.exact.store", store);
        }
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        FirstSeenJob.withJobDefaults(conf));
        FirstSeenJob.onKafka(FirstSeenSettings.from(conf)).build(env);
        JobClient job = env.executeAsync("inspect ITCase");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        int emitted = 0;
        while (System.nanoTime() < deadline && emitted < 600) {
            emitted = KAFKA.drain(frontier).size();
            Thread.sleep(200);
        }
        String savepoint =
                job.stopWithSavepoint(false, dir.toUri().toString(), SavepointFormatType.CANONICAL)
                        .get();

        List<String> check =
                List.of(
                        "http://SITE0.com:80/p5", // seen, spelled differently
                        "http://site2.net/p299",
                        "http://site2.net/p300", // never sent
                        "mailto:nobody@example.com");
        Inspect.Report r = Inspect.read(savepoint, check, new Configuration());
        assertThat(r.settings()).containsEntry("canonical.profile", "rfc3986-safe/1");
        assertThat(r.fingerprintFunction()).startsWith("siphash");
        assertThat(r.keys()).hasSize(3);
        assertThat(r.urls()).isEqualTo(600);
        assertThat(
                        r.keys().stream()
                                .filter(k -> k.key.equals("site2.net"))
                                .findFirst()
                                .orElseThrow()
                                .urls)
                .isEqualTo(300);
        assertThat(r.keys()).allMatch(k -> k.bloomBytes > 0);
        if (store.equals(ExactStoreType.ENTRIES.name())) {
            assertThat(r.keys()).allMatch(k -> k.oldest <= k.newest);
        }
        assertThat(r.checks().get("http://SITE0.com:80/p5")).startsWith("seen");
        assertThat(r.checks().get("http://site2.net/p299")).startsWith("seen");
        if (approximate) {
            // A key of 300 URLs in its first class, of 40-bit prefixes for 512 URLs at 1e-9.
            assertThat(r.checks().get("http://site2.net/p299"))
                    .isEqualTo(Inspect.approximateSeen(Math.scalb(300.0, -40)))
                    .contains("rate of 2.7e-10");
            assertThat(r.keys())
                    .allMatch(
                            k -> k.rate == Math.scalb((double) k.urls, -40), "rate = URLs / 2^40");
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            Inspect.print(r, 1, new PrintStream(text, true, StandardCharsets.UTF_8));
            assertThat(text.toString(StandardCharsets.UTF_8))
                    .containsPattern("site2\\.net +300  rate 2\\.7e-10");
        } else {
            assertThat(r.keys()).allMatch(k -> Double.isNaN(k.rate), "no rate in exact mode");
        }
        assertThat(r.checks().get("http://site2.net/p300")).isEqualTo("unseen");
        assertThat(r.checks().get("mailto:nobody@example.com")).startsWith("invalid");

        // Checking with another profile than the state's is refused, not answered wrongly.
        Configuration other = new Configuration();
        other.setString("canonical.rules", "strip-www");
        assertThatThrownBy(() -> Inspect.read(savepoint, check, other))
                .hasMessageContaining("rfc3986-safe/1");
    }
}
