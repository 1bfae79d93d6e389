package dev.firstseen.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.api.Test;

/** The README's option table lists every option, and the default it shows is the real one. */
class ReadmeOptionsTest {
    @Test
    void readmeDocumentsEveryOptionAndDefault() throws Exception {
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        for (ConfigOption<?> o : FirstSeenOptions.ALL) {
            String row =
                    readme.lines()
                            .filter(l -> l.startsWith("| `" + o.key() + "` |"))
                            .findFirst()
                            .orElse(null);
            assertThat(row).as("README row for %s", o.key()).isNotNull();
            if (!o.hasDefaultValue()) {
                continue;
            }
            String cell = row.split("\\|")[2].trim().replace("`", "");
            Object def = o.defaultValue();
            Object shown;
            if (def instanceof MemorySize) {
                shown = MemorySize.parse(cell);
            } else if (def instanceof Duration) {
                shown = TimeUtils.parseDuration(cell);
            } else if (def instanceof List) {
                shown = cell.equals("(none)") ? List.of() : Arrays.asList(cell.split(";"));
            } else if (def instanceof Long) {
                shown = Long.parseLong(cell);
            } else if (def instanceof Integer) {
                shown = Integer.parseInt(cell);
            } else if (def instanceof Double) {
                shown = Double.parseDouble(cell);
            } else if (def instanceof Boolean) {
                shown = Boolean.parseBoolean(cell);
            } else if (def instanceof Enum<?> e) {
                shown = cell;
                def = e.name();
            } else {
                shown = cell;
            }
            assertThat(shown).as("default of %s in the README", o.key()).isEqualTo(def);
        }
    }
}
