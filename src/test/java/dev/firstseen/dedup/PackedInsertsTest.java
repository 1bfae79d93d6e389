package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.firstseen.dedup.FilterCacheTest.MemoryBacking;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * New URLs of packed keys held beside them ({@link PackedInserts}, {@link
 * FilterCache#getUnlessPackedHolds}) until the key is needed as an object, the cache evicts, or the
 * next checkpoint's flush: the cache answers every record as a cache that never packs, and keyed
 * state gets every URL.
 */
class PackedInsertsTest {
    private static Supplier<FilterMeta> filterOf(String mode, double rate) {
        return mode.equals("exact")
                ? () -> FilterMeta.createExactFingerprints(128)
                : () -> FilterMeta.createFingerprints(128, rate);
    }

    private static Fingerprint fp(String key, int u) {
        return Fingerprint.of("http://" + key + "/page/" + u);
    }

    /**
     * One record through the cache as the operator sends it (a duplicate or a new URL, inserted if
     * new); returns whether it was new.
     */
    private static boolean record(
            FilterCache cache, MemoryBacking b, String key, Fingerprint fp, boolean exact)
            throws Exception {
        KeyFilter f = cache.getUnlessPackedHolds(key, fp, exact);
        if (f == null) {
            return cache.heldNew();
        }
        long before = f.bytes();
        boolean isNew = !f.mightContain(fp, b.source(key));
        if (isNew) {
            f.insert(fp, b.source(key));
        }
        cache.update(f, before);
        return isNew;
    }

    /**
     * Two caches fed the same records, 300 keys of up to 400 URLs with half the records repeats:
     * one packs and holds new URLs at every checkpoint, the other never packs. At 20% a class's
     * prefixes are 11 bits wide, so held URLs often share a prefix with a new one and must answer
     * for it; keys fill their first class of 128, so that held URLs that would add a class unpack
     * their key instead. Every record gets the same answer from both; held URLs, unpacks and (with
     * the small budget) evictions happen; and after the last flush keyed state holds every URL of
     * every key.
     */
    @ParameterizedTest(name = "{0} mode at {1}, budget {2} B")
    @CsvSource({
        "approximate, 0.2, 9223372036854775807",
        "approximate, 0.2, 52000",
        "approximate, 0.0001, 9223372036854775807",
        "exact, 0, 9223372036854775807",
        "exact, 0, 120000"
    })
    void heldUrlsAnswerAsTheFilterAndReachState(String mode, double rate, long budget)
            throws Exception {
        boolean exact = mode.equals("exact");
        MemoryBacking b = new MemoryBacking(filterOf(mode, rate));
        MemoryBacking rb = new MemoryBacking(filterOf(mode, rate));
        FilterCache cache = new FilterCache(b, budget);
        FilterCache reference = new FilterCache(rb, Long.MAX_VALUE, 0);
        SplittableRandom random = new SplittableRandom(42);
        int keys = 300;
        int[] urls = new int[keys];
        List<Integer> packedAt = new ArrayList<>();
        for (int step = 0; step < 60_000; step++) {
            int k = (int) Math.min(keys - 1, Math.abs(random.nextGaussian()) * keys / 3);
            String key = "site-" + k + ".example.com";
            int u =
                    random.nextBoolean() || urls[k] == 0 || urls[k] >= 400
                            ? Math.min(urls[k], 399)
                            : random.nextInt(urls[k]);
            if (u == urls[k]) {
                urls[k]++;
            }
            Fingerprint fp = fp(key, u);
            boolean want = record(reference, rb, key, fp, exact);
            assertThat(record(cache, b, key, fp, exact))
                    .as("step %d, %s %d", step, key, u)
                    .isEqualTo(want);
            if (step % 3_000 == 2_999) {
                cache.flushAll();
                cache.pack();
                reference.flushAll();
                packedAt.add(cache.packedKeys());
            }
        }
        assertThat(packedAt).as("keys packed at each checkpoint").anyMatch(n -> n > 100);
        assertThat(cache.heldInserts()).as("new URLs held").isGreaterThan(1_000);
        if (budget >= 1 << 20) { // eviction unpacks keys with held URLs to write them
            assertThat(cache.unpacks()).as("keys unpacked").isZero();
            if (!exact && rate > 0.1) {
                assertThat(cache.duePacks()).as("keys packed again for a new class").isPositive();
            }
        }
        if (budget < 1 << 20) {
            assertThat(cache.evictions()).as("evictions").isPositive();
        }
        cache.flushAll();
        for (int k = 0; k < keys; k++) {
            String key = "site-" + k + ".example.com";
            KeyFilter stored = b.load(key);
            for (int u = 0; u < urls[k]; u++) {
                assertThat(stored.mightContain(fp(key, u), b.source(key)))
                        .as("%s %d in state", key, u)
                        .isTrue();
            }
        }
    }

    /** A held URL is one of the key's: unpacked, the filter finds it, and the state it writes. */
    @Test
    void unpackingInsertsTheHeldUrlsAndRemovingDropsThem() throws Exception {
        MemoryBacking b = new MemoryBacking(filterOf("approximate", 1e-4));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        for (String key : List.of("a.example", "b.example")) {
            for (int u = 0; u < 20; u++) {
                assertThat(record(cache, b, key, fp(key, u), false)).isTrue();
            }
        }
        cache.flushAll();
        assertThat(cache.pack()).isEqualTo(2);
        long packedBytes = cache.bytes();
        for (String key : List.of("a.example", "b.example")) {
            for (int u = 20; u < 30; u++) {
                assertThat(record(cache, b, key, fp(key, u), false)).isTrue();
                assertThat(cache.heldNew()).isTrue();
                assertThat(record(cache, b, key, fp(key, u), false)).isFalse();
                assertThat(cache.heldNew()).isFalse();
            }
        }
        assertThat(cache.packedKeys()).isEqualTo(2);
        assertThat(cache.unpacks()).isZero();
        assertThat(cache.bytes()).isGreaterThan(packedBytes);
        assertThat(cache.composition()).contains("new URLs of 2 packed keys held");

        KeyFilter a = cache.get("a.example");
        for (int u = 0; u < 30; u++) {
            assertThat(a.mightContain(fp("a.example", u), b.source("a.example"))).isTrue();
        }
        cache.remove("b.example"); // its state cleared: nothing of it stays
        assertThat(cache.keys()).isEqualTo(1);
        cache.flushAll();
        KeyFilter stored = b.load("a.example");
        for (int u = 0; u < 30; u++) {
            assertThat(stored.mightContain(fp("a.example", u), b.source("a.example"))).isTrue();
        }
        cache.remove("a.example");
        assertThat(cache.bytes()).isZero();
    }

    /**
     * The rate each new URL held beside a packed key met ({@link FilterCache#heldNewRate}, the
     * operator's expectedFalsePositives) is its key's filter's with the URLs held before it: the
     * same as a filter given every URL at once, for 64 held URLs and the 65th that goes in.
     */
    @Test
    void aHeldUrlMeetsTheRateOfItsKeyWithTheUrlsHeldBeforeIt() throws Exception {
        MemoryBacking b = new MemoryBacking(filterOf("approximate", 0.05));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        KeyFilter all = new KeyFilter("a.example", FilterMeta.createFingerprints(128, 0.05), true);
        int u = 0;
        for (; u < 20; u++) {
            if (record(cache, b, "a.example", fp("a.example", u), false)) {
                all.insert(fp("a.example", u), PageSource.NOTHING_STORED);
            }
        }
        cache.flushAll();
        assertThat(cache.pack()).isEqualTo(1);
        int held = 0;
        for (; held <= FilterCache.MAX_HELD; u++) {
            Fingerprint fp = fp("a.example", u);
            double before = FingerprintFilterMath.rate(all.meta);
            if (all.mightContain(fp, PageSource.NOTHING_STORED)) {
                continue; // a false positive of the key's prefixes: not new to either
            }
            assertThat(record(cache, b, "a.example", fp, false)).isTrue();
            assertThat(cache.heldNew()).isTrue();
            assertThat(cache.heldNewRate()).as("URL %d", u).isCloseTo(before, within(1e-15));
            all.insert(fp, PageSource.NOTHING_STORED);
            held++;
        }
        assertThat(cache.duePacks()).as("the 65th went in with the others").isEqualTo(1);
        assertThat(FingerprintFilterMath.rate(all.meta)).isGreaterThan(0.0);
    }

    /**
     * A packed key holds at most {@link FilterCache#MAX_HELD} new URLs; with the next, they go into
     * its filter and it is packed again as due, keeping them pending for its journal, and holds
     * none. Keyed state gets them at the next checkpoint, whether the key is still packed then
     * (with a held URL again, or {@code quiet}: none), a record unpacked it ({@code get}), or it
     * got another {@link FilterCache#MAX_HELD} + 1 new URLs ({@code hot}), which unpack a due key
     * until the checkpoint.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"packed", "quiet", "get", "hot"})
    void aKeyWithManyNewUrlsIsPackedAgainAndWrittenAtTheCheckpoint(String then) throws Exception {
        MemoryBacking b = new MemoryBacking(filterOf("exact", 0));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        for (int u = 0; u < 20; u++) {
            record(cache, b, "a.example", fp("a.example", u), true);
        }
        cache.flushAll();
        assertThat(cache.pack()).isEqualTo(1);
        int writes = b.writes;
        int last = 20 + FilterCache.MAX_HELD;
        for (int u = 20; u < last; u++) {
            assertThat(record(cache, b, "a.example", fp("a.example", u), true)).isTrue();
            assertThat(cache.heldNew()).isTrue();
        }
        assertThat(cache.composition()).contains(FilterCache.MAX_HELD + " new URLs of 1 packed");
        assertThat(record(cache, b, "a.example", fp("a.example", last), true)).isTrue();
        assertThat(cache.heldNew()).isTrue();
        assertThat(cache.duePacks()).isEqualTo(1);
        assertThat(cache.packedKeys()).isEqualTo(1);
        assertThat(cache.keys()).isEqualTo(1);
        assertThat(cache.composition()).contains("0 new URLs of 0 packed keys held");
        assertThat(cache.unpacks()).isZero();
        assertThat(b.writes).as("state not written before the checkpoint").isEqualTo(writes);
        assertThat(b.load("a.example").mightContain(fp("a.example", last), b.source("a.example")))
                .isFalse();
        // The packed key answers for all of them, and holds the next new URL again.
        for (int u = 0; u <= last; u++) {
            assertThat(record(cache, b, "a.example", fp("a.example", u), true)).isFalse();
        }
        int next = 1000;
        if (!then.equals("quiet")) {
            assertThat(record(cache, b, "a.example", fp("a.example", next++), true)).isTrue();
            assertThat(cache.heldNew()).isTrue();
            assertThat(cache.composition()).contains("1 new URLs of 1 packed keys held");
        }
        if (then.equals("get")) {
            KeyFilter f = cache.get("a.example");
            assertThat(cache.packedKeys()).isZero();
            assertThat(f.mightContain(fp("a.example", last), b.source("a.example"))).isTrue();
        } else if (then.equals("hot")) {
            while (next < 1000 + FilterCache.MAX_HELD + 1) {
                assertThat(record(cache, b, "a.example", fp("a.example", next++), true)).isTrue();
            }
            assertThat(cache.packedKeys()).as("a due key unpacks").isZero();
            assertThat(cache.duePacks()).isEqualTo(1);
            assertThat(cache.unpacks()).isEqualTo(1);
            assertThat(record(cache, b, "a.example", fp("a.example", next++), true)).isTrue();
        }
        cache.flushAll();
        assertThat(b.writes).isEqualTo(writes + 1);
        KeyFilter stored = b.load("a.example");
        for (int u = 0; u <= last; u++) {
            assertThat(stored.mightContain(fp("a.example", u), b.source("a.example")))
                    .as("URL %d in state after the checkpoint", u)
                    .isTrue();
        }
        for (int u = 1000; u < next; u++) {
            assertThat(stored.mightContain(fp("a.example", u), b.source("a.example"))).isTrue();
        }
    }

    /**
     * A due key that the cache evicts is written whole first: keyed state holds every URL of it
     * before any checkpoint, and a record of it afterwards reads it back from state.
     */
    @Test
    void anEvictedDueKeyIsWrittenWhole() throws Exception {
        MemoryBacking b = new MemoryBacking(filterOf("approximate", 1e-4));
        FilterCache cache = new FilterCache(b, 24_000);
        for (int u = 0; u < 20; u++) {
            record(cache, b, "a.example", fp("a.example", u), false);
        }
        cache.flushAll();
        assertThat(cache.pack()).isEqualTo(1);
        int last = 20 + FilterCache.MAX_HELD;
        for (int u = 20; u <= last; u++) {
            assertThat(record(cache, b, "a.example", fp("a.example", u), false)).isTrue();
        }
        assertThat(cache.duePacks()).isEqualTo(1);
        int others = 0;
        while (!b.load("a.example").mightContain(fp("a.example", last), b.source("a.example"))) {
            assertThat(others).as("keys before the due key is evicted").isLessThan(2000);
            String key = "other-" + others++ + ".example";
            for (int u = 0; u < 20; u++) {
                record(cache, b, key, fp(key, u), false);
            }
        }
        assertThat(cache.evictions()).isPositive();
        KeyFilter stored = b.load("a.example");
        for (int u = 0; u <= last; u++) {
            assertThat(stored.mightContain(fp("a.example", u), b.source("a.example")))
                    .as("URL %d in state", u)
                    .isTrue();
            assertThat(record(cache, b, "a.example", fp("a.example", u), false)).isFalse();
        }
    }

    /** Held URLs match on their class's prefix, not on the whole fingerprint half. */
    /**
     * The peak counts the old table of keys and the old pool beside the grown ones, for the add
     * that grew them; an add that grows nothing leaves the peak at the bytes held.
     */
    @Test
    void thePeakCountsTheArraysAGrowthReplaces() {
        PackedInserts held = new PackedInserts(pos -> pos * 0x9E3779B9);
        SplittableRandom random = new SplittableRandom(11);
        int grew = 0;
        long most = 0;
        // One URL a key first, which the table of keys holds without the pool; then more.
        for (int i = 0; i < 20_000; i++) {
            int pos = i < 5_000 ? i + 1 : 1 + random.nextInt(5_000);
            held.peak().reset(held.bytes());
            long before = held.bytes();
            held.add(pos * 0x9E3779B9, pos, random.nextLong(), 24);
            long peak = held.peak().most(held.bytes());
            if (held.bytes() == before) {
                assertThat(peak).isEqualTo(held.bytes());
            } else if (peak > held.bytes()) {
                most = Math.max(most, peak - held.bytes());
                grew++;
            }
            if (i == 4_999) {
                // 5,000 keys: the last growth of the table replaced one of more than 3,000 slots.
                assertThat(most).isGreaterThan(10L * 3_000);
            }
        }
        assertThat(grew).isGreaterThan(10);
    }

    @Test
    void heldUrlsMatchOnTheirClassPrefix() {
        PackedInserts held = new PackedInserts(pos -> pos * 0x9E3779B9);
        held.add(7 * 0x9E3779B9, 7, 0xABCD_0000_0000_0001L, 16);
        assertThat(held.countUnlessHolds(7 * 0x9E3779B9, 7, 0xABCD_FFFF_FFFF_FFFFL, 16))
                .isEqualTo(-1);
        assertThat(held.countUnlessHolds(7 * 0x9E3779B9, 7, 0xABCC_0000_0000_0001L, 16))
                .isEqualTo(1);
        assertThat(held.countUnlessHolds(8 * 0x9E3779B9, 8, 0xABCD_0000_0000_0001L, 16)).isZero();
        assertThat(held.keys()).isEqualTo(1);
        assertThat(held.bytes()).isPositive();
        assertThat(held.bytes())
                .as("a table of 16 key slots of 10 bytes, the key's one URL in its slot")
                .isEqualTo(48 + 10 * 16 + 16);
        // Narrow classes keep the top 32 bits, all that an insert into them reads.
        assertThat(held.take(7 * 0x9E3779B9, 7)).containsExactly(1, 0xABCD_0000_0000_0000L);
        assertThat(held.isEmpty()).isTrue();
        assertThat(held.bytes()).isZero();
        assertThat(held.take(7 * 0x9E3779B9, 7)).isNull();
    }

    /**
     * A key whose class is wider than 32 bits keeps whole fingerprint halves, from the first such
     * URL on, while the narrow keys held before it keep answering on their prefixes.
     */
    @Test
    void wideClassesKeepWholeHalvesBesideNarrowOnes() {
        PackedInserts held = new PackedInserts(pos -> pos * 0x9E3779B9);
        SplittableRandom random = new SplittableRandom(7);
        long[] narrow = new long[100];
        for (int pos = 1; pos < narrow.length; pos++) {
            narrow[pos] = random.nextLong();
            held.add(pos * 0x9E3779B9, pos, narrow[pos], 24);
        }
        long narrowBytes = held.bytes();
        long wide = 0x0123_4567_89AB_CDEFL;
        held.add(500 * 0x9E3779B9, 500, wide, 60);
        assertThat(held.bytes()).as("a low half for every slot").isGreaterThan(narrowBytes);
        assertThat(held.countUnlessHolds(500 * 0x9E3779B9, 500, wide ^ 0x8, 60)).isEqualTo(-1);
        assertThat(held.countUnlessHolds(500 * 0x9E3779B9, 500, wide ^ 0x100, 60))
                .as("differs in bit 8, inside 60 bits")
                .isEqualTo(1);
        for (int pos = 1; pos < narrow.length; pos++) {
            long other = narrow[pos] ^ 1L << 40; // inside 24 bits: new
            assertThat(held.countUnlessHolds(pos * 0x9E3779B9, pos, other, 24)).isEqualTo(1);
            assertThat(held.countUnlessHolds(pos * 0x9E3779B9, pos, narrow[pos] ^ 1, 24))
                    .isEqualTo(-1);
        }
        assertThat(held.take(500 * 0x9E3779B9, 500)).containsExactly(1, wide);
        for (int pos = 1; pos < narrow.length; pos++) {
            assertThat(held.take(pos * 0x9E3779B9, pos))
                    .containsExactly(1, narrow[pos] & 0xFFFF_FFFF_0000_0000L);
        }
        assertThat(held.isEmpty()).isTrue();
        assertThat(held.bytes()).isZero();
    }

    /**
     * Keys whose hashes collide share probe runs, and a key's URLs stay its own through inserts of
     * others, deletions of a key's slots, growth, moves and shrinking: each key gives back exactly
     * what it was given, and a drain hands the keys out in the order of their positions.
     */
    @Test
    void keysSharingProbeRunsKeepTheirOwnUrls() throws Exception {
        int[] hashOf = new int[1000];
        PackedInserts held = new PackedInserts(pos -> hashOf[pos]);
        Map<Integer, List<Long>> truth = new HashMap<>();
        SplittableRandom random = new SplittableRandom(14);
        for (int n = 0; n < 3000; n++) {
            int pos = 1 + random.nextInt(200);
            hashOf[pos] = pos % 5; // five hashes: long runs shared by many keys
            long hi = random.nextLong();
            assertThat(held.countUnlessHolds(hashOf[pos], pos, hi, 64))
                    .isEqualTo(truth.getOrDefault(pos, List.of()).size());
            held.add(hashOf[pos], pos, hi, 64);
            truth.computeIfAbsent(pos, k -> new ArrayList<>()).add(hi);
        }
        assertThat(held.keys()).isEqualTo(truth.size());
        assertThat(held.added()).isEqualTo(3000);
        // A compaction moves every key with an odd position to a position of its own past 500.
        for (int pos = 1; pos <= 200; pos += 2) {
            hashOf[500 + pos] = hashOf[pos];
            held.moved(hashOf[pos], pos, 500 + pos);
            List<Long> his = truth.remove(pos);
            if (his != null) {
                truth.put(500 + pos, his);
            }
        }
        // Taking keys leaves the others whole and findable.
        for (int t = 0; t < 40; t++) {
            int one = new ArrayList<>(truth.keySet()).get(random.nextInt(truth.size()));
            List<Long> want = truth.remove(one);
            long[] got = held.take(hashOf[one], one);
            assertThat(got[0]).isEqualTo(want.size());
            assertThat(Arrays.stream(got, 1, got.length).boxed().toList())
                    .containsExactlyInAnyOrderElementsOf(want);
            assertThat(held.take(hashOf[one], one)).isNull();
            assertThat(held.keys()).isEqualTo(truth.size());
            for (Map.Entry<Integer, List<Long>> e : truth.entrySet()) {
                int pos = e.getKey();
                assertThat(held.countUnlessHolds(hashOf[pos], pos, 0, 64))
                        .as("key at %d after taking %d", pos, one)
                        .isEqualTo(e.getValue().size());
            }
        }
        // While the drain runs, a compaction moves the key it would hand out last.
        int last = java.util.Collections.max(truth.keySet());
        hashOf[999] = hashOf[last];
        List<Integer> order = new ArrayList<>();
        held.drain(
                (hash, pos, got) -> {
                    if (order.isEmpty()) {
                        held.moved(hashOf[last], last, 999);
                        truth.put(999, truth.remove(last));
                    }
                    assertThat(hash).isEqualTo(hashOf[pos]);
                    order.add(pos);
                    List<Long> want = truth.remove(pos);
                    assertThat(got[0]).isEqualTo(want.size());
                    assertThat(Arrays.stream(got, 1, got.length).boxed().toList())
                            .containsExactlyInAnyOrderElementsOf(want);
                });
        assertThat(truth).isEmpty();
        assertThat(order).isSorted().doesNotHaveDuplicates().endsWith(999);
        assertThat(held.isEmpty()).isTrue();
        assertThat(held.bytes()).isZero();
    }

    /**
     * A key's URLs move up through the chunk classes as it holds more, freed chunks are reused, and
     * once most keys have left the pool is rebuilt smaller: every key left answers for each of its
     * URLs, in the order they came, and the heap held falls.
     */
    @Test
    void chunksGrowAndThePoolShrinksAsKeysLeave() {
        PackedInserts held = new PackedInserts(pos -> pos * 0x9E3779B9);
        SplittableRandom random = new SplittableRandom(36);
        Map<Integer, List<Long>> truth = new HashMap<>();
        for (int pos = 1; pos <= 300; pos++) {
            int n = pos % 10 == 0 ? 300 : 1 + random.nextInt(40);
            for (int k = 0; k < n; k++) {
                long hi = random.nextLong() & 0xFFFF_FFFF_0000_0000L;
                held.add(pos * 0x9E3779B9, pos, hi, 32);
                truth.computeIfAbsent(pos, x -> new ArrayList<>()).add(hi);
            }
        }
        int total = truth.values().stream().mapToInt(List::size).sum();
        assertThat(held.size()).isEqualTo(total);
        long full = held.bytes();
        assertThat(full)
                .as("less than one 8-byte slot a URL in a table seven eighths full")
                .isLessThan(8L * total * 8 / 7);
        for (int pos = 1; pos <= 300; pos++) {
            if (pos % 25 != 0) {
                long[] got = held.take(pos * 0x9E3779B9, pos);
                List<Long> want = truth.remove(pos);
                assertThat(got[0]).isEqualTo(want.size());
                assertThat(Arrays.stream(got, 1, got.length).boxed().toList()).isEqualTo(want);
            }
        }
        assertThat(held.keys()).isEqualTo(12);
        assertThat(held.bytes()).as("rebuilt smaller").isLessThan(full / 4);
        for (Map.Entry<Integer, List<Long>> e : truth.entrySet()) {
            int pos = e.getKey();
            for (long hi : e.getValue()) {
                assertThat(held.countUnlessHolds(pos * 0x9E3779B9, pos, hi | 0xFFFF, 32))
                        .isEqualTo(-1);
            }
            assertThat(held.countUnlessHolds(pos * 0x9E3779B9, pos, ~e.getValue().get(0), 32))
                    .isEqualTo(e.getValue().size());
            // A freed chunk taken again keeps nothing of the key that had it.
            held.add(pos * 0x9E3779B9, pos, 1L << 32, 32);
            assertThat(held.take(pos * 0x9E3779B9, pos)[0]).isEqualTo(e.getValue().size() + 1);
        }
        assertThat(held.isEmpty()).isTrue();
        assertThat(held.bytes()).isZero();
    }

    /** One key holds at most {@link PackedInserts#MAX_PER_KEY} URLs; the cache holds 64. */
    @Test
    void aKeyHoldsAtMostTheLargestChunk() {
        PackedInserts held = new PackedInserts(pos -> 7);
        for (int k = 0; k < PackedInserts.MAX_PER_KEY; k++) {
            held.add(7, 1, (long) k << 32, 32);
        }
        assertThat(held.countUnlessHolds(7, 1, -1L << 32, 32)).isEqualTo(PackedInserts.MAX_PER_KEY);
        assertThatThrownBy(() -> held.add(7, 1, 0, 32))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at most 65535");
        assertThat(held.size()).isEqualTo(PackedInserts.MAX_PER_KEY);
    }

    /**
     * A key that got more than {@link FilterCache#HOT_INSERTS} new URLs since the last pack, which
     * as a packed key would have unpacked it again before the next checkpoint, stays an object at
     * the next pack, whether it was an object all along or a packed key that its new URLs unpacked;
     * after an interval with fewer it is packed again. A key of exactly {@link
     * FilterCache#HOT_INSERTS} is packed. Every URL stays known throughout.
     */
    @Test
    void aKeyHotSinceTheLastPackStaysAnObject() throws Exception {
        MemoryBacking b = new MemoryBacking(filterOf("approximate", 1e-4));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE);
        int hot = FilterCache.HOT_INSERTS + 1;
        for (int u = 0; u < hot; u++) {
            record(cache, b, "hot.example", fp("hot.example", u), false);
        }
        int cool = FilterCache.HOT_INSERTS;
        for (int u = 0; u < cool; u++) {
            record(cache, b, "cool.example", fp("cool.example", u), false);
        }
        cache.flushAll();
        assertThat(cache.pack()).as("cool.example only").isEqualTo(1);
        assertThat(cache.hotKept()).isEqualTo(1);
        assertThat(cache.composition()).startsWith("1 keys as objects");

        // An interval of repeats and a few new URLs: hot.example is packed at its end.
        for (int u = 0; u < hot + 10; u++) {
            assertThat(record(cache, b, "hot.example", fp("hot.example", u), false))
                    .isEqualTo(u >= hot);
        }
        cache.flushAll();
        assertThat(cache.pack()).isEqualTo(1);
        assertThat(cache.packedKeys()).isEqualTo(2);

        // cool.example holds new URLs, is packed again as due, holds more and is unpacked by them,
        // and gets more than HOT_INSERTS in all.
        int last = cool + 4 * FilterCache.MAX_HELD;
        for (int u = cool; u < last; u++) {
            assertThat(record(cache, b, "cool.example", fp("cool.example", u), false)).isTrue();
        }
        assertThat(cache.duePacks()).isEqualTo(1);
        assertThat(cache.unpacks()).isEqualTo(1);
        cache.flushAll();
        assertThat(cache.pack()).isZero();
        assertThat(cache.hotKept()).isEqualTo(2);
        assertThat(cache.packedKeys()).isEqualTo(1);
        for (int u = 0; u < last; u++) {
            assertThat(record(cache, b, "cool.example", fp("cool.example", u), false)).isFalse();
            assertThat(
                            b.load("cool.example")
                                    .mightContain(fp("cool.example", u), b.source("cool.example")))
                    .as("URL %d in state", u)
                    .isTrue();
        }
        cache.flushAll();
        assertThat(cache.pack()).as("a quiet interval").isEqualTo(1);
        assertThat(cache.packedKeys()).isEqualTo(2);
    }
}
