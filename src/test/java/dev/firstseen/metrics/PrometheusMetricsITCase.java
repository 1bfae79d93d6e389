package dev.firstseen.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.testing.FlinkCluster;
import dev.firstseen.testing.KafkaBroker;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job's metrics as Prometheus sees them: a MiniCluster with FirstSeen's loopback-bound
 * Prometheus reporter runs the job on a real broker; the scrape must hold every metric the Grafana
 * dashboard and the alert rules (monitoring/alerts.yml) query, and the counters must match what was
 * fed.
 */
class PrometheusMetricsITCase {
    private static final int FIRST_PORT = 19300;
    private static final int LAST_PORT = 19309;
    private static final String OP = "flink_taskmanager_job_task_operator_firstseen_";

    @RegisterExtension static final KafkaBroker KAFKA = new KafkaBroker();

    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkCluster.withRocksDb(reporterConfig());

    private static Configuration reporterConfig() {
        Configuration c = new Configuration();
        c.setString(
                "metrics.reporter.prom.factory.class",
                "dev.firstseen.metrics.prometheus.PrometheusReporterFactory");
        c.setString("metrics.reporter.prom.host", "127.0.0.1");
        c.setString("metrics.reporter.prom.port", FIRST_PORT + "-" + LAST_PORT);
        return c;
    }

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void dashboardMetricsAreExportedAndCountsAreRight() throws Exception {
        String in = KAFKA.freshTopic("in", 2);
        String frontier = KAFKA.freshTopic("frontier", 2);
        String dead = KAFKA.freshTopic("dead", 1);
        List<byte[]> records = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            records.add(
                    bytes("http://site" + (i % 1_000 % 30) + ".example.com/page" + (i % 1_000)));
        }
        records.add(bytes("mailto:x@example.com"));
        KAFKA.produce(in, records);

        Configuration conf = KAFKA.jobOptions(in, frontier, dead);
        conf.setString("execution.checkpointing.interval", "500 ms");
        conf.setString("parallelism.default", "2");
        FirstSeenSettings settings = FirstSeenSettings.from(conf);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        FirstSeenJob.withJobDefaults(conf));
        FirstSeenJob.onKafka(settings).build(env);
        JobClient job = env.executeAsync("FirstSeen metrics ITCase");
        try {
            Set<String> wanted = new TreeSet<>(dashboardMetrics());
            assertThat(wanted).as("metrics the dashboard queries").hasSizeGreaterThan(10);
            Set<String> alerts = alertMetrics();
            assertThat(alerts).as("metrics the alert rules query").hasSizeGreaterThan(5);
            wanted.addAll(alerts);
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            String scrape = "";
            while (System.nanoTime() < deadline) {
                scrape = scrape();
                // Counters reach their final values at different moments: wait for all of them.
                if (sum(scrape, OP + "recordsIn") == 3_001
                        && sum(scrape, OP + "firstSeen") == 1_000
                        && sum(scrape, OP + "duplicates") == 2_000
                        && sum(scrape, OP + "reason_deadLetters") == 1
                        && names(scrape).containsAll(wanted)) {
                    break;
                }
                Thread.sleep(500);
            }
            assertThat(names(scrape)).containsAll(wanted);
            assertThat(sum(scrape, OP + "recordsIn")).isEqualTo(3_001);
            assertThat(sum(scrape, OP + "firstSeen")).isEqualTo(1_000);
            assertThat(sum(scrape, OP + "duplicates")).isEqualTo(2_000);
            assertThat(sum(scrape, OP + "reason_deadLetters")).isEqualTo(1);
        } finally {
            // Wait until the job has really ended: the broker stops after this test, and sinks
            // still aborting their transactions would wait 60 s for it and fail the TaskManager.
            job.cancel().get();
            while (!job.getJobStatus().get().isTerminalState()) {
                Thread.sleep(100);
            }
        }
    }

    /** Metric names in the expressions of monitoring/grafana/dashboards/firstseen.json. */
    static Set<String> dashboardMetrics() throws IOException {
        JsonNode d =
                new ObjectMapper()
                        .readTree(Path.of("monitoring/grafana/dashboards/firstseen.json").toFile());
        Set<String> names = new TreeSet<>();
        Pattern metric = Pattern.compile("flink_[A-Za-z0-9_]+");
        for (JsonNode panel : d.get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                Matcher m = metric.matcher(target.get("expr").asText());
                while (m.find()) {
                    names.add(m.group());
                }
            }
        }
        return names;
    }

    /** Metric names in the alert rules, monitoring/alerts.yml (only expressions name metrics). */
    static Set<String> alertMetrics() throws IOException {
        Set<String> names = new TreeSet<>();
        Matcher m =
                Pattern.compile("flink_[A-Za-z0-9_]+")
                        .matcher(Files.readString(Path.of("monitoring/alerts.yml")));
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    private String scrape() throws InterruptedException {
        for (int port = FIRST_PORT; port <= LAST_PORT; port++) {
            HttpRequest get =
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                            .timeout(Duration.ofSeconds(5))
                            .build();
            try {
                HttpResponse<InputStream> r =
                        http.send(get, HttpResponse.BodyHandlers.ofInputStream());
                try (InputStream body = r.body()) {
                    String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
                    if (text.contains("flink_")) {
                        return text;
                    }
                }
            } catch (IOException notThisPort) {
                // the reporter took another port of the range
            }
        }
        return "";
    }

    private static Set<String> names(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (!line.startsWith("#") && !line.isEmpty()) {
                int end = line.indexOf('{');
                names.add(line.substring(0, end < 0 ? line.indexOf(' ') : end));
            }
        }
        return names;
    }

    /** Sum of a metric over all its label sets. */
    private static long sum(String scrape, String name) {
        double total = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + "{")) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return Math.round(total);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
