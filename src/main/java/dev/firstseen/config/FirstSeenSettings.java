package dev.firstseen.config;

import static dev.firstseen.config.FirstSeenOptions.*;

import dev.firstseen.canonical.CanonicalProfile;
import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.config.internal.NearestName;
import dev.firstseen.dedup.ApproximateFilter;
import dev.firstseen.dedup.DedupConfig;
import dev.firstseen.dedup.DedupMode;
import dev.firstseen.dedup.ExactStoreType;
import dev.firstseen.emit.DeadLetterSerializer;
import dev.firstseen.emit.FrontierSerializer;
import dev.firstseen.emit.SinkSettings;
import dev.firstseen.ingest.MessageDecoder;
import dev.firstseen.ingest.SourceSettings;
import dev.firstseen.ingest.StartingOffsets;
import dev.firstseen.keying.HotKeySalting;
import dev.firstseen.keying.KeyMode;
import dev.firstseen.keying.PartitionKeyer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;

/**
 * The validated settings of one FirstSeen job, read from a Flink {@link Configuration}. {@link
 * #from} checks everything at once and throws one {@link IllegalArgumentException} that lists every
 * problem with what to change, before any Flink or Kafka resource is created.
 */
public final class FirstSeenSettings {
    /** Key prefixes that belong to FirstSeen; an unknown key under them is a typo. */
    private static final List<String> OWN_PREFIXES =
            List.of(
                    "kafka.",
                    "input.",
                    "frontier.",
                    "dead-letter.",
                    "sink.",
                    "canonical.",
                    "keying.",
                    "dedup.");

    private final Configuration conf;
    private final Properties kafkaProperties;

    private FirstSeenSettings(Configuration conf, Properties kafkaProperties) {
        this.conf = conf;
        this.kafkaProperties = kafkaProperties;
    }

    private static String didYouMean(String key, Set<String> known) {
        String near = NearestName.of(key, new TreeSet<>(known));
        return near == null ? "" : " (did you mean '" + near + "'?)";
    }

    public static FirstSeenSettings from(Configuration conf) {
        List<String> problems = new ArrayList<>();
        Set<String> known = new HashSet<>();
        for (ConfigOption<?> o : ALL) {
            known.add(o.key());
        }
        Properties kafka = new Properties();
        for (Map.Entry<String, String> e : new TreeMap<>(conf.toMap()).entrySet()) {
            String key = e.getKey();
            if (key.startsWith(KAFKA_PROPERTIES_PREFIX)) {
                String prop = key.substring(KAFKA_PROPERTIES_PREFIX.length());
                if (prop.isEmpty()) {
                    problems.add("'" + key + "' names no Kafka property");
                } else {
                    kafka.setProperty(prop, e.getValue());
                }
            } else if (!known.contains(key) && OWN_PREFIXES.stream().anyMatch(key::startsWith)) {
                problems.add(
                        String.format(
                                Locale.ROOT,
                                "Unknown option '%s'%s. FirstSeen options are: %s; Kafka client"
                                        + " properties go under '%s'",
                                key,
                                didYouMean(key, known),
                                known.stream().sorted().toList(),
                                KAFKA_PROPERTIES_PREFIX));
            }
        }
        // Reading every option once reports values that do not parse (e.g. a bad enum).
        for (ConfigOption<?> o : ALL) {
            try {
                conf.get(o);
            } catch (IllegalArgumentException ex) {
                problems.add(
                        String.format(Locale.ROOT, "Option '%s': %s", o.key(), ex.getMessage()));
            }
        }
        if (problems.isEmpty()) {
            check(conf, problems);
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    "Invalid FirstSeen configuration:\n  - " + String.join("\n  - ", problems));
        }
        return new FirstSeenSettings(conf, kafka);
    }

    /** Each hot domain must be a key as the key mode forms them, or it would never match. */
    private static void checkHotDomains(Configuration conf, List<String> problems) {
        List<String> hot = conf.getOptional(HOT_DOMAINS).orElse(List.of());
        int salts = conf.get(HOT_DOMAIN_SALTS);
        if (salts < 2 || salts > 1024) {
            problems.add("'keying.hot-domain-salts' must be between 2 and 1024");
        }
        if (hot.isEmpty()) {
            return;
        }
        Canonicalizer canon;
        try {
            canon = canonicalizer(conf);
        } catch (IllegalArgumentException e) {
            return; // reported by the canonical.* checks
        }
        PartitionKeyer keyer = new PartitionKeyer(conf.get(KEY_MODE));
        for (String d : hot) {
            PartitionKeyer.HostKey hk = keyer.keyOfHost(canon, d.strip());
            String key = hk == null ? null : hk.key();
            // The key as written: the salted set is matched against keys as the job forms them.
            if (key == null || !key.equals(d.strip())) {
                problems.add(
                        "'keying.hot-domains' names '"
                                + d
                                + "', which is not a partition key in "
                                + conf.get(KEY_MODE)
                                + " key mode"
                                + (key == null ? "" : " (its key is '" + key + "')")
                                + "; list keys as the job forms them, lower case");
            }
        }
    }

    private static void check(Configuration conf, List<String> problems) {
        checkHotDomains(conf, problems);
        String servers = conf.get(BOOTSTRAP_SERVERS);
        if (servers == null || servers.isBlank()) {
            problems.add(
                    "'kafka.bootstrap-servers' is required, e.g. --kafka.bootstrap-servers"
                            + " broker1:9092");
        }
        if (conf.get(INPUT_TOPICS).isEmpty()
                || conf.get(INPUT_TOPICS).stream().anyMatch(String::isBlank)) {
            problems.add("'input.topics' must name at least one topic, without empty names");
        }
        for (ConfigOption<String> o : List.of(FRONTIER_TOPIC, DEAD_LETTER_TOPIC, GROUP_ID)) {
            if (conf.get(o).isBlank()) {
                problems.add("'" + o.key() + "' must not be empty");
            }
        }
        if (conf.get(FRONTIER_TOPIC).equals(conf.get(DEAD_LETTER_TOPIC))) {
            problems.add("'frontier.topic' and 'dead-letter.topic' must be different topics");
        }
        if (conf.get(INPUT_TOPICS).contains(conf.get(FRONTIER_TOPIC))) {
            problems.add("'frontier.topic' must not be one of 'input.topics' (a feedback loop)");
        }
        if (conf.get(CONTROL_TOPICS).stream().anyMatch(String::isBlank)) {
            problems.add("'control.topics' must not name an empty topic");
        }
        for (String t : conf.get(CONTROL_TOPICS)) {
            if (conf.get(INPUT_TOPICS).contains(t)
                    || t.equals(conf.get(FRONTIER_TOPIC))
                    || t.equals(conf.get(DEAD_LETTER_TOPIC))) {
                problems.add(
                        "'control.topics' names '"
                                + t
                                + "', which is already an input, frontier or dead-letter topic");
            }
        }
        if (conf.get(DELIVERY_GUARANTEE) == DeliveryGuarantee.NONE) {
            problems.add(
                    "'sink.delivery-guarantee' NONE may lose first-seen URLs, which are then"
                            + " never fetched; use EXACTLY_ONCE or AT_LEAST_ONCE");
        }
        if (conf.get(TRANSACTIONAL_ID_PREFIX).isBlank()) {
            problems.add("'sink.transactional-id-prefix' must not be empty");
        }
        Duration timeout = conf.get(TRANSACTION_TIMEOUT);
        if (timeout.compareTo(Duration.ofSeconds(10)) < 0) {
            problems.add(
                    "'sink.transaction-timeout' is "
                            + timeout
                            + "; it must be at least 10 s and longer than a checkpoint interval");
        }
        try {
            canonicalizer(conf);
        } catch (IllegalArgumentException e) {
            problems.add("'canonical.*': " + e.getMessage());
        }
        if (conf.get(MAX_RECORD_SIZE).getBytes() < 16
                || conf.get(MAX_RECORD_SIZE).getBytes() > 64L << 20) {
            problems.add("'input.max-record-size' must be between 16 bytes and 64 mb");
        }
        long raw = conf.get(DEAD_LETTER_MAX_RAW).getBytes();
        if (raw < 0 || raw > 512 << 10) {
            problems.add(
                    "'dead-letter.max-raw-size' must be between 0 and 512 kb, so a dead letter"
                            + " fits in a Kafka message");
        }
        long meta = conf.get(FRONTIER_MAX_META_SIZE).getBytes();
        if (meta < 0 || meta > 512 << 10) {
            problems.add("'frontier.max-meta-size' must be between 0 and 512 kb");
        }
        checkRecordSizes(conf, problems);
        long expectedUrls = expectedUrlsPerKey(conf);
        if (expectedUrls < 1 || expectedUrls > 1L << 32) {
            problems.add("'dedup.bloom.expected-urls-per-key' must be between 1 and 2^32");
        }
        double p = conf.get(FALSE_POSITIVE_RATE);
        if (!(p >= 1e-9 && p <= 0.5)) {
            problems.add(
                    "'dedup.bloom.false-positive-rate' is "
                            + p
                            + "; it must be between 1e-9 and 0.5 (e.g. 0.01)");
        }
        if (problems.isEmpty()) {
            String sizing =
                    DedupConfig.builder()
                            .mode(conf.get(DEDUP_MODE))
                            .approximateFilter(conf.get(APPROXIMATE_FILTER))
                            .exactStore(exactStore(conf))
                            .expectedUrlsPerKey(expectedUrls)
                            .falsePositiveRate(p)
                            .build()
                            .sizingProblem();
            if (sizing != null) {
                problems.add(
                        "'dedup.bloom.expected-urls-per-key' "
                                + expectedUrls
                                + " at 'dedup.bloom.false-positive-rate' "
                                + p
                                + " gives each new key a filter larger than one layer can be ("
                                + sizing
                                + "); lower the expected URLs per key or raise the rate");
            }
        }
        for (ConfigOption<Duration> o : List.of(REVISIT_AFTER, FORGET_AFTER)) {
            conf.getOptional(o).ifPresent(d -> problems.addAll(timeRuleProblems(conf, o, d)));
        }
        int generations = conf.get(APPROXIMATE_FORGET_GENERATIONS);
        if (generations < 1 || generations > 16) {
            problems.add(
                    "'"
                            + APPROXIMATE_FORGET_GENERATIONS.key()
                            + "' must be from 1 to 16, not "
                            + generations);
        }
        for (ConfigOption<Integer> o : List.of(EXACT_PAGE_ENTRIES, APPROXIMATE_PAGE_ENTRIES)) {
            if (conf.get(o) < 32 || conf.get(o) > 4096) {
                problems.add("'" + o.key() + "' must be between 32 and 4096, was " + conf.get(o));
            }
        }
        double journalShare = pageJournalShare(conf);
        if (!(journalShare >= 0 && journalShare <= 1)) {
            problems.add(
                    "'dedup.page-journal.max-share' must be from 0 (no journal: changed pages"
                            + " written whole at every checkpoint) to 1");
        }
        if (conf.get(REBUILD_STEP) < 1) {
            problems.add("'dedup.bloom.rebuild-step' must be at least 1 (entries per record)");
        }
        if (conf.get(FINGERPRINT_BITS) != 64 && conf.get(FINGERPRINT_BITS) != 128) {
            problems.add("'dedup.fingerprint-bits' must be 64 or 128");
        } else if (conf.get(FINGERPRINT_BITS) == 128
                && conf.get(DEDUP_MODE) == DedupMode.EXACT
                && conf.get(EXACT_STORE) == ExactStoreType.PAGES) {
            problems.add(
                    "'dedup.exact.store' PAGES keeps 63 bits of each fingerprint, so"
                            + " 'dedup.fingerprint-bits' 128 would buy nothing: use 64, or"
                            + " 'dedup.exact.store' ENTRIES for 128-bit entries");
        }
        if (conf.getOptional(FILTER_CACHE_SIZE).map(MemorySize::getBytes).orElse(1L << 20)
                < 1 << 20) {
            problems.add(
                    "'dedup.bloom.cache-size' must be at least 1 mb; leave it unset to size the"
                            + " cache by 'dedup.bloom.cache-heap-fraction' of the task heap");
        }
        double fraction = conf.get(FILTER_CACHE_HEAP_FRACTION);
        if (!(fraction > 0 && fraction <= 0.8)) {
            problems.add(
                    "'dedup.bloom.cache-heap-fraction' must be above 0 and at most 0.8 (a share of"
                            + " the slot's task heap; the rest of the task needs heap too)");
        }
        int packMaxPages = conf.get(FILTER_CACHE_PACK_MAX_PAGES);
        if (packMaxPages < 0 || packMaxPages > DedupConfig.DEFAULT_PACK_MAX_PAGES) {
            problems.add(
                    "'dedup.bloom.cache-pack-max-pages' must be between 0 (pack no key) and "
                            + DedupConfig.DEFAULT_PACK_MAX_PAGES
                            + " (page slots of a key packed at a checkpoint)");
        }
        if (conf.get(RECENT_CACHE_ENTRIES) < 0 || conf.get(RECENT_CACHE_ENTRIES) > 1 << 26) {
            problems.add("'dedup.recent-cache.entries' must be between 0 and 67108864");
        }
        int trigger = conf.getOptional(ROCKSDB_LEVEL0_COMPACTION_TRIGGER).orElse(0);
        if (trigger < 0 || trigger > 64) {
            problems.add(
                    "'dedup.rocksdb.level0-compaction-trigger' must be between 0 (RocksDB's"
                            + " default) and 64 level-0 files; 1 keeps checkpoints smallest");
        }
        if (conf.get(ROCKSDB_MAX_MANIFEST_SIZE).getBytes() < MIN_MANIFEST_SIZE) {
            problems.add(
                    "'dedup.rocksdb.max-manifest-size' must be at least 4 kb: a new MANIFEST"
                            + " lists every live file (1 to 2 KB for a small state), and RocksDB"
                            + " would start one at every flush if that were over the limit");
        }
    }

    /** The least {@code dedup.rocksdb.max-manifest-size} accepted. */
    static final long MIN_MANIFEST_SIZE = 4096;

    /** The Kafka producer's default {@code max.request.size}: the largest record it sends. */
    static final long DEFAULT_MAX_REQUEST_SIZE = 1_048_576;

    /** Room for a Kafka record's own overhead (batch header, key, headers) in a request. */
    private static final long RECORD_OVERHEAD = 1024;

    /**
     * Both output records are bounded by construction; their bounds must fit in what the producers
     * may send, or a large record would fail the sink and the job.
     */
    private static void checkRecordSizes(Configuration conf, List<String> problems) {
        long limit = DEFAULT_MAX_REQUEST_SIZE;
        String set = conf.toMap().get(KAFKA_PROPERTIES_PREFIX + "max.request.size");
        if (set != null) {
            try {
                limit = Long.parseLong(set.trim());
            } catch (NumberFormatException e) {
                problems.add("'kafka.properties.max.request.size' is not a number: " + set);
                return;
            }
        }
        long frontier =
                FrontierSerializer.maxBytes(
                                conf.get(MAX_URL_LENGTH),
                                conf.get(FRONTIER_MAX_META_SIZE).getBytes())
                        + 253 * 4 // the record key: a host name in UTF-8
                        + RECORD_OVERHEAD;
        if (frontier > limit) {
            problems.add(
                    String.format(
                            Locale.ROOT,
                            "a frontier record may reach %,d bytes (canonical.max-url-length %d,"
                                    + " frontier.max-meta-size %s), more than the producers'"
                                    + " max.request.size %,d: lower those options or raise"
                                    + " kafka.properties.max.request.size (and the broker's"
                                    + " message.max.bytes)",
                            frontier,
                            conf.get(MAX_URL_LENGTH),
                            conf.get(FRONTIER_MAX_META_SIZE),
                            limit));
        }
        long dead =
                DeadLetterSerializer.maxBytes((int) conf.get(DEAD_LETTER_MAX_RAW).getBytes())
                        + RECORD_OVERHEAD;
        if (dead > limit) {
            problems.add(
                    String.format(
                            Locale.ROOT,
                            "a dead letter may reach %,d bytes (dead-letter.max-raw-size %s), more"
                                    + " than the producers' max.request.size %,d: lower"
                                    + " dead-letter.max-raw-size or raise"
                                    + " kafka.properties.max.request.size (and the broker's"
                                    + " message.max.bytes)",
                            dead,
                            conf.get(DEAD_LETTER_MAX_RAW),
                            limit));
        }
    }

    /** What the Kafka source needs. */
    public SourceSettings sourceSettings() {
        List<String> topics = new ArrayList<>(inputTopics());
        topics.addAll(conf.get(CONTROL_TOPICS));
        return new SourceSettings(
                bootstrapServers(),
                topics,
                groupId(),
                startingOffsets(),
                bounded(),
                kafkaProperties());
    }

    /** What the two Kafka sinks need. */
    public SinkSettings sinkSettings() {
        return new SinkSettings(
                bootstrapServers(),
                frontierTopic(),
                deadLetterTopic(),
                deliveryGuarantee(),
                transactionalIdPrefix(),
                transactionNaming(),
                transactionTimeout(),
                deadLetterMaxRawBytes(),
                kafkaProperties());
    }

    /** The input decoder these settings describe (the job's, the tools'). */
    public MessageDecoder messageDecoder() {
        return new MessageDecoder(
                maxRecordBytes(),
                maxUrlLength(),
                (int) conf.get(FRONTIER_MAX_META_SIZE).getBytes(),
                dedupConfig().canDelete(),
                dedupConfig().acceptsRecordRevisits());
    }

    public String bootstrapServers() {
        return conf.get(BOOTSTRAP_SERVERS);
    }

    public String groupId() {
        return conf.get(GROUP_ID);
    }

    public List<String> inputTopics() {
        return conf.get(INPUT_TOPICS);
    }

    public StartingOffsets startingOffsets() {
        return conf.get(STARTING_OFFSETS);
    }

    public boolean bounded() {
        return conf.get(BOUNDED);
    }

    public int maxRecordBytes() {
        return (int) conf.get(MAX_RECORD_SIZE).getBytes();
    }

    public String frontierTopic() {
        return conf.get(FRONTIER_TOPIC);
    }

    public String deadLetterTopic() {
        return conf.get(DEAD_LETTER_TOPIC);
    }

    public int deadLetterMaxRawBytes() {
        return (int) conf.get(DEAD_LETTER_MAX_RAW).getBytes();
    }

    public DeliveryGuarantee deliveryGuarantee() {
        return conf.get(DELIVERY_GUARANTEE);
    }

    public String transactionalIdPrefix() {
        return conf.get(TRANSACTIONAL_ID_PREFIX);
    }

    public TransactionNamingStrategy transactionNaming() {
        return conf.get(TRANSACTION_NAMING);
    }

    public Duration transactionTimeout() {
        return conf.get(TRANSACTION_TIMEOUT);
    }

    public Canonicalizer canonicalizer() {
        return canonicalizer(conf);
    }

    /**
     * The canonicalizer the {@code canonical.*} options describe; {@link IllegalArgumentException}
     * if they are invalid. Used by the job and by {@code scripts/normalize}.
     */
    public static Canonicalizer canonicalizer(Configuration conf) {
        Set<String> schemes = new LinkedHashSet<>();
        for (String s : conf.get(SCHEMES)) {
            schemes.add(s.trim().toLowerCase(Locale.ROOT));
        }
        return new Canonicalizer(
                schemes,
                conf.get(MAX_URL_LENGTH),
                CanonicalProfile.of(conf.get(RULES), conf.get(TRACKING_PARAMETERS)));
    }

    public int maxUrlLength() {
        return conf.get(MAX_URL_LENGTH);
    }

    public KeyMode keyMode() {
        return conf.get(KEY_MODE);
    }

    /** The hot keys whose dedup state is spread over salts ({@code keying.hot-domains}). */
    public HotKeySalting hotKeySalting() {
        List<String> hot = conf.getOptional(HOT_DOMAINS).orElse(List.of());
        return hot.isEmpty()
                ? HotKeySalting.NONE
                : new HotKeySalting(
                        new java.util.TreeSet<>(hot.stream().map(String::strip).toList()),
                        conf.get(HOT_DOMAIN_SALTS));
    }

    public DedupMode dedupMode() {
        return conf.get(DEDUP_MODE);
    }

    /** Kafka client properties from {@code kafka.properties.*}, prefix removed. */
    public Properties kafkaProperties() {
        Properties p = new Properties();
        p.putAll(kafkaProperties);
        return p;
    }

    /**
     * The store exact mode's new keys get under {@code c}: {@code dedup.exact.store}, with {@link
     * ExactStoreType#AUTO} resolved against the time rules and fingerprint width it sets.
     */
    public static ExactStoreType exactStore(ReadableConfig c) {
        return c.get(EXACT_STORE)
                .resolve(
                        c.getOptional(REVISIT_AFTER).isPresent()
                                || c.getOptional(FORGET_AFTER).isPresent(),
                        c.get(FINGERPRINT_BITS));
    }

    /** {@code dedup.rocksdb.compact-after-checkpoint}, or its default for the mode. */
    public static boolean compactAfterCheckpoint(ReadableConfig c) {
        return c.getOptional(ROCKSDB_COMPACT_AFTER_CHECKPOINT)
                .orElse(DedupConfig.defaultCompactAfterCheckpoint(c.get(DEDUP_MODE)));
    }

    /** {@code dedup.page-journal.max-share}, or its default for the mode. */
    public static double pageJournalShare(ReadableConfig c) {
        return c.getOptional(PAGE_JOURNAL_SHARE)
                .orElse(DedupConfig.defaultPageJournalShare(c.get(DEDUP_MODE)));
    }

    /** {@code dedup.bloom.expected-urls-per-key}, or its default for the mode and filter. */
    public static long expectedUrlsPerKey(ReadableConfig c) {
        return c.getOptional(EXPECTED_URLS_PER_KEY)
                .orElse(
                        DedupConfig.defaultExpectedUrlsPerKey(
                                c.get(DEDUP_MODE), c.get(APPROXIMATE_FILTER)));
    }

    public DedupConfig dedupConfig() {
        return DedupConfig.builder()
                .mode(dedupMode())
                .approximateFilter(conf.get(APPROXIMATE_FILTER))
                .exactStore(exactStore(conf))
                .exactPageEntries(conf.get(EXACT_PAGE_ENTRIES))
                .approximatePageEntries(conf.get(APPROXIMATE_PAGE_ENTRIES))
                .convertExactKeys(conf.get(APPROXIMATE_CONVERT_EXACT_KEYS))
                .pageJournalShare(pageJournalShare(conf))
                .fingerprintBits(conf.get(FINGERPRINT_BITS))
                .rebuildStep(conf.get(REBUILD_STEP))
                .compactBeforeCheckpoint(conf.get(ROCKSDB_COMPACT_BEFORE_CHECKPOINT))
                .compactAfterCheckpoint(compactAfterCheckpoint(conf))
                .expectedUrlsPerKey(expectedUrlsPerKey(conf))
                .falsePositiveRate(conf.get(FALSE_POSITIVE_RATE))
                .filterCacheBytes(
                        conf.getOptional(FILTER_CACHE_SIZE).map(MemorySize::getBytes).orElse(0L))
                .filterCacheHeapFraction(conf.get(FILTER_CACHE_HEAP_FRACTION))
                .packMaxPages(conf.get(FILTER_CACHE_PACK_MAX_PAGES))
                .forgetGenerations(conf.get(APPROXIMATE_FORGET_GENERATIONS))
                .recentCacheEntries(conf.get(RECENT_CACHE_ENTRIES))
                .guarded("canonical.profile", canonicalizer().profile().id())
                .guarded("canonical.idna", Canonicalizer.idnaVersion())
                .guarded("keying.mode", keyMode().name())
                .guarded(HotKeySalting.GUARD, hotKeySalting().guardValue())
                .guarded(
                        "keying.public-suffix-list",
                        keyMode() == KeyMode.DOMAIN ? PartitionKeyer.suffixListVersion() : "unused")
                .allowGuardedChange(conf.get(ALLOW_SETTINGS_CHANGE))
                .revisitAfterMillis(
                        conf.getOptional(REVISIT_AFTER).map(Duration::toMillis).orElse(0L))
                .forgetAfterMillis(
                        conf.getOptional(FORGET_AFTER).map(Duration::toMillis).orElse(0L))
                .build();
    }

    /** The configuration these settings were read from (Flink options included). */
    public Configuration configuration() {
        return conf;
    }

    /** What keeps {@code o}, a time rule set to {@code d}, from working with the other options. */
    private static List<String> timeRuleProblems(
            Configuration conf, ConfigOption<Duration> o, Duration d) {
        String name = "'" + o.key() + "'";
        if (d.isNegative() || d.isZero()) {
            return List.of(name + " must be positive, e.g. 30 d");
        }
        if (conf.get(DEDUP_MODE) != DedupMode.EXACT) {
            if (o == REVISIT_AFTER) {
                return List.of(
                        name
                                + " needs 'dedup.mode' EXACT: an approximate filter keeps no times"
                                + " to revisit by (to emit URLs again after a time, use"
                                + " 'dedup.forget-after')");
            }
            if (conf.get(APPROXIMATE_FILTER) == ApproximateFilter.BLOOM) {
                return List.of(
                        name
                                + " in approximate mode needs 'dedup.approximate.filter'"
                                + " FINGERPRINTS: a Bloom filter cannot forget");
            }
        } else if (conf.get(EXACT_STORE) == ExactStoreType.PAGES) {
            return List.of(
                    name + " needs 'dedup.exact.store' ENTRIES: fingerprint pages keep no times");
        }
        return List.of();
    }
}
