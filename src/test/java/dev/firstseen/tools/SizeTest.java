package dev.firstseen.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firstseen.dedup.DedupMode;
import dev.firstseen.dedup.ExactStoreType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The sizing arithmetic, and that every figure it uses names a measurement that exists. */
class SizeTest {
    private static final long GIB = 1L << 30;

    @Test
    void tenBillionUrlsInExactMode() {
        String text = tenBillion(DedupMode.EXACT, ExactStoreType.ENTRIES, 0.01, 1_000_000, 2 * GIB);
        // 29.19 B/URL on disk: 291.9 GB; 25.42 checkpointed: 254.2 GB; heap 1.64 B/URL + 400 B/key.
        assertThat(text).contains("291.9 GB").contains("254.2 GB").contains("16.4 GB");
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
                                ExactStoreType.ENTRIES,
                                0.01,
                                10_000,
                                1_000_000,
                                2 * GIB,
                                200 * GIB,
                                200));
        // 1 M records/s at 35,324 per slot (the 50 M scale run's late rate) is 29 slots.
        assertThat(text).contains("slots: 29");
    }

    @Test
    void tenBillionUrlsInApproximateModeAtItsLowestRate() {
        String text =
                tenBillion(DedupMode.APPROXIMATE, ExactStoreType.ENTRIES, 1e-9, 1_000_000, 4 * GIB);
        // 4.35 B/URL of pages: 43.5 GB; 5.05 checkpointed: 50.5 GB; 108 B for each of 1 M keys.
        assertThat(text).contains("43.5 GB").contains("50.5 GB").contains("108.0 MB");
        // (43.5 + 0.108) GB over 4 GiB slots is 11 slots.
        assertThat(text).contains("slots: 11 (heap 11");
        // 1e-9 of ten billion: at most 10 new URLs dropped.
        assertThat(text).contains("dropped as false positives: expected at most 10 new URLs");
    }

    /** Approximate mode's plan bounds the URLs it drops and cites the run that measured a share. */
    @Test
    void approximateModeBoundsItsDrops() {
        String text =
                tenBillion(DedupMode.APPROXIMATE, ExactStoreType.ENTRIES, 1e-4, 1_000_000, 4 * GIB);
        assertThat(text).contains("expected at most 1,000,000 new URLs");
        Matcher m =
                Pattern.compile("docs/[A-Za-z0-9._-]+\\.txt")
                        .matcher(text.lines().reduce((a, b) -> b).orElseThrow());
        assertThat(m.find()).isTrue();
        assertThat(Files.isRegularFile(Path.of(m.group()))).as(m.group()).isTrue();
        assertThat(tenBillion(DedupMode.EXACT, ExactStoreType.PAGES, 0.01, 1_000_000, 4 * GIB))
                .doesNotContain("dropped");
    }

    @Test
    void tenBillionUrlsInExactModesFingerprintPages() {
        String text = tenBillion(DedupMode.EXACT, ExactStoreType.PAGES, 0.01, 1_000_000, 4 * GIB);
        assertThat(text).contains("exact mode with dedup.exact.store PAGES");
        // 6.53 B/URL of pages: 65.3 GB; 9.40 checkpointed: 94.0 GB; 10.36 on disk: 103.6 GB.
        assertThat(text).contains("65.3 GB").contains("94.0 GB").contains("103.6 GB");
        // (65.3 + 2.3) GB over 4 GiB slots is 16 slots; 103.6 GB over 200 GiB disks is 1.
        assertThat(text).contains("slots: 16 (heap 16").contains("disk 1");
        // The rate plays no part in an exact store.
        assertThat(Size.figures(DedupMode.EXACT, ExactStoreType.PAGES, 1e-9))
                .isEqualTo(Size.figures(DedupMode.EXACT, ExactStoreType.PAGES, 0.01));
    }

    /**
     * With 100 or 500 URLs a key, approximate mode at 1e-4 takes the subtask simulation's figures,
     * whose keys are that small, instead of the 50 M run's keys of 2,500 URLs.
     */
    @Test
    void smallKeysTakeTheSubtaskSimulationsFigures() {
        String hundred =
                tenBillion(
                        DedupMode.APPROXIMATE, ExactStoreType.ENTRIES, 1e-4, 100_000_000, 4 * GIB);
        // 2.88 B/URL checkpointed: 28.8 GB; pages 2.50: 25.0 GB; 35 B for each of 100 M keys
        // (packed between checkpoints).
        assertThat(hundred).contains("28.8 GB").contains("25.0 GB").contains("3.5 GB");
        assertThat(hundred).contains("docs/simulate-subtask-page-entries-session45.txt");
        // (25.0 + 3.5) GB over 4 GiB slots is 7 slots.
        assertThat(hundred).contains("slots: 7 (heap 7");
        String fiveHundred =
                tenBillion(
                        DedupMode.APPROXIMATE, ExactStoreType.ENTRIES, 1e-4, 20_000_000, 4 * GIB);
        // 2.57 B/URL checkpointed, 2.42 of pages, 50 B for each of 20 M keys.
        assertThat(fiveHundred).contains("25.7 GB").contains("24.2 GB").contains("1.0 GB");
        assertThat(fiveHundred).contains("docs/simulate-subtask-size-rows-session46.txt");
        // Exact mode's pages with 100 URLs a key: 9.25 B/URL checkpointed, 6.76 of pages, 49 B a
        // key packed (the 200 M run's keys held 10,000 URLs, 2,346 B each).
        String exact =
                tenBillion(DedupMode.EXACT, ExactStoreType.PAGES, 0.01, 100_000_000, 4 * GIB);
        assertThat(exact).contains("92.5 GB").contains("67.6 GB").contains("4.9 GB");
        // Keys of 10,000 URLs keep the 50 M runs' figures (2.25 B/URL checkpointed).
        assertThat(Size.figures(DedupMode.APPROXIMATE, ExactStoreType.ENTRIES, 1e-4, 10_000))
                .isEqualTo(Size.figures(DedupMode.APPROXIMATE, ExactStoreType.ENTRIES, 1e-4));
    }

    /**
     * Approximate mode at 1%: the 50 M runs' figures for large keys, the simulation's at 1% for
     * keys of 100 and 500 URLs.
     */
    @Test
    void approximateModeAtOnePercent() {
        String large =
                tenBillion(DedupMode.APPROXIMATE, ExactStoreType.ENTRIES, 0.01, 1_000_000, 4 * GIB);
        // 2.42 B/URL on disk: 24.2 GB; 1.48 checkpointed: 14.8 GB; pages 1.46: 14.6 GB; 58 B for
        // each of 1 M keys: 58.0 MB.
        assertThat(large)
                .contains("24.2 GB")
                .contains("14.8 GB")
                .contains("14.6 GB")
                .contains("58.0 MB");
        assertThat(large).contains("docs/scale-50m-approximate-fpp1e-2-session23.txt");
        // (14.6 + 0.058) GB over 4 GiB slots is 4 slots.
        assertThat(large).contains("slots: 4 (heap 4");
        String hundred =
                tenBillion(
                        DedupMode.APPROXIMATE, ExactStoreType.ENTRIES, 0.01, 100_000_000, 4 * GIB);
        // 2.01 B/URL checkpointed, 1.66 of pages, 35 B for each of 100 M keys: (16.6 + 3.5) GB
        // is 5 slots.
        assertThat(hundred).contains("20.1 GB").contains("16.6 GB").contains("3.5 GB");
        assertThat(hundred).contains("docs/simulate-subtask-size-rows-session46.txt");
        assertThat(hundred).contains("slots: 5 (heap 5");
        String fiveHundred =
                tenBillion(
                        DedupMode.APPROXIMATE, ExactStoreType.ENTRIES, 0.01, 20_000_000, 4 * GIB);
        // 1.71 B/URL checkpointed, 1.58 of pages, 50 B for each of 20 M keys.
        assertThat(fiveHundred).contains("17.1 GB").contains("15.8 GB").contains("1.0 GB");
    }

    @Test
    void unmeasuredSettingsAreRefusedWithTheCommandThatMeasuresThem() {
        assertThatThrownBy(
                        () ->
                                Size.plan(
                                        1_000_000,
                                        DedupMode.EXACT,
                                        ExactStoreType.ENTRIES,
                                        0.001,
                                        10,
                                        0,
                                        GIB,
                                        GIB,
                                        100))
                .hasMessageContaining("Nothing was measured for exact mode at rate 0.001")
                .hasMessageContaining("scripts/bench");
    }

    @Test
    void everyCitedMeasurementExists() {
        Pattern doc = Pattern.compile("docs/[A-Za-z0-9._-]+\\.txt");
        for (DedupMode mode : DedupMode.values()) {
            for (double rate : new double[] {0.01, 0.0001, 1e-9}) {
                for (ExactStoreType store : ExactStoreType.values()) {
                    for (double urlsPerKey : new double[] {100, 500, 10_000}) {
                        checkCited(doc, Size.figures(mode, store, rate, urlsPerKey));
                    }
                }
            }
        }
    }

    /**
     * {@link Size#plan}'s lines as one text for ten billion URLs, without an input rate, with 200
     * GiB disks and restores at 200 MB/s.
     */
    private static String tenBillion(
            DedupMode mode, ExactStoreType store, double rate, long domains, long slotHeap) {
        return String.join(
                "\n",
                Size.plan(
                        10_000_000_000L, mode, store, rate, domains, 0, slotHeap, 200 * GIB, 200));
    }

    private static void checkCited(Pattern doc, Size.Figures f) {
        if (f == null) {
            return;
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
