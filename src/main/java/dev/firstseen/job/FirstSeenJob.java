package dev.firstseen.job;

import dev.firstseen.config.FirstSeenOptions;
import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.config.SeenSetRocksDBOptions;
import dev.firstseen.dedup.DedupMode;
import dev.firstseen.dedup.DedupOperator;
import dev.firstseen.emit.KafkaOutput;
import dev.firstseen.ingest.DecodeFunction;
import dev.firstseen.ingest.KafkaInput;
import dev.firstseen.keying.CanonicalizeAndKeyFunction;
import dev.firstseen.keying.HotKeySalting;
import dev.firstseen.keying.PartitionKeyer;
import dev.firstseen.metrics.FirstSeenMetrics;
import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.DeadLetter;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.RawRecord;
import dev.firstseen.record.UrlMessage;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ParameterTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The FirstSeen job, assembled from the source and sinks it is given:
 *
 * <pre>
 *  source ─▶ decode ─▶ canonicalize+key ─▶ keyBy(key) ─▶ dedup ─▶ frontier sink
 *              │              │
 *              └──────────────┴─▶ dead letters ─▶ dead-letter sink
 * </pre>
 *
 * {@link #main} wires Kafka; tests plug in their own parts or call {@link #pipeline} on a stream.
 * Every operator has a fixed uid so savepoints survive upgrades.
 */
public final class FirstSeenJob {
    private static final Logger LOG = LoggerFactory.getLogger(FirstSeenJob.class);

    /** Operator uids: part of the savepoint format, never change them. */
    public static final String UID_SOURCE = "kafka-source";

    public static final String UID_DECODE = "decode";
    public static final String UID_CANONICALIZE = "canonicalize";
    public static final String UID_DEDUP = "dedup";
    public static final String UID_FRONTIER_SINK = "frontier-sink";
    public static final String UID_DEAD_LETTER_SINK = "dead-letter-sink";

    /** Checkpoint interval used when the configuration sets none. */
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

    private final FirstSeenSettings settings;
    private final Source<RawRecord, ?, ?> source;
    private final Sink<FrontierRecord> frontier;
    private final Sink<DeadLetter> deadLetters;

    public FirstSeenJob(
            FirstSeenSettings settings,
            Source<RawRecord, ?, ?> source,
            Sink<FrontierRecord> frontier,
            Sink<DeadLetter> deadLetters) {
        this.settings = settings;
        this.source = source;
        this.frontier = frontier;
        this.deadLetters = deadLetters;
    }

    /** The job on Kafka: the input topics, the frontier and the dead-letter topic of {@code s}. */
    public static FirstSeenJob onKafka(FirstSeenSettings s) {
        return new FirstSeenJob(
                s,
                KafkaInput.source(s.sourceSettings()),
                KafkaOutput.frontier(s.sinkSettings()),
                KafkaOutput.deadLetters(s.sinkSettings()));
    }

    /** The two output streams of the pipeline. */
    public record Outputs(
            DataStream<FrontierRecord> frontier, DataStream<DeadLetter> deadLetters) {}

    /** Adds the job to {@code env}. */
    public void build(StreamExecutionEnvironment env) {
        DataStream<RawRecord> input =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "input")
                        .uid(UID_SOURCE)
                        .returns(TypeInformation.of(RawRecord.class));
        Outputs out = pipeline(settings, input);
        out.frontier().sinkTo(frontier).name("frontier").uid(UID_FRONTIER_SINK);
        out.deadLetters().sinkTo(deadLetters).name("dead-letters").uid(UID_DEAD_LETTER_SINK);
    }

    /** Decode, canonicalize, key and dedup {@code input}. */
    public static Outputs pipeline(FirstSeenSettings s, DataStream<RawRecord> input) {
        SingleOutputStreamOperator<UrlMessage> decoded =
                input.process(new DecodeFunction(s.messageDecoder(), s.deadLetterMaxRawBytes()))
                        .name("decode")
                        .uid(UID_DECODE);
        SingleOutputStreamOperator<CanonicalUrl> canonical =
                decoded.process(
                                new CanonicalizeAndKeyFunction(
                                        s.canonicalizer(),
                                        new PartitionKeyer(s.keyMode()),
                                        s.deadLetterMaxRawBytes(),
                                        s.hotKeySalting()))
                        .name("canonicalize")
                        .uid(UID_CANONICALIZE);
        DataStream<FrontierRecord> firstSeen =
                canonical
                        .keyBy(HotKeySalting::stateKey, Types.STRING)
                        .transform(
                                "dedup",
                                TypeInformation.of(FrontierRecord.class),
                                new DedupOperator(s.dedupConfig()))
                        .uid(UID_DEDUP);
        DataStream<DeadLetter> dead =
                decoded.getSideOutput(DeadLetter.TAG)
                        .union(canonical.getSideOutput(DeadLetter.TAG));
        return new Outputs(firstSeen, dead);
    }

    /**
     * Flink options FirstSeen sets unless the configuration does: a checkpoint interval (the
     * exactly-once sink commits only on checkpoints), object reuse (the stages hand records on and
     * never keep them) and {@link SeenSetRocksDBOptions} as RocksDB's options factory. It also
     * passes {@code metrics.accumulators} to the operators as a global job parameter (see {@link
     * FirstSeenMetrics#ACCUMULATORS_PARAMETER}).
     */
    public static Configuration withJobDefaults(Configuration conf) {
        Configuration c = new Configuration(conf);
        if (!c.contains(CheckpointingOptions.CHECKPOINTING_INTERVAL)) {
            c.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, DEFAULT_CHECKPOINT_INTERVAL);
        }
        if (!c.contains(PipelineOptions.OBJECT_REUSE)) {
            c.set(PipelineOptions.OBJECT_REUSE, true);
        }
        // Ignored by a heap state backend; a factory the user named wins (see
        // SeenSetRocksDBOptions for why checkpoints need it).
        if (!c.contains(RocksDBOptions.OPTIONS_FACTORY)) {
            c.set(RocksDBOptions.OPTIONS_FACTORY, SeenSetRocksDBOptions.class.getName());
        }
        boolean accumulators =
                c.getOptional(FirstSeenOptions.METRICS_ACCUMULATORS)
                        .orElse(c.get(FirstSeenOptions.BOUNDED));
        Map<String, String> params =
                new HashMap<>(
                        c.getOptional(PipelineOptions.GLOBAL_JOB_PARAMETERS).orElse(Map.of()));
        params.put(FirstSeenMetrics.ACCUMULATORS_PARAMETER, Boolean.toString(accumulators));
        c.set(PipelineOptions.GLOBAL_JOB_PARAMETERS, params);
        return c;
    }

    /** Reads {@code --key value} arguments into a configuration. */
    public static Configuration parseArgs(String[] args) {
        return Configuration.fromMap(ParameterTool.fromArgs(args).toMap());
    }

    public static JobExecutionResult run(Configuration conf) throws Exception {
        FirstSeenSettings settings = FirstSeenSettings.from(conf);
        Configuration flinkConf = withJobDefaults(conf);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(flinkConf);
        onKafka(settings).build(env);
        LOG.info(
                "Starting FirstSeen: {} -> {} (dead letters: {}), {} mode{}, keyed by {}",
                settings.inputTopics(),
                settings.frontierTopic(),
                settings.deadLetterTopic(),
                settings.dedupMode(),
                settings.dedupMode() == DedupMode.EXACT
                        ? " (new keys in "
                                + FirstSeenSettings.exactStore(settings.configuration())
                                + ")"
                        : "",
                settings.keyMode());
        return env.execute(
                "FirstSeen " + settings.inputTopics() + " -> " + settings.frontierTopic());
    }

    public static void main(String[] args) throws Exception {
        try {
            run(parseArgs(args));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
        }
    }
}
