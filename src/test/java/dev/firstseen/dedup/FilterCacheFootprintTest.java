package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jol.info.GraphLayout;

/**
 * The filter cache's byte count against the heap its objects really take, measured with JOL (issue
 * 12.4: a cached key cost 539-552 bytes while 280 were counted). The count decides when the cache
 * evicts, so it must not undercount: within 10% of the measured graph, for small and large filters,
 * clean and dirty.
 */
class FilterCacheFootprintTest {
    /**
     * Heap reachable from the cache's own structures (its LRU map and dirty set): the filters,
     * their pages and keys, the map entries. Not the backing, which stands for keyed state.
     */
    private static long heldBy(FilterCache cache) throws Exception {
        Field lru = FilterCache.class.getDeclaredField("lru");
        Field dirty = FilterCache.class.getDeclaredField("dirty");
        lru.setAccessible(true);
        dirty.setAccessible(true);
        return GraphLayout.parseInstance(lru.get(cache), dirty.get(cache)).totalSize();
    }

    @ParameterizedTest(name = "{0} keys of {1} URLs, written back: {2}, fingerprints: {3}")
    @CsvSource({
        "2000, 1, false, false",
        "2000, 1, true, false",
        "500, 300, false, false",
        "200, 3000, true, false",
        "2000, 1, false, true",
        "500, 300, true, true",
        "200, 3000, false, true",
        "20, 60000, true, true"
    })
    void theCountedBytesAreTheMeasuredBytes(
            int keys, int urlsPerKey, boolean flushed, boolean fingerprints) throws Exception {
        FilterCacheTest.MemoryBacking b =
                fingerprints
                        ? new FilterCacheTest.MemoryBacking(
                                () -> FilterMeta.createFingerprints(128, 1e-4))
                        : new FilterCacheTest.MemoryBacking();
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        long empty = heldBy(cache);
        for (int k = 0; k < keys; k++) {
            String key = "site-" + k + ".example.com";
            KeyFilter f = cache.get(key);
            long before = f.bytes();
            for (int u = 0; u < urlsPerKey; u++) {
                f.insert(Fingerprint.of("http://" + key + "/page/" + u), b.source(key));
            }
            cache.update(f, before);
        }
        if (flushed) {
            cache.flushAll();
        }
        long measured = heldBy(cache) - empty;
        double perKeyMeasured = (double) measured / keys;
        double perKeyCounted = (double) cache.bytes() / keys;
        assertThat(perKeyCounted)
                .as("counted %.0f B per key, measured %.0f", perKeyCounted, perKeyMeasured)
                .isBetween(perKeyMeasured * 0.9, perKeyMeasured * 1.1);
    }
}
