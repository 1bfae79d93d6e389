package dev.firstseen.dedup;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Strategy 2's page: a set of {@code s}-bit fingerprint suffixes in one byte array, most of them
 * Elias-Fano coded (about {@code log2(2^s / n) + 2} bits each), the newest few in an unsorted tail
 * so that an insert usually appends instead of re-encoding the page.
 *
 * <pre>
 *   varint  n, core entries (unsigned LEB128)
 *   byte    0x80 | t, t tail entries (0 to {@link #TAIL_MAX})
 *   t · s bits, rounded up to bytes: the tail, in insertion order
 *   the core's high parts in unary, entry i a 1 at bit (value_i &gt;&gt;&gt; l) + i, rounded up
 *       to bytes
 *   the last n · l bits, rounded up to bytes: the core's low bits, l = max(0, s - ceil(log2 n))
 * </pre>
 *
 * Bits are numbered from the least significant bit of byte 0 on; values are written least
 * significant bit first. An empty array is the empty page. This layout is part of the state format;
 * {@code FingerprintPageTest} pins it with golden bytes.
 *
 * <p>Pages written before the thirty-eighth session have the low bits before the high parts and the
 * tail count's top bit clear; {@link #fromStored} turns such a page into this layout as it is read,
 * so both are read and only this one is written. A lookup reads the header, then the high parts
 * (where they start follows from the header), then one low part (which one follows from the high
 * parts): with the high parts right after the tail the first two reads share a cache line or
 * neighbouring ones, where before they were a page apart (docs/approximate-filter-cpu-and-heap.md,
 * High parts first).
 */
public final class FingerprintPage {
    private FingerprintPage() {}

    /** Tail entries before the page is re-encoded. */
    public static final int TAIL_MAX = 16;

    /** The tail count's top bit: the page has its high parts before its low bits. */
    private static final int HIGH_FIRST = 0x80;

    /** The tail count's bits in its byte. */
    private static final int TAIL_COUNT = 0x7F;

    /**
     * With {@link #HIGH_FIRST}, in the tail count's byte of a page as {@link #toStored} stores it:
     * Rice-coded, not in this class's layout (a page's tail holds at most {@link #TAIL_MAX}).
     */
    private static final int STORED_RICE = 0x40;

    /** Widest suffix: values are non-negative longs. */
    public static final int MAX_SUFFIX_BITS = 63;

    private static final byte[] EMPTY = new byte[0];

    /** Entries in the page. */
    public static int size(byte[] page) {
        if (page.length == 0) {
            return 0;
        }
        int[] pos = {0};
        int n = readVarint(page, pos);
        return n + (page[pos[0]] & TAIL_COUNT);
    }

    /** True if {@code stored}, a page read from state, has the layout before this one's. */
    public static boolean isFormerLayout(byte[] stored) {
        if (stored.length == 0) {
            return false;
        }
        int[] pos = {0};
        readVarint(stored, pos);
        return (stored[pos[0]] & HIGH_FIRST) == 0;
    }

    /**
     * The page {@code stored} (of {@code s}-bit values), as read from state, in this class's
     * layout: a copy, so that the caller may change it. A page {@link #toStored} wrote is decoded
     * and coded again with an empty tail; one written before the thirty-eighth session, with its
     * low bits before its high parts, gets its two regions swapped.
     *
     * @throws IllegalArgumentException if {@code stored} is a Rice-coded page that does not decode
     *     to {@code s}-bit values (written by a newer FirstSeen, or corrupt)
     */
    public static byte[] fromStored(byte[] stored, int s) {
        if (stored.length == 0) {
            return EMPTY;
        }
        if (isStoredRice(stored)) {
            long[] v = readStored(stored, s);
            return encode(v, 0, v.length, s);
        }
        if (!isFormerLayout(stored)) {
            return stored.clone();
        }
        int[] pos = {0};
        int n = readVarint(stored, pos);
        int at = pos[0];
        int t = stored[at] & 0xFF;
        int tailEnd = at + 1 + bytes((long) t * s);
        int lower = bytes((long) n * lowBits(n, s));
        int upper = stored.length - tailEnd - lower;
        byte[] p = new byte[stored.length];
        System.arraycopy(stored, 0, p, 0, tailEnd);
        p[at] = (byte) (HIGH_FIRST | t);
        System.arraycopy(stored, tailEnd + lower, p, tailEnd, upper);
        System.arraycopy(stored, tailEnd, p, tailEnd + upper, lower);
        return p;
    }

    /*
     * What keyed state holds of a page needs no lookup: it is read once, when the key is loaded.
     * So approximate mode stores its pages in a denser code than the heap's (forty-fourth
     * session): every value sorted, the tail's among them, and coded as gaps in a Rice code, which
     * for the nearly geometric gaps of a random set costs about log2(mean gap) + 1.5 bits a value
     * (Golomb, IEEE Trans. Inf. Theory 1966; Rice's power-of-two parameter loses a few hundredths
     * of a bit), where the core's Elias-Fano code costs log2(mean gap) + 1.9 to 2 and a tail entry
     * all s bits. The page journal codes its elements the same way (PageJournal). Exact mode keeps
     * storing the heap's layout: its values are 63 bits, so the saving would be under one percent.
     */

    /** True if {@code stored}, a page read from state, was written by {@link #toStored}. */
    public static boolean isStoredRice(byte[] stored) {
        if (stored.length == 0) {
            return false;
        }
        int[] pos = {0};
        readVarint(stored, pos);
        return pos[0] < stored.length
                && (stored[pos[0]] & (HIGH_FIRST | STORED_RICE)) == (HIGH_FIRST | STORED_RICE);
    }

    /**
     * {@code page} (of {@code s}-bit values) as approximate mode stores it in keyed state: its
     * values, tail included, in ascending order, coded as gaps. Part of the state format; {@code
     * FingerprintPageTest} pins it with golden bytes. Only {@link #fromStored} reads it.
     *
     * <pre>
     *   varint  n, values (unsigned LEB128, 1 or more)
     *   byte    0xC0 (the high-parts-first bit, the stored-Rice bit, a tail of 0)
     *   byte    k, the Rice parameter, 0 to 63
     *   n gaps between the values in ascending order, the first from 0, least significant bit
     *       first: each (gap &gt;&gt;&gt; k) zero bits, a one bit, then its low k bits
     *   0 to 7 zero bits, to a whole byte
     * </pre>
     *
     * The empty page is stored as the empty array.
     */
    public static byte[] toStored(byte[] page, int s) {
        if (page.length == 0) {
            return EMPTY;
        }
        int[] pos = {0};
        int c = readVarint(page, pos);
        int t = page[pos[0]] & TAIL_COUNT;
        int n = c + t;
        long[] tail = tail(page, pos[0] + 1, t, s, 0);
        Arrays.sort(tail);
        Core core = new Core(page, pos[0] + 1, c, t, s);
        long max = Math.max(t == 0 ? 0 : tail[t - 1], c == 0 ? 0 : core.last());
        int k = riceParameter(n, max);
        // The quotients sum to at most the largest value's, so this many bits are enough; the
        // page is cut to what the gaps took.
        long bound = (long) n * (k + 1) + (max >>> k);
        int header = varintBytes(n) + 2;
        byte[] p = new byte[header + bytes(bound)];
        pos[0] = 0;
        writeVarint(p, pos, n);
        p[pos[0]] = (byte) (HIGH_FIRST | STORED_RICE);
        p[pos[0] + 1] = (byte) k;
        // The core's entries and the sorted tail merged as they are read, and the bits gathered
        // in a long, written eight bytes at a time: a whole write after a checkpoint codes every
        // dirty page of its key, which for a small key is most checkpoints.
        long lowMask = (1L << k) - 1; // k = 63: every bit a non-negative long has
        int out = header;
        long acc = 0;
        int fill = 0;
        long prev = 0;
        int read = 0; // core entries read
        int j = 0; // tail entries taken
        long next = c == 0 ? 0 : core.next();
        for (int i = 0; i < n; i++) {
            long x;
            if (read < c && (j == t || next <= tail[j])) {
                x = next;
                if (++read < c) {
                    next = core.next();
                }
            } else {
                x = tail[j++];
            }
            long gap = x - prev;
            prev = x;
            for (long q = gap >>> k; q > 0; ) { // the quotient's zeros
                long take = Math.min(q, 64 - fill);
                fill += (int) take;
                q -= take;
                if (fill == 64) {
                    LONGS.set(p, out, acc);
                    out += 8;
                    acc = 0;
                    fill = 0;
                }
            }
            // A one, then the low k bits: k + 1 bits, at most 64.
            long code = 1 | (gap & lowMask) << 1;
            int w = k + 1;
            acc |= code << fill;
            if (fill + w >= 64) {
                LONGS.set(p, out, acc);
                out += 8;
                int done = 64 - fill; // 1 to 64 of the code's bits went out
                acc = done == 64 ? 0 : code >>> done;
                fill = fill + w - 64;
            } else {
                fill += w;
            }
        }
        for (; fill > 0; fill -= 8, acc >>>= 8) {
            p[out++] = (byte) acc;
        }
        return out == p.length ? p : Arrays.copyOf(p, out);
    }

    /**
     * The Rice parameter for {@code n} values up to {@code max}: of the mean gap's log2 and one
     * either side, the one whose bits {@code n (k + 1) + (max >>> k)} (the quotients' sum taken at
     * its bound) are fewest, the first of equals. A choice of the encoder, not of the format: the
     * page stores its parameter.
     */
    private static int riceParameter(int n, long max) {
        long mean = max / n;
        int guess = mean == 0 ? 0 : 63 - Long.numberOfLeadingZeros(mean);
        int best = 0;
        long fewest = Long.MAX_VALUE;
        for (int k = Math.max(0, guess - 1); k <= Math.min(63, guess + 1); k++) {
            long bits = (long) n * (k + 1) + (max >>> k);
            if (bits < fewest) {
                fewest = bits;
                best = k;
            }
        }
        return best;
    }

    /** The values of a page {@link #toStored} wrote, ascending, checked to be {@code s}-bit. */
    static long[] readStored(byte[] stored, int s) {
        int[] pos = {0};
        int n = 0;
        for (int shift = 0; ; shift += 7) {
            if (pos[0] >= stored.length || shift > 28) {
                throw corruptStored(stored, s, "its value count");
            }
            int b = stored[pos[0]++] & 0xFF;
            n |= (b & 0x7F) << shift;
            if (b < 0x80) {
                break;
            }
        }
        if (pos[0] + 2 > stored.length) {
            throw corruptStored(stored, s, "no Rice parameter");
        }
        int k = stored[pos[0] + 1] & 0xFF;
        long limit = (long) stored.length * 8;
        long at = (pos[0] + 2L) * 8;
        if (n < 1 || k > 63 || s < 0 || s > MAX_SUFFIX_BITS || n > limit - at) {
            throw corruptStored(stored, s, n + " values, k " + k);
        }
        long mask = s == 63 ? Long.MAX_VALUE : (1L << s) - 1;
        long[] v = new long[n];
        long prev = 0;
        for (int i = 0; i < n; i++) {
            long q = 0;
            while (true) { // the quotient's zeros, up to 57 at a load
                if (at >= limit) {
                    throw corruptStored(stored, s, "a gap past the page");
                }
                int w = (int) Math.min(57, limit - at);
                long word = read(stored, at, w);
                if (word != 0) {
                    int z = Long.numberOfTrailingZeros(word);
                    q += z;
                    at += z + 1;
                    break;
                }
                q += w;
                at += w;
            }
            if (at + k > limit || q > (mask - prev) >>> k) {
                throw corruptStored(stored, s, "a gap past the page or past " + s + " bits");
            }
            long x = prev + (q << k | read(stored, at, k));
            at += k;
            if (x > mask || x < prev) {
                throw corruptStored(stored, s, "a value past " + s + " bits");
            }
            v[i] = x;
            prev = x;
        }
        if (limit - at >= 8 || (limit > at && read(stored, at, (int) (limit - at)) != 0)) {
            throw corruptStored(stored, s, "bytes after its values");
        }
        return v;
    }

    private static IllegalArgumentException corruptStored(byte[] stored, int s, String what) {
        return new IllegalArgumentException(
                "Unrecognized stored fingerprint page ("
                        + stored.length
                        + " bytes of "
                        + s
                        + "-bit values, "
                        + what
                        + "): written by a newer FirstSeen, or corrupt");
    }

    /** True if {@code u} (an {@code s}-bit value) is in the page. */
    public static boolean contains(byte[] page, int s, long u) {
        return find(page, 0, page.length, s, u) != NOT_FOUND;
    }

    /**
     * True if {@code u} is in the page that {@code a} holds from index {@code from} to {@code to}
     * (as {@link PackedFilter} holds pages); an empty range is the empty page.
     */
    static boolean contains(byte[] a, int from, int to, int s, long u) {
        return find(a, from, to, s, u) != NOT_FOUND;
    }

    private static final long NOT_FOUND = Long.MIN_VALUE;

    /**
     * Where {@code u} is: {@code -1 - i} for tail entry i, {@code i} for core entry i, {@link
     * #NOT_FOUND} if absent. The tail is scanned first: its bytes follow the header, and its scan
     * overlaps the wait for the high parts when the page is not in the CPU's caches (core first was
     * about a fifth slower on pages beyond them, docs/approximate-filter-cpu-and-heap.md, Tail
     * entries in one load).
     */
    private static long find(byte[] page, int from, int to, int s, long u) {
        if (to == from) {
            return NOT_FOUND;
        }
        int[] pos = {from};
        int n = readVarint(page, pos);
        int t = page[pos[0]] & TAIL_COUNT;
        long tailBit = (pos[0] + 1L) * 8;
        long tailEnd = tailBit + (long) t * s;
        if (t != 0 && s != 0 && s <= 57 && ((tailEnd - 1) >>> 3) + 8 <= page.length) {
            // Each entry within one 8-byte load: no per-entry check of where it ends.
            long mask = (1L << s) - 1;
            for (long at = tailBit; at < tailEnd; at += s) {
                if ((((long) LONGS.get(page, (int) (at >>> 3)) >>> (at & 7)) & mask) == u) {
                    return -1 - (at - tailBit) / s;
                }
            }
        } else {
            for (int i = 0; i < t; i++) {
                if (read(page, tailBit + (long) i * s, s) == u) {
                    return -1 - i;
                }
            }
        }
        return n == 0 ? NOT_FOUND : findInCore(page, pos[0] + 1 + bytes((long) t * s), to, n, s, u);
    }

    /**
     * The index of {@code u} among the {@code n} core entries whose high parts start at {@code
     * upperStart}.
     */
    private static long findInCore(byte[] page, int upperStart, int to, int n, int s, long u) {
        int l = lowBits(n, s);
        int lowerStart = to - bytes((long) n * l);
        long bucket = u >>> l;
        long low = l == 0 ? 0 : u & ((1L << l) - 1);
        long p = select0(page, upperStart, lowerStart, bucket);
        if (p < 0) {
            return NOT_FOUND;
        }
        long limit = (long) (lowerStart - upperStart) * 8;
        for (long q = p; q < limit && bit(page, upperStart, q); q++) {
            long k = q - bucket; // ones before q: entry index
            if (k >= n) {
                break;
            }
            if (read(page, (long) lowerStart * 8 + k * l, l) == low) {
                return k;
            }
        }
        return NOT_FOUND;
    }

    /** The page with {@code u} added; the caller knows it is not in the page yet. */
    public static byte[] insert(byte[] page, int s, long u) {
        if (page.length != 0) {
            int[] pos = {0};
            int n = readVarint(page, pos);
            int t = page[pos[0]] & TAIL_COUNT;
            if (t >= TAIL_MAX) {
                long[] add = tail(page, pos[0] + 1, t, s, 1);
                add[t] = u;
                Arrays.sort(add);
                return mergeIntoCore(page, pos[0] + 1, n, t, s, add);
            }
        }
        return append(page, s, new long[] {u}, 1);
    }

    /**
     * The page with {@code us[0]} to {@code us[k - 1]} appended to its tail in that order, which
     * must have room for them ({@link #tailSize} + k at most {@link #TAIL_MAX}): the same bytes as
     * {@code k} calls of {@link #insert}, with one copy of the page instead of k.
     */
    static byte[] append(byte[] page, int s, long[] us, int k) {
        if (page.length == 0) {
            byte[] p = new byte[2 + bytes((long) k * s)];
            p[1] = (byte) (HIGH_FIRST | k);
            for (int i = 0; i < k; i++) {
                write(p, 16 + (long) i * s, s, us[i]);
            }
            return p;
        }
        int[] pos = {0};
        readVarint(page, pos);
        int t = page[pos[0]] & TAIL_COUNT;
        if (t + k > TAIL_MAX) {
            throw new IllegalArgumentException("a tail of " + t + " has no room for " + k);
        }
        int header = pos[0] + 1;
        int oldTail = bytes((long) t * s);
        int newTail = bytes((long) (t + k) * s);
        byte[] p = new byte[page.length + newTail - oldTail];
        System.arraycopy(page, 0, p, 0, header + oldTail);
        p[pos[0]] = (byte) (HIGH_FIRST | (t + k));
        for (int i = 0; i < k; i++) {
            write(p, (long) header * 8 + (long) (t + i) * s, s, us[i]);
        }
        System.arraycopy(
                page, header + oldTail, p, header + newTail, page.length - header - oldTail);
        return p;
    }

    /** Entries in the page's tail. */
    static int tailSize(byte[] page) {
        if (page.length == 0) {
            return 0;
        }
        int i = 0;
        while (page[i] < 0) { // the core count's varint
            i++;
        }
        return page[i + 1] & TAIL_COUNT;
    }

    /**
     * The length of {@code page} (of tail {@code t}, {@link #tailSize}) after {@code k} more
     * entries of {@code s} bits go into its tail, which has room for them ({@link #append}).
     */
    static int lengthAfterAppend(byte[] page, int t, int s, int k) {
        return page.length == 0
                ? (k == 0 ? 0 : 2 + bytes((long) k * s))
                : page.length + bytes((long) (t + k) * s) - bytes((long) t * s);
    }

    /** The page without {@code u}, or the same array if {@code u} is not in it. */
    public static byte[] remove(byte[] page, int s, long u) {
        long at = find(page, 0, page.length, s, u);
        if (at == NOT_FOUND) {
            return page;
        }
        long[] all = decode(page, s);
        int i = Arrays.binarySearch(all, u);
        long[] rest = new long[all.length - 1];
        System.arraycopy(all, 0, rest, 0, i);
        System.arraycopy(all, i + 1, rest, i, rest.length - i);
        return encode(rest, 0, rest.length, s);
    }

    /**
     * Splits a page of {@code s}-bit values by their lowest bit into two pages of the {@code s - 1}
     * bits above it: those with the bit clear, then those with it set.
     */
    public static byte[][] split(byte[] page, int s) {
        long[] all = decode(page, s);
        long[] even = new long[all.length];
        long[] odd = new long[all.length];
        int e = 0;
        int o = 0;
        for (long v : all) {
            if ((v & 1) == 0) {
                even[e++] = v >>> 1;
            } else {
                odd[o++] = v >>> 1;
            }
        }
        return new byte[][] {encode(even, 0, e, s - 1), encode(odd, 0, o, s - 1)};
    }

    /** Every value of the page, sorted. */
    public static long[] decode(byte[] page, int s) {
        if (page.length == 0) {
            return new long[0];
        }
        int[] pos = {0};
        int n = readVarint(page, pos);
        int t = page[pos[0]] & TAIL_COUNT;
        long[] out = new long[n + t];
        long[] tail = tail(page, pos[0] + 1, t, s, 0);
        Arrays.sort(tail);
        Core core = new Core(page, pos[0] + 1, n, t, s);
        for (int k = 0; k < n; k++) {
            out[t + k] = core.next(); // to the end of their final range, then merged with the tail
        }
        int i = t;
        int j = 0;
        int o = 0;
        while (j < t) {
            out[o++] = i < n + t && out[i] < tail[j] ? out[i++] : tail[j++];
        }
        return out;
    }

    /**
     * The page's {@code t} tail entries (from byte {@code tailStart} on), in insertion order,
     * followed by {@code room} zero slots for the caller's use.
     */
    private static long[] tail(byte[] page, int tailStart, int t, int s, int room) {
        long[] v = new long[t + room];
        for (int i = 0; i < t; i++) {
            v[i] = read(page, tailStart * 8L + (long) i * s, s);
        }
        return v;
    }

    /**
     * The page holding the core of {@code page} (n entries, t in its tail, the tail starting at
     * {@code tailStart}) and the values of {@code add} (sorted, none in the core) in one core: the
     * bytes {@link #encode} would write for them all, without decoding the core into an array
     * first.
     */
    private static byte[] mergeIntoCore(
            byte[] page, int tailStart, int n, int t, int s, long[] add) {
        int m = n + add.length;
        if (n > 0 && lowBits(m, s) == lowBits(n, s)) {
            return mergeByShifting(page, tailStart, n, t, s, add);
        }
        Core core = new Core(page, tailStart, n, t, s);
        long max = Math.max(add[add.length - 1], n == 0 ? 0 : core.last());
        int l = lowBits(m, s);
        byte[] p = newCore(m, l, max);
        int header = varintBytes(m) + 1;
        long upperBit = (long) header * 8;
        long lowerBit = (long) (p.length - bytes((long) m * l)) * 8;
        int j = 0;
        int k = 0;
        long next = n == 0 ? Long.MAX_VALUE : core.next();
        for (int i = 0; i < m; i++) {
            long v;
            if (j < add.length && add[j] < next) {
                v = add[j++];
            } else {
                v = next;
                next = ++k < n ? core.next() : Long.MAX_VALUE;
            }
            writeEntry(p, lowerBit, upperBit, l, i, v);
        }
        return p;
    }

    /**
     * {@link #mergeIntoCore} for a merge that keeps the low parts' width: the core's bits are
     * copied in runs between the places the new values go, shifted by the values before them,
     * instead of decoding and encoding every entry. A new value's place is its rank among the core
     * entries: an entry's low part moves from index i to i plus the new values ranked at or below
     * i, and a new value's 1 goes into the high parts where the core has its bucket's zeros and its
     * smaller entries' ones before it. The bytes are those {@link #encode} writes.
     */
    private static byte[] mergeByShifting(
            byte[] page, int tailStart, int n, int t, int s, long[] add) {
        int k = add.length;
        int m = n + k;
        int l = lowBits(n, s);
        int upperStart = tailStart + bytes((long) t * s);
        int lowerStart = page.length - bytes((long) n * l);
        long lastOld = new Core(page, tailStart, n, t, s).last();
        long max = Math.max(add[k - 1], lastOld);
        byte[] p = newCore(m, l, max);
        int header = varintBytes(m) + 1;
        long srcLow = (long) lowerStart * 8;
        long dstLow = (long) (p.length - bytes((long) m * l)) * 8;
        long srcUp = (long) upperStart * 8;
        long dstUp = (long) header * 8;
        // The core's last 1 is the last bit it uses; past it the high parts are zeros to copy.
        long usedUp = (lastOld >>> l) + n;
        int prevRank = 0;
        long prevAt = 0; // in the core's high parts
        for (int j = 0; j < k; j++) {
            long v = add[j];
            int r = rank(page, lowerStart, upperStart, n, l, v);
            copyBits(
                    page,
                    srcLow + (long) prevRank * l,
                    p,
                    dstLow + (long) (prevRank + j) * l,
                    (long) (r - prevRank) * l);
            write(p, dstLow + (long) (r + j) * l, l, l == 0 ? 0 : v & ((1L << l) - 1));
            long at = (v >>> l) + r;
            copyBits(page, srcUp + prevAt, p, dstUp + prevAt + j, Math.min(at, usedUp) - prevAt);
            long q = dstUp + at + j;
            p[(int) (q >>> 3)] |= (byte) (1 << (q & 7));
            prevRank = r;
            prevAt = at;
        }
        copyBits(
                page,
                srcLow + (long) prevRank * l,
                p,
                dstLow + (long) (prevRank + k) * l,
                (long) (n - prevRank) * l);
        copyBits(page, srcUp + prevAt, p, dstUp + prevAt + k, usedUp - prevAt);
        return p;
    }

    /** How many of the page's n core entries (low parts of l bits) are below {@code v}. */
    private static int rank(byte[] page, int lowerStart, int upperStart, int n, int l, long v) {
        long bucket = v >>> l;
        long low = l == 0 ? 0 : v & ((1L << l) - 1);
        long q = select0(page, upperStart, lowerStart, bucket);
        if (q < 0) {
            return n;
        }
        long limit = (long) (lowerStart - upperStart) * 8;
        for (; q < limit && bit(page, upperStart, q); q++) {
            if (read(page, (long) lowerStart * 8 + (q - bucket) * l, l) > low) {
                break;
            }
        }
        return (int) (q - bucket);
    }

    /**
     * Copies {@code len} bits from bit {@code from} of {@code src} to the zero bits at {@code to}.
     */
    private static void copyBits(byte[] src, long from, byte[] dst, long to, long len) {
        while (len > 0) {
            int w = (int) Math.min(len, 56);
            write(dst, to, w, read(src, from, w));
            from += w;
            to += w;
            len -= w;
        }
    }

    /** Reads a page's core entries in order, eight bytes of its unary high parts at a time. */
    private static final class Core {
        private final byte[] page;
        private final int n;
        private final int l;
        private final long lowerBit;
        private final int upperStart;
        private final int upperEnd;
        private int at; // the byte of the high parts that word came from
        private long word; // the ones of those eight bytes not read yet
        private int k; // entries read

        Core(byte[] page, int tailStart, int n, int t, int s) {
            this.page = page;
            this.n = n;
            this.l = lowBits(n, s);
            this.upperStart = tailStart + bytes((long) t * s);
            this.upperEnd = page.length - bytes((long) n * l);
            this.lowerBit = (long) upperEnd * 8;
            this.at = upperStart;
            this.word = n == 0 ? 0 : load(upperStart);
        }

        /** The next entry; only while fewer than n have been read. */
        long next() {
            while (word == 0) {
                at += 8;
                word = load(at);
            }
            long high = (long) (at - upperStart) * 8 + Long.numberOfTrailingZeros(word) - k;
            word &= word - 1;
            return (high << l) | read(page, lowerBit + (long) k++ * l, l);
        }

        /** The largest entry, without moving. */
        long last() {
            int b = upperEnd - 1;
            while (page[b] == 0) {
                b--;
            }
            long one =
                    (long) (b - upperStart) * 8 + 31 - Integer.numberOfLeadingZeros(page[b] & 0xFF);
            return ((one - (n - 1)) << l) | read(page, lowerBit + (long) (n - 1) * l, l);
        }

        /** Eight bytes of the high parts from byte {@code i}, zeros past their end. */
        private long load(int i) {
            if (i + 8 <= upperEnd) {
                return (long) LONGS.get(page, i);
            }
            long x = 0;
            for (int b = i; b < upperEnd; b++) {
                x |= (page[b] & 0xFFL) << ((b - i) * 8);
            }
            return x;
        }
    }

    /** A page holding {@code sorted[from, to)} (distinct {@code s}-bit values) in its core. */
    public static byte[] encode(long[] sorted, int from, int to, int s) {
        int n = to - from;
        if (n == 0) {
            return EMPTY;
        }
        int l = lowBits(n, s);
        byte[] p = newCore(n, l, sorted[to - 1]);
        long upperBit = (long) (varintBytes(n) + 1) * 8;
        long lowerBit = (long) (p.length - bytes((long) n * l)) * 8;
        for (int i = 0; i < n; i++) {
            writeEntry(p, lowerBit, upperBit, l, i, sorted[from + i]);
        }
        return p;
    }

    /**
     * A page of {@code n} core entries of {@code l} low bits, the largest {@code max}, and an empty
     * tail: its header written, its high parts and low bits zeros.
     */
    private static byte[] newCore(int n, int l, long max) {
        int header = varintBytes(n) + 1;
        byte[] p = new byte[header + bytes((max >>> l) + n) + bytes((long) n * l)];
        writeVarint(p, new int[] {0}, n);
        p[header - 1] = (byte) HIGH_FIRST;
        return p;
    }

    /**
     * Writes core entry {@code i}, value {@code v}: its low {@code l} bits into the low parts
     * starting at bit {@code lowerBit}, its high part as a 1 into the unary parts at {@code
     * upperBit}.
     */
    private static void writeEntry(byte[] p, long lowerBit, long upperBit, int l, int i, long v) {
        write(p, lowerBit + (long) i * l, l, l == 0 ? 0 : v & ((1L << l) - 1));
        long q = upperBit + (v >>> l) + i;
        p[(int) (q >>> 3)] |= (byte) (1 << (q & 7));
    }

    /** Low bits per core entry for {@code n} entries of {@code s} bits. */
    static int lowBits(int n, int s) {
        int ceilLog2 = n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
        return Math.max(0, s - ceilLog2);
    }

    /**
     * Bit position (from {@code start}) just after the {@code b}-th zero bit, 0 for b = 0; -1 if
     * the page ends (at {@code end}) first.
     */
    static long select0(byte[] a, int start, int end, long b) {
        if (b == 0) {
            return 0;
        }
        long left = b;
        int i = start;
        for (; i + 8 <= end; i += 8) {
            long x = ~(long) LONGS.get(a, i);
            int z = Long.bitCount(x);
            if (left > z) {
                left -= z;
                continue;
            }
            return (long) (i - start) * 8 + select(x, (int) left - 1) + 1;
        }
        for (; i < end; i++) {
            int x = ~a[i] & 0xFF; // zeros as ones
            int z = Integer.bitCount(x);
            if (left > z) {
                left -= z;
                continue;
            }
            for (int k = 1; k < left; k++) {
                x &= x - 1;
            }
            return (long) (i - start) * 8 + Integer.numberOfTrailingZeros(x) + 1;
        }
        return -1;
    }

    /**
     * The position of the {@code k}-th set bit of {@code x} (from 0), which has more than {@code
     * k}: the byte that holds it from the running byte counts, then a table for the byte, without a
     * loop over bits (Vigna, "Broadword implementation of rank/select queries", WEA 2008).
     */
    static int select(long x, int k) {
        long s = x - ((x >>> 1) & 0x5555555555555555L);
        s = (s & 0x3333333333333333L) + ((s >>> 2) & 0x3333333333333333L);
        s = (s + (s >>> 4)) & 0x0F0F0F0F0F0F0F0FL;
        long byteSums = s * 0x0101010101010101L; // byte j: the ones in bytes 0 to j
        long ks = k * 0x0101010101010101L;
        // Byte j's top bit survives where byteSums_j <= k: the bytes wholly before the bit.
        long before = ((ks | 0x8080808080808080L) - byteSums) & 0x8080808080808080L;
        int place = Long.bitCount(before) * 8;
        int rank = k - (int) (((byteSums << 8) >>> place) & 0xFF);
        return place + SELECT_IN_BYTE[(int) ((x >>> place) & 0xFF) | rank << 8];
    }

    /** Entry {@code b | r << 8}: the position of the {@code r}-th set bit of byte {@code b}. */
    private static final byte[] SELECT_IN_BYTE = new byte[256 * 8];

    static {
        for (int b = 0; b < 256; b++) {
            for (int r = 0, bit = 0; bit < 8; bit++) {
                if ((b >>> bit & 1) != 0) {
                    SELECT_IN_BYTE[b | r++ << 8] = (byte) bit;
                }
            }
        }
    }

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static boolean bit(byte[] a, int start, long q) {
        return (a[start + (int) (q >>> 3)] & (1 << (q & 7))) != 0;
    }

    /** {@code w} bits (0 to 63) at bit {@code pos}, least significant first. */
    static long read(byte[] a, long pos, int w) {
        if (w == 0) {
            return 0;
        }
        int i = (int) (pos >>> 3);
        int sh = (int) (pos & 7);
        if (i + 8 <= a.length && w + sh <= 64) {
            // One unaligned little-endian load instead of a byte at a time: the same bits.
            return ((long) LONGS.get(a, i) >>> sh) & ((1L << w) - 1);
        }
        long v = (a[i++] & 0xFFL) >>> sh;
        int got = 8 - sh;
        while (got < w) {
            v |= (a[i++] & 0xFFL) << got;
            got += 8;
        }
        return v & ((1L << w) - 1);
    }

    /**
     * ORs {@code v}, a value of {@code w} bits (none set above them), in at bit {@code pos}; the
     * bits there are 0.
     */
    static void write(byte[] a, long pos, int w, long v) {
        int i = (int) (pos >>> 3);
        int sh = (int) (pos & 7);
        if (i + 8 <= a.length && w + sh <= 64) {
            LONGS.set(a, i, (long) LONGS.get(a, i) | v << sh);
            return;
        }
        int done = 0;
        while (done < w) {
            a[i++] |= (byte) ((v >>> done) << sh);
            done += 8 - sh;
            sh = 0;
        }
    }

    private static int bytes(long bits) {
        return (int) ((bits + 7) >>> 3);
    }

    static int readVarint(byte[] a, int[] pos) {
        int v = 0;
        for (int shift = 0; ; shift += 7) {
            int b = a[pos[0]++] & 0xFF;
            v |= (b & 0x7F) << shift;
            if (b < 0x80) {
                return v;
            }
        }
    }

    /** Writes {@code v} (unsigned LEB128) at {@code pos[0]} and moves it past. */
    static void writeVarint(byte[] a, int[] pos, int v) {
        while (v >= 0x80) {
            a[pos[0]++] = (byte) (v | 0x80);
            v >>>= 7;
        }
        a[pos[0]++] = (byte) v;
    }

    /** The bytes {@link #writeVarint} takes for {@code v}. */
    static int varintBytes(int v) {
        int n = 1;
        while (v >= 0x80) {
            v >>>= 7;
            n++;
        }
        return n;
    }
}
