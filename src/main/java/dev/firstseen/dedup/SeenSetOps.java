package dev.firstseen.dedup;

import dev.firstseen.record.CanonicalUrl;
import dev.firstseen.record.FrontierRecord;
import dev.firstseen.record.Op;

/**
 * The seen-set ops other than {@link Op#SEEN}, each keeping the invariants of the three levels: L1
 * holds only fingerprints that are in the state, the Bloom filter is a superset of the exact store,
 * and the exact store holds exactly the URLs the job treats as seen.
 *
 * <ul>
 *   <li>{@code force}: into the seen-set (the exact store's time becomes now; in approximate mode
 *       with {@code dedup.forget-after}, into the current generation) and emitted with {@code
 *       "forced":true}, whatever the state said.
 *   <li>{@code mark-seen}: into the seen-set if not there yet (an existing time is kept); nothing
 *       emitted.
 *   <li>{@code forget}: out of the exact store and L1. The filter keeps its bits, so the URL's next
 *       sighting is a "maybe" that finds the exact store without it: new. A key kept in exact
 *       mode's fingerprint pages ({@link ExactStoreType#PAGES}) removes the fingerprint from its
 *       page, and its time from the exact store if a record's {@code revisit_after} gave it one. In
 *       approximate mode the fingerprint filter removes the URL's prefix instead (if another URL
 *       shares that prefix, which happens with the filter's rate, that URL is forgotten with it); a
 *       key still on a Bloom filter cannot forget one URL, and the op is counted in {@code
 *       opsForgetUnsupported}.
 *   <li>{@code forget-key}: the key's exact store, filter pages and metadata cleared, its cached
 *       filter dropped, and L1 emptied (its entries do not say their key).
 * </ul>
 *
 * The decoder refuses the deleting ops when approximate mode is configured with a Bloom filter.
 */
final class SeenSetOps {
    /** What the ops need of the operator, for the record's key (the current key). */
    interface Levels {
        KeyFilter filter() throws Exception;

        /** Inserts into the filter, rebuilding it first in exact mode if it is full. */
        void insert(KeyFilter f, Fingerprint fp) throws Exception;

        /**
         * Whether {@code f} has generations and holds {@code fp} in its current one (approximate
         * mode with {@code dedup.forget-after}).
         */
        boolean inCurrentGeneration(KeyFilter f, Fingerprint fp) throws Exception;

        /** Clears all keyed state of the current key and drops its cached filter. */
        void clearKey() throws Exception;

        /** Accounts for what the op did to {@code f}'s pages (cache budget, metrics). */
        void touched(KeyFilter f, long bytesBefore, long loadsBefore) throws Exception;

        long now();

        void emit(FrontierRecord r);
    }

    private final ExactStore exact;
    private final RecentFingerprintCache recent;
    private final CountingPageLoader loader;
    private final DedupMetrics metrics;

    SeenSetOps(
            ExactStore exact,
            RecentFingerprintCache recent,
            CountingPageLoader loader,
            DedupMetrics metrics) {
        this.exact = exact;
        this.recent = recent;
        this.loader = loader;
        this.metrics = metrics;
    }

    /** Applies {@code in.op}; {@code fp} is null for {@link Op#FORGET_KEY}. */
    void apply(CanonicalUrl in, Fingerprint fp, Levels levels) throws Exception {
        switch (in.op) {
            case FORGET_KEY:
                levels.clearKey();
                recent.clear();
                metrics.opsKeysForgotten.inc();
                return;
            case FORGET:
                boolean pagesKey = levels.filter().meta.isExactFingerprints();
                if (exact != null) {
                    exact.remove(fp); // a pages key's URL may have a time there too
                }
                if ((exact == null || pagesKey) && !forgetFromFilter(fp, levels)) {
                    return;
                }
                recent.remove(fp);
                metrics.opsForgotten.inc();
                return;
            case FORCE:
            case MARK_SEEN:
                record(in, fp, levels);
                return;
            default:
                throw new IllegalArgumentException("not an op of this class: " + in.op);
        }
    }

    /** Approximate mode's forget; false if the key's filter cannot delete. */
    private boolean forgetFromFilter(Fingerprint fp, Levels levels) throws Exception {
        KeyFilter filter = levels.filter();
        if (!filter.meta.isFingerprints()) {
            metrics.opsForgetUnsupported.inc();
            return false;
        }
        long bytesBefore = filter.bytes();
        long loadsBefore = loader.loads();
        filter.remove(fp, loader);
        levels.touched(filter, bytesBefore, loadsBefore);
        return true;
    }

    private void record(CanonicalUrl in, Fingerprint fp, Levels levels) throws Exception {
        KeyFilter filter = levels.filter();
        long bytesBefore = filter.bytes();
        long loadsBefore = loader.loads();
        long now = levels.now();
        boolean pagesKey = filter.meta.isExactFingerprints();
        boolean inFilter = filter.mightContain(fp, loader);
        // Read an entry only where it decides something: an entries key's "maybe", or the time a
        // force moves on a pages key (mark-seen keeps it, so an import reads nothing).
        Long time =
                exact == null || !inFilter || (pagesKey && in.op != Op.FORCE)
                        ? null
                        : exact.get(fp);
        // Without an entry to confirm it (approximate mode, a pages key) the filter's answer is it.
        boolean known = inFilter && (exact == null || pagesKey || time != null);
        // A forced URL is forgotten a forget-after from now, not from when it went in: in
        // generations that is an insert into the current one.
        boolean renew =
                known
                        && in.op == Op.FORCE
                        && exact == null
                        && filter.meta.hasGenerations()
                        && !levels.inCurrentGeneration(filter, fp);
        if (!known || renew) {
            levels.insert(filter, fp);
        }
        // An entries key keeps every URL's time; a pages key only those a record's revisit_after
        // gave a time, which a force moves to now.
        boolean keepsTime = exact != null && (!pagesKey || time != null);
        if (keepsTime && (!known || in.op == Op.FORCE)) {
            exact.put(fp, now);
        }
        recent.add(fp);
        if (in.op == Op.FORCE) {
            metrics.opsForced.inc();
            FrontierRecord r =
                    new FrontierRecord(in.url, in.canonical, in.key, now, in.metaJson, in.source);
            r.metaOmitted = in.metaOmitted;
            r.forced = true;
            levels.emit(r);
        } else {
            metrics.opsMarkedSeen.inc();
        }
        levels.touched(filter, bytesBefore, loadsBefore);
    }
}
