package dev.firstseen.dedup;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Settings of {@link DedupOperator}. {@link #guarded} are the job settings whose change would
 * silently fork the seen-set (canonicalization profile, key mode, dedup mode); the operator stores
 * them in its state and checks them on restore.
 */
public final class DedupConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    public final DedupMode mode;
    public final long expectedUrlsPerKey;
    public final double falsePositiveRate;
    public final long filterCacheBytes;
    public final int recentCacheEntries;
    public final Map<String, String> guarded;
    public final boolean allowGuardedChange;

    public DedupConfig(
            DedupMode mode,
            long expectedUrlsPerKey,
            double falsePositiveRate,
            long filterCacheBytes,
            int recentCacheEntries,
            Map<String, String> guarded,
            boolean allowGuardedChange) {
        this.mode = mode;
        this.expectedUrlsPerKey = expectedUrlsPerKey;
        this.falsePositiveRate = falsePositiveRate;
        this.filterCacheBytes = filterCacheBytes;
        this.recentCacheEntries = recentCacheEntries;
        TreeMap<String, String> g = new TreeMap<>(guarded);
        g.put(SettingsGuard.DEDUP_MODE, mode.name());
        this.guarded = g;
        this.allowGuardedChange = allowGuardedChange;
    }
}
