package dev.firstseen.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The job's packages form a layered graph without cycles: {@code record} at the bottom, the stages
 * above it, {@code job} on top. Read from the imports of {@code src/main/java}; a stage package's
 * {@code internal} subpackage counts as the stage itself.
 */
class PackageCyclesTest {
    private static final Path MAIN = Path.of("src/main/java/dev/firstseen");
    private static final Pattern IMPORT =
            Pattern.compile("^import (?:static )?dev\\.firstseen\\.([a-z]+)\\.", Pattern.MULTILINE);

    static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> deps = new TreeMap<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = MAIN.relativize(f).getName(0).toString();
                Set<String> out = deps.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = IMPORT.matcher(Files.readString(f, StandardCharsets.UTF_8));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        out.add(m.group(1));
                    }
                }
            }
        }
        return deps;
    }

    @Test
    void noPackageCycles() throws IOException {
        Map<String, Set<String>> deps = dependencies();
        assertThat(deps).containsKeys("record", "ingest", "canonical", "keying", "dedup", "emit");
        List<String> cycles = new ArrayList<>();
        for (String start : deps.keySet()) {
            findCycle(start, start, deps, new ArrayList<>(List.of(start)), cycles);
        }
        assertThat(cycles).as("package cycles in %s", deps).isEmpty();
    }

    @Test
    void recordsDependOnNoOtherPackage() throws IOException {
        assertThat(dependencies().get("record")).isEmpty();
    }

    private static void findCycle(
            String start,
            String at,
            Map<String, Set<String>> deps,
            List<String> path,
            List<String> cycles) {
        for (String next : deps.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                cycles.add(String.join(" -> ", path) + " -> " + start);
            } else if (!path.contains(next) && next.compareTo(start) > 0) {
                path.add(next);
                findCycle(start, next, deps, path, cycles);
                path.remove(path.size() - 1);
            }
        }
    }
}
