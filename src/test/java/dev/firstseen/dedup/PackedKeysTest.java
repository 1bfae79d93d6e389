package dev.firstseen.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.dedup.FilterCacheTest.JournalingBacking;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The arena of packed keys ({@link PackedKeys}): keys added and removed in any order are found with
 * their own bytes, removed ones are not, garbage is reclaimed so that the arena stays within a
 * bound of its live keys, and an empty arena holds nothing.
 */
class PackedKeysTest {
    /** Packed filters of {@code keys} keys with 0 to 400 URLs each, by key. */
    private static Map<String, byte[]> packedFilters(int keys, List<Object> sizings)
            throws Exception {
        return packedFilters(keys, sizings, 7);
    }

    /** The same keys with other URL counts for another {@code seed}. */
    private static Map<String, byte[]> packedFilters(int keys, List<Object> sizings, long seed)
            throws Exception {
        JournalingBacking b = new JournalingBacking(() -> FilterMeta.createFingerprints(128, 1e-4));
        FilterCache cache = new FilterCache(b, Long.MAX_VALUE, 0);
        Random random = new Random(seed);
        for (int k = 0; k < keys; k++) {
            String key = "site-" + k + ".example.com";
            KeyFilter f = cache.get(key);
            long before = f.bytes();
            for (int u = random.nextInt(400); u > 0; u--) {
                f.insert(Fingerprint.of("http://" + key + "/" + u), b.state.source(key));
            }
            cache.update(f, before);
        }
        cache.flushAll();
        Map<String, byte[]> packed = new HashMap<>();
        for (KeyFilter f : cache.filters()) {
            if (sizings.isEmpty()) {
                sizings.add(f.meta.sizing());
            }
            packed.put((String) f.key(), PackedFilter.pack(f, 0));
        }
        return packed;
    }

    /** An arena of {@code all}, packed at one checkpoint: chunks sized to what is left to add. */
    private static PackedKeys arenaOf(Map<String, byte[]> all) {
        PackedKeys arena = new PackedKeys();
        long total = all.values().stream().mapToLong(p -> p.length).sum();
        for (Map.Entry<String, byte[]> e : all.entrySet()) {
            assertThat(arena.add(e.getValue(), e.getKey().hashCode(), total)).isTrue();
            total -= e.getValue().length;
        }
        return arena;
    }

    /**
     * 3,000 keys make an arena of less than two full chunks, which compacts by copying it whole;
     * 12,000 one of several, which (set to copy whole only up to two chunks) compacts chunk by
     * chunk. A third of the packed keys met are packed anew in their slot ({@link
     * PackedKeys#replace}, as a checkpoint's flush does) with their other packs, of other sizes.
     */
    @ParameterizedTest(name = "{0} keys")
    @ValueSource(ints = {3000, 12000})
    void keysAddedAndRemovedInAnyOrderAreFoundWithTheirBytes(int keys) throws Exception {
        List<Object> sizings = new ArrayList<>();
        Map<String, byte[]> all = packedFilters(keys, sizings);
        Map<String, byte[]> other = packedFilters(keys, new ArrayList<>(), 8);
        int replaced = 0;
        List<String> names = new ArrayList<>(all.keySet());
        PackedKeys arena = new PackedKeys(2);
        Map<String, byte[]> model = new HashMap<>();
        Random random = new Random(11);
        long most = 0;
        int longest = all.values().stream().mapToInt(p -> p.length).max().orElseThrow();
        int steps = 14 * keys;
        for (int step = 0; step < steps; step++) {
            String key = names.get(random.nextInt(step < steps / 2 ? names.size() : keys / 10));
            int slot = arena.slotOf(key);
            assertThat(slot >= 0).as(key).isEqualTo(model.containsKey(key));
            if (slot < 0) {
                byte[] p = all.get(key);
                assertThat(arena.add(p, key.hashCode())).isTrue();
                model.put(key, p);
            } else {
                KeyFilter f = arena.unpack(slot, sizings);
                assertThat(PackedFilter.pack(f, 0)).as(key).isEqualTo(model.get(key));
                if (random.nextInt(3) == 0) {
                    byte[] p = model.get(key) == all.get(key) ? other.get(key) : all.get(key);
                    assertThat(arena.replace(slot, p, 0)).isTrue();
                    arena.reclaim(0); // the old pack's garbage, as the cache reclaims it
                    model.put(key, p);
                    replaced++;
                } else {
                    arena.remove(slot);
                    model.remove(key);
                }
            }
            long live = model.values().stream().mapToLong(p -> p.length).sum();
            most = Math.max(most, live);
            assertThat(arena.size()).isEqualTo(model.size());
            assertThat(arena.liveBytes()).isEqualTo(live);
            // Garbage at most the live bytes (or one first chunk) after a removal, plus the room
            // left in the newest chunk, at most as large as all the others together; array
            // headers; a table at least 1/8 full.
            assertThat(arena.bytes() - 16L * 2050 - 4L * 8 * Math.max(model.size(), 64))
                    .as("arena bytes for %,d live", live)
                    .isLessThanOrEqualTo(4 * Math.max(live, 4096));
            if (keys == 3000) {
                // Copied whole, with nothing held beside the arena: garbage past a
                // GARBAGE_SHARE-th of the live bytes is reclaimed at once (plus the end of a chunk
                // that a new one replaced, less than a key).
                assertThat(arena.garbage())
                        .as("garbage for %,d live", live)
                        .isLessThanOrEqualTo(
                                Math.max(live / PackedKeys.GARBAGE_SHARE, 4096) + longest);
            }
        }
        assertThat(arena.compactions()).as("compactions").isPositive();
        assertThat(replaced).isGreaterThan(keys);
        assertThat(most > 2 * PackedKeys.MAX_CHUNK).isEqualTo(keys > 3000);
        for (String key : names) {
            int slot = arena.slotOf(key);
            assertThat(slot >= 0).isEqualTo(model.containsKey(key));
            if (slot >= 0) {
                assertThat(PackedFilter.pack(arena.unpack(slot, sizings), 0))
                        .isEqualTo(model.get(key));
            }
        }
        // A compaction leaves no garbage: only the ends of full chunks (less than a key each) and
        // the room not yet used in the chunk that new keys go to.
        long before = arena.compactions();
        arena.compactIfWasteful(1_000_000);
        assertThat(arena.compactions()).isEqualTo(before + 1);
        long live = arena.liveBytes();
        long chunks = live / PackedKeys.MAX_CHUNK + 2;
        long room = live > 2 * PackedKeys.MAX_CHUNK ? PackedKeys.MAX_CHUNK : 0;
        assertThat(arena.bytes())
                .isLessThan(live + room + chunks * (2048 + 24) + 48 + 4L * 8 * model.size());
        while (arena.size() > 0) {
            arena.remove(arena.next());
        }
        assertThat(arena.bytes()).isZero();
        assertThat(arena.slotOf(names.get(0))).isEqualTo(-1);
    }

    /**
     * A checkpoint's packing sizes the chunk it starts to what it packs, so an arena that gets no
     * garbage gains a small chunk at every checkpoint: past {@link PackedKeys#SMALL_CHUNKS} they
     * are copied into one, and every key is still found, with no room left unused.
     */
    @ParameterizedTest(name = "copied whole up to {0} chunks")
    @ValueSource(ints = {2, 256})
    void smallChunksOfManyCheckpointsAreMerged(int wholeChunks) throws Exception {
        List<Object> sizings = new ArrayList<>();
        Map<String, byte[]> all = packedFilters(3000, sizings);
        PackedKeys arena = new PackedKeys(wholeChunks);
        List<String> added = new ArrayList<>();
        int most = 0;
        for (Map.Entry<String, byte[]> e : all.entrySet()) {
            byte[] p = e.getValue();
            assertThat(arena.add(p, e.getKey().hashCode(), p.length)).isTrue();
            added.add(e.getKey());
            arena.compactAfterPacking(); // one key packed at each checkpoint
            most = Math.max(most, arena.chunkCount());
        }
        // Up to SMALL_CHUNKS small ones (and the next two), beside the chunks they were merged
        // into, each of the arena's target size but the last of each merge.
        long merged = arena.liveBytes() / PackedKeys.MIN_TARGET + arena.compactions();
        assertThat(most)
                .isBetween(PackedKeys.SMALL_CHUNKS, PackedKeys.SMALL_CHUNKS + 2 + (int) merged);
        assertThat(arena.compactions()).isPositive();
        for (String key : added) {
            int slot = arena.slotOf(key);
            assertThat(slot).as(key).isNotNegative();
            assertThat(PackedFilter.pack(arena.unpack(slot, sizings), 0)).isEqualTo(all.get(key));
        }
        assertThat(arena.bytes())
                .isLessThan(
                        arena.liveBytes() + 24L * (PackedKeys.SMALL_CHUNKS + 4) + 4L * 8 * 3000);
    }

    /**
     * Garbage is weighed against all the cache holds: beside filters of many times the arena's
     * bytes, removing half the keys compacts nothing; with nothing beside it, the same removals
     * compact once the garbage passes a {@link PackedKeys#GARBAGE_SHARE}th of the live keys.
     */
    @ParameterizedTest(name = "held beside the arena: {0}")
    @ValueSource(booleans = {true, false})
    void garbageIsReclaimedOnceItIsAShareOfWhatTheCacheHolds(boolean heldBeside) throws Exception {
        List<Object> sizings = new ArrayList<>();
        Map<String, byte[]> all = packedFilters(3000, sizings);
        PackedKeys arena = arenaOf(all);
        long others = heldBeside ? 100 * arena.liveBytes() : 0;
        List<String> names = new ArrayList<>(all.keySet());
        for (int k = 0; k < names.size() / 2; k++) {
            arena.remove(arena.slotOf(names.get(k)), others);
            assertThat(arena.garbage())
                    .isLessThanOrEqualTo(
                            (arena.liveBytes() + others) / PackedKeys.GARBAGE_SHARE + 4096);
        }
        if (heldBeside) {
            assertThat(arena.compactions()).isZero();
            assertThat(arena.garbage()).isGreaterThan(arena.liveBytes() / 2);
        } else {
            assertThat(arena.compactions()).isPositive();
        }
        for (int k = names.size() / 2; k < names.size(); k++) {
            assertThat(arena.slotOf(names.get(k))).as(names.get(k)).isNotNegative();
        }
    }

    /**
     * Every chunk index in use (each key added with a hint of its own length gets a chunk of its
     * own): further adds fail, and a compaction, which needs new chunks before it frees old ones,
     * is skipped instead of failing; every key is still found.
     */
    @Test
    void anArenaOutOfChunkIndexesRefusesAddsAndSkipsCompaction() throws Exception {
        List<Object> sizings = new ArrayList<>();
        Map<String, byte[]> all = packedFilters(2100, sizings);
        PackedKeys arena = new PackedKeys();
        List<String> added = new ArrayList<>();
        boolean refused = false;
        for (Map.Entry<String, byte[]> e : all.entrySet()) {
            if (e.getValue().length < 2) {
                continue;
            }
            if (!arena.add(e.getValue(), e.getKey().hashCode(), e.getValue().length)) {
                refused = true;
                break;
            }
            added.add(e.getKey());
        }
        assertThat(refused).as("an add refused once the indexes ran out").isTrue();
        for (int k = 0; k < added.size() / 2; k++) {
            arena.remove(arena.slotOf(added.get(k)), 0);
        }
        arena.compactAfterPacking();
        assertThat(arena.compactions()).isZero();
        for (int k = added.size() / 2; k < added.size(); k++) {
            int slot = arena.slotOf(added.get(k));
            assertThat(slot).as(added.get(k)).isNotNegative();
            assertThat(PackedFilter.pack(arena.unpack(slot, sizings), 0))
                    .isEqualTo(all.get(added.get(k)));
        }
    }

    /**
     * A flush's garbage lies in the chunks it went through: {@link PackedKeys#reclaimChunks} copies
     * out those chunks only, not the whole arena, and every key is still found.
     */
    @Test
    void reclaimingChunksCopiesOnlyTheWastefulOnes() throws Exception {
        List<Object> sizings = new ArrayList<>();
        Map<String, byte[]> all = packedFilters(12000, sizings);
        PackedKeys arena = arenaOf(all);
        assertThat(arena.chunkCount()).isGreaterThan(2);
        List<String> byPosition = new ArrayList<>(all.keySet());
        byPosition.sort(java.util.Comparator.comparingInt(k -> arena.position(arena.slotOf(k))));
        List<String> dropped = byPosition.subList(0, byPosition.size() / 10);
        for (String key : dropped) {
            arena.drop(arena.slotOf(key));
        }
        long live = arena.liveBytes();
        long garbage = arena.garbage();
        arena.reclaimChunks(0, 64, 64, Integer.MAX_VALUE);
        assertThat(arena.compactions()).isEqualTo(1);
        assertThat(arena.garbage()).isLessThan(garbage / 4);
        assertThat(arena.compactedBytes()).isPositive().isLessThan(live / 3);
        for (String key : byPosition.subList(byPosition.size() / 10, byPosition.size())) {
            int slot = arena.slotOf(key);
            assertThat(slot).as(key).isNotNegative();
            assertThat(PackedFilter.pack(arena.unpack(slot, sizings), 0)).isEqualTo(all.get(key));
        }
        for (String key : dropped) {
            assertThat(arena.slotOf(key)).isNegative();
        }
    }

    /**
     * A flush has yet to go through the keys from its current chunk on: {@link
     * PackedKeys#reclaimChunks} copies out only wasteful chunks before the one it is told.
     */
    @Test
    void reclaimingChunksLeavesTheChunksFromItsBoundOn() throws Exception {
        List<Object> sizings = new ArrayList<>();
        Map<String, byte[]> all = packedFilters(12000, sizings);
        PackedKeys arena = arenaOf(all);
        List<String> byPosition = new ArrayList<>(all.keySet());
        byPosition.sort(java.util.Comparator.comparingInt(k -> arena.position(arena.slotOf(k))));
        for (int k = 0; k < byPosition.size(); k += 3) { // every chunk a third garbage
            arena.drop(arena.slotOf(byPosition.get(k)));
        }
        int bound = arena.chunkOf(arena.slotOf(byPosition.get(byPosition.size() / 2 + 1)));
        assertThat(bound).isPositive();
        Map<String, Integer> before = new HashMap<>();
        for (int k = 1; k < byPosition.size(); k += k % 3 == 2 ? 2 : 1) {
            String key = byPosition.get(k);
            before.put(key, arena.position(arena.slotOf(key)));
        }
        arena.reclaimChunks(0, 64, 64, bound);
        assertThat(arena.compactions()).isEqualTo(1);
        int moved = 0;
        for (Map.Entry<String, Integer> e : before.entrySet()) {
            int slot = arena.slotOf(e.getKey());
            int chunk = (e.getValue() - 1) / PackedKeys.MAX_CHUNK;
            if (chunk >= bound) {
                assertThat(arena.position(slot)).as(e.getKey()).isEqualTo(e.getValue());
            } else {
                assertThat(arena.position(slot)).as(e.getKey()).isNotEqualTo(e.getValue());
                moved++;
            }
            assertThat(PackedFilter.pack(arena.unpack(slot, sizings), 0))
                    .isEqualTo(all.get(e.getKey()));
        }
        assertThat(moved).isPositive();
    }

    /**
     * A compaction that copies out a few chunks walks their keys, dropped ones included, rather
     * than the whole table: every key left is found with its bytes, those of the copied chunks at
     * new positions that the held new URLs follow, and a chunk left with no live key goes too.
     */
    @Test
    void compactingAFewChunksWalksTheirKeysAndTellsWhereTheyWent() throws Exception {
        List<Object> sizings = new ArrayList<>();
        Map<String, byte[]> all = packedFilters(12000, sizings);
        PackedKeys arena = arenaOf(all);
        PackedInserts held = new PackedInserts(arena);
        arena.onMove(held);
        List<String> byPosition = new ArrayList<>(all.keySet());
        byPosition.sort(java.util.Comparator.comparingInt(k -> arena.position(arena.slotOf(k))));
        int chunks = arena.chunkCount();
        assertThat(chunks).isGreaterThan(16);
        Map<String, Integer> kept = new HashMap<>();
        for (int k = 0; k < byPosition.size(); k++) {
            String key = byPosition.get(k);
            int slot = arena.slotOf(key);
            int chunk = arena.chunkOf(slot);
            if (chunk == 0 || (chunk == 1 && k % 2 == 0)) {
                arena.drop(slot);
            } else {
                kept.put(key, arena.position(slot));
                if (chunk <= 2) {
                    held.add(key.hashCode(), arena.position(slot), k, 64);
                }
            }
        }
        arena.reclaimChunks(0, 1_000_000, 8, Integer.MAX_VALUE);
        assertThat(arena.compactions()).isEqualTo(1);
        // What the walk is for: less than an eighth of the arena copied.
        assertThat(arena.compactedBytes()).isPositive().isLessThan(arena.bytes() / 8);
        assertThat(arena.chunkCount()).isLessThan(chunks);
        int moved = 0;
        for (Map.Entry<String, Integer> e : kept.entrySet()) {
            int slot = arena.slotOf(e.getKey());
            assertThat(slot).as(e.getKey()).isNotNegative();
            int was = (e.getValue() - 1) / PackedKeys.MAX_CHUNK;
            int pos = arena.position(slot);
            assertThat(pos != e.getValue()).as(e.getKey()).isEqualTo(was == 1);
            moved += was == 1 ? 1 : 0;
            assertThat(PackedFilter.pack(arena.unpack(slot, sizings), 0))
                    .isEqualTo(all.get(e.getKey()));
            if (was <= 2) {
                long[] his = held.take(e.getKey().hashCode(), pos);
                assertThat(his).as(e.getKey()).isNotNull();
                assertThat(his[0]).isEqualTo(1);
                assertThat(byPosition.get((int) his[1])).isEqualTo(e.getKey());
            }
        }
        assertThat(moved).isPositive();
        assertThat(held.isEmpty()).isTrue();
        // A chunk all garbage goes with nothing to copy.
        int left = arena.chunkCount();
        long copied = arena.compactedBytes();
        for (String key : kept.keySet()) {
            int slot = arena.slotOf(key);
            if (arena.chunkOf(slot) == 3) {
                arena.drop(slot);
            }
        }
        arena.reclaimChunks(0, 1_000_000, 8, Integer.MAX_VALUE);
        assertThat(arena.compactions()).isEqualTo(2);
        assertThat(arena.compactedBytes()).isEqualTo(copied);
        assertThat(arena.chunkCount()).isEqualTo(left - 1);
    }

    /**
     * {@link PackedKeys#peak()} counts what a compaction holds while it copies: the chunks it
     * copies into beside those it has yet to release. Read only before and after, the arena never
     * held more than before the compaction. Each chunk goes once its keys are out, so a whole copy
     * holds one chunk more than the arena did at most; releasing them at the end held the arena
     * twice.
     */
    @Test
    void thePeakCountsACompactionsCopiesBesideTheChunksTheyLeave() throws Exception {
        Map<String, byte[]> all = packedFilters(12000, new ArrayList<>());
        PackedKeys arena = arenaOf(all);
        int k = 0;
        for (String key : all.keySet()) {
            if (k++ % 8 == 0) {
                arena.drop(arena.slotOf(key));
            }
        }
        long before = arena.bytes();
        int chunk = arena.chunkTarget(); // the largest a copy's chunk may be
        arena.peak().reset(arena.bytes());
        arena.compactIfWasteful(32); // an eighth is garbage: copied whole
        assertThat(arena.compactions()).isEqualTo(1);
        assertThat(arena.bytes()).isLessThan(before);
        assertThat(arena.peak().most(arena.bytes())).isGreaterThan(before);
        assertThat(arena.chunkCount()).isGreaterThan(4);
        // And the chunk list's bookkeeping (24 bytes a chunk) for the chunks it adds.
        assertThat(arena.peak().most(arena.bytes())).isLessThanOrEqualTo(before + chunk + 24 * 64);
        arena.peak().reset(arena.bytes());
        assertThat(arena.peak().most(arena.bytes())).isEqualTo(arena.bytes());
    }

    @Test
    void aKeyLargerThanAChunkIsNotAdded() {
        PackedKeys arena = new PackedKeys();
        assertThat(arena.add(new byte[PackedKeys.MAX_CHUNK + 1], 1)).isFalse();
        assertThat(arena.size()).isZero();
        assertThat(arena.bytes()).isZero();
    }
}
