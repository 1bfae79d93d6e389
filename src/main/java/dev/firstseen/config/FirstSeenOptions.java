package dev.firstseen.config;

import dev.firstseen.canonical.CanonicalProfile;
import dev.firstseen.dedup.ApproximateFilter;
import dev.firstseen.dedup.DedupMode;
import dev.firstseen.dedup.ExactStoreType;
import dev.firstseen.ingest.StartingOffsets;
import dev.firstseen.keying.KeyMode;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;

/**
 * Every FirstSeen option. Pass them as {@code --key value} program arguments; Flink's own options
 * (such as {@code execution.checkpointing.interval}) are accepted the same way.
 */
public final class FirstSeenOptions {
    private FirstSeenOptions() {}

    /** Prefix of Kafka client properties passed to the source and both sinks. */
    public static final String KAFKA_PROPERTIES_PREFIX = "kafka.properties.";

    public static final ConfigOption<String> BOOTSTRAP_SERVERS =
            ConfigOptions.key("kafka.bootstrap-servers")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Kafka bootstrap servers, host:port[,host:port...], for input and"
                                    + " output. Required.");

    public static final ConfigOption<String> GROUP_ID =
            ConfigOptions.key("kafka.group-id")
                    .stringType()
                    .defaultValue("firstseen")
                    .withDescription(
                            "Consumer group id. Offsets are committed on completed checkpoints,"
                                    + " for monitoring lag; recovery uses the checkpoint's offsets.");

    public static final ConfigOption<List<String>> INPUT_TOPICS =
            ConfigOptions.key("input.topics")
                    .stringType()
                    .asList()
                    .defaultValues("urls")
                    .withDescription("Topics with raw URLs, separated by ';'.");

    public static final ConfigOption<List<String>> CONTROL_TOPICS =
            ConfigOptions.key("control.topics")
                    .stringType()
                    .asList()
                    .defaultValues()
                    .withDescription(
                            "Topics with seen-set ops only (force, mark-seen, forget, forget-key),"
                                    + " in the input format, separated by ';'. Read like the input"
                                    + " topics; an op is ordered with the records of its own"
                                    + " partition, not with the data of the input topics.");

    public static final ConfigOption<StartingOffsets> STARTING_OFFSETS =
            ConfigOptions.key("input.starting-offsets")
                    .enumType(StartingOffsets.class)
                    .defaultValue(StartingOffsets.COMMITTED)
                    .withDescription(
                            "Where to start without a checkpoint: COMMITTED (the group's offsets,"
                                    + " else earliest), EARLIEST or LATEST. Ignored on restore.");

    public static final ConfigOption<Boolean> BOUNDED =
            ConfigOptions.key("input.bounded")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Stop at the offsets that were the latest when the job started, then"
                                    + " finish: for backfills and tests.");

    public static final ConfigOption<MemorySize> MAX_RECORD_SIZE =
            ConfigOptions.key("input.max-record-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("64kb"))
                    .withDescription(
                            "Largest input value accepted; larger ones are dead letters"
                                    + " (too-long).");

    public static final ConfigOption<String> FRONTIER_TOPIC =
            ConfigOptions.key("frontier.topic")
                    .stringType()
                    .defaultValue("frontier")
                    .withDescription("Topic that receives first-seen URLs.");

    public static final ConfigOption<MemorySize> FRONTIER_MAX_META_SIZE =
            ConfigOptions.key("frontier.max-meta-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("16kb"))
                    .withDescription(
                            "Largest metadata (the other fields of a JSON input, as JSON text) a"
                                    + " frontier record carries; larger metadata is left out and"
                                    + " the record says \"meta_omitted\":true.");

    public static final ConfigOption<String> DEAD_LETTER_TOPIC =
            ConfigOptions.key("dead-letter.topic")
                    .stringType()
                    .defaultValue("frontier-dead-letters")
                    .withDescription("Topic that receives records FirstSeen could not use.");

    public static final ConfigOption<MemorySize> DEAD_LETTER_MAX_RAW =
            ConfigOptions.key("dead-letter.max-raw-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("8kb"))
                    .withDescription(
                            "How much of a bad value a dead letter keeps, in bytes of JSON text"
                                    + " (escapes included); the rest is cut (raw_truncated=true)"
                                    + " so it fits in a Kafka message.");

    public static final ConfigOption<DeliveryGuarantee> DELIVERY_GUARANTEE =
            ConfigOptions.key("sink.delivery-guarantee")
                    .enumType(DeliveryGuarantee.class)
                    .defaultValue(DeliveryGuarantee.EXACTLY_ONCE)
                    .withDescription(
                            "EXACTLY_ONCE: output is committed with each checkpoint, consumers"
                                    + " read with isolation.level=read_committed. AT_LEAST_ONCE:"
                                    + " lower latency, a URL may appear twice after a failure.");

    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX =
            ConfigOptions.key("sink.transactional-id-prefix")
                    .stringType()
                    .defaultValue("firstseen")
                    .withDescription(
                            "Prefix of the Kafka transactional ids (suffixed -frontier and"
                                    + " -dead-letters). Must be unique per job on a cluster.");

    public static final ConfigOption<TransactionNamingStrategy> TRANSACTION_NAMING =
            ConfigOptions.key("sink.transaction-naming")
                    .enumType(TransactionNamingStrategy.class)
                    .defaultValue(TransactionNamingStrategy.INCREMENTING)
                    .withDescription(
                            "INCREMENTING: a new transactional id per checkpoint, needs only"
                                    + " write rights. POOLING: reuses ids (less broker state);"
                                    + " needs the output topics to exist and the Admin rights"
                                    + " ListTransactions and DescribeProducers.");

    public static final ConfigOption<Duration> TRANSACTION_TIMEOUT =
            ConfigOptions.key("sink.transaction-timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(15))
                    .withDescription(
                            "Kafka transaction timeout. At most the broker's"
                                    + " transaction.max.timeout.ms (15 min by default); must be"
                                    + " longer than a checkpoint interval plus the longest"
                                    + " recovery, or output of that checkpoint is lost.");

    public static final ConfigOption<List<String>> SCHEMES =
            ConfigOptions.key("canonical.schemes")
                    .stringType()
                    .asList()
                    .defaultValues("http", "https")
                    .withDescription(
                            "Schemes to accept, from http, https, ftp, ws, wss; others are dead"
                                    + " letters (unsupported-scheme).");

    public static final ConfigOption<List<String>> RULES =
            ConfigOptions.key("canonical.rules")
                    .stringType()
                    .asList()
                    .defaultValues()
                    .withDescription(
                            "Opt-in canonicalization rules on top of the safe ones, separated by"
                                    + " ';': sort-query, strip-tracking, strip-session-ids,"
                                    + " strip-www, collapse-slashes, strip-trailing-slash. Fixed"
                                    + " for the life of the state.");

    public static final ConfigOption<List<String>> TRACKING_PARAMETERS =
            ConfigOptions.key("canonical.tracking-parameters")
                    .stringType()
                    .asList()
                    .defaultValues(
                            CanonicalProfile.DEFAULT_TRACKING_PARAMETERS.toArray(new String[0]))
                    .withDescription(
                            "Query parameters the strip-tracking rule removes; a trailing '*'"
                                    + " matches a prefix. Part of the profile id.");

    public static final ConfigOption<Integer> MAX_URL_LENGTH =
            ConfigOptions.key("canonical.max-url-length")
                    .intType()
                    .defaultValue(8192)
                    .withDescription(
                            "Longest URL accepted, in characters, before and after"
                                    + " canonicalization.");

    public static final ConfigOption<KeyMode> KEY_MODE =
            ConfigOptions.key("keying.mode")
                    .enumType(KeyMode.class)
                    .defaultValue(KeyMode.DOMAIN)
                    .withDescription(
                            "DOMAIN: registrable domain (public suffix list, private suffixes"
                                    + " included); HOST: the host name. IP hosts key by address."
                                    + " Fixed for the life of the state.");

    public static final ConfigOption<List<String>> HOT_DOMAINS =
            ConfigOptions.key("keying.hot-domains")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "Partition keys (as keying.mode forms them) whose dedup state is"
                                    + " spread over keying.hot-domain-salts subtasks, for a"
                                    + " domain with a large share of the records. Their frontier"
                                    + " records keep the plain key. Fixed for the life of the"
                                    + " state, with the salt count.");

    public static final ConfigOption<Integer> HOT_DOMAIN_SALTS =
            ConfigOptions.key("keying.hot-domain-salts")
                    .intType()
                    .defaultValue(8)
                    .withDescription(
                            "Keys each hot domain's dedup state is spread over, 2 to 1024; at"
                                    + " most the maximum parallelism is useful. Fixed for the life"
                                    + " of the state.");

    public static final ConfigOption<DedupMode> DEDUP_MODE =
            ConfigOptions.key("dedup.mode")
                    .enumType(DedupMode.class)
                    .defaultValue(DedupMode.EXACT)
                    .withDescription(
                            "EXACT: Bloom filter plus exact fingerprint store, never drops a new"
                                    + " URL. APPROXIMATE: Bloom filter only, drops a new URL with"
                                    + " the false-positive rate; far less state.");

    public static final ConfigOption<ApproximateFilter> APPROXIMATE_FILTER =
            ConfigOptions.key("dedup.approximate.filter")
                    .enumType(ApproximateFilter.class)
                    .defaultValue(ApproximateFilter.FINGERPRINTS)
                    .withDescription(
                            "Approximate mode's filter for keys created from now on."
                                    + " FINGERPRINTS: compressed fingerprint prefixes, about 2.4"
                                    + " bytes per URL at a rate of 1e-4; op 'forget' and"
                                    + " dedup.forget-after work."
                                    + " BLOOM: the scalable Bloom filter of earlier versions,"
                                    + " about 9 bytes per URL at 1e-4, no 'forget'. Keys keep the"
                                    + " filter they were created with.");

    public static final ConfigOption<ExactStoreType> EXACT_STORE =
            ConfigOptions.key("dedup.exact.store")
                    .enumType(ExactStoreType.class)
                    .defaultValue(ExactStoreType.AUTO)
                    .withDescription(
                            "Exact mode's seen-set for keys created from now on. AUTO: PAGES,"
                                    + " or ENTRIES when revisit-after, forget-after or 128-bit"
                                    + " fingerprints need it. ENTRIES: one"
                                    + " RocksDB entry per URL (fingerprint and time last emitted)"
                                    + " behind a Bloom filter; keeps times, which revisit-after"
                                    + " and forget-after need. PAGES: each key's 63-bit"
                                    + " fingerprints in compressed pages of keyed state, cached on"
                                    + " the heap (dedup.bloom.cache-size, about 7 bytes per URL of"
                                    + " the keys in use); no per-URL entry and no read for a"
                                    + " repeat, less CPU and checkpoint; keeps times only for the"
                                    + " URLs of records with their own revisit_after. Keys keep"
                                    + " the store they were created with.");

    public static final ConfigOption<Integer> APPROXIMATE_PAGE_ENTRIES =
            ConfigOptions.key("dedup.approximate.page-entries")
                    .intType()
                    .defaultValue(dev.firstseen.dedup.DedupConfig.DEFAULT_APPROXIMATE_PAGE_ENTRIES)
                    .withDescription(
                            "With dedup.approximate.filter FINGERPRINTS: fingerprints per page,"
                                    + " on average, past which a key's pages split, 32 to 4096."
                                    + " Smaller pages scan and copy less per lookup and insert"
                                    + " and cost more bytes per URL in the heap and in"
                                    + " checkpoints; 512 until 1024 measured 0.02-0.03 bytes"
                                    + " per URL less at no lower rate."
                                    + " Decides future splits only, so it may change on"
                                    + " restore.");

    public static final ConfigOption<Integer> APPROXIMATE_FORGET_GENERATIONS =
            ConfigOptions.key("dedup.approximate.forget-generations")
                    .intType()
                    .defaultValue(dev.firstseen.dedup.DedupConfig.DEFAULT_FORGET_GENERATIONS)
                    .withDescription(
                            "Approximate mode with dedup.forget-after: generations per"
                                    + " forget-after, 1 to 16. A key's URLs emitted in one"
                                    + " generation (forget-after divided by this) go to the"
                                    + " same classes and are forgotten together once the"
                                    + " generation ended forget-after ago: a URL is forgotten"
                                    + " between forget-after and forget-after plus a generation"
                                    + " after it was emitted. The n + 1 generations alive at"
                                    + " once share the rate, which costs log2(n + 1) bits a URL"
                                    + " (2.3 at the default 4). May change on restore.");

    public static final ConfigOption<Boolean> APPROXIMATE_CONVERT_EXACT_KEYS =
            ConfigOptions.key("dedup.approximate.convert-exact-keys")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "After a switch from exact to approximate mode with"
                                    + " dedup.approximate.filter FINGERPRINTS: turn exact mode's"
                                    + " keys into approximate mode's filter as each subtask opens"
                                    + " after the restore (about 7 bytes per URL in fingerprint"
                                    + " pages, 18 in the entries store, become 1.5 to 2.5),"
                                    + " keeping every URL they hold, so none is emitted again."
                                    + " Their new URLs are then dropped at up to"
                                    + " dedup.bloom.false-positive-rate. An entries-store key"
                                    + " whose store a forget or an expiry left with fewer URLs"
                                    + " than its Bloom filter keeps the filter. false: such keys"
                                    + " stay exact; a later job with true converts pages keys as"
                                    + " records load them.");

    public static final ConfigOption<Integer> EXACT_PAGE_ENTRIES =
            ConfigOptions.key("dedup.exact.page-entries")
                    .intType()
                    .defaultValue(dev.firstseen.dedup.DedupConfig.DEFAULT_EXACT_PAGE_ENTRIES)
                    .withDescription(
                            "With dedup.exact.store PAGES: fingerprints per page, on average,"
                                    + " past which a key's pages split, 32 to 4096. Smaller pages"
                                    + " cost a little more per page and make each checkpoint"
                                    + " write fewer bytes for the same inserts (a dirty page is"
                                    + " written whole). Decides future splits only, so it may"
                                    + " change on restore.");

    public static final ConfigOption<Double> PAGE_JOURNAL_SHARE =
            ConfigOptions.key("dedup.page-journal.max-share")
                    .doubleType()
                    .noDefaultValue()
                    .withDescription(
                            "Keys in fingerprint pages (exact mode's PAGES, approximate mode's"
                                    + " FINGERPRINTS): at a checkpoint, a key's new fingerprints"
                                    + " are appended to its page journal (the bits an insert"
                                    + " reads, 63 in exact mode and 22 to 31 at 1e-4, sorted and"
                                    + " coded as gaps) instead of its changed pages being written"
                                    + " whole, until the journal would be larger than its bound"
                                    + " (drawn for each key after each whole write from a quarter"
                                    + " of this share of the key's pages to all of it, so that keys"
                                    + " that grow alike do not all write whole at one checkpoint)"
                                    + " or hold 65,536 fingerprints; then the pages are written"
                                    + " whole and the journal cleared. A key read from state"
                                    + " inserts its journal again. 0 writes changed"
                                    + " pages whole at every checkpoint. From 0 to 1; may change"
                                    + " on restore. Default: 0.75 in exact mode, 0.05 in"
                                    + " approximate mode (whose full journals are written whole"
                                    + " after the checkpoint and compacted, see"
                                    + " dedup.rocksdb.compact-after-checkpoint).");

    public static final ConfigOption<Integer> FINGERPRINT_BITS =
            ConfigOptions.key("dedup.fingerprint-bits")
                    .intType()
                    .defaultValue(64)
                    .withDescription(
                            "Bits of a URL's fingerprint, 64 or 128, for a job that starts from an"
                                    + " empty state; a restored job keeps the fingerprints its"
                                    + " state was written with. 64: an exact-store entry is 12"
                                    + " bytes, and two URLs of one key collide (the second is"
                                    + " dropped) with a chance of about n²/2^65 for a key of n"
                                    + " URLs (see the README). 128: 24-byte entries, no practical"
                                    + " chance of a collision.");

    public static final ConfigOption<Long> REBUILD_STEP =
            ConfigOptions.key("dedup.bloom.rebuild-step")
                    .longType()
                    .defaultValue(dev.firstseen.dedup.DedupConfig.DEFAULT_REBUILD_STEP)
                    .withDescription(
                            "Exact mode: the most exact-store entries that filter rebuilds read"
                                    + " while one input record is processed. A key with at most"
                                    + " this many URLs is rebuilt inside the record that fills its"
                                    + " filter; a larger key's rebuild is spread over the records"
                                    + " that follow (of any key) while its old filter goes on"
                                    + " answering, so no record waits for a scan of a large"
                                    + " domain. Entries; at least 1.");

    public static final ConfigOption<Long> EXPECTED_URLS_PER_KEY =
            ConfigOptions.key("dedup.bloom.expected-urls-per-key")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "URLs the first filter of a key holds; by default 512 in approximate"
                                    + " mode (its fingerprint filter's first class) and 128"
                                    + " otherwise. When it is full, exact mode rebuilds it for"
                                    + " twice the key's URLs; approximate mode adds a class (or"
                                    + " Bloom layer) for 4x more. Applies to keys created from"
                                    + " now on.");

    public static final ConfigOption<Double> FALSE_POSITIVE_RATE =
            ConfigOptions.key("dedup.bloom.false-positive-rate")
                    .doubleType()
                    .defaultValue(0.01)
                    .withDescription(
                            "Target Bloom false-positive rate per key. Exact mode: share of"
                                    + " new URLs that cost a RocksDB read, on average while a"
                                    + " filter fills from half full to full. Approximate mode:"
                                    + " compound rate over all layers, which bounds the share"
                                    + " of new URLs dropped.");

    public static final ConfigOption<MemorySize> FILTER_CACHE_SIZE =
            ConfigOptions.key("dedup.bloom.cache-size")
                    .memoryType()
                    .noDefaultValue()
                    .withDescription(
                            "Heap for cached filter pages per dedup subtask (task heap, not"
                                    + " managed memory), at least 1 mb. Least recently used keys"
                                    + " are written back and dropped beyond it. Unset (the"
                                    + " default): dedup.bloom.cache-heap-fraction of the slot's"
                                    + " share of the task heap.");

    public static final ConfigOption<Integer> FILTER_CACHE_PACK_MAX_PAGES =
            ConfigOptions.key("dedup.bloom.cache-pack-max-pages")
                    .intType()
                    .defaultValue(dev.firstseen.dedup.DedupConfig.DEFAULT_PACK_MAX_PAGES)
                    .withDescription(
                            "At each checkpoint the filter cache folds every compressed-fingerprint"
                                    + " key of at most this many page slots into its arena"
                                    + " (about 40 bytes of heap besides its pages instead of 187"
                                    + " to 270 as objects), until its filter is needed as an"
                                    + " object (new URLs are held beside it, up to 64 a key,"
                                    + " until the next checkpoint packs it again); 0 packs none."
                                    + " From 0 to 16: with more pages a probe of a packed key"
                                    + " walks more slots, and packing copies more pages.");

    public static final ConfigOption<Double> FILTER_CACHE_HEAP_FRACTION =
            ConfigOptions.key("dedup.bloom.cache-heap-fraction")
                    .doubleType()
                    .defaultValue(
                            dev.firstseen.dedup.DedupConfig.DEFAULT_FILTER_CACHE_HEAP_FRACTION)
                    .withDescription(
                            "Without dedup.bloom.cache-size: the share of its slot's task heap"
                                    + " (taskmanager.memory.task.heap.size divided by"
                                    + " taskmanager.numberOfTaskSlots; in a local MiniCluster,"
                                    + " whose task heap is unbounded, the JVM's heap) that a dedup"
                                    + " subtask's filter cache may hold, above 0 and at most 0.8."
                                    + " Exact mode's fingerprint pages need about 7 bytes per URL"
                                    + " of the keys in use.");

    public static final ConfigOption<Integer> RECENT_CACHE_ENTRIES =
            ConfigOptions.key("dedup.recent-cache.entries")
                    .intType()
                    .defaultValue(65536)
                    .withDescription(
                            "Fingerprints in the L1 recent-URL cache per dedup subtask, rounded up"
                                    + " to a power of two: 8 bytes each with 64-bit fingerprints,"
                                    + " 16 with 128-bit ones, and 8 more for a time once a revisit"
                                    + " or forget rule needs one; 0 disables it.");

    public static final ConfigOption<Boolean> ALLOW_SETTINGS_CHANGE =
            ConfigOptions.key("dedup.allow-settings-change")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Restore even if the canonicalization profile, key mode or dedup"
                                    + " mode differ from the state's, accepting that URLs seen"
                                    + " before may be emitted again.");

    public static final ConfigOption<Duration> REVISIT_AFTER =
            ConfigOptions.key("dedup.revisit-after")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "Emit a seen URL again once this long has passed since it was last"
                                    + " emitted (e.g. 30 d), decided on the input record's Kafka"
                                    + " timestamp (clamped to the processing time). The frontier"
                                    + " record then says \"revisit\":true and \"last_emitted\"."
                                    + " Exact mode only. Default: never.");

    public static final ConfigOption<Duration> FORGET_AFTER =
            ConfigOptions.key("dedup.forget-after")
                    .durationType()
                    .noDefaultValue()
                    .withDescription(
                            "Forget a URL not emitted for this long (e.g. 180 d): its next"
                                    + " sighting is new. Exact mode deletes its entry from the"
                                    + " exact store, on that sighting or when its key's store is"
                                    + " swept (every quarter of this time, on the key's records,"
                                    + " or by a timer when the key is idle; a key left empty is"
                                    + " removed). Approximate mode (filter FINGERPRINTS) keeps"
                                    + " each key's filter in generations and forgets a"
                                    + " generation whole, see"
                                    + " dedup.approximate.forget-generations. Default: never.");

    public static final ConfigOption<Integer> ROCKSDB_LEVEL0_COMPACTION_TRIGGER =
            ConfigOptions.key("dedup.rocksdb.level0-compaction-trigger")
                    .intType()
                    .noDefaultValue()
                    .withDescription(
                            "Level-0 files (one per checkpoint's flush) after which RocksDB"
                                    + " compacts them into level 1, for every column family of"
                                    + " the job; 0 leaves RocksDB's own (4). Rewritten filter"
                                    + " pages leave stale versions in every checkpoint until a"
                                    + " compaction drops them. Default: 1 where pages are"
                                    + " rewritten and no compaction follows each checkpoint"
                                    + " (exact mode's fingerprint pages; approximate mode with"
                                    + " dedup.rocksdb.compact-after-checkpoint false), else 0:"
                                    + " approximate mode compacts after each checkpoint by"
                                    + " default, and exact mode's append-only entries store"
                                    + " gained nothing and ran slower with 1. Applied through"
                                    + " dev.firstseen.config.SeenSetRocksDBOptions, which the job"
                                    + " sets as state.backend.rocksdb.options-factory unless that"
                                    + " names another class.");

    public static final ConfigOption<Boolean> ROCKSDB_COMPACT_BEFORE_CHECKPOINT =
            ConfigOptions.key("dedup.rocksdb.compact-before-checkpoint")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Compact the filter pages' RocksDB column family in the task thread"
                                    + " before each checkpoint, after the dirty pages are"
                                    + " written, so that the checkpoint holds no superseded page"
                                    + " versions: checkpoints near the live filter, for a pause"
                                    + " of the subtask at every checkpoint that grows with its"
                                    + " pages (1.0-1.3 s for 55 MB measured here). Uses"
                                    + " RocksDBKeyedStateBackend#compactState; ignored on other"
                                    + " state backends.");

    public static final ConfigOption<Boolean> ROCKSDB_COMPACT_AFTER_CHECKPOINT =
            ConfigOptions.key("dedup.rocksdb.compact-after-checkpoint")
                    .booleanType()
                    .noDefaultValue()
                    .withDescription(
                            "After each checkpoint, compact the filter's RocksDB column families"
                                    + " in a background thread, in place of the level-0 trigger"
                                    + " of 1; and a key whose page journal is full appends one"
                                    + " more element at the checkpoint and has its pages written"
                                    + " whole right after it, so that the next checkpoint holds"
                                    + " no superseded versions of them. Default: true in"
                                    + " approximate mode, false in exact mode (whose pages are"
                                    + " the seen-set, several times larger). Ignored on other"
                                    + " state backends.");

    public static final ConfigOption<MemorySize> ROCKSDB_MAX_MANIFEST_SIZE =
            ConfigOptions.key("dedup.rocksdb.max-manifest-size")
                    .memoryType()
                    .defaultValue(MemorySize.parse("64kb"))
                    .withDescription(
                            "Size past which RocksDB starts a new MANIFEST (its log of which files"
                                    + " the database holds) that records only the files live"
                                    + " now. Every checkpoint carries the whole MANIFEST, and"
                                    + " every flush and compaction adds to it (about 1.1 KB a"
                                    + " checkpoint in approximate mode), so with RocksDB's own"
                                    + " limit of 1 GiB a long-running job's checkpoints would"
                                    + " grow by that much per subtask whatever its state. At"
                                    + " least 4 KB. Applied through"
                                    + " dev.firstseen.config.SeenSetRocksDBOptions, as"
                                    + " dedup.rocksdb.level0-compaction-trigger is.");

    public static final ConfigOption<Boolean> METRICS_ACCUMULATORS =
            ConfigOptions.key("metrics.accumulators")
                    .booleanType()
                    .noDefaultValue()
                    .withDescription(
                            "Also keep every FirstSeen counter as a Flink accumulator, so that the"
                                    + " job result of a finished run carries the totals (the"
                                    + " local runner and the benchmarks print them). Default: on"
                                    + " when input.bounded is true, off otherwise: a running"
                                    + " job reports accumulators to the JobManager with every"
                                    + " heartbeat for its whole life, and the metrics carry"
                                    + " the same figures.");

    /** All options, for validation and documentation. */
    public static final List<ConfigOption<?>> ALL =
            List.of(
                    BOOTSTRAP_SERVERS,
                    GROUP_ID,
                    INPUT_TOPICS,
                    CONTROL_TOPICS,
                    STARTING_OFFSETS,
                    BOUNDED,
                    MAX_RECORD_SIZE,
                    FRONTIER_TOPIC,
                    FRONTIER_MAX_META_SIZE,
                    DEAD_LETTER_TOPIC,
                    DEAD_LETTER_MAX_RAW,
                    DELIVERY_GUARANTEE,
                    TRANSACTIONAL_ID_PREFIX,
                    TRANSACTION_NAMING,
                    TRANSACTION_TIMEOUT,
                    SCHEMES,
                    RULES,
                    TRACKING_PARAMETERS,
                    MAX_URL_LENGTH,
                    KEY_MODE,
                    HOT_DOMAINS,
                    HOT_DOMAIN_SALTS,
                    DEDUP_MODE,
                    APPROXIMATE_FILTER,
                    EXACT_STORE,
                    EXACT_PAGE_ENTRIES,
                    APPROXIMATE_PAGE_ENTRIES,
                    APPROXIMATE_CONVERT_EXACT_KEYS,
                    APPROXIMATE_FORGET_GENERATIONS,
                    PAGE_JOURNAL_SHARE,
                    FINGERPRINT_BITS,
                    REBUILD_STEP,
                    EXPECTED_URLS_PER_KEY,
                    FALSE_POSITIVE_RATE,
                    FILTER_CACHE_SIZE,
                    FILTER_CACHE_HEAP_FRACTION,
                    FILTER_CACHE_PACK_MAX_PAGES,
                    RECENT_CACHE_ENTRIES,
                    ALLOW_SETTINGS_CHANGE,
                    REVISIT_AFTER,
                    FORGET_AFTER,
                    ROCKSDB_LEVEL0_COMPACTION_TRIGGER,
                    ROCKSDB_COMPACT_BEFORE_CHECKPOINT,
                    ROCKSDB_COMPACT_AFTER_CHECKPOINT,
                    ROCKSDB_MAX_MANIFEST_SIZE,
                    METRICS_ACCUMULATORS);
}
