package dev.firstseen.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firstseen.dedup.DedupConfig;
import dev.firstseen.dedup.DedupMode;
import dev.firstseen.dedup.ExactStoreType;
import dev.firstseen.ingest.StartingOffsets;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.keying.KeyMode;
import dev.firstseen.metrics.FirstSeenMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FirstSeenSettingsTest {

    private static Configuration args(String... kv) {
        return FirstSeenJob.parseArgs(kv);
    }

    @Test
    void defaults() {
        FirstSeenSettings s = FirstSeenSettings.from(args("--kafka.bootstrap-servers", "b:9092"));
        assertThat(s.inputTopics()).containsExactly("urls");
        assertThat(s.frontierTopic()).isEqualTo("frontier");
        assertThat(s.deadLetterTopic()).isEqualTo("frontier-dead-letters");
        assertThat(s.dedupMode()).isEqualTo(DedupMode.EXACT);
        assertThat(s.keyMode()).isEqualTo(KeyMode.DOMAIN);
        assertThat(s.deliveryGuarantee()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(s.transactionTimeout()).isEqualTo(Duration.ofMinutes(15));
        assertThat(s.startingOffsets()).isEqualTo(StartingOffsets.COMMITTED);
        assertThat(s.maxUrlLength()).isEqualTo(8192);
        assertThat(s.canonicalizer().schemes()).containsExactlyInAnyOrder("http", "https");
        assertThat(s.dedupConfig().guarded())
                .containsEntry("canonical.profile", "rfc3986-safe/1")
                .containsEntry("keying.mode", "DOMAIN")
                .containsEntry("dedup.mode", "EXACT");
    }

    @Test
    void parsesEveryKindOfValue() {
        FirstSeenSettings s =
                FirstSeenSettings.from(
                        args(
                                "--kafka.bootstrap-servers", "b:9092",
                                "--input.topics", "a;b",
                                "--dedup.mode", "approximate",
                                "--keying.mode", "HOST",
                                "--sink.transaction-timeout", "5 min",
                                "--dedup.bloom.cache-size", "256mb",
                                "--canonical.schemes", "http;https;ftp",
                                "--kafka.properties.security.protocol", "SASL_SSL",
                                "--kafka.properties.sasl.mechanism", "PLAIN"));
        assertThat(s.inputTopics()).containsExactly("a", "b");
        assertThat(s.dedupMode()).isEqualTo(DedupMode.APPROXIMATE);
        assertThat(s.keyMode()).isEqualTo(KeyMode.HOST);
        assertThat(s.transactionTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(s.dedupConfig().filterCacheBytes()).isEqualTo(256L << 20);
        assertThat(s.canonicalizer().schemes()).contains("ftp");
        assertThat(s.kafkaProperties())
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "PLAIN");
    }

    @Test
    void aMisspeltOptionNamesTheOneItMeant() {
        assertThatThrownBy(
                        () ->
                                FirstSeenSettings.from(
                                        args(
                                                "--kafka.bootstrap-servers", "127.0.0.1:9092",
                                                "--dedup.mde", "APPROXIMATE")))
                .hasMessageContaining("Unknown option 'dedup.mde' (did you mean 'dedup.mode'?)");
        assertThatThrownBy(
                        () ->
                                FirstSeenSettings.from(
                                        args(
                                                "--kafka.bootstrap-servers", "127.0.0.1:9092",
                                                "--dedup.bloom.fpp", "0.01")))
                .hasMessageContaining("Unknown option 'dedup.bloom.fpp'.");
    }

    @Test
    void reportsEveryProblemWithWhatToChange() {
        assertThatThrownBy(
                        () ->
                                FirstSeenSettings.from(
                                        args(
                                                "--dedup.bloom.fpp", "0.01",
                                                "--frontier.topic", "urls",
                                                "--dedup.bloom.false-positive-rate", "2",
                                                "--sink.delivery-guarantee", "NONE",
                                                "--canonical.schemes", "gopher")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unknown option 'dedup.bloom.fpp'")
                .hasMessageContaining("dedup.bloom.false-positive-rate");
        assertThatThrownBy(
                        () ->
                                FirstSeenSettings.from(
                                        args(
                                                "--frontier.topic", "urls",
                                                "--dedup.bloom.false-positive-rate", "2",
                                                "--sink.delivery-guarantee", "NONE",
                                                "--canonical.schemes", "gopher")))
                .hasMessageContaining("'kafka.bootstrap-servers' is required")
                .hasMessageContaining("feedback loop")
                .hasMessageContaining("between 1e-9 and 0.5")
                .hasMessageContaining("NONE may lose")
                .hasMessageContaining("gopher");
        assertThatThrownBy(
                        () ->
                                FirstSeenSettings.from(
                                        args(
                                                "--kafka.bootstrap-servers", "b:9092",
                                                "--dedup.mode", "sometimes")))
                .hasMessageContaining("Option 'dedup.mode'");
    }

    @Test
    void jobDefaultsDoNotOverrideTheUser() {
        Configuration none = FirstSeenJob.withJobDefaults(new Configuration());
        assertThat(none.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(10));
        Configuration given =
                FirstSeenJob.withJobDefaults(args("--execution.checkpointing.interval", "3 s"));
        assertThat(given.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void rocksDbGetsTheSeenSetOptionsUnlessTheUserNamesAFactory() {
        assertThat(
                        FirstSeenJob.withJobDefaults(new Configuration())
                                .get(RocksDBOptions.OPTIONS_FACTORY))
                .isEqualTo(SeenSetRocksDBOptions.class.getName());
        assertThat(
                        FirstSeenJob.withJobDefaults(
                                        args(
                                                "--state.backend.rocksdb.options-factory",
                                                "com.example.Mine"))
                                .get(RocksDBOptions.OPTIONS_FACTORY))
                .isEqualTo("com.example.Mine");
    }

    @Test
    void aKeysFirstFilterSizeDependsOnTheModeUnlessSet() {
        assertThat(expectedUrls()).as("exact").isEqualTo(128);
        assertThat(expectedUrls("--dedup.mode", "approximate")).as("approximate").isEqualTo(512);
        assertThat(
                        expectedUrls(
                                "--dedup.mode", "approximate",
                                "--dedup.approximate.filter", "BLOOM"))
                .as("the Bloom chain keeps its default")
                .isEqualTo(128);
        assertThat(
                        expectedUrls(
                                "--dedup.mode", "approximate",
                                "--dedup.bloom.expected-urls-per-key", "128"))
                .as("set")
                .isEqualTo(128);
        assertThat(expectedUrls("--dedup.bloom.expected-urls-per-key", "300")).isEqualTo(300);
        refused("--dedup.bloom.expected-urls-per-key", "0")
                .hasMessageContaining("'dedup.bloom.expected-urls-per-key' must be between 1");
    }

    private static long expectedUrls(String... more) {
        return dedupConfig(more).expectedUrlsPerKey();
    }

    /** The dedup settings of a job with a broker and {@code more}. */
    private static DedupConfig dedupConfig(String... more) {
        String[] all = new String[more.length + 2];
        all[0] = "--kafka.bootstrap-servers";
        all[1] = "b:9092";
        System.arraycopy(more, 0, all, 2, more.length);
        return FirstSeenSettings.from(args(all)).dedupConfig();
    }

    @Test
    void theCacheTakesAShareOfTheTaskHeapUnlessItsSizeIsSet() {
        DedupConfig byDefault =
                FirstSeenSettings.from(args("--kafka.bootstrap-servers", "b:9092")).dedupConfig();
        assertThat(byDefault.filterCacheBytes()).isZero();
        assertThat(byDefault.filterCacheHeapFraction()).isEqualTo(0.4);
        DedupConfig share =
                FirstSeenSettings.from(
                                args(
                                        "--kafka.bootstrap-servers", "b:9092",
                                        "--dedup.bloom.cache-heap-fraction", "0.6"))
                        .dedupConfig();
        assertThat(share.filterCacheHeapFraction()).isEqualTo(0.6);
        for (String bad : new String[] {"0", "0.9", "-0.1", "NaN"}) {
            refused("--dedup.bloom.cache-heap-fraction", bad)
                    .as(bad)
                    .hasMessageContaining(
                            "'dedup.bloom.cache-heap-fraction' must be above 0 and at most 0.8");
        }
        refused("--dedup.bloom.cache-size", "512kb")
                .hasMessageContaining("'dedup.bloom.cache-size' must be at least 1 mb");
    }

    @Test
    void packedKeysHaveAtMost16Pages() {
        assertThat(
                        FirstSeenSettings.from(args("--kafka.bootstrap-servers", "b:9092"))
                                .dedupConfig()
                                .packMaxPages())
                .isEqualTo(16);
        assertThat(
                        FirstSeenSettings.from(
                                        args(
                                                "--kafka.bootstrap-servers", "b:9092",
                                                "--dedup.bloom.cache-pack-max-pages", "0"))
                                .dedupConfig()
                                .packMaxPages())
                .isZero();
        for (String bad : new String[] {"-1", "17"}) {
            refused("--dedup.bloom.cache-pack-max-pages", bad)
                    .as(bad)
                    .hasMessageContaining(
                            "'dedup.bloom.cache-pack-max-pages' must be between 0 (pack no key)"
                                    + " and 16");
        }
    }

    @Test
    void pageSizesAreBetween32And4096() {
        DedupConfig defaults =
                FirstSeenSettings.from(args("--kafka.bootstrap-servers", "b:9092")).dedupConfig();
        assertThat(defaults.exactPageEntries()).isEqualTo(128);
        assertThat(defaults.approximatePageEntries()).isEqualTo(1024);
        assertThat(
                        FirstSeenSettings.from(
                                        args(
                                                "--kafka.bootstrap-servers", "b:9092",
                                                "--dedup.approximate.page-entries", "256"))
                                .dedupConfig()
                                .approximatePageEntries())
                .isEqualTo(256);
        for (String option : new String[] {"exact", "approximate"}) {
            for (String bad : new String[] {"31", "4097"}) {
                refused("--dedup." + option + ".page-entries", bad)
                        .as(option + " " + bad)
                        .hasMessageContaining(
                                "'dedup."
                                        + option
                                        + ".page-entries' must be between 32 and 4096, was "
                                        + bad);
            }
        }
    }

    @Test
    void thePageJournalShareIsAShare() {
        assertThat(dedupConfig().pageJournalShare()).as("exact mode's default").isEqualTo(0.75);
        assertThat(dedupConfig("--dedup.mode", "approximate").pageJournalShare())
                .as("approximate mode's default")
                .isEqualTo(0.05);
        assertThat(
                        dedupConfig(
                                        "--dedup.mode",
                                        "approximate",
                                        "--dedup.page-journal.max-share",
                                        "0.6")
                                .pageJournalShare())
                .as("set")
                .isEqualTo(0.6);
        for (String bad : new String[] {"-0.1", "1.5", "NaN"}) {
            refused("--dedup.page-journal.max-share", bad)
                    .as(bad)
                    .hasMessageContaining("'dedup.page-journal.max-share' must be from 0");
        }
    }

    /** What {@link FirstSeenSettings#from} throws for a broker and {@code more}. */
    private static AbstractThrowableAssert<?, ? extends Throwable> refused(String... more) {
        String[] all = new String[more.length + 2];
        all[0] = "--kafka.bootstrap-servers";
        all[1] = "b:9092";
        System.arraycopy(more, 0, all, 2, more.length);
        return assertThatThrownBy(() -> FirstSeenSettings.from(args(all)));
    }

    @Test
    void refusesALevel0TriggerRocksDbWouldStallOn() {
        refused("--dedup.rocksdb.level0-compaction-trigger", "65")
                .hasMessageContaining("'dedup.rocksdb.level0-compaction-trigger' must be between");
    }

    @Test
    void refusesAManifestLimitRocksDbWouldRollOverAtEveryFlush() {
        refused("--dedup.rocksdb.max-manifest-size", "1 kb")
                .hasMessageContaining("'dedup.rocksdb.max-manifest-size' must be at least 4 kb");
        assertThat(
                        FirstSeenSettings.from(
                                args(
                                        "--kafka.bootstrap-servers",
                                        "b:9092",
                                        "--dedup.rocksdb.max-manifest-size",
                                        "4 kb")))
                .isNotNull();
    }

    @Test
    void refusesAFirstFilterLayerItCannotBuild() {
        // 2^32 URLs at 1e-9 would need a first layer of about 24 GB, more than 16 GiB: a Bloom
        // filter is what the entries store puts before its entries.
        Configuration huge = sized(1L << 32, "1e-9");
        huge.setString("dedup.exact.store", "ENTRIES");
        assertThatThrownBy(() -> FirstSeenSettings.from(huge))
                .hasMessageContaining("'dedup.bloom.expected-urls-per-key' 4294967296")
                .hasMessageContaining("lower the expected URLs per key");
        // The default store resolves to pages here, which have no first layer to build.
        FirstSeenSettings.from(sized(1L << 32, "1e-9"));
        // The smallest sizes and rates are fine (they failed per record before).
        Configuration small = sized(1, "1e-9");
        small.setString("dedup.exact.store", "ENTRIES");
        FirstSeenSettings.from(small);
    }

    @Test
    void controlTopicsAreReadBesideTheInputAndMustBeTheirOwn() {
        Configuration c = sized(128, "0.01");
        c.setString("control.topics", "ops;imports");
        assertThat(FirstSeenSettings.from(c).sourceSettings().topics())
                .containsExactly("in", "ops", "imports");
        c.setString("control.topics", "in");
        assertThatThrownBy(() -> FirstSeenSettings.from(c))
                .hasMessageContaining("'control.topics' names 'in'");
    }

    @Test
    void revisitsNeedExactModeAndAPositiveDuration() {
        Configuration approximate = sized(128, "0.01");
        approximate.setString("dedup.mode", "APPROXIMATE");
        approximate.setString("dedup.revisit-after", "30 d");
        assertThatThrownBy(() -> FirstSeenSettings.from(approximate))
                .hasMessageContaining("'dedup.revisit-after' needs 'dedup.mode' EXACT");
        Configuration zero = sized(128, "0.01");
        zero.setString("dedup.revisit-after", "0 s");
        assertThatThrownBy(() -> FirstSeenSettings.from(zero)).hasMessageContaining("positive");
        Configuration ok = sized(128, "0.01");
        ok.setString("dedup.revisit-after", "30 d");
        assertThat(FirstSeenSettings.from(ok).dedupConfig().revisitAfterMillis())
                .isEqualTo(30L * 24 * 3600 * 1000);
    }

    /**
     * Approximate mode forgets in generations with its fingerprint filter; a Bloom filter cannot
     * forget, and the generations per forget-after are bounded.
     */
    @Test
    void approximateModeForgetsInGenerationsWithItsFingerprintFilter() {
        Configuration forget = sized(128, "0.01");
        forget.setString("dedup.mode", "APPROXIMATE");
        forget.setString("dedup.forget-after", "8 d");
        DedupConfig d = FirstSeenSettings.from(forget).dedupConfig();
        assertThat(d.generationMillis()).isEqualTo(2L * 24 * 3600 * 1000);
        assertThat(d.generationFalsePositiveRate()).isEqualTo(0.01 / 5);
        forget.setString("dedup.approximate.forget-generations", "1");
        d = FirstSeenSettings.from(forget).dedupConfig();
        assertThat(d.generationMillis()).isEqualTo(8L * 24 * 3600 * 1000);
        assertThat(d.generationFalsePositiveRate()).isEqualTo(0.01 / 2);
        forget.setString("dedup.approximate.forget-generations", "17");
        assertThatThrownBy(() -> FirstSeenSettings.from(forget))
                .hasMessageContaining(
                        "'dedup.approximate.forget-generations' must be from 1 to 16, not 17");
        Configuration bloom = sized(128, "0.01");
        bloom.setString("dedup.mode", "APPROXIMATE");
        bloom.setString("dedup.approximate.filter", "BLOOM");
        bloom.setString("dedup.forget-after", "8 d");
        assertThatThrownBy(() -> FirstSeenSettings.from(bloom))
                .hasMessageContaining(
                        "'dedup.forget-after' in approximate mode needs"
                                + " 'dedup.approximate.filter' FINGERPRINTS");
        // Without forget-after a job keeps no generations, and its filter the whole rate.
        Configuration never = sized(128, "0.01");
        never.setString("dedup.mode", "APPROXIMATE");
        assertThat(FirstSeenSettings.from(never).dedupConfig().generationMillis()).isZero();
        assertThat(FirstSeenSettings.from(never).dedupConfig().generationFalsePositiveRate())
                .isEqualTo(0.01);
    }

    /**
     * The default store is pages, unless a job-wide time rule or 128-bit fingerprints need entries.
     */
    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource({
        "dedup.mode, EXACT, PAGES",
        "dedup.revisit-after, 30 d, ENTRIES",
        "dedup.forget-after, 180 d, ENTRIES",
        "dedup.fingerprint-bits, 128, ENTRIES",
        "dedup.exact.store, ENTRIES, ENTRIES",
    })
    void theDefaultStoreIsPagesUnlessTheConfigurationNeedsEntries(
            String option, String value, ExactStoreType store) {
        Configuration c = sized(128, "0.01");
        c.setString(option, value);
        assertThat(FirstSeenSettings.exactStore(c)).isEqualTo(store);
        assertThat(FirstSeenSettings.from(c).dedupConfig().exactStore()).isEqualTo(store);
    }

    @Test
    void fingerprintPagesRefuseWhatNeedsTimesOrWideFingerprints() {
        for (String option : List.of("dedup.revisit-after", "dedup.forget-after")) {
            Configuration c = sized(128, "0.01");
            c.setString("dedup.exact.store", "PAGES");
            c.setString(option, "30 d");
            assertThatThrownBy(() -> FirstSeenSettings.from(c))
                    .hasMessageContaining(
                            "'"
                                    + option
                                    + "' needs 'dedup.exact.store' ENTRIES: fingerprint pages");
        }
        Configuration wide = sized(128, "0.01");
        wide.setString("dedup.exact.store", "PAGES");
        wide.setString("dedup.fingerprint-bits", "128");
        assertThatThrownBy(() -> FirstSeenSettings.from(wide))
                .hasMessageContaining("'dedup.exact.store' PAGES keeps 63 bits");
        Configuration ok = sized(128, "0.01");
        ok.setString("dedup.exact.store", "PAGES");
        DedupConfig d = FirstSeenSettings.from(ok).dedupConfig();
        assertThat(d.exactStore()).isEqualTo(ExactStoreType.PAGES);
        // A record's own revisit_after works with either store (a pages key keeps those times).
        assertThat(d.acceptsRecordRevisits()).isTrue();
        Configuration approximate = sized(128, "0.01");
        approximate.setString("dedup.mode", "APPROXIMATE");
        assertThat(FirstSeenSettings.from(approximate).dedupConfig().acceptsRecordRevisits())
                .isFalse();
    }

    private static Configuration sized(long urlsPerKey, String rate) {
        return args(
                "--kafka.bootstrap-servers",
                "b:9092",
                "--input.topics",
                "in",
                "--dedup.bloom.expected-urls-per-key",
                Long.toString(urlsPerKey),
                "--dedup.bloom.false-positive-rate",
                rate);
    }

    @Test
    void accumulatorsFollowBoundednessUnlessSet() {
        assertThat(accumulatorsParameter(new Configuration())).isEqualTo("false");
        assertThat(accumulatorsParameter(args("--input.bounded", "true"))).isEqualTo("true");
        assertThat(accumulatorsParameter(args("--metrics.accumulators", "true"))).isEqualTo("true");
        assertThat(
                        accumulatorsParameter(
                                args("--input.bounded", "true", "--metrics.accumulators", "false")))
                .isEqualTo("false");
        // A user's own global job parameters survive.
        Configuration user = new Configuration();
        user.set(PipelineOptions.GLOBAL_JOB_PARAMETERS, Map.of("mine", "1"));
        assertThat(FirstSeenJob.withJobDefaults(user).get(PipelineOptions.GLOBAL_JOB_PARAMETERS))
                .containsEntry("mine", "1")
                .containsEntry(FirstSeenMetrics.ACCUMULATORS_PARAMETER, "false");
    }

    private static String accumulatorsParameter(Configuration conf) {
        return FirstSeenJob.withJobDefaults(conf)
                .get(PipelineOptions.GLOBAL_JOB_PARAMETERS)
                .get(FirstSeenMetrics.ACCUMULATORS_PARAMETER);
    }

    @Test
    void everyOptionHasADescriptionAndAUniqueKey() {
        assertThat(FirstSeenOptions.ALL.stream().map(o -> o.key()).distinct().count())
                .isEqualTo(FirstSeenOptions.ALL.size());
        FirstSeenOptions.ALL.forEach(
                o -> assertThat(o.description().toString()).as(o.key()).isNotBlank());
        // Every option constant is in ALL, so validation and the README test see it.
        for (java.lang.reflect.Field f : FirstSeenOptions.class.getFields()) {
            if (f.getType() == ConfigOption.class) {
                assertThat(FirstSeenOptions.ALL).as(f.getName()).contains(uncheckedGet(f));
            }
        }
    }

    /** Output records are bounded; the bounds must fit what the producers send (12.3). */
    @Test
    void outputBoundsAreCheckedAgainstTheProducersRequestSize() {
        assertThatThrownBy(
                        () ->
                                FirstSeenSettings.from(
                                        args(
                                                "--canonical.max-url-length", "65536",
                                                "--kafka.properties.max.request.size", "200000")))
                .hasMessageContaining("a frontier record may reach")
                .hasMessageContaining("kafka.properties.max.request.size");
        assertThatThrownBy(
                        () ->
                                FirstSeenSettings.from(
                                        args(
                                                "--dead-letter.max-raw-size", "256kb",
                                                "--kafka.properties.max.request.size", "200000")))
                .hasMessageContaining("a dead letter may reach");
        // The largest values the options allow fit the producers' default 1 MB.
        FirstSeenSettings.from(
                args(
                        "--kafka.bootstrap-servers", "b:9092",
                        "--dead-letter.max-raw-size", "512kb",
                        "--frontier.max-meta-size", "512kb"));
    }

    private static ConfigOption<?> uncheckedGet(java.lang.reflect.Field f) {
        try {
            return (ConfigOption<?>) f.get(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
