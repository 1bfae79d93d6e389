package dev.firstseen.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.RawRecord;
import dev.firstseen.record.SourcePosition;
import dev.firstseen.testing.FlinkCluster;
import dev.firstseen.tools.CrawlStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A hot domain salted over 8 keys on a MiniCluster at parallelism 2 with RocksDB: the frontier is
 * the same set of URLs as without salting, each once, and its records keep the domain as key.
 */
class HotKeySaltingITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK = FlinkCluster.withRocksDb(new Configuration());

    private static List<FrontierRecord> run(List<RawRecord> in, String hotDomains)
            throws Exception {
        Configuration conf = new Configuration();
        conf.setString("kafka.bootstrap-servers", "unused:9092");
        if (hotDomains != null) {
            conf.setString("keying.hot-domains", hotDomains);
        }
        FirstSeenSettings s = FirstSeenSettings.from(conf);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        var frontier =
                FirstSeenJob.pipeline(
                                s,
                                env.fromData(
                                        TypeInformation.of(RawRecord.class),
                                        in.toArray(RawRecord[]::new)))
                        .frontier();
        List<FrontierRecord> out = new ArrayList<>();
        try (CloseableIterator<FrontierRecord> it = frontier.executeAndCollect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void saltingChangesWhereStateLivesNotWhatIsEmitted() throws Exception {
        CrawlStream stream = new CrawlStream(7, 200, 0, 0.4);
        List<RawRecord> in = new ArrayList<>();
        for (int i = 0; i < 30_000; i++) {
            in.add(new RawRecord(stream.next(), new SourcePosition("in", 0, i, -1)));
        }
        List<FrontierRecord> plain = run(in, null);
        List<FrontierRecord> salted = run(in, "site0.com");
        assertThat(salted).hasSize((int) stream.distinct());
        Set<String> plainUrls = new HashSet<>();
        plain.forEach(r -> plainUrls.add(r.canonical));
        Set<String> saltedUrls = new HashSet<>();
        salted.forEach(r -> saltedUrls.add(r.canonical));
        assertThat(saltedUrls).hasSize(salted.size()).isEqualTo(plainUrls);
        long hot = salted.stream().filter(r -> r.key.equals("site0.com")).count();
        assertThat(hot).isGreaterThan(salted.size() / 10);
        assertThat(salted).noneMatch(r -> r.key.contains("#"));
    }
}
