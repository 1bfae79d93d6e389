package dev.firstseen.dedup;

import java.util.Arrays;
import java.util.List;

/**
 * A key's filter folded into a run of bytes while the filter cache keeps it between checkpoints:
 * the key, the metadata's classes, the flags and dirty bits that say what keyed state still lacks,
 * and the pages. Only heap changes; keyed state is written as before. {@link FilterCache} packs
 * every {@link KeyFilter#packable()} filter at each checkpoint into its arena ({@link PackedKeys}),
 * answers duplicates from the packed form ({@link #mightContain}) and unpacks one when a new URL of
 * its key comes. The readers take the array and the offset the packed filter starts at.
 *
 * <p>Layout: flags (1 byte), the key's length (varint) and ASCII bytes, then varints: the sizing's
 * index in the cache's list times two (plus one if the classes have generations, {@link
 * FilterMeta#hasGenerations}), the class count and each class's word, capacity (0 for none, else
 * one more) and count, the journaled count times two (plus one if the stored metadata is known to
 * carry the journal flag, {@link KeyFilter#storedJournalFlag}), the created-here bits (zigzag), the
 * page table's slot count, the dirty-bit words (their count, then each; only with {@link
 * #DIRTY_BITS}), and a code per slot (0 not loaded, 1 {@link KeyFilter#ABSENT}, else the page's
 * length plus one); then the pages, one after another; then, only with {@link #DUE}, the count of
 * inserts pending for the key's journal (varint) and each as 8 bytes; then, only with generations,
 * the first class's generation end and each later class's step from the one before (varints).
 */
final class PackedFilter {
    /*
     * Most keys of a long-tailed crawl hold a few URLs: one class, one page. As objects such a key
     * holds 187 bytes besides its page (the filter 64, its metadata 56, the key's array 40, the
     * page array's header 16, a table slot 8), which at 100 URLs a key is 1.9 bytes per URL against
     * issue 14's budget of 3 for everything; a key of a few classes and pages holds 270 and more.
     * Packed it holds its key's bytes, a few bytes of fields and a byte or two a page, and a slot
     * of the arena's table: 40 to 41 bytes measured with JOL for a one-page key of 20 characters
     * (53 to 55 when each packed key was an array of its own, with its header and alignment).
     * Unpacking costs the objects' allocation and a copy of the pages, once per key per checkpoint
     * interval at most.
     */

    private static final int META_DIRTY = 1;
    private static final int LONE_DIRTY = 2;
    private static final int WHOLE_DUE = 4;
    private static final int EXACT = 8;
    private static final int SATURATED = 16;
    private static final int DIRTY_BITS = 32;

    /**
     * Keyed state lacks inserts of this key that its journal does not hold either (those pending,
     * or all since the last whole write if one is due): the next checkpoint's flush must write it.
     */
    private static final int DUE = 64;

    /** The key is to be written whole right after the checkpoint ({@link KeyFilter#wholeSoon}). */
    private static final int WHOLE_SOON = 128;

    /**
     * The most page-table slots a packed key may have. A probe of a packed key walks its slot
     * codes, and packing and unpacking copy every page: keys of more pages than this (more than
     * about 5,000 URLs in approximate mode at 1e-4, 2,000 in exact mode's pages of 128 entries)
     * stay objects, whose bytes are small beside their pages anyway.
     */
    static final int MAX_SLOTS = 16;

    /** {@link #mightContain}: a page it would read is not loaded, so only the filter can say. */
    static final int UNKNOWN = -1;

    private PackedFilter() {}

    /** {@code f} packed, its sizing being {@code sizingIndex} in the cache's list. */
    static byte[] pack(KeyFilter f, int sizingIndex) {
        return pack(f, sizingIndex, false);
    }

    /**
     * {@code f} packed, and if {@code due} marked as one the next checkpoint must write ({@link
     * #isDue}), with its pending inserts.
     */
    static byte[] pack(KeyFilter f, int sizingIndex, boolean due) {
        FilterMeta m = f.meta;
        byte[] key = f.keyBytes();
        long[] dirty = f.loneDirty() ? null : f.dirtyBits();
        int flags =
                (f.metaDirty ? META_DIRTY : 0)
                        | (f.loneDirty() ? LONE_DIRTY : 0)
                        | (dirty != null ? DIRTY_BITS : 0)
                        | (f.wholeDue() ? WHOLE_DUE : 0)
                        | (m.isExactFingerprints() ? EXACT : 0)
                        | (m.saturated ? SATURATED : 0)
                        | (due ? DUE : 0)
                        | (f.wholeSoon() ? WHOLE_SOON : 0);
        long[] pending = due ? f.pending() : null;
        long[] untils = m.untils();
        int pendingCount = pending == null ? 0 : (int) pending[0];
        int classes = m.classCount();
        int slots = f.tableSlots();
        long[] fields = new long[5 + 3 * classes + (dirty == null ? 0 : 1 + dirty.length) + slots];
        int k = 0;
        fields[k++] = (long) sizingIndex << 1 | (untils != null ? 1 : 0);
        fields[k++] = classes;
        for (int c = 0; c < classes; c++) {
            fields[k++] = m.classWord(c);
            fields[k++] = capacityCode(m.capacity(c));
            fields[k++] = m.entries(c);
        }
        fields[k++] = (long) f.journaled() << 1 | (f.storedJournalFlag() ? 1 : 0);
        fields[k++] = zigzag(f.createdHere());
        fields[k++] = slots;
        if (dirty != null) {
            fields[k++] = dirty.length;
            for (long w : dirty) {
                fields[k++] = w;
            }
        }
        int pageBytes = 0;
        for (int i = 0; i < slots; i++) {
            byte[] page = f.slotContent(i);
            fields[k++] = page == null ? 0 : page == KeyFilter.ABSENT ? 1 : page.length + 1L;
            pageBytes += page == null ? 0 : page.length;
        }
        int n = 1 + varintLength(key.length) + key.length + pageBytes;
        if (due) {
            n += varintLength(pendingCount) + 8 * pendingCount;
        }
        for (long v : fields) {
            n += varintLength(v);
        }
        for (int c = 0; untils != null && c < classes; c++) {
            n += varintLength(c == 0 ? untils[0] : untils[c] - untils[c - 1]);
        }
        byte[] p = new byte[n];
        p[0] = (byte) flags;
        int at = putVarint(p, 1, key.length);
        System.arraycopy(key, 0, p, at, key.length);
        at += key.length;
        for (long v : fields) {
            at = putVarint(p, at, v);
        }
        for (int i = 0; i < slots; i++) {
            byte[] page = f.slotContent(i);
            if (page != null) {
                System.arraycopy(page, 0, p, at, page.length);
                at += page.length;
            }
        }
        if (due) {
            at = putVarint(p, at, pendingCount);
            for (int i = 1; i <= pendingCount; i++) {
                for (int b = 56; b >= 0; b -= 8) {
                    p[at++] = (byte) (pending[i] >>> b);
                }
            }
        }
        for (int c = 0; untils != null && c < classes; c++) {
            at = putVarint(p, at, c == 0 ? untils[0] : untils[c] - untils[c - 1]);
        }
        return p;
    }

    /** A reading of a packed filter's fields, up to the slot codes. */
    private static final class Reader {
        final byte[] p;
        final int keyLength;
        int at;

        Reader(byte[] p, int start) {
            this.p = p;
            this.at = start + 1;
            this.keyLength = (int) next();
            at += keyLength;
        }

        long next() {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = p[at++];
                v |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return v;
                }
            }
        }
    }

    /**
     * The filter packed at {@code start} of {@code p}, as it was packed; {@code sizings} as given
     * to {@link #pack}.
     */
    static KeyFilter unpack(byte[] p, int start, List<Object> sizings) {
        int flags = p[start];
        Reader r = new Reader(p, start);
        byte[] key = Arrays.copyOfRange(p, r.at - r.keyLength, r.at);
        long sizingField = r.next();
        Object sizing = sizings.get((int) (sizingField >>> 1));
        long[] classes = new long[3 * (int) r.next()];
        for (int i = 0; i < classes.length; i++) {
            classes[i] = i % 3 == 1 ? capacity(r.next()) : r.next();
        }
        long journalField = r.next();
        int createdHere = (int) unzigzag(r.next());
        int slots = (int) r.next();
        long[] dirty = null;
        if ((flags & DIRTY_BITS) != 0) {
            dirty = new long[(int) r.next()];
            for (int i = 0; i < dirty.length; i++) {
                dirty[i] = r.next();
            }
        }
        int[] codes = new int[slots];
        for (int i = 0; i < slots; i++) {
            codes[i] = (int) r.next();
        }
        int at = r.at;
        byte[][] table = new byte[slots][];
        for (int i = 0; i < slots; i++) {
            if (codes[i] == 1) {
                table[i] = KeyFilter.ABSENT;
            } else if (codes[i] > 1) {
                table[i] = Arrays.copyOfRange(p, at, at + codes[i] - 1);
                at += codes[i] - 1;
            }
        }
        FilterMeta m =
                FilterMeta.ofClassWords(
                        (flags & EXACT) != 0
                                ? FilterMeta.EXACT_FINGERPRINTS
                                : FilterMeta.FINGERPRINTS,
                        sizing,
                        classes);
        m.saturated = (flags & SATURATED) != 0;
        r.at = at;
        if ((flags & DUE) != 0) {
            int pendingCount = (int) r.next();
            r.at += 8 * pendingCount;
        }
        if ((sizingField & 1) != 0) {
            long[] untils = new long[classes.length / 3];
            for (int c = 0; c < untils.length; c++) {
                untils[c] = (c == 0 ? 0 : untils[c - 1]) + r.next();
            }
            m.withUntils(untils);
        }
        KeyFilter f =
                KeyFilter.unpacked(
                        key,
                        m,
                        slots == 1 ? table[0] : table,
                        dirty,
                        (flags & LONE_DIRTY) != 0,
                        (flags & META_DIRTY) != 0,
                        (flags & WHOLE_DUE) != 0,
                        createdHere,
                        (int) (journalField >>> 1));
        f.storedJournalFlag((journalField & 1) != 0);
        if ((flags & WHOLE_SOON) != 0) {
            f.writeWholeSoon();
        }
        if ((flags & DUE) != 0) {
            r.at = at;
            int n = (int) r.next();
            if (n > 0) {
                long[] pending = new long[n + 1];
                pending[0] = n;
                for (int i = 1, b = r.at; i <= n; i++, b += 8) {
                    long v = 0;
                    for (int j = 0; j < 8; j++) {
                        v = v << 8 | (p[b + j] & 0xFF);
                    }
                    pending[i] = v;
                }
                f.restorePending(pending);
            }
        }
        return f;
    }

    /**
     * What {@link KeyFilter#mightContain} answers for {@code fp} on the filter {@code p} holds (1
     * yes, 0 no), without unpacking it; {@link #UNKNOWN} if that needs a page that is not loaded.
     */
    static int mightContain(byte[] p, int start, Fingerprint fp) {
        Reader r = new Reader(p, start);
        r.next(); // the sizing
        int classes = (int) r.next();
        long[] words = new long[classes];
        for (int c = 0; c < classes; c++) {
            words[c] = r.next();
            r.next(); // capacity
            r.next(); // count
        }
        r.next(); // journaled
        int createdHere = (int) unzigzag(r.next());
        int slots = (int) r.next();
        if ((p[start] & DIRTY_BITS) != 0) {
            for (int i = (int) r.next(); i > 0; i--) {
                r.next();
            }
        }
        int codesAt = r.at;
        for (int i = 0; i < slots; i++) {
            r.next();
        }
        int pagesAt = r.at;
        // Newest class first, as KeyFilter#findClass; class c's pages follow those of classes < c.
        int base = 0;
        int[] bases = new int[classes];
        for (int c = 0; c < classes; c++) {
            bases[c] = base;
            base += FingerprintClass.pages(level(words[c]), split(words[c]));
        }
        for (int c = classes - 1; c >= 0; c--) {
            int width = (int) (words[c] & 0xFF);
            int level = level(words[c]);
            int split = split(words[c]);
            long v = FingerprintClass.prefix(width, fp);
            int index = FingerprintClass.page(level, split, v);
            int slot = bases[c] + index;
            if (slot >= slots) {
                continue; // beyond the table: never stored
            }
            // The slot's code and where its page starts: codes and pages of the slots before it.
            r.at = codesAt;
            int from = pagesAt;
            for (int i = 0; i < slot; i++) {
                long code = r.next();
                from += code > 1 ? (int) code - 1 : 0;
            }
            long code = r.next();
            if (code == 0) {
                if (c < 32 && (createdHere >>> c & 1) != 0) {
                    continue; // created in the cache and never filled: empty
                }
                return UNKNOWN;
            }
            if (code == 1) {
                continue;
            }
            int s = FingerprintClass.suffixBits(width, level, split, index);
            if (FingerprintPage.contains(p, from, from + (int) code - 1, s, v >>> (width - s))) {
                return 1;
            }
        }
        return 0;
    }

    /**
     * The newest class of the filter at {@code start} of {@code p}: its width in the top 32 bits,
     * and in the low 32 how many more prefixes it takes before the filter adds a class (at most
     * {@link Integer#MAX_VALUE}; 0 if it is full).
     */
    static long newestClass(byte[] p, int start) {
        return newestClass(p, start, null);
    }

    /**
     * {@link #newestClass(byte[], int)}, and if {@code rate} is given, in its first element the
     * filter's {@link FingerprintFilterMath#rate} (held URLs beside the arena not counted), from
     * the same walk of its classes.
     */
    static long newestClass(byte[] p, int start, double[] rate) {
        Reader r = new Reader(p, start);
        r.next(); // the sizing
        int classes = (int) r.next();
        long word = 0;
        long room = 0;
        double sum = 0;
        for (int c = 0; c < classes; c++) {
            word = r.next();
            long capacity = capacity(r.next());
            long count = r.next();
            room = Math.max(0, capacity - count);
            sum += Math.scalb((double) count, -(int) (word & 0xFF));
        }
        if (rate != null) {
            rate[0] = sum;
        }
        return (word & 0xFF) << 32 | Math.min(room, Integer.MAX_VALUE);
    }

    /**
     * A class's capacity as stored: exact mode's pages have none ({@code Long.MAX_VALUE}), which as
     * a varint would take 9 bytes on every packed key; it is 0 here, any other capacity one more.
     */
    private static long capacityCode(long capacity) {
        return capacity == Long.MAX_VALUE ? 0 : capacity + 1;
    }

    private static long capacity(long code) {
        return code == 0 ? Long.MAX_VALUE : code - 1;
    }

    private static int level(long word) {
        return (int) (word >>> 8 & 0xFF);
    }

    private static int split(long word) {
        return (int) (word >>> 16);
    }

    private static int keyLength(byte[] p, int start) {
        int len = 0;
        for (int shift = 0, at = start + 1; ; shift += 7) {
            byte b = p[at++];
            len |= (b & 0x7F) << shift;
            if (b >= 0) {
                return len;
            }
        }
    }

    /** True if the filter at {@code start} of {@code p} is {@code key}'s; allocates nothing. */
    static boolean hasKey(byte[] p, int start, Object key) {
        if (!(key instanceof String s)) {
            return false; // packed keys are ASCII strings'
        }
        int len = keyLength(p, start);
        if (s.length() != len) {
            return false;
        }
        int at = start + 1 + varintLength(len);
        for (int i = 0; i < len; i++) {
            if (s.charAt(i) != p[at + i]) {
                return false;
            }
        }
        return true;
    }

    /** The key's {@code hashCode()}, as {@link KeyFilter#keyHash()} gives it. */
    static int keyHash(byte[] p, int start) {
        int len = keyLength(p, start);
        int h = 0;
        for (int i = start + 1 + varintLength(len), end = i + len; i < end; i++) {
            h = 31 * h + p[i];
        }
        return h;
    }

    /** True if keyed state lacks something this filter holds (a journal stands in for it). */
    static boolean isDirty(byte[] p, int start) {
        return (p[start] & (META_DIRTY | LONE_DIRTY | DIRTY_BITS | DUE)) != 0;
    }

    /** True if the next checkpoint must write this key: it was packed with {@code due}. */
    static boolean isDue(byte[] p, int start) {
        return (p[start] & DUE) != 0;
    }

    /**
     * Whether the packed key is to be written whole after the checkpoint ({@link
     * KeyFilter#wholeSoon}).
     */
    static boolean isWholeSoon(byte[] p, int start) {
        return (p[start] & WHOLE_SOON) != 0;
    }

    /** True for exact mode's fingerprint pages ({@link FilterMeta#EXACT_FINGERPRINTS}). */
    static boolean isExactPages(byte[] p, int start) {
        return (p[start] & EXACT) != 0;
    }

    /** Pages held (slots with a page, not {@link KeyFilter#ABSENT} or unloaded). */
    static int loadedPages(byte[] p, int start) {
        int n = 0;
        for (long code : codes(p, start, null)) {
            n += code > 1 ? 1 : 0;
        }
        return n;
    }

    /** Bytes of the pages alone. */
    static long pageBytes(byte[] p, int start) {
        long n = 0;
        for (long code : codes(p, start, null)) {
            n += code > 1 ? code - 1 : 0;
        }
        return n;
    }

    /**
     * Bytes of the packed filter at {@code start} of {@code p}: its fields, its pages and its
     * pending inserts.
     */
    static int length(byte[] p, int start) {
        Reader r = new Reader(p, start);
        boolean generations = (r.next() & 1) != 0;
        int classes = (int) r.next();
        r.at = generationEnds(p, start);
        for (int c = 0; generations && c < classes; c++) {
            r.next();
        }
        return r.at - start;
    }

    /**
     * Where the generation ends of the filter packed at {@code start} of {@code p} begin: past its
     * pages and its pending inserts (its end, for a filter without generations).
     */
    private static int generationEnds(byte[] p, int start) {
        int[] end = new int[1];
        long pages = 0;
        for (long code : codes(p, start, end)) {
            pages += code > 1 ? code - 1 : 0;
        }
        int at = end[0] + (int) pages;
        if ((p[start] & DUE) != 0) {
            Reader r = new Reader(p, start);
            r.at = at;
            long n = r.next();
            at = r.at + (int) (8 * n);
        }
        return at;
    }

    /**
     * Whether the filter packed at {@code start} of {@code p} has generations of which one ended
     * {@code forgetAfter} or longer before {@code t} (to be forgotten) or none holds {@code t} yet
     * (a new URL would start one): then only its unpacked filter can decide a record at {@code t}.
     * False for a filter without generations.
     */
    static boolean generationsDue(byte[] p, int start, long t, long forgetAfter) {
        Reader r = new Reader(p, start);
        if ((r.next() & 1) == 0) {
            return false;
        }
        int classes = (int) r.next();
        r.at = generationEnds(p, start);
        long first = r.next();
        long newest = first;
        for (int c = 1; c < classes; c++) {
            newest += r.next();
        }
        return t - first >= forgetAfter || t >= newest;
    }

    /** The slot codes; {@code end[0]}, if given, becomes where the pages start. */
    private static long[] codes(byte[] p, int start, int[] end) {
        Reader r = new Reader(p, start);
        r.next();
        for (int c = 3 * (int) r.next(); c > 0; c--) {
            r.next();
        }
        r.next();
        r.next();
        long[] codes = new long[(int) r.next()];
        if ((p[start] & DIRTY_BITS) != 0) {
            for (int i = (int) r.next(); i > 0; i--) {
                r.next();
            }
        }
        for (int i = 0; i < codes.length; i++) {
            codes[i] = r.next();
        }
        if (end != null) {
            end[0] = r.at;
        }
        return codes;
    }

    private static long zigzag(int v) {
        return ((v << 1) ^ (v >> 31)) & 0xFFFFFFFFL;
    }

    private static long unzigzag(long v) {
        int z = (int) v;
        return (z >>> 1) ^ -(z & 1);
    }

    private static int varintLength(long v) {
        int n = 1;
        while ((v >>>= 7) != 0) {
            n++;
        }
        return n;
    }

    private static int putVarint(byte[] p, int at, long v) {
        while ((v & ~0x7FL) != 0) {
            p[at++] = (byte) (v & 0x7F | 0x80);
            v >>>= 7;
        }
        p[at++] = (byte) v;
        return at;
    }
}
