package dev.firstseen.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.util.ParameterTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Command lines checked against usage texts, and every tool's usage naming what it reads. */
class CommandLineTest {
    private static final String USAGE =
            "Usage: x --urls N [--rate 0.01|1e-4] [--sst-summary] [--firstseen.<job option> value]"
                    + " [--state.backend.rocksdb.<option> value] [--canonical.* ...] (see --help.)";

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "urls, true",
        "rate, true",
        "sst-summary, true",
        "help, true",
        "firstseen.dedup.mode, true",
        "state.backend.rocksdb.compression.per.level, true",
        "canonical.rules, true",
        "firstseen., false",
        "firstseen, false",
        "state.backend.rocksdb, false",
        "rates, false",
        "url, false",
        "job, false",
        "0.01, false",
    })
    void theUsageNamesItsOptions(String key, boolean named) {
        assertThat(CommandLine.namedIn(USAGE).has(key)).isEqualTo(named);
    }

    @Test
    void namesAndPrefixesAreReadAsWritten() {
        CommandLine.Named n = CommandLine.namedIn(USAGE);
        assertThat(n.names()).containsExactly("urls", "rate", "sst-summary", "help");
        assertThat(n.prefixes())
                .containsExactly("firstseen.", "state.backend.rocksdb.", "canonical.");
    }

    @Test
    void aNamedCommandLinePasses() {
        ParameterTool p =
                ParameterTool.fromArgs(
                        new String[] {
                            "--urls",
                            "5",
                            "--rate",
                            "1e-4",
                            "--sst-summary",
                            "--firstseen.dedup.mode",
                            "approximate"
                        });
        assertThat(CommandLine.unknownOptions(p, USAGE)).isNull();
    }

    @Test
    void aMisspeltOptionIsRefusedWithTheNearestName() {
        ParameterTool p =
                ParameterTool.fromArgs(new String[] {"--urls", "5", "--rat", "1e-4", "--x", "1"});
        String why = CommandLine.unknownOptions(p, USAGE);
        assertThat(why)
                .contains("Unknown option --rat (did you mean --rate?).")
                .contains("Unknown option --x.")
                .contains("Options: --urls, --rate, --sst-summary, --help, --firstseen.*");
    }

    /*
     * Each tool and harness reads its options by name; a name its usage leaves out would be
     * refused on the command line, so the usage must name every one. Reads are found in the
     * sources: calls of get, getInt, getLong, getDouble, getBoolean, has or required on the
     * parsed arguments (named p or args in every main here).
     */
    private static final Pattern READ =
            Pattern.compile(
                    "\\b(?:p|args)\\.(?:get|getInt|getLong|getDouble|getBoolean|has|required)"
                            + "\\(\\s*\"([^\"]+)\"");

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "src/tools/java/dev/firstseen/tools/Size.java, dev.firstseen.tools.Size",
        "src/tools/java/dev/firstseen/tools/Topics.java, dev.firstseen.tools.Topics",
        "src/tools/java/dev/firstseen/tools/Dump.java, dev.firstseen.tools.Dump",
        "src/tools/java/dev/firstseen/tools/Inspect.java, dev.firstseen.tools.Inspect",
        "src/tools/java/dev/firstseen/tools/Produce.java, dev.firstseen.tools.Produce",
        "src/tools/java/dev/firstseen/tools/SampleUrls.java, dev.firstseen.tools.SampleUrls",
        "src/bench/java/dev/firstseen/bench/EndToEndHarness.java,"
                + " dev.firstseen.bench.EndToEndHarness",
        "src/bench/java/dev/firstseen/bench/ScaleRun.java, dev.firstseen.bench.ScaleRun",
        "src/bench/java/dev/firstseen/bench/SubtaskSimulation.java,"
                + " dev.firstseen.bench.SubtaskSimulation",
    })
    void everyOptionAMainReadsIsInItsUsage(String source, String className) throws Exception {
        String usage = usageOf(className);
        List<String> reads = reads(Path.of(source));
        assertThat(reads).as("options read in " + source).isNotEmpty();
        CommandLine.Named named = CommandLine.namedIn(usage);
        assertThat(reads).allSatisfy(key -> assertThat(named.has(key)).as("--" + key).isTrue());
    }

    @Test
    void everyMainWithAUsageIsChecked() throws IOException {
        List<String> withUsage = new ArrayList<>();
        for (String dir :
                List.of(
                        "src/tools/java/dev/firstseen/tools",
                        "src/bench/java/dev/firstseen/bench")) {
            try (Stream<Path> files = Files.list(Path.of(dir))) {
                for (Path f : files.sorted().toList()) {
                    if (Files.readString(f, StandardCharsets.UTF_8)
                            .contains("static final String USAGE")) {
                        withUsage.add(f.getFileName().toString());
                    }
                }
            }
        }
        assertThat(withUsage)
                .containsExactlyInAnyOrder(
                        "Size.java",
                        "Topics.java",
                        "Dump.java",
                        "Inspect.java",
                        "Produce.java",
                        "SampleUrls.java",
                        "EndToEndHarness.java",
                        "ScaleRun.java",
                        "SubtaskSimulation.java");
    }

    private static String usageOf(String className) throws Exception {
        Field f = Class.forName(className).getDeclaredField("USAGE");
        f.setAccessible(true);
        return (String) f.get(null);
    }

    private static List<String> reads(Path source) throws IOException {
        Matcher m = READ.matcher(Files.readString(source, StandardCharsets.UTF_8));
        List<String> keys = new ArrayList<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }
}
