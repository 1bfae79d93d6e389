package dev.firstseen.dedup;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The heap cache of per-key filters: least recently used keys go first once the cache holds more
 * than its byte budget. A changed filter is dirty until it is written back through {@link
 * Backing#write}, which happens when it is evicted and in {@link #flushAll()} (called before every
 * checkpoint barrier), so keyed state holds every bit set before a checkpoint. An evicted filter
 * leaves the cache and the dirty set at once, so nothing holds its memory after eviction.
 *
 * <p>Not thread-safe: one instance per operator instance, used from the task thread.
 */
final class FilterCache {
    /** Where filters come from and go to: keyed state, under each filter's own key. */
    interface Backing {
        /** The filter of {@code key} as stored, or a new empty one if it has none. */
        KeyFilter load(Object key) throws Exception;

        /** Writes a dirty filter's metadata and dirty pages; returns the pages written. */
        int write(KeyFilter f) throws Exception;
    }

    private final Backing backing;
    private final long budget;
    private final LinkedHashMap<Object, KeyFilter> lru = new LinkedHashMap<>(1024, 0.75f, true);
    // KeyFilter keeps Object identity, so this is a set of instances in the order they got dirty.
    private final LinkedHashSet<KeyFilter> dirty = new LinkedHashSet<>();
    private long bytes;
    private long evictions;

    FilterCache(Backing backing, long budgetBytes) {
        this.backing = backing;
        this.budget = budgetBytes;
    }

    /** The filter of {@code key}, loaded (or created) on a miss. */
    KeyFilter get(Object key) throws Exception {
        KeyFilter f = lru.get(key);
        if (f == null) {
            f = backing.load(key);
            lru.put(key, f);
            bytes += f.bytes();
            if (f.isDirty()) {
                dirty.add(f);
            }
        }
        return f;
    }

    /**
     * Accounts for what happened to {@code f} since it had {@code bytesBefore} bytes (pages loaded
     * or set), marks it dirty if it is, and evicts other keys while the cache is over its budget.
     */
    void update(KeyFilter f, long bytesBefore) throws Exception {
        bytes += f.bytes() - bytesBefore;
        if (f.isDirty()) {
            dirty.add(f);
        }
        if (bytes > budget) {
            evict(f);
        }
    }

    /** Evicts least recently used keys other than {@code keep} down to 90% of the budget. */
    private void evict(KeyFilter keep) throws Exception {
        long target = budget / 10 * 9;
        Iterator<KeyFilter> it = lru.values().iterator();
        while (bytes > target && it.hasNext()) {
            KeyFilter f = it.next();
            if (f == keep) {
                continue;
            }
            long held = f.bytes(); // before the write-back, which drops the dirty-page sets
            if (f.isDirty()) {
                backing.write(f);
            }
            dirty.remove(f);
            it.remove();
            bytes -= held;
            f.release();
            evictions++;
        }
    }

    /** Writes every dirty filter back; returns the pages written. */
    long flushAll() throws Exception {
        long n = 0;
        for (KeyFilter f : dirty) {
            if (f.isDirty()) {
                long before = f.bytes();
                n += backing.write(f);
                bytes += f.bytes() - before;
            }
        }
        dirty.clear();
        return n;
    }

    /** The cached filter of {@code key} (now the most recently used), or null; never loads. */
    KeyFilter peek(Object key) {
        return lru.get(key);
    }

    /** Drops {@code key}'s filter without writing it (its state was cleared). */
    void remove(Object key) {
        KeyFilter f = lru.remove(key);
        if (f != null) {
            dirty.remove(f);
            bytes -= f.bytes();
            f.discard();
        }
    }

    /** Heap held by the cached filters, as {@link KeyFilter#bytes()} counts it. */
    long bytes() {
        return bytes;
    }

    int keys() {
        return lru.size();
    }

    int dirtyKeys() {
        return dirty.size();
    }

    long evictions() {
        return evictions;
    }

    /** Pages held on the heap. */
    long pages() {
        long n = 0;
        for (KeyFilter f : lru.values()) {
            n += f.loadedPages();
        }
        return n;
    }

    /** Bytes of the pages alone, without page tables and per-key objects (walks every page). */
    long pageBytes() {
        long n = 0;
        for (KeyFilter f : lru.values()) {
            n += f.pageBytes();
        }
        return n;
    }

    /** The cached filters, least recently used first (for tests). */
    List<KeyFilter> filters() {
        return new ArrayList<>(lru.values());
    }
}
