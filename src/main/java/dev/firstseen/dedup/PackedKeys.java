package dev.firstseen.dedup;

import java.util.Arrays;
import java.util.List;

/**
 * The packed keys of a {@link FilterCache}: {@link PackedFilter}s laid end to end in a few large
 * byte arrays (the arena), found by key through an open-addressing table of their positions.
 * Removing a key leaves its bytes as garbage, which a compaction (copying the live keys into new
 * arrays) reclaims once it is a set share of the arena; {@link #bytes()} counts the arena as
 * allocated, garbage and unused room included, and the table.
 *
 * <p>Not thread-safe: its cache's task thread uses it.
 */
final class PackedKeys implements PackedInserts.Hashes {
    /*
     * One byte array per packed key spent 16 bytes of array header and 0 to 7 of alignment on
     * each: at 100 URLs a key, 0.2 of the 3 bytes per URL that issue 14 allows. In the arena a key
     * costs its own bytes and a 4-byte table slot (at the table's load of 2/5 to 4/5; up to the
     * twenty-seventh session 1/3 to 2/3, which gave the subtask simulation's 99,880 keys a 1 MiB
     * table, 0.1 B/URL). A slot holds one more than the key's position, chunk << CHUNK_BITS |
     * offset, so that 0 is an empty slot: up to 2,047 chunks of at most 1 MiB, 2 GiB of packed keys
     * a subtask. Chunks start at 4 KiB, so that a cache of a few keys holds little, and double up
     * to a 256th of the arena (at least 64 KiB): a checkpoint's flush turns much of the chunks that
     * hold the keys an interval changed into garbage, which it may copy out only once it is past
     * the chunk (FilterCache#flushHeld), so the chunk's size bounds what it holds meanwhile. With
     * chunks of 1 MiB that was up to 0.06 B/URL of the simulation's peak at 10,000 records/s.
     */
    private static final int CHUNK_BITS = 20;

    /** The largest chunk, and so the largest packed key. */
    static final int MAX_CHUNK = 1 << CHUNK_BITS;

    private static final int MAX_CHUNKS = (1 << (31 - CHUNK_BITS)) - 1;

    private static final int FIRST_CHUNK = 4096;

    private static final int MIN_TABLE = 64;

    /** Arenas of up to this many full chunks are compacted by copying them whole. */
    static final int WHOLE_CHUNKS = 256;

    private final long wholeUpTo;

    /** The chunks by index; a compacted chunk's index is null until a new chunk takes it. */
    private byte[][] chunks = new byte[0][];

    /** Bytes of live keys in each chunk. */
    private int[] chunkLive = new int[0];

    /** The chunk new keys go to, -1 if none; and the bytes used in it. */
    private int current = -1;

    private int fill;

    /** Bytes allocated in all chunks. */
    private long allocated;

    /** Bytes of the keys in the table. */
    private long live;

    /** Empty (no slots) while no key is packed, so that an unused arena holds nothing. */
    private int[] table = new int[0];

    /**
     * A byte of each key's hash beside its table slot ({@link #tagOf}): a lookup reads the bytes of
     * a key whose tag matches only, where it read every key of its probe run from the arena, a
     * cache miss each. In a profile of the subtask simulation (100,000 keys, a table three quarters
     * full) those reads of other keys' lengths took about 2,200 of the task thread's 63,000
     * samples. One byte a slot: about 0.01 bytes per URL there.
     */
    private byte[] tags = new byte[0];

    private int size;

    /** The table slot where {@link #next} looks first. */
    private int hand;

    private long compactions;
    private long compactedBytes;
    private long compactionNanos;

    /** {@link #garbage()} after the last compaction: the next waits for more. */
    private long garbageAfterCompaction;

    /** What a compaction tells of each key it moves ({@link PackedInserts#moved}), or null. */
    private PackedInserts moves;

    /** The most {@link #bytes()} at once, noted as chunks and tables are allocated. */
    private final HeapPeak peak = new HeapPeak();

    PackedKeys() {
        this(WHOLE_CHUNKS);
    }

    /** With arenas of up to {@code wholeChunks} full chunks compacted whole (tests vary it). */
    PackedKeys(int wholeChunks) {
        this.wholeUpTo = (long) wholeChunks * MAX_CHUNK;
    }

    /** Tells {@code m} of every key a compaction moves while {@code m} is not empty. */
    void onMove(PackedInserts m) {
        this.moves = m;
    }

    /**
     * The most bytes the arena held at once: noted whenever a chunk is allocated, so that a
     * compaction counts the chunks it copies into beside those it has yet to release, and when the
     * table is replaced.
     */
    HeapPeak peak() {
        return peak;
    }

    /** Keys packed. */
    int size() {
        return size;
    }

    /** Chunks allocated. */
    int chunkCount() {
        int n = 0;
        for (byte[] c : chunks) {
            n += c != null ? 1 : 0;
        }
        return n;
    }

    /** Times the live keys were copied into new chunks to drop garbage. */
    long compactions() {
        return compactions;
    }

    /** Bytes of live keys copied by compactions. */
    long compactedBytes() {
        return compactedBytes;
    }

    /** Time spent compacting, in nanoseconds. */
    long compactionNanos() {
        return compactionNanos;
    }

    /** Bytes of the packed keys themselves. */
    long liveBytes() {
        return live;
    }

    /** Heap held: the arena's arrays as allocated and the table; 0 while no key is packed. */
    long bytes() {
        return size == 0
                ? 0
                : allocated + 5L * table.length + 16L * (chunks.length + 4) + 8L * chunks.length;
    }

    /**
     * Adds a packed filter of {@code hash}, whose key is not here; false (and nothing added) if it
     * is larger than a chunk or the arena is full.
     */
    boolean add(byte[] p, int hash) {
        return add(p, hash, 0);
    }

    /**
     * {@link #add(byte[], int)}, where a new chunk, if one is needed, is sized for {@code hint}
     * bytes (this key's and those to be added after it; up to {@link #chunkTarget}), so that a
     * checkpoint's packing leaves no room unused.
     */
    boolean add(byte[] p, int hash, long hint) {
        int ref = append(p, hint);
        if (ref < 0) {
            return false;
        }
        if (5 * (size + 1) > 4 * table.length) {
            rehash(Math.max(MIN_TABLE, table.length * 2));
        }
        insert(table, tags, hash, ref + 1);
        size++;
        live += p.length;
        return true;
    }

    /**
     * Puts {@code p}, the key of slot {@code i} packed anew, in the arena in place of its old pack,
     * which becomes garbage, as {@link #add} with {@code hint} would; the slot keeps its place, so
     * no key moves in the table and none is hashed. If the arena cannot take it, empties the slot
     * ({@link #drop}) and returns false.
     */
    boolean replace(int i, byte[] p, long hint) {
        int e = table[i];
        int len = PackedFilter.length(chunk(e), offset(e));
        int ref = append(p, hint);
        if (ref < 0) {
            drop(i);
            return false;
        }
        chunkLive[(e - 1) >>> CHUNK_BITS] -= len;
        live += p.length - len;
        table[i] = ref + 1;
        return true;
    }

    /** The slot of {@code key}'s packed filter, or -1 if it has none. */
    int slotOf(Object key) {
        if (size == 0) {
            return -1;
        }
        int[] t = table;
        byte[] g = tags;
        int mask = t.length - 1;
        int hash = key.hashCode();
        byte tag = tagOf(hash);
        for (int i = FilterCache.slot(hash, mask); ; i = (i + 1) & mask) {
            int e = t[i];
            if (e == 0) {
                return -1;
            }
            if (g[i] == tag && PackedFilter.hasKey(chunk(e), offset(e), key)) {
                return i;
            }
        }
    }

    /** {@link PackedFilter#mightContain} of the filter in slot {@code i}. */
    int mightContain(int i, Fingerprint fp) {
        int e = table[i];
        return PackedFilter.mightContain(chunk(e), offset(e), fp);
    }

    /** {@link PackedFilter#newestClass} of the filter in slot {@code i}. */
    long newestClass(int i) {
        int e = table[i];
        return PackedFilter.newestClass(chunk(e), offset(e));
    }

    /**
     * {@link PackedFilter#newestClass} of the filter in slot {@code i}, with its rate in {@code
     * rate[0]}.
     */
    long newestClass(int i, double[] rate) {
        int e = table[i];
        return PackedFilter.newestClass(chunk(e), offset(e), rate);
    }

    /** {@link PackedFilter#generationsDue} of the filter in slot {@code i}. */
    boolean generationsDue(int i, long t, long forgetAfter) {
        int e = table[i];
        return PackedFilter.generationsDue(chunk(e), offset(e), t, forgetAfter);
    }

    boolean isExactPages(int i) {
        int e = table[i];
        return PackedFilter.isExactPages(chunk(e), offset(e));
    }

    boolean isDirty(int i) {
        int e = table[i];
        return PackedFilter.isDirty(chunk(e), offset(e));
    }

    /** {@link PackedFilter#isDue} for the key in slot {@code i}. */
    boolean isDue(int i) {
        int e = table[i];
        return PackedFilter.isDue(chunk(e), offset(e));
    }

    int loadedPages(int i) {
        int e = table[i];
        return PackedFilter.loadedPages(chunk(e), offset(e));
    }

    /** The filter in slot {@code i}, unpacked; it stays here until {@link #remove}. */
    KeyFilter unpack(int i, List<Object> sizings) {
        int e = table[i];
        return PackedFilter.unpack(chunk(e), offset(e), sizings);
    }

    /** {@link #remove(int, long)} with nothing held beside the arena. */
    void remove(int i) {
        remove(i, 0);
    }

    /**
     * Empties slot {@code i} ({@link #drop}), then compacts the arena if its garbage calls for it
     * ({@link #reclaim}).
     */
    void remove(int i, long others) {
        drop(i);
        reclaim(others);
    }

    /**
     * Empties slot {@code i} and leaves its bytes as garbage. A later key of its probe run may move
     * into it: {@link #next} looks at it again.
     */
    void drop(int i) {
        int e = table[i];
        int len = PackedFilter.length(chunk(e), offset(e));
        live -= len;
        chunkLive[(e - 1) >>> CHUNK_BITS] -= len;
        deleteAt(i);
        hand = i;
        size--;
        if (size == 0) {
            chunks = new byte[0][];
            chunkLive = new int[0];
            table = new int[0];
            tags = new byte[0];
            allocated = 0;
            current = -1;
            fill = 0;
            garbageAfterCompaction = 0;
            return;
        }
        if (size < table.length / 8 && table.length > MIN_TABLE) {
            rehash(table.length / 2);
        }
    }

    /**
     * Compacts the arena once its garbage passes a {@link #GARBAGE_SHARE}th of what the cache
     * holds: the live keys and the {@code others} bytes it holds beside the arena (filters not
     * packed).
     */
    void reclaim(long others) {
        if (garbagePasses(others, GARBAGE_SHARE)) {
            compact(GARBAGE_SHARE);
        }
    }

    /**
     * True if the garbage passes {@code 1 / share} of the live keys and {@code others}, and has
     * grown by a quarter of that since the last compaction (which may have left garbage spread over
     * chunks too thinly to copy).
     */
    private boolean garbagePasses(long others, int share) {
        long g = garbage();
        long held = live + others;
        return g > Math.max(held / share, FIRST_CHUNK)
                && g - garbageAfterCompaction > held / (4 * share);
    }

    /*
     * Between checkpoints a key that unpacks leaves its packed bytes as garbage until the next
     * checkpoint packs it again: until the twenty-fifth session any new URL unpacked its key, now
     * an op, a time rule, a new class or a 65th held URL does (FilterCache#getUnlessPackedHolds).
     * Until the twenty-fourth session a compaction waited until the garbage outweighed the live
     * keys, so the heap between two checkpoints carried up to an arena's worth of garbage beside
     * the unpacked keys' objects: in
     * the subtask simulation (10 M URLs, 100,000 keys, 1e-4) at most 3.40 B/URL at 1,000
     * records/s a subtask and 4.04 at 10,000, against 2.90 just after a checkpoint.
     *
     * Now garbage past a 32nd of what the cache holds (live keys and unpacked filters) is
     * reclaimed, so it adds at most that to the heap: 3.05 and 3.40 B/URL. A compaction copies the
     * live keys, at most 32 bytes for each byte reclaimed (31 chunk by chunk, where a chunk is
     * copied once a 32nd of it is waste, and not again before a 128th more, as what is left may be
     * spread over chunks less waste than that). A key unpacks at most once between two
     * checkpoints, so an interval's garbage is at most the live bytes at its start, and its
     * compactions copy at most 32 times those; measured, 20 ms per 10 s interval at 1,000
     * records/s and about 70 ms per interval of the 50 M scale run, where every key unpacks. A
     * 16th of the live keys alone peaked as low in the simulation for about as much copying; a
     * share of all the cache holds was kept because it bounds what garbage adds to the heap, and
     * waits for more garbage where the unpacked filters outweigh the arena (docs/design/state.md, *One subtask
     * of a 10-billion-URL crawl*).
     */
    static final int GARBAGE_SHARE = 32;

    /** Bytes of removed keys not reclaimed yet (room never used in the current chunk is not). */
    long garbage() {
        return allocated - live - (current < 0 ? 0 : chunks[current].length - fill);
    }

    /** The slot of a packed key, the next from the hand on; the table must not be empty. */
    int next() {
        int mask = table.length - 1;
        int i = hand & mask;
        while (table[i] == 0) {
            i = (i + 1) & mask;
        }
        hand = i;
        return i;
    }

    /** Bytes of the pages of every packed key (walks every key). */
    long pageBytes() {
        long n = 0;
        for (int e : table) {
            n += e == 0 ? 0 : PackedFilter.pageBytes(chunk(e), offset(e));
        }
        return n;
    }

    /**
     * Reclaims garbage if more than {@code 1 / divisor} of the arena is garbage or unused room: an
     * arena of up to {@link #WHOLE_CHUNKS} full chunks is copied whole, a larger one chunk by
     * chunk, each chunk more than {@code 1 / divisor} garbage or unused room. The table's slots
     * keep their keys.
     */
    void compactIfWasteful(int divisor) {
        if ((allocated - live) * divisor > allocated && allocated > FIRST_CHUNK) {
            compact(divisor, false);
        }
    }

    /**
     * {@link #compactIfWasteful} as the cache does at a checkpoint: an arena copied whole once a
     * 32nd is waste, chunk by chunk the chunks more than half waste.
     */
    void compactAfterPacking() {
        int small = 0;
        int below = chunkTarget() / 8;
        for (byte[] c : chunks) {
            small += c != null && c.length < below ? 1 : 0;
        }
        if (small > SMALL_CHUNKS) {
            compact(allocated <= wholeUpTo ? 32 : 2, true);
        } else {
            compactIfWasteful(allocated <= wholeUpTo ? 32 : 2);
        }
    }

    /**
     * Chunks of less than an eighth of {@link #chunkTarget} past which a checkpoint's compaction
     * copies them into larger ones: each checkpoint's packing may start one, sized to what it
     * packs, and an arena that gets no garbage would otherwise run out of chunk indexes.
     */
    static final int SMALL_CHUNKS = 64;

    /*
     * A compaction copies keys, so what it costs is the live bytes of the chunks it empties. A
     * whole copy reclaims every byte; for the 30 MB a subtask of 10 M URLs packs it takes about
     * 15 ms. Keys that get new URLs are spread over every chunk, so chunk by chunk leaves garbage
     * behind (in the subtask simulation at 10,000 records/s, 3.63 B/URL of heap just before a
     * checkpoint against 3.45 with whole copies), but a subtask of a gigabyte of packed keys would
     * copy a gigabyte at every checkpoint (the task thread's time, before the barrier) for a few
     * percent of garbage. So whole copies up to 256 MiB, chunk by chunk past it, where a chunk is
     * copied once it is more than half waste: no more bytes copied than reclaimed.
     */
    private void compact(int divisor) {
        compact(divisor, false);
    }

    /** Compacts, copying small chunks (see {@link #SMALL_CHUNKS}) too if {@code small}. */
    private void compact(int divisor, boolean small) {
        long start = System.nanoTime();
        compactInner(divisor, small, allocated <= wholeUpTo, Integer.MAX_VALUE, false);
        compactionNanos += System.nanoTime() - start;
    }

    /**
     * Copies out the chunks before chunk {@code below} more than {@code 1 / divisor} garbage, but
     * not the chunk new keys go to, whatever the arena's size, once their garbage passes {@code 1 /
     * share} of the live keys and the {@code others} bytes held beside the arena: for a
     * checkpoint's flush, whose garbage lies in the chunks it went through, so that the others are
     * not copied again, and the keys it has yet to go through stay where they are.
     */
    void reclaimChunks(long others, int share, int divisor, int below) {
        // Only what this would copy out counts: the garbage of chunks the flush has yet to go
        // through, or of chunks too little of which is garbage, would call for passes that copy
        // nothing (each a walk of the whole table).
        long reclaimable = 0;
        for (int c = 0; c < Math.min(chunks.length, below); c++) {
            if (c != current && wasteful(c, divisor)) {
                reclaimable += chunks[c].length - chunkLive[c];
            }
        }
        if (reclaimable > Math.max((live + others) / share, FIRST_CHUNK)) {
            long start = System.nanoTime();
            compactInner(divisor, false, false, below, true);
            compactionNanos += System.nanoTime() - start;
        }
    }

    /**
     * Where the key in slot {@code i} lies: chunk and offset, one positive number that orders them
     * and names the key until a compaction moves it ({@link #onMove}).
     */
    int position(int i) {
        return table[i];
    }

    /** The chunk of the key in slot {@code i}. */
    int chunkOf(int i) {
        return (table[i] - 1) >>> CHUNK_BITS;
    }

    /** The slot of the key of {@code hash} at {@link #position} {@code pos}, which is packed. */
    int slotAt(int hash, int pos) {
        int i = slotOrNone(hash, pos);
        if (i < 0) {
            throw new IllegalStateException("No packed key at position " + pos);
        }
        return i;
    }

    /**
     * The positions of the keys packed as due ({@link PackedFilter#isDue}), in the arena's order
     * (walks every key).
     */
    int[] duePositions() {
        return positions(false);
    }

    /**
     * The positions of the keys to be written whole after the checkpoint ({@link
     * PackedFilter#isWholeSoon}), in the arena's order (walks every key).
     */
    int[] wholeSoonPositions() {
        return positions(true);
    }

    private int[] positions(boolean wholeSoon) {
        int n = 0;
        int[] out = new int[16];
        for (int e : table) {
            if (e != 0
                    && (wholeSoon
                            ? PackedFilter.isWholeSoon(chunk(e), offset(e))
                            : PackedFilter.isDue(chunk(e), offset(e)))) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, 2 * n);
                }
                out[n++] = e;
            }
        }
        out = Arrays.copyOf(out, n);
        Arrays.sort(out);
        return out;
    }

    /** The hash of the key at {@link #position} {@code pos}. */
    @Override
    public int hashAt(int pos) {
        return hashOf(pos);
    }

    /** True if chunk {@code c} is allocated and more than {@code 1 / divisor} of it not live. */
    private boolean wasteful(int c, int divisor) {
        byte[] chunk = chunks[c];
        return chunk != null && (long) (chunk.length - chunkLive[c]) * divisor > chunk.length;
    }

    private void compactInner(
            int divisor, boolean small, boolean whole, int below, boolean keepCurrent) {
        int n = chunks.length;
        boolean[] move = new boolean[n];
        long moving = 0;
        boolean any = false;
        int smallBelow = small ? chunkTarget() / 8 : 0;
        for (int c = 0; c < Math.min(n, below); c++) {
            byte[] chunk = chunks[c];
            // The current chunk's room not used yet counts as waste too: copied out, its keys go
            // to a chunk of their size.
            if (chunk != null
                    && !(keepCurrent && c == current)
                    && (whole || wasteful(c, divisor) || chunk.length < smallBelow)) {
                move[c] = true;
                moving += chunkLive[c];
                any = true;
            }
        }
        if (!any) {
            garbageAfterCompaction = garbage();
            return; // the garbage is spread thin
        }
        if (MAX_CHUNKS - chunkCount() < moving / chunkTarget() + 2) {
            // The copies need new chunks before the old ones go: with nearly every chunk index in
            // use (many small chunks), the garbage stays, and once adds fail keys stay objects.
            garbageAfterCompaction = garbage();
            return;
        }
        compactions++;
        if (current >= 0 && move[current]) {
            current = -1; // the copies go to new chunks, sized to hold them
        }
        PackedInserts m = moves != null && !moves.isEmpty() ? moves : null;
        // Chunk by chunk, each released once its keys are copied out, so that the arena holds at
        // most the chunk being filled besides what it held before. Until the fiftieth session
        // a copy of more than an eighth of the arena walked the table and released the chunks at
        // the end, so a whole copy held the arena twice over: in the subtask simulation at
        // 100,000 records/s a subtask, 4.58 B/URL at once where the heap after any record was 3.15.
        // A chunk reads as keys end to end, dropped ones included (their bytes stay until the
        // chunk goes; a key packed again goes to the end of the arena), and the table tells which
        // are live.
        for (int c = 0; c < n; c++) {
            if (!move[c]) {
                continue;
            }
            byte[] chunk = chunks[c];
            for (int at = 0, left = chunkLive[c]; left > 0; ) {
                int len = PackedFilter.length(chunk, at);
                int e = (c << CHUNK_BITS | at) + 1;
                int i = slotOrNone(PackedFilter.keyHash(chunk, at), e);
                if (i >= 0) {
                    moveKey(i, e, len, moving, m);
                    moving -= len;
                    left -= len;
                }
                at += len;
            }
            allocated -= chunk.length;
            chunks[c] = null;
            chunkLive[c] = 0;
        }
        garbageAfterCompaction = garbage();
    }

    /**
     * Copies the key of {@code len} bytes in slot {@code i}, at position {@code e}, to a new chunk.
     */
    private void moveKey(int i, int e, int len, long hint, PackedInserts m) {
        byte[] c = chunk(e);
        int at = offset(e);
        int ref = reserve(len, hint);
        int to = ref >>> CHUNK_BITS;
        System.arraycopy(c, at, chunks[to], ref & (MAX_CHUNK - 1), len);
        chunkLive[to] += len;
        compactedBytes += len;
        table[i] = ref + 1;
        if (m != null) {
            m.moved(PackedFilter.keyHash(c, at), e, ref + 1);
        }
    }

    /** The slot of the key of {@code hash} at position {@code pos}, or -1 if none is there. */
    private int slotOrNone(int hash, int pos) {
        int[] t = table;
        int mask = t.length - 1;
        for (int i = FilterCache.slot(hash, mask); ; i = (i + 1) & mask) {
            if (t[i] == pos) {
                return i;
            }
            if (t[i] == 0) {
                return -1;
            }
        }
    }

    /** Copies {@code p} into the arena; its position, or -1 if it does not fit. */
    private int append(byte[] p, long hint) {
        int ref = reserve(p.length, hint);
        if (ref >= 0) {
            System.arraycopy(p, 0, chunks[ref >>> CHUNK_BITS], ref & (MAX_CHUNK - 1), p.length);
            chunkLive[ref >>> CHUNK_BITS] += p.length;
        }
        return ref;
    }

    /**
     * Room for {@code len} bytes in the current chunk; its position, or -1. If the current chunk is
     * full (or none is current: a compaction empties it), a new one at a free index: of {@code
     * hint} bytes if positive, else twice the current one, up to {@link #chunkTarget} (or the key's
     * size if larger), once the current chunk is cut to what it holds if much of it would stay
     * unused ({@link #trimCurrent}).
     */
    private int reserve(int len, long hint) {
        if (len > MAX_CHUNK) {
            return -1;
        }
        if (current < 0 || fill + len > chunks[current].length) {
            trimCurrent();
            int index = 0;
            while (index < chunks.length && chunks[index] != null) {
                index++;
            }
            if (index >= MAX_CHUNKS) {
                return -1;
            }
            int size =
                    hint > 0
                            ? (int) Math.max(len, Math.min(chunkTarget(), hint))
                            : Math.max(
                                    len,
                                    current < 0
                                            ? FIRST_CHUNK
                                            : Math.min(chunkTarget(), 2 * chunks[current].length));
            if (index == chunks.length) {
                chunks = Arrays.copyOf(chunks, index + 1);
                chunkLive = Arrays.copyOf(chunkLive, index + 1);
            }
            chunks[index] = new byte[size];
            allocated += size;
            current = index;
            fill = 0;
            peak.note(bytes());
        }
        int ref = current << CHUNK_BITS | fill;
        fill += len;
        return ref;
    }

    /**
     * The size chunks grow to: a {@link #TARGET_CHUNKS}th of the arena, at least {@link
     * #MIN_TARGET} and at most {@link #MAX_CHUNK} (a larger key gets a chunk of its size).
     */
    int chunkTarget() {
        return (int)
                Math.max(
                        MIN_TARGET,
                        Math.min(MAX_CHUNK, Long.highestOneBit(allocated / TARGET_CHUNKS)));
    }

    private static final int TARGET_CHUNKS = 256;

    static final int MIN_TARGET = 64 << 10;

    /**
     * Cuts the current chunk to what it holds if more than a {@link #TRIM_SHARE}th of it was left
     * unused: keys of several kilobytes (exact mode's) leave that much at the end of each chunk.
     * Its keys keep their positions.
     */
    private void trimCurrent() {
        if (current < 0 || fill == 0) {
            return;
        }
        byte[] c = chunks[current];
        int unused = c.length - fill;
        if ((long) unused * TRIM_SHARE > c.length) {
            chunks[current] = Arrays.copyOf(c, fill);
            allocated -= unused;
        }
    }

    private static final int TRIM_SHARE = 128;

    private byte[] chunk(int e) {
        return chunks[(e - 1) >>> CHUNK_BITS];
    }

    private static int offset(int e) {
        return (e - 1) & (MAX_CHUNK - 1);
    }

    private int hashOf(int e) {
        return PackedFilter.keyHash(chunk(e), offset(e));
    }

    private static void insert(int[] t, byte[] g, int hash, int e) {
        int mask = t.length - 1;
        int i = FilterCache.slot(hash, mask);
        while (t[i] != 0) {
            i = (i + 1) & mask;
        }
        t[i] = e;
        g[i] = tagOf(hash);
    }

    /** Bits of the hash the slot depends on least: the top byte of another multiplication. */
    private static byte tagOf(int hash) {
        return (byte) ((hash * 0x85EBCA6B) >>> 24);
    }

    private void deleteAt(int i) {
        int[] t = table;
        byte[] g = tags;
        int mask = t.length - 1;
        // Backward shift, as FilterCache's table: lookups need no tombstones.
        for (int j = (i + 1) & mask; t[j] != 0; j = (j + 1) & mask) {
            int home = FilterCache.slot(hashOf(t[j]), mask);
            if (((j - home) & mask) >= ((j - i) & mask)) {
                t[i] = t[j];
                g[i] = g[j];
                i = j;
            }
        }
        t[i] = 0;
    }

    private void rehash(int capacity) {
        int[] t = new int[capacity];
        byte[] g = new byte[capacity];
        for (int e : table) {
            if (e != 0) {
                insert(t, g, hashOf(e), e);
            }
        }
        long old = 5L * table.length;
        table = t;
        tags = g;
        peak.note(bytes() + old); // the old table beside the new one
    }
}
