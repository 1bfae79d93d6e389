package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The filter cache on its own, with an in-memory backing that stands for keyed state: the budget
 * holds, evicted dirty filters are written back before they go, nothing keeps an evicted filter,
 * and {@link FilterCache#flushAll()} writes exactly the dirty ones.
 */
class FilterCacheTest {
    /** Keyed state stand-in: metadata and pages per key, and a count of writes. */
    static final class MemoryBacking implements FilterCache.Backing {
        final Map<Object, FilterMeta> metas = new HashMap<>();
        final Map<Object, Map<Integer, byte[]>> pages = new HashMap<>();
        final java.util.function.Supplier<FilterMeta> newFilter;
        int writes;

        MemoryBacking() {
            this(() -> FilterMeta.createSingle(128, 0.01));
        }

        MemoryBacking(java.util.function.Supplier<FilterMeta> newFilter) {
            this.newFilter = newFilter;
        }

        @Override
        public KeyFilter load(Object key) {
            FilterMeta m = metas.get(key);
            return m == null
                    ? new KeyFilter(key, newFilter.get(), true)
                    : new KeyFilter(key, m.copy(), false);
        }

        @Override
        public int write(KeyFilter f) throws Exception {
            writes++;
            int n = f.dirtyPages();
            metas.put(f.key(), f.meta.copy());
            f.metaDirty = false;
            Map<Integer, byte[]> p = pages.computeIfAbsent(f.key(), k -> new HashMap<>());
            f.drainDirty((id, page) -> p.put(id, page.clone()));
            return n;
        }

        PageSource source(Object key) {
            return id -> pages.getOrDefault(key, Map.of()).get(id);
        }

        @Override
        public void insertAll(KeyFilter f, long[] his) throws Exception {
            for (int j = 1; j <= his[0]; j++) {
                f.insert(new Fingerprint(his[j], 0), source(f.key()));
            }
        }
    }

    /**
     * Keyed state that takes a key's new inserts as a journal element at a checkpoint, as the
     * operator does (the key then leaves the cache's dirty list but keeps its dirty-page bits), but
     * keeps nothing of the journal: a key whose pages stay dirty must be written whole before it
     * leaves the cache, or its journaled inserts are missing from state.
     */
    static final class JournalingBacking implements FilterCache.Backing {
        final MemoryBacking state;
        final Set<Object> journaledKeys = new HashSet<>();
        int journaled;

        JournalingBacking(java.util.function.Supplier<FilterMeta> newFilter) {
            state = new MemoryBacking(newFilter);
        }

        @Override
        public KeyFilter load(Object key) {
            return state.load(key);
        }

        @Override
        public int write(KeyFilter f) throws Exception {
            int n = state.write(f);
            f.wroteWhole(true);
            return n;
        }

        @Override
        public void insertAll(KeyFilter f, long[] his) throws Exception {
            state.insertAll(f, his);
        }

        @Override
        public int flush(KeyFilter f) throws Exception {
            if (f.mayJournal()) {
                if (f.pendingCount() == 0) {
                    return 0; // as the operator: its journal holds what this copy holds
                }
                if (f.takePending(1.0) != null) {
                    journaled++;
                    journaledKeys.add(f.key());
                    return 0;
                }
            }
            return write(f);
        }
    }

    private static void insert(FilterCache cache, MemoryBacking b, String key, String url)
            throws Exception {
        KeyFilter f = cache.get(key);
        long before = f.bytes();
        f.insert(Fingerprint.of(url), b.source(key));
        cache.update(f, before);
    }

    @Test
    void staysWithinItsBudgetAndWritesEvictedFiltersBack() throws Exception {
        MemoryBacking b = new MemoryBacking();
        long budget = 64 << 10;
        FilterCache cache = new FilterCache(b, budget);
        for (int k = 0; k < 5_000; k++) {
            insert(cache, b, "k" + k, "http://k" + k + ".example/a");
            assertThat(cache.bytes()).isLessThanOrEqualTo(budget + 4096);
        }
        assertThat(cache.evictions()).isGreaterThan(4_000);
        // Evicted filters were written back, and the dirty list flags only cached ones.
        assertThat(cache.dirtyKeys()).isLessThanOrEqualTo(cache.keys());
        // Nor does it keep the objects of thousands of evicted keys until the checkpoint.
        java.lang.reflect.Field listed = FilterCache.class.getDeclaredField("dirty");
        listed.setAccessible(true);
        assertThat(((List<?>) listed.get(cache)).size())
                .isLessThanOrEqualTo(Math.max(1025, 2 * cache.dirtyKeys() + 1));
        cache.flushAll();
        assertThat(b.metas).hasSize(5_000);
        // Every key's URL is in its stored filter.
        for (int k = 0; k < 5_000; k++) {
            KeyFilter f = cache.get("k" + k);
            assertThat(
                            f.mightContain(
                                    Fingerprint.of("http://k" + k + ".example/a"),
                                    b.source("k" + k)))
                    .isTrue();
        }
    }

    /** A key whose hash code only {@code bucket} decides, so that keys collide on purpose. */
    private record Colliding(int id, int bucket) {
        @Override
        public int hashCode() {
            return bucket;
        }
    }

    /**
     * The cache's own table and recency list against a LinkedHashMap in access order: random gets,
     * peeks and removes over keys of which many share a hash code (long probe runs, deletions in
     * their middle, growing and shrinking tables) find the same filters in the same order.
     */
    @Test
    void findsAndOrdersKeysAsAnAccessOrderedMapDoes() throws Exception {
        checkAgainstAnAccessOrderedMap(id -> new Colliding(id, id % 40));
    }

    /**
     * ASCII string keys are kept as bytes and must be found by the strings Flink hands in. "Aa" and
     * "BB" have one hash code, so strings made of them collide; the non-ASCII ones stay strings
     * beside them.
     */
    @Test
    void findsStringKeysKeptAsBytes() throws Exception {
        checkAgainstAnAccessOrderedMap(
                id -> {
                    StringBuilder k = new StringBuilder();
                    for (int bit = 0; bit < 12; bit++) {
                        k.append((id >> bit & 1) == 0 ? "Aa" : "BB");
                    }
                    return id % 7 == 0 ? k.append("-é").toString() : k.toString();
                });
    }

    private static void checkAgainstAnAccessOrderedMap(IntFunction<Object> keyOf) throws Exception {
        MemoryBacking b = new MemoryBacking();
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        Map<Object, KeyFilter> model = new LinkedHashMap<>(16, 0.75f, true);
        Random random = new Random(14);
        for (int step = 0; step < 200_000; step++) {
            int id = random.nextInt(step < 100_000 ? 6_000 : 300);
            Object key = keyOf.apply(id);
            int op = random.nextInt(10);
            if (op < 6) {
                KeyFilter f = cache.get(key);
                KeyFilter expected = model.computeIfAbsent(key, k -> f);
                assertThat(f).isSameAs(expected);
            } else if (op < 8) {
                assertThat(cache.peek(key)).isSameAs(model.get(key));
            } else {
                cache.remove(key);
                model.remove(key);
            }
            if (step % 10_000 == 0 || step == 199_999) {
                assertThat(cache.filters()).containsExactlyElementsOf(model.values());
                assertThat(cache.keys()).isEqualTo(model.size());
            }
        }
        List<Object> keys = new ArrayList<>(model.keySet());
        for (Object key : keys) {
            cache.remove(key);
        }
        assertThat(cache.keys()).isZero();
        assertThat(cache.filters()).isEmpty();
    }

    @Test
    void flushAllWritesTheDirtyFiltersOnce() throws Exception {
        MemoryBacking b = new MemoryBacking();
        FilterCache cache = new FilterCache(b, 64 << 20);
        insert(cache, b, "a", "http://a/1");
        insert(cache, b, "a", "http://a/2");
        insert(cache, b, "b", "http://b/1");
        assertThat(cache.flushAll()).isEqualTo(2); // one page each
        assertThat(b.writes).isEqualTo(2);
        assertThat(cache.flushAll()).isZero();
        assertThat(b.writes).isEqualTo(2);
        insert(cache, b, "b", "http://b/2");
        cache.flushAll();
        assertThat(b.writes).isEqualTo(3);
    }

    @Test
    void removeDropsAFilterWithoutWritingIt() throws Exception {
        MemoryBacking b = new MemoryBacking();
        FilterCache cache = new FilterCache(b, 64 << 20);
        insert(cache, b, "a", "http://a/1");
        cache.remove("a");
        assertThat(cache.keys()).isZero();
        assertThat(cache.bytes()).isZero();
        assertThat(cache.flushAll()).isZero();
        assertThat(b.writes).isZero();
    }

    /**
     * A page of a layer created while the filter was cached cannot be in state unless written from
     * here: it is not read (for RocksDB a miss, the dearest lookup). Layers of a filter loaded from
     * state are read, and a layer grown after the load is not. Answers are the same either way.
     */
    @Test
    void pagesOfLayersCreatedInTheCacheAreNotReadFromState() throws Exception {
        for (boolean fingerprints : new boolean[] {false, true}) {
            MemoryBacking b =
                    fingerprints
                            ? new MemoryBacking(() -> FilterMeta.createFingerprints(64, 0.01))
                            : new MemoryBacking(() -> FilterMeta.create(64, 0.01));
            int[] reads = {0};
            PageSource counted =
                    id -> {
                        reads[0]++;
                        return b.source("k").load(id);
                    };
            FilterCache cache = new FilterCache(b, 64 << 20);
            KeyFilter f = cache.get("k");
            for (int u = 0; u < 200; u++) {
                f.insert(Fingerprint.of("http://k/" + u), counted);
                f.mightContain(Fingerprint.of("http://k/other-" + u), counted);
            }
            assertThat(f.meta.layerCount()).as("grew").isGreaterThan(1);
            assertThat(reads[0]).as("reads of a new key's pages").isZero();
            cache.flushAll();
            cache.remove("k");

            KeyFilter loaded = cache.get("k");
            int layers = loaded.meta.layerCount();
            for (int u = 0; u < 200; u++) {
                assertThat(loaded.mightContain(Fingerprint.of("http://k/" + u), counted)).isTrue();
            }
            assertThat(reads[0]).as("reads of a loaded key's pages").isPositive();
            for (int u = 200; loaded.meta.layerCount() == layers; u++) {
                loaded.insert(Fingerprint.of("http://k/" + u), counted);
            }
            int before = reads[0];
            int grown = loaded.meta.layerCount() - 1;
            for (int u = 0; u < 2000; u++) {
                Fingerprint fp = Fingerprint.of("http://k/probe-" + u);
                int index =
                        fingerprints
                                ? loaded.meta
                                        .fingerprintClass(grown)
                                        .page(loaded.meta.fingerprintClass(grown).prefix(fp))
                                : BlockedBloom.page(fp, grown, loaded.meta.layer(grown));
                loaded.page(grown, index, counted);
            }
            assertThat(reads[0]).as("reads of a layer grown after the load").isEqualTo(before);
        }
    }
}
