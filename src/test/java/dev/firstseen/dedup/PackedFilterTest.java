package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.firstseen.dedup.FilterCacheTest.JournalingBacking;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Small keys folded into one array between checkpoints ({@link PackedFilter}, {@link
 * FilterCache#pack()}): a packed key answers as its filter did, unpacks to a filter equal in every
 * field that decides what keyed state gets, is found by the same lookups, and is written back on
 * eviction while a journal still stands in for its changes. The keys here are built in one go, so
 * they pack with {@link FilterCache#packAll()}; which keys a checkpoint leaves unpacked as hot is
 * {@code PackedInsertsTest}'s.
 */
class PackedFilterTest {
    private static Supplier<FilterMeta> filterOf(String mode) {
        return mode.equals("exact")
                ? () -> FilterMeta.createExactFingerprints(128)
                : () -> FilterMeta.createFingerprints(128, 1e-4);
    }

    private static Fingerprint fp(String key, int u) {
        return Fingerprint.of("http://" + key + "/page/" + u);
    }

    private static void insert(FilterCache cache, JournalingBacking b, String key, int from, int to)
            throws Exception {
        KeyFilter f = cache.get(key);
        long before = f.bytes();
        for (int u = from; u < to; u++) {
            f.insert(fp(key, u), b.state.source(key));
        }
        f.mightContain(fp(key, -1), b.state.source(key)); // loads the page of a key without URLs
        cache.update(f, before);
    }

    /**
     * {@code keys} keys of {@code urls} URLs, written whole at one checkpoint and, if {@code
     * journaled}, given more URLs that the next one journals: every packable key is packed (all of
     * them, or none past {@link PackedFilter#MAX_SLOTS} pages), a probe answers from the packed
     * form as the filter did, and unpacked a key answers for its URLs and for 2,000 absent ones as
     * before, with the same metadata, dirty bits, journal count and heap bytes.
     */
    @ParameterizedTest(name = "{0} mode, {2} keys of {1} URLs, journaled: {3}, packed: {4}")
    @CsvSource({
        "approximate, 0, 300, false, true",
        "approximate, 1, 300, false, true",
        "approximate, 20, 300, true, true",
        "approximate, 150, 300, true, true",
        "approximate, 600, 100, false, true",
        "approximate, 3000, 20, true, true",
        "exact, 20, 300, true, true",
        "exact, 100, 300, false, true",
        "exact, 2000, 20, true, true",
        "exact, 12000, 3, false, false"
    })
    void anUnpackedKeyIsTheFilterThatWasPacked(
            String mode, int urls, int keys, boolean journaled, boolean expectPacked)
            throws Exception {
        JournalingBacking b = new JournalingBacking(filterOf(mode));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        for (int k = 0; k < keys; k++) {
            insert(cache, b, "site-" + k + ".example.com", 0, urls);
        }
        cache.flushAll();
        if (journaled) {
            for (int k = 0; k < keys; k++) {
                insert(cache, b, "site-" + k + ".example.com", urls, urls + 5);
            }
            cache.flushAll();
            assertThat(b.journaled).isPositive();
        }
        Map<String, String> before = new HashMap<>();
        Map<String, BitSet> answers = new HashMap<>();
        int packable = 0;
        for (KeyFilter f : cache.filters()) {
            String key = (String) f.key();
            before.put(key, describe(f, b));
            BitSet yes = new BitSet();
            for (int u = 0; u < 3000; u++) {
                yes.set(u, f.mightContain(fp(key, u - 2000), b.state.source(key)));
            }
            answers.put(key, yes);
            packable += f.packable() ? 1 : 0;
        }
        long bytes = cache.bytes();
        long pages = cache.pages();
        long pageBytes = cache.pageBytes();
        int packed = cache.packAll();
        assertThat(cache.pages()).isEqualTo(pages);
        assertThat(cache.pageBytes()).isEqualTo(pageBytes);

        assertThat(packed).isEqualTo(packable).isEqualTo(expectPacked ? keys : 0);
        assertThat(cache.packedKeys()).isEqualTo(packed);
        assertThat(cache.keys()).isEqualTo(keys);
        if (packed > 0) {
            assertThat(cache.bytes()).isLessThan(bytes);
        }
        // Probes answer from the packed form, as the filter did, and unpack nothing.
        for (int k = 0; k < keys; k++) {
            String key = "site-" + k + ".example.com";
            BitSet yes = new BitSet();
            for (int u = 0; u < 3000; u++) {
                int a = cache.probe(key, fp(key, u - 2000), mode.equals("exact"));
                if (a == FilterCache.NOT_PACKED) {
                    assertThat(expectPacked).as("probe of a packed key").isFalse();
                    yes = answers.get(key);
                    break;
                }
                yes.set(u, a == 1);
            }
            assertThat(yes).as(key).isEqualTo(answers.get(key));
        }
        assertThat(cache.packedAnswers()).isEqualTo(expectPacked ? 3000L * keys : 0);
        assertThat(cache.probe("not-cached.example.com", fp("x", 1), false))
                .isEqualTo(FilterCache.NOT_PACKED);
        assertThat(cache.packedKeys()).isEqualTo(packed);
        assertThat(cache.unpacks()).isZero();
        for (int k = 0; k < keys; k++) {
            String key = "site-" + k + ".example.com";
            KeyFilter f = cache.get(key);
            assertThat(describe(f, b)).as(key).isEqualTo(before.get(key));
        }
        assertThat(cache.packedKeys()).isZero();
        assertThat(cache.unpacks()).isEqualTo(packed);
        assertThat(cache.bytes()).isEqualTo(bytes);
        assertThat(cache.pages()).isEqualTo(pages);
    }

    /**
     * A key packed as due keeps the inserts pending for its journal after its pages: its length
     * covers them, it reads as dirty, probes answer as the filter does, and unpacked (here from
     * inside a larger array, as in the arena) it has the same pending inserts and answers.
     */
    @ParameterizedTest(name = "{0} mode")
    @ValueSource(strings = {"approximate", "exact"})
    void aDueKeyKeepsItsPendingInserts(String mode) throws Exception {
        JournalingBacking b = new JournalingBacking(filterOf(mode));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE, 0);
        String key = "due.example.com";
        insert(cache, b, key, 0, 300);
        cache.flushAll(); // written whole: later inserts are pending for the journal
        insert(cache, b, key, 300, 340);
        KeyFilter f = cache.get(key);
        assertThat(f.pendingCount()).isEqualTo(40);
        assertThat(f.packableWithPending()).isTrue();
        List<Object> sizings = List.of(f.meta.sizing());
        byte[] plain = PackedFilter.pack(f, 0);
        byte[] due = PackedFilter.pack(f, 0, true);
        assertThat(due.length).isEqualTo(plain.length + 1 + 8 * 40);
        assertThat(PackedFilter.isDue(due, 0)).isTrue();
        assertThat(PackedFilter.isDue(plain, 0)).isFalse();
        assertThat(PackedFilter.isDirty(due, 0)).isTrue();
        byte[] arena = new byte[7 + due.length + 10];
        System.arraycopy(due, 0, arena, 7, due.length);
        assertThat(PackedFilter.length(arena, 7)).isEqualTo(due.length);
        KeyFilter u = PackedFilter.unpack(arena, 7, sizings);
        assertThat(u.pendingCount()).isEqualTo(40);
        assertThat(Arrays.copyOf(u.pending(), 41)).isEqualTo(Arrays.copyOf(f.pending(), 41));
        assertThat(u.mayJournal()).isEqualTo(f.mayJournal());
        for (int x = -2000; x < 1000; x++) {
            boolean want = f.mightContain(fp(key, x), b.state.source(key));
            assertThat(u.mightContain(fp(key, x), b.state.source(key))).as("%d", x).isEqualTo(want);
            assertThat(PackedFilter.mightContain(arena, 7, fp(key, x))).isEqualTo(want ? 1 : 0);
        }
        assertThat(PackedFilter.unpack(plain, 0, sizings).pendingCount()).isZero();
    }

    /**
     * A key in generations ({@code dedup.forget-after} in approximate mode) packs with its classes'
     * generation ends, after its pending inserts: its length covers them, and unpacked it has the
     * same ends, pending inserts and answers.
     */
    @Test
    void aKeyInGenerationsKeepsItsGenerationEnds() throws Exception {
        JournalingBacking b = new JournalingBacking(filterOf("approximate"));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE, 0);
        String key = "generations.example.com";
        insert(cache, b, key, 0, 300);
        KeyFilter f = cache.get(key);
        f.startGenerations(1_795_000_000_000L, f.meta.targetFpp());
        f.startGeneration(1_795_000_000_000L + 172_800_000L);
        insert(cache, b, key, 300, 340);
        cache.flushAll(); // written whole: later inserts are pending for the journal
        insert(cache, b, key, 340, 380);
        assertThat(f.meta.classCount()).isGreaterThan(2);
        assertThat(f.pendingCount()).isEqualTo(40);
        List<Object> sizings = List.of(f.meta.sizing());
        for (boolean due : new boolean[] {false, true}) {
            byte[] packed = PackedFilter.pack(f, 0, due);
            byte[] arena = new byte[5 + packed.length + 9];
            System.arraycopy(packed, 0, arena, 5, packed.length);
            assertThat(PackedFilter.length(arena, 5)).isEqualTo(packed.length);
            KeyFilter u = PackedFilter.unpack(arena, 5, sizings);
            assertThat(u.meta.untils()).isEqualTo(f.meta.untils());
            assertThat(u.meta.toString()).isEqualTo(f.meta.toString());
            assertThat(u.pendingCount()).isEqualTo(due ? 40 : 0);
            // A record needs the filter once a generation is to be forgotten or started.
            long first = f.meta.until(0);
            long newest = f.meta.until(f.meta.classCount() - 1);
            long week = 604_800_000L;
            assertThat(PackedFilter.generationsDue(arena, 5, newest - 1, week)).isFalse();
            assertThat(PackedFilter.generationsDue(arena, 5, newest, week)).isTrue();
            assertThat(PackedFilter.generationsDue(arena, 5, newest - 1, newest - first)).isFalse();
            assertThat(PackedFilter.generationsDue(arena, 5, newest - 1, newest - 1 - first))
                    .isTrue();
            for (int x = -2000; x < 1000; x++) {
                boolean want = f.mightContain(fp(key, x), b.state.source(key));
                assertThat(u.mightContain(fp(key, x), b.state.source(key)))
                        .as("%d", x)
                        .isEqualTo(want);
                assertThat(PackedFilter.mightContain(arena, 5, fp(key, x))).isEqualTo(want ? 1 : 0);
            }
        }
        // Without generations nothing follows the pages, and no record needs the filter for them.
        KeyFilter plain = cache.get("plain.example.com");
        assertThat(PackedFilter.generationsDue(PackedFilter.pack(plain, 0), 0, Long.MAX_VALUE, 1))
                .isFalse();
        assertThat(PackedFilter.length(PackedFilter.pack(plain, 0), 0))
                .isEqualTo(PackedFilter.pack(plain, 0).length);
    }

    /** What a filter holds and answers, as a string to compare. */
    private static String describe(KeyFilter f, JournalingBacking b) throws Exception {
        String key = (String) f.key();
        StringBuilder s = new StringBuilder();
        s.append(f.meta).append(" saturated=").append(f.meta.saturated);
        s.append(" metaDirty=").append(f.metaDirty).append(" dirtyPages=").append(f.dirtyPages());
        s.append(" journaled=").append(f.journaled()).append(" mayJournal=").append(f.mayJournal());
        s.append(" bytes=").append(f.bytes()).append(" pageBytes=").append(f.pageBytes());
        s.append(" loadedPages=").append(f.loadedPages()).append(" slots=").append(f.tableSlots());
        s.append(" keyHash=").append(f.keyHash()).append(" hasKey=").append(f.hasKey(key));
        int found = 0;
        for (int u = -2000; u < 1000; u++) {
            if (f.mightContain(fp(key, u), b.state.source(key))) {
                found++;
                s.append(' ').append(u);
            }
        }
        return s.append(" found=").append(found).toString();
    }

    /**
     * The walk that finds a packed key's newest class also gives its classes' rate (the operator's
     * expectedFalsePositives): the filter's, from one class to several, as entries go in one by
     * one.
     */
    @ParameterizedTest(name = "{0} URLs")
    @ValueSource(ints = {0, 1, 20, 300, 5000})
    void aPackedKeyHasItsFiltersRate(int urls) throws Exception {
        KeyFilter f =
                new KeyFilter("site.example.com", FilterMeta.createFingerprints(16, 0.05), true);
        Random rnd = new Random(urls);
        for (int u = 0; u < urls; u++) {
            Fingerprint fp = new Fingerprint(rnd.nextLong(), rnd.nextLong());
            if (!f.mightContain(fp, PageSource.NOTHING_STORED)) {
                f.insert(fp, PageSource.NOTHING_STORED);
            }
        }
        byte[] packed = PackedFilter.pack(f, 0);
        double rate = FingerprintFilterMath.rate(f.meta);
        assertThat(f.meta.classCount()).isGreaterThanOrEqualTo(urls >= 300 ? 3 : 1);
        assertThat(rate > 0).isEqualTo(urls > 0);
        assertThat(rate).isLessThanOrEqualTo(0.05);
        double[] walked = {-1};
        long newest = PackedFilter.newestClass(packed, 0, walked);
        assertThat(newest).isEqualTo(PackedFilter.newestClass(packed, 0));
        assertThat(newest >>> 32).isEqualTo(f.meta.width(f.meta.classCount() - 1));
        assertThat(walked[0]).isCloseTo(rate, within(1e-15));
    }

    /**
     * A key longer than 127 bytes (its length takes two varint bytes) packs and is found like any
     * other; a key that is not ASCII stays an object (only ASCII keys are kept as bytes).
     */
    @Test
    void longKeysPackAndNonAsciiKeysStayObjects() throws Exception {
        JournalingBacking b = new JournalingBacking(filterOf("approximate"));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        String longKey = "a".repeat(300) + ".example.com";
        String unicode = "bücher.example";
        for (String key : List.of(longKey, unicode)) {
            insert(cache, b, key, 0, 40);
        }
        cache.flushAll();
        assertThat(cache.packAll()).isEqualTo(1);
        assertThat(cache.filters()).extracting(KeyFilter::key).containsExactly(unicode);
        for (int u = 0; u < 40; u++) {
            assertThat(cache.probe(longKey, fp(longKey, u), false)).isEqualTo(1);
        }
        assertThat(cache.probe(longKey.substring(1), fp(longKey, 1), false))
                .isEqualTo(FilterCache.NOT_PACKED);
        KeyFilter f = cache.get(longKey);
        assertThat(f.key()).isEqualTo(longKey);
        assertThat(f.keyHash()).isEqualTo(longKey.hashCode());
        assertThat(cache.packedKeys()).isZero();
    }

    /** {@code dedup.bloom.cache-pack-max-pages}: keys of more page slots than it stay objects. */
    @ParameterizedTest(name = "at most {0} pages")
    @CsvSource({"0, 0", "1, 100", "4, 200", "16, 200"})
    void theCachePacksKeysOfAtMostItsPageLimit(int maxPages, int expected) throws Exception {
        JournalingBacking b = new JournalingBacking(filterOf("exact"));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE, maxPages);
        // Exact mode's pages split at 512 entries: 100 keys of one page, 100 of about four.
        for (int k = 0; k < 200; k++) {
            insert(cache, b, "site-" + k + ".example.com", 0, k < 100 ? 50 : 1500);
        }
        cache.flushAll();
        assertThat(cache.filters()).filteredOn(f -> f.tableSlots() > 4).isEmpty();
        assertThat(cache.filters()).filteredOn(f -> f.tableSlots() > 1).hasSize(100);
        assertThat(cache.packAll()).isEqualTo(expected);
    }

    /**
     * Keys read back from state load only the pages their records touch. Packed, a probe that would
     * need a page not loaded answers {@link FilterCache#NOT_PACKED}, and the filter then loads it:
     * every URL is found, through the probe or the filter.
     */
    @ParameterizedTest(name = "{0} mode")
    @ValueSource(strings = {"approximate", "exact"})
    void pagesNotLoadedAreReadThroughTheFilter(String mode) throws Exception {
        JournalingBacking b = new JournalingBacking(filterOf(mode));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        int keys = 30;
        int urls = 2500;
        for (int k = 0; k < keys; k++) {
            insert(cache, b, "site-" + k + ".example.com", 0, urls);
        }
        cache.flushAll();
        int unknown = 0;
        for (int k = 0; k < keys; k++) {
            String key = "site-" + k + ".example.com";
            cache.remove(key); // state holds it whole: read it back, touching one URL's pages
            KeyFilter f = cache.get(key);
            assertThat(f.mightContain(fp(key, 7), b.state.source(key))).isTrue();
            assertThat(f.loadedPages()).isLessThan(f.tableSlots());
        }
        cache.flushAll();
        assertThat(cache.packAll()).isEqualTo(keys);
        for (int k = 0; k < keys; k++) {
            String key = "site-" + k + ".example.com";
            for (int u = 0; u < urls; u += 5) {
                int a = cache.probe(key, fp(key, u), mode.equals("exact"));
                if (a == FilterCache.NOT_PACKED) {
                    unknown++;
                    KeyFilter f = cache.get(key); // unpacks; the next probe finds it unpacked
                    assertThat(f.mightContain(fp(key, u), b.state.source(key))).isTrue();
                } else {
                    assertThat(a).as(key + " " + u).isEqualTo(1);
                }
            }
        }
        assertThat(unknown).as("probes that needed a page from state").isPositive();
        assertThat(cache.packedAnswers()).as("probes answered packed").isPositive();
    }

    /**
     * Random gets, removes, inserts and packs over 3,000 keys of which many share a hash code ("Aa"
     * and "BB" hash alike), the table growing and shrinking: every key the model holds is found
     * with all its URLs, packed or not, and the counts agree.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(ints = {14, 15})
    void lookupsFindPackedAndUnpackedKeysAlike(int seed) throws Exception {
        JournalingBacking b = new JournalingBacking(filterOf("approximate"));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        Map<String, Integer> model = new HashMap<>();
        Random random = new Random(seed);
        for (int step = 0; step < 60_000; step++) {
            int id = random.nextInt(step < 30_000 ? 3_000 : 200);
            StringBuilder k = new StringBuilder();
            for (int bit = 0; bit < 12; bit++) {
                k.append((id >> bit & 1) == 0 ? "Aa" : "BB");
            }
            String key = k.toString();
            int op = random.nextInt(20);
            if (op < 14) {
                int n = model.getOrDefault(key, 0);
                insert(cache, b, key, n, n + 1);
                model.put(key, n + 1);
            } else if (op < 18) {
                KeyFilter f = cache.peek(key);
                assertThat(f != null).isEqualTo(model.containsKey(key));
            } else if (op < 19) {
                cache.remove(key);
                b.state.metas.remove(key);
                b.state.pages.remove(key);
                model.remove(key);
            } else {
                cache.flushAll();
                cache.packAll();
            }
            if (step % 5_000 == 0) {
                assertThat(cache.keys()).isEqualTo(model.size());
                assertThat(cache.filters().size() + cache.packedKeys()).isEqualTo(model.size());
            }
        }
        assertThat(cache.unpacks()).as("packed keys met again").isPositive();
        for (Map.Entry<String, Integer> e : model.entrySet()) {
            KeyFilter f = cache.get(e.getKey());
            for (int u = 0; u < e.getValue(); u++) {
                assertThat(f.mightContain(fp(e.getKey(), u), b.state.source(e.getKey()))).isTrue();
            }
        }
        List<String> keys = new ArrayList<>(model.keySet());
        cache.flushAll();
        cache.packAll();
        for (String key : keys) {
            cache.remove(key);
        }
        assertThat(cache.keys()).isZero();
        assertThat(cache.packedKeys()).isZero();
        assertThat(cache.bytes()).isZero();
    }

    /**
     * Packed keys go first when the cache is over its budget, and one whose inserts only a journal
     * holds is written whole on its way out: reloaded from state, every key finds all its URLs.
     */
    @ParameterizedTest(name = "{0} mode")
    @ValueSource(strings = {"approximate", "exact"})
    void evictedPackedKeysLeaveStateWholeAndGoFirst(String mode) throws Exception {
        JournalingBacking b = new JournalingBacking(filterOf(mode));
        int keys = 400;
        FilterCache cache = new FilterCache(b, 1L << 20);
        for (int k = 0; k < keys; k++) {
            insert(cache, b, "small-" + k + ".example.com", 0, 30);
        }
        cache.flushAll();
        for (int k = 0; k < keys; k++) {
            insert(cache, b, "small-" + k + ".example.com", 30, 40);
        }
        cache.flushAll();
        assertThat(b.journaledKeys.size()).isGreaterThan(keys / 2);
        // A large key, touched after the pack: the packed small keys make room for it first.
        insert(cache, b, "large.example.com", 0, 2000);
        cache.flushAll();
        assertThat(cache.packAll()).isEqualTo(keys + 1); // the large key's few pages too
        for (int grown = 2000; cache.evictions() == 0; grown += 500) {
            insert(cache, b, "large.example.com", grown, grown + 500);
            assertThat(grown).as("the budget was never reached").isLessThan(2_000_000);
        }
        assertThat(cache.filters()).extracting(KeyFilter::key).containsExactly("large.example.com");
        assertThat(cache.evictions()).isEqualTo(keys - cache.packedKeys()).isPositive();
        Set<String> evictedJournaled = new HashSet<>();
        for (int k = 0; k < keys; k++) {
            String key = "small-" + k + ".example.com";
            KeyFilter f = cache.peek(key);
            if (f == null) { // evicted: what state holds
                f = b.load(key);
                if (b.journaledKeys.contains(key)) {
                    evictedJournaled.add(key);
                }
            }
            for (int u = 0; u < 40; u++) {
                assertThat(f.mightContain(fp(key, u), b.state.source(key)))
                        .as(key + " " + u)
                        .isTrue();
            }
        }
        assertThat(evictedJournaled).as("evicted keys that only a journal held").isNotEmpty();
    }
}
