package dev.firstseen.metrics.prometheus;

import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.exporter.HTTPServer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.Properties;
import org.apache.flink.metrics.prometheus.AbstractPrometheusReporter;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.util.PortRange;

/**
 * Flink's Prometheus reporter with a {@code host} option: the stock {@code
 * org.apache.flink.metrics.prometheus.PrometheusReporterFactory} always listens on every interface.
 * The local cluster of {@code scripts/cluster} uses this one with {@code host: 127.0.0.1}; metric
 * names and labels are Flink's own, so the Grafana dashboard reads either.
 *
 * <p>Options under {@code metrics.reporter.<name>.}: {@code host} (default 127.0.0.1) and {@code
 * port}, a port or range such as {@code 9249-9259} (default 9249). It must be on the cluster's
 * classpath ({@code lib/}), next to {@code flink-metrics-prometheus} 2.2.x.
 */
public final class PrometheusReporterFactory implements MetricReporterFactory {
    public static final String HOST = "host";
    public static final String PORT = "port";

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        return new BoundReporter(
                properties.getProperty(HOST, "127.0.0.1"),
                new PortRange(properties.getProperty(PORT, "9249")));
    }

    /** Serves the registry of {@link AbstractPrometheusReporter} on one host and port. */
    static final class BoundReporter extends AbstractPrometheusReporter {
        private final HTTPServer server;

        BoundReporter(String host, PortRange ports) {
            CollectorRegistry registry = registryOf(this);
            HTTPServer started = null;
            IOException last = null;
            for (Iterator<Integer> it = ports.getPortsIterator();
                    it.hasNext() && started == null; ) {
                int port = it.next();
                try {
                    started = new HTTPServer(new InetSocketAddress(host, port), registry);
                    log.info("Prometheus reporter listening on {}:{}", host, port);
                } catch (IOException e) {
                    last = e;
                }
            }
            if (started == null) {
                throw new IllegalStateException(
                        "Prometheus reporter could not listen on "
                                + host
                                + " at any port of "
                                + ports
                                + "; set metrics.reporter.<name>.port to a free range",
                        last);
            }
            server = started;
        }

        @Override
        public void close() {
            server.stop();
            super.close();
        }

        /*
         * The registry the base class fills is package-private (Flink 2.2). Reading it is the only
         * way to reuse Flink's metric naming, which the dashboards depend on, instead of
         * re-implementing it; the field is pinned by the flink-metrics-prometheus version.
         */
        private static CollectorRegistry registryOf(AbstractPrometheusReporter reporter) {
            try {
                Field f = AbstractPrometheusReporter.class.getDeclaredField("registry");
                f.setAccessible(true);
                return (CollectorRegistry) f.get(reporter);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(
                        "flink-metrics-prometheus changed: no 'registry' field to serve", e);
            }
        }
    }
}
