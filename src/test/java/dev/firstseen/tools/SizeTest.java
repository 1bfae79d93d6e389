package dev.firstseen.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firstseen.dedup.DedupMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The sizing arithmetic, and that every figure it uses names a measurement that exists. */
class SizeTest {
    private static final long GIB = 1L << 30;

    @Test
    void tenBillionUrlsInExactMode() {
        List<String> plan =
                Size.plan(
                        10_000_000_000L,
                        DedupMode.EXACT,
                        0.01,
                        1_000_000,
                        0,
                        2 * GIB,
                        200 * GIB,
                        200);
        String text = String.join("\n", plan);
        // 30.8 B/URL on disk: 308 GB; 35.4 checkpointed: 354 GB; heap 1.64 B/URL + 400 B/key.
        assertThat(text).contains("308.0 GB").contains("354.0 GB").contains("16.4 GB");
        // Heap decides: 16.99 GB over 2 GiB slots is 8 slots (disk would need 2).
        assertThat(text).contains("slots: 8 (heap 8").contains("disk 2");
    }

    @Test
    void theInputRateCanDecide() {
        String text =
                String.join(
                        "\n",
                        Size.plan(
                                1_000_000_000L,
                                DedupMode.EXACT,
                                0.01,
                                10_000,
                                1_000_000,
                                2 * GIB,
                                200 * GIB,
                                200));
        // 1 M records/s at 46,124 per slot (the 50 M scale run's late rate) is 22 slots.
        assertThat(text).contains("slots: 22");
    }

    @Test
    void unmeasuredSettingsAreRefusedWithTheCommandThatMeasuresThem() {
        assertThatThrownBy(() -> Size.plan(1_000_000, DedupMode.EXACT, 0.001, 10, 0, GIB, GIB, 100))
                .hasMessageContaining("Nothing was measured for exact mode at rate 0.001")
                .hasMessageContaining("scripts/bench");
    }

    @Test
    void everyCitedMeasurementExists() {
        Pattern doc = Pattern.compile("docs/[A-Za-z0-9._-]+\\.txt");
        for (DedupMode mode : DedupMode.values()) {
            for (double rate : new double[] {0.01, 0.0001}) {
                Size.Figures f = Size.figures(mode, rate);
                if (f == null) {
                    continue;
                }
                for (Size.Figure fig :
                        new Size.Figure[] {
                            f.localBytesPerUrl(), f.checkpointBytesPerUrl(), f.heapBytesPerUrl()
                        }) {
                    Matcher m = doc.matcher(fig.source());
                    assertThat(m.find()).as(fig.source()).isTrue();
                    assertThat(Files.isRegularFile(Path.of(m.group()))).as(m.group()).isTrue();
                }
            }
        }
    }
}
