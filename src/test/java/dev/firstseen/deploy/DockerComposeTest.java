package dev.firstseen.deploy;

import static dev.firstseen.deploy.DeploymentFiles.list;
import static dev.firstseen.deploy.DeploymentFiles.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What can be checked of {@code docker-compose.yml} without a Docker engine (this machine has
 * none): the checkpoint and savepoint directories every Flink service is configured with are named
 * volumes mounted at those paths in every Flink service, ports bind to 127.0.0.1, image versions
 * are the ones the build and the scripts test against, Prometheus scrapes every Flink service on
 * its reporter port, and the topics the job uses are created.
 */
class DockerComposeTest {
    private static Map<String, Object> compose;
    private static Map<String, Object> services;

    @BeforeAll
    static void read() throws Exception {
        compose = DeploymentFiles.yaml("docker-compose.yml");
        services = map(compose.get("services"));
    }

    /** Services that run Flink's image as a JobManager or TaskManager. */
    private static Map<String, Map<String, Object>> flinkProcesses() {
        Map<String, Map<String, Object>> out = new HashMap<>();
        services.forEach(
                (name, s) -> {
                    Map<String, Object> svc = map(s);
                    Object command = svc.get("command");
                    if (String.valueOf(svc.get("image")).startsWith("flink:")
                            && ("jobmanager".equals(command) || "taskmanager".equals(command))) {
                        out.put(name, svc);
                    }
                });
        return out;
    }

    /** FLINK_PROPERTIES of a service, as a map. */
    private static Map<String, String> flinkProperties(Map<String, Object> svc) {
        String text = String.valueOf(map(svc.get("environment")).get("FLINK_PROPERTIES"));
        Map<String, String> props = new HashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                props.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        }
        return props;
    }

    /** volume name → mount path of a service's named volumes. */
    private static Map<String, String> namedMounts(Map<String, Object> svc) {
        Map<String, String> out = new HashMap<>();
        for (Object v : list(svc.get("volumes"))) {
            String[] parts = String.valueOf(v).split(":");
            if (!parts[0].startsWith(".") && !parts[0].startsWith("/")) {
                out.put(parts[0], parts[1]);
            }
        }
        return out;
    }

    @Test
    void everyFlinkProcessSharesTheCheckpointAndSavepointVolumes() {
        Map<String, Map<String, Object>> flink = flinkProcesses();
        assertThat(flink.keySet()).contains("jobmanager", "taskmanager");
        Set<String> declared = map(compose.get("volumes")).keySet();
        Set<String> checkpointDirs = new HashSet<>();
        Set<String> savepointDirs = new HashSet<>();
        flink.forEach(
                (name, svc) -> {
                    Map<String, String> props = flinkProperties(svc);
                    String checkpoints = props.get("execution.checkpointing.dir");
                    String savepoints = props.get("execution.checkpointing.savepoint-dir");
                    assertThat(checkpoints).as(name).startsWith("file://");
                    assertThat(savepoints).as(name).startsWith("file://");
                    checkpointDirs.add(checkpoints);
                    savepointDirs.add(savepoints);
                    Map<String, String> mounts = namedMounts(svc);
                    String cpPath = checkpoints.substring("file://".length());
                    String spPath = savepoints.substring("file://".length());
                    assertThat(mounts).as(name + " mounts").containsValue(cpPath);
                    assertThat(mounts).as(name + " mounts").containsValue(spPath);
                    mounts.forEach(
                            (volume, path) -> {
                                if (path.equals(cpPath) || path.equals(spPath)) {
                                    assertThat(declared).as(name + " " + volume).contains(volume);
                                }
                            });
                });
        // One checkpoint and one savepoint directory for the whole cluster, each its own volume.
        assertThat(checkpointDirs).hasSize(1);
        assertThat(savepointDirs).hasSize(1);
        Map<String, String> jm = namedMounts(flink.get("jobmanager"));
        flink.values().forEach(svc -> assertThat(namedMounts(svc)).isEqualTo(jm));
        // The submit service restores from the same savepoint volume.
        assertThat(namedMounts(map(services.get("submit")))).isEqualTo(jm);
    }

    @Test
    void everyPortIsBoundToLoopback() {
        services.forEach(
                (name, s) -> {
                    for (Object port : list(map(s).get("ports"))) {
                        assertThat(String.valueOf(port)).as(name).startsWith("127.0.0.1:");
                    }
                });
    }

    @Test
    void imagesAreTheVersionsTheBuildAndTheScriptsTest() throws Exception {
        String flink = DeploymentFiles.pomProperty("pom.xml", "flink.version");
        String kafka = DeploymentFiles.pomProperty("pom.xml", "kafka.version");
        assertThat(DeploymentFiles.pomProperty("scripts/flink-cluster/pom.xml", "flink.version"))
                .isEqualTo(flink);
        assertThat(DeploymentFiles.pomProperty("scripts/broker/pom.xml", "kafka.version"))
                .isEqualTo(kafka);
        Set<String> images = new TreeSet<>();
        services.forEach(
                (name, s) -> {
                    String image = String.valueOf(map(s).get("image"));
                    images.add(image);
                    if (image.startsWith("flink:")) {
                        assertThat(image).as(name).isEqualTo("flink:" + flink + "-java17");
                        Object plugins =
                                map(map(s).get("environment")).get("ENABLE_BUILT_IN_PLUGINS");
                        if (plugins != null) {
                            assertThat(plugins)
                                    .as(name)
                                    .isEqualTo("flink-metrics-prometheus-" + flink + ".jar");
                        }
                    }
                    if (image.startsWith("apache/kafka:")) {
                        assertThat(image).as(name).isEqualTo("apache/kafka:" + kafka);
                    }
                });
        assertThat(images).contains("flink:" + flink + "-java17", "apache/kafka:" + kafka);
    }

    @Test
    void prometheusScrapesEveryFlinkProcessOnItsReporterPort() throws Exception {
        Set<String> expected = new TreeSet<>();
        flinkProcesses()
                .forEach(
                        (name, svc) ->
                                expected.add(
                                        name
                                                + ":"
                                                + flinkProperties(svc)
                                                        .get("metrics.reporter.prom.port")));
        Map<String, Object> prometheus = DeploymentFiles.yaml("monitoring/prometheus.yml");
        Set<String> targets = new TreeSet<>();
        for (Object job : list(prometheus.get("scrape_configs"))) {
            for (Object sc : list(map(job).get("static_configs"))) {
                list(map(sc).get("targets")).forEach(t -> targets.add(String.valueOf(t)));
            }
        }
        assertThat(targets).isEqualTo(expected);
        // The rules Prometheus loads are mounted beside its config.
        assertThat(list(prometheus.get("rule_files"))).containsExactly("alerts.yml");
        assertThat(list(map(services.get("prometheus")).get("volumes")))
                .contains("./monitoring/alerts.yml:/etc/prometheus/alerts.yml:ro");
    }

    @Test
    void theSubmittedJobUsesTheBuiltJarAndTopicsThatAreCreated() throws Exception {
        Map<String, Object> submit = map(services.get("submit"));
        String entrypoint =
                String.join(
                        " ", list(submit.get("entrypoint")).stream().map(String::valueOf).toList());
        assertThat(entrypoint)
                .contains("/opt/firstseen/firstseen-" + DeploymentFiles.projectVersion() + ".jar");
        assertThat(list(submit.get("volumes"))).contains("./target:/opt/firstseen:ro");
        String init =
                String.join(
                        " ",
                        list(map(services.get("kafka-init")).get("command")).stream()
                                .map(String::valueOf)
                                .toList());
        for (String topic : List.of("urls", "frontier", "frontier-dead-letters")) {
            assertThat(init).contains(" " + topic);
        }
        assertThat(entrypoint)
                .contains("--input.topics urls")
                .contains("--frontier.topic frontier ")
                .contains("--dead-letter.topic frontier-dead-letters");
    }
}
