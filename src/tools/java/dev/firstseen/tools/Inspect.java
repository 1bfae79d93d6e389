package dev.firstseen.tools;

import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import dev.firstseen.dedup.DedupState;
import dev.firstseen.dedup.ExactStore;
import dev.firstseen.dedup.FilterMeta;
import dev.firstseen.dedup.Fingerprint;
import dev.firstseen.dedup.FingerprintFunction;
import dev.firstseen.dedup.StoredFilter;
import dev.firstseen.job.FirstSeenJob;
import dev.firstseen.keying.HotKeySalting;
import dev.firstseen.keying.PartitionKeyer;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.functions.KeyedStateReaderFunction;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;

/**
 * Reads a FirstSeen savepoint or retained checkpoint with Flink's State Processor API, without a
 * running job: the settings it was written with, totals (keys, URLs, Bloom bytes, oldest and newest
 * times), the top keys by URLs, a per-key CSV, and, with {@code --check FILE}, for each URL of the
 * file whether the state has it as seen and since when (in approximate mode, which keeps only its
 * filter: unseen, or seen unless a false positive at its key's rate).
 *
 * <pre>
 * Inspect --savepoint PATH [--top 20] [--csv FILE] [--check FILE] [--canonical.* options]
 * </pre>
 *
 * {@code --check} canonicalizes and keys each URL with the canonical and keying options given
 * (defaults otherwise) and refuses to answer if they are not those the state was written with.
 */
public final class Inspect {
    private Inspect() {}

    static final String USAGE =
            "Usage: Inspect --savepoint PATH [--top 20] [--csv FILE] [--check FILE]"
                    + " [--canonical.<option> value ...] [--keying.<option> value ...]"
                    + " (the job's canonical.* and keying.* options, when not the defaults)";

    /** One key's figures; {@code checked} holds "url<TAB>seen <ms>" or "url<TAB>unseen". */
    public static final class KeyRow {
        public String key;
        public long urls;
        public long oldest = Long.MAX_VALUE;
        public long newest = Long.MIN_VALUE;
        public long bloomBytes;

        /** Approximate mode: the rate a new URL of the key meets; NaN otherwise or unknown. */
        public double rate = Double.NaN;

        public List<String> checked = new ArrayList<>();
    }

    /** What a savepoint holds. */
    public record Report(
            Map<String, String> settings,
            String fingerprintFunction,
            List<KeyRow> keys,
            Map<String, String> checks) {
        long urls() {
            return keys.stream().mapToLong(k -> k.urls).sum();
        }
    }

    /** Reads {@code path}; {@code check} lists URLs to look up (may be empty). */
    public static Report read(String path, List<String> check, Configuration jobOptions)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(1);
        SavepointReader savepoint =
                SavepointReader.read(env, path, new EmbeddedRocksDBStateBackend());
        OperatorIdentifier dedup = OperatorIdentifier.forUid(FirstSeenJob.UID_DEDUP);

        Map<String, String> settings = new TreeMap<>();
        for (String e :
                collect(
                        savepoint.readUnionState(
                                dedup, DedupState.settings().getName(), Types.STRING))) {
            int eq = e.indexOf('=');
            if (eq > 0) {
                settings.put(e.substring(0, eq), e.substring(eq + 1));
            }
        }
        List<String> recorded =
                collect(
                        savepoint.readUnionState(
                                dedup, DedupState.fingerprintFunction().getName(), Types.STRING));
        FingerprintFunction f =
                recorded.isEmpty()
                        ? FingerprintFunction.LEGACY_MURMUR3
                        : FingerprintFunction.parse(recorded.get(0));

        // The URLs to check, by key and fingerprint, as the job would see them.
        Map<String, String> checks = new TreeMap<>();
        HashMap<String, Map<String, String>> byKey = new HashMap<>();
        if (!check.isEmpty()) {
            var s = dev.firstseen.config.FirstSeenSettings.from(withDefaults(jobOptions, settings));
            String profile = s.canonicalizer().profile().id();
            if (!profile.equals(settings.get("canonical.profile"))
                    || !s.keyMode().name().equals(settings.get("keying.mode"))) {
                throw new IllegalArgumentException(
                        "The state was written with canonical.profile '"
                                + settings.get("canonical.profile")
                                + "' and keying.mode '"
                                + settings.get("keying.mode")
                                + "', the options given make '"
                                + profile
                                + "' and '"
                                + s.keyMode()
                                + "': give the job's --canonical.* and --keying.mode options");
            }
            Canonicalizer canon = s.canonicalizer();
            PartitionKeyer keyer = new PartitionKeyer(s.keyMode());
            HotKeySalting salting = HotKeySalting.fromGuardValue(settings.get(HotKeySalting.GUARD));
            for (String url : check) {
                Canonicalization c = canon.canonicalize(url);
                if (!c.isAccepted()) {
                    checks.put(url, "invalid (" + c.reason().code() + ")");
                    continue;
                }
                checks.put(url, "unseen");
                String key = keyer.keyOf(c);
                int salt = salting.saltOf(key, c.url()); // the state key of a hot domain's URL
                byKey.computeIfAbsent(HotKeySalting.stateKey(key, salt), k -> new HashMap<>())
                        .put(f.of(c.url()).toString(), url);
            }
        }
        List<KeyRow> rows =
                collect(
                        savepoint.readKeyedState(
                                dedup,
                                new KeyReader(
                                        byKey, f, "APPROXIMATE".equals(settings.get("dedup.mode"))),
                                Types.STRING,
                                TypeInformation.of(KeyRow.class)));
        for (KeyRow r : rows) {
            for (String line : r.checked) {
                int tab = line.indexOf('\t');
                checks.put(line.substring(0, tab), line.substring(tab + 1));
            }
        }
        return new Report(settings, f.toString(), rows, checks);
    }

    private static Configuration withDefaults(Configuration given, Map<String, String> stored) {
        Configuration c = new Configuration(given);
        c.setString("kafka.bootstrap-servers", "unused:9092");
        c.setString("input.topics", "unused");
        if (stored.containsKey("dedup.mode")) {
            c.setString("dedup.mode", stored.get("dedup.mode"));
        }
        return c;
    }

    private static <T> List<T> collect(org.apache.flink.streaming.api.datastream.DataStream<T> s)
            throws Exception {
        List<T> out = new ArrayList<>();
        try (CloseableIterator<T> it = s.executeAndCollect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    /** Per key: URLs, oldest and newest time, Bloom bytes, and the checked URLs' answers. */
    static final class KeyReader extends KeyedStateReaderFunction<String, KeyRow> {
        private static final long serialVersionUID = 1L;
        private final HashMap<String, Map<String, String>> check;
        private final FingerprintFunction function;
        private final boolean approximate;
        private transient ExactStore seen;
        private transient MapState<Integer, byte[]> pages;
        private transient ValueState<FilterMeta> meta;
        private transient ListState<byte[]> journal;

        KeyReader(
                HashMap<String, Map<String, String>> check,
                FingerprintFunction function,
                boolean approximate) {
            this.check = check;
            this.function = function;
            this.approximate = approximate;
        }

        @Override
        public void open(OpenContext ctx) {
            // The store's layout follows the fingerprints the state was written with.
            seen = ExactStore.open(getRuntimeContext(), function);
            pages = getRuntimeContext().getMapState(DedupState.bloomPages());
            meta = getRuntimeContext().getState(DedupState.bloomMeta());
            journal = getRuntimeContext().getListState(DedupState.pageJournal());
        }

        @Override
        public void readKey(String key, Context ctx, Collector<KeyRow> out) throws Exception {
            KeyRow r = new KeyRow();
            r.key = key;
            Map<String, String> wanted = check.getOrDefault(key, Map.of());
            Set<String> timed = new HashSet<>();
            for (Map.Entry<Fingerprint, Long> e : seen.entries()) {
                r.urls++;
                r.oldest = Math.min(r.oldest, e.getValue());
                r.newest = Math.max(r.newest, e.getValue());
                String url = wanted.get(e.getKey().toString());
                if (url != null) {
                    r.checked.add(url + "\tseen " + e.getValue());
                    timed.add(e.getKey().toString());
                }
            }
            for (byte[] p : pages.values()) {
                r.bloomBytes += p.length;
            }
            FilterMeta m = meta.value();
            StoredFilter stored =
                    m == null ? null : StoredFilter.read(m, pages::get, journal.get());
            if (m != null && (r.urls == 0 || m.isExactFingerprints())) {
                // Approximate mode keeps no entries, and a key in exact mode's fingerprint pages
                // only those of URLs whose records had their own revisit_after: the count.
                r.urls = stored.count();
            }
            if (m != null && approximate) { // only the filter: no false negative
                r.rate = stored.rate();
                for (Map.Entry<String, String> w : wanted.entrySet()) {
                    if (stored.mightContain(parse(w.getKey()))) {
                        r.checked.add(w.getValue() + "\t" + approximateSeen(r.rate));
                    }
                }
            }
            if (m != null && m.isExactFingerprints()) { // no time kept: seen, since unknown
                for (Map.Entry<String, String> w : wanted.entrySet()) {
                    if (!timed.contains(w.getKey()) && stored.mightContain(parse(w.getKey()))) {
                        r.checked.add(w.getValue() + "\tseen (fingerprint pages keep no time)");
                    }
                }
            }
            out.collect(r);
        }
    }

    /**
     * The answer for a URL approximate mode's filter holds: seen, or a false positive at the rate
     * its key's new URLs meet.
     */
    static String approximateSeen(double rate) {
        return Double.isNaN(rate)
                ? "seen, or a false positive of its key's Bloom filter (approximate mode)"
                : String.format(
                        Locale.ROOT,
                        "seen, or a false positive at its key's rate of %.2g (approximate mode)",
                        rate);
    }

    /** The inverse of {@link Fingerprint#toString()}. */
    static Fingerprint parse(String hex) {
        return new Fingerprint(
                Long.parseUnsignedLong(hex.substring(0, 16), 16),
                Long.parseUnsignedLong(hex.substring(16), 16));
    }

    /** The report as text: settings, totals, the top keys. */
    static void print(Report report, int top, PrintStream out) {
        out.println("settings: " + report.settings());
        out.println("fingerprints: " + report.fingerprintFunction());
        long bloom = report.keys().stream().mapToLong(k -> k.bloomBytes).sum();
        long oldest = report.keys().stream().mapToLong(k -> k.oldest).min().orElse(0);
        long newest = report.keys().stream().mapToLong(k -> k.newest).max().orElse(0);
        out.printf(
                Locale.ROOT,
                "keys %,d, URLs %,d, Bloom pages %,d bytes, oldest %s, newest %s%n",
                report.keys().size(),
                report.urls(),
                bloom,
                report.urls() == 0 || oldest == Long.MAX_VALUE
                        ? "-"
                        : java.time.Instant.ofEpochMilli(oldest),
                report.urls() == 0 || newest == Long.MIN_VALUE
                        ? "-"
                        : java.time.Instant.ofEpochMilli(newest));
        List<KeyRow> sorted = new ArrayList<>(report.keys());
        sorted.sort(Comparator.comparingLong((KeyRow k) -> k.urls).reversed());
        out.printf(Locale.ROOT, "top %d keys by URLs:%n", Math.min(top, sorted.size()));
        for (KeyRow k : sorted.subList(0, Math.min(top, sorted.size()))) {
            out.printf(
                    Locale.ROOT,
                    "  %-40s %,12d%s%n",
                    k.key,
                    k.urls,
                    Double.isNaN(k.rate) ? "" : String.format(Locale.ROOT, "  rate %.2g", k.rate));
        }
        report.checks().forEach((url, answer) -> out.println(url + "\t" + answer));
    }

    public static void main(String[] argv) throws Exception {
        ToolArgs args = new ToolArgs(argv, USAGE);
        String path = args.required("savepoint");
        List<String> check =
                args.has("check")
                        ? Files.readAllLines(
                                        Path.of(args.required("check")), StandardCharsets.UTF_8)
                                .stream()
                                .map(String::strip)
                                .filter(l -> !l.isEmpty())
                                .toList()
                        : List.of();
        Configuration options = new Configuration();
        for (int i = 0; i + 1 < argv.length; i++) {
            if (argv[i].startsWith("--canonical.") || argv[i].startsWith("--keying.")) {
                options.setString(argv[i].substring(2), argv[i + 1]);
            }
        }
        Report report = read(path, check, options);
        print(report, (int) args.getLong("top", 20), System.out);
        if (args.has("csv")) {
            List<String> lines = new ArrayList<>();
            lines.add("key,urls,oldest_ms,newest_ms,bloom_bytes,rate");
            for (KeyRow k : report.keys()) {
                lines.add(
                        String.format(
                                Locale.ROOT,
                                "%s,%d,%d,%d,%d,%s",
                                k.key,
                                k.urls,
                                k.urls == 0 ? 0 : k.oldest,
                                k.urls == 0 ? 0 : k.newest,
                                k.bloomBytes,
                                Double.isNaN(k.rate) ? "" : Double.toString(k.rate)));
            }
            Files.write(Path.of(args.required("csv")), lines, StandardCharsets.UTF_8);
        }
    }
}
