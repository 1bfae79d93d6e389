package dev.firstseen.dedup;

/**
 * A key's filter as keyed state holds it: its metadata and pages, with its {@link PageJournal}
 * inserted over them. For tools that read a savepoint ({@code scripts/inspect}); the job asks its
 * cached copies. Pages are read from the source as a probe or the journal needs them.
 */
public final class StoredFilter {
    private final KeyFilter filter;
    private final PageSource pages;

    private StoredFilter(KeyFilter filter, PageSource pages) {
        this.filter = filter;
        this.pages = pages;
    }

    /**
     * The filter of a key whose stored metadata is {@code meta}, pages {@code pages} and journal
     * {@code journal} (read only if the metadata says there is one).
     */
    public static StoredFilter read(FilterMeta meta, PageSource pages, Iterable<byte[]> journal)
            throws Exception {
        KeyFilter f = new KeyFilter("", meta.copy().withJournal(false), false);
        if (meta.journal) {
            f.replay(PageJournal.decode(journal), pages);
        }
        return new StoredFilter(f, pages);
    }

    /** URLs inserted, journal included. */
    public long count() {
        return filter.meta.count();
    }

    /**
     * The rate a new URL of this key meets ({@link FingerprintFilterMath#rate}) if its filter is
     * approximate mode's fingerprint classes; NaN for a Bloom filter, and 0 for exact mode's
     * fingerprint pages, which answer exactly.
     */
    public double rate() {
        FilterMeta m = filter.meta;
        if (m.isExactFingerprints()) {
            return 0;
        }
        return m.isFingerprints() ? FingerprintFilterMath.rate(m) : Double.NaN;
    }

    /**
     * Whether this key's filter holds {@code fp}: exactly so for exact mode's fingerprint pages,
     * with no false negative and false positives at {@link #rate()} otherwise.
     */
    public boolean mightContain(Fingerprint fp) throws Exception {
        return filter.mightContain(fp, pages);
    }
}
