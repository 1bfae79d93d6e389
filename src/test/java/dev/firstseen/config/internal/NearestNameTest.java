package dev.firstseen.config.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Edit distances and the suggestion they give. */
class NearestNameTest {
    private static final List<String> NAMES =
            List.of("rate", "urls", "distinct", "checkpoint-every", "dedup.mode", "keys");

    @ParameterizedTest(name = "{0}, {1} -> {2}")
    @CsvSource({
        "rate, rate, 0",
        "rat, rate, 1",
        "rage, rate, 1",
        "reat, rate, 2",
        "'', abc, 3",
        "kitten, sitting, 3",
        "distnct, distinct, 1",
    })
    void distances(String a, String b, int d) {
        assertThat(NearestName.distance(a, b, 10)).isEqualTo(d);
        assertThat(NearestName.distance(b, a, 10)).isEqualTo(d);
        assertThat(NearestName.distance(a, b, 2)).isEqualTo(Math.min(d, 2));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "rat, rate",
        "urlz, urls",
        "dinstinct, distinct",
        "checkpoint-evry, checkpoint-every",
        "dedup.mde, dedup.mode",
        "key, keys",
        "parallelism, ",
        "abc, ",
        "dedup.bloom.fpp, ",
    })
    void suggestsWithinTwoEdits(String typo, String meant) {
        assertThat(NearestName.of(typo, NAMES)).isEqualTo(meant);
    }
}
