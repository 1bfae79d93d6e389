package dev.firstseen.keying;

import crawlercommons.domains.EffectiveTldFinder;
import dev.firstseen.canonical.Canonicalization;
import java.io.Serializable;

/**
 * Derives the partition key of a canonical URL from its host. The key decides which subtask holds
 * the URL's seen-state and which frontier partition it lands in, so it must be a function of the
 * canonical URL alone: two spellings of one URL always get the same key.
 *
 * <p>IP hosts are keyed by the address itself. A host that is itself a public suffix, or has none
 * (an intranet name such as {@code localhost}), is keyed by the host. The suffix list is the one
 * vendored in crawler-commons, read once per JVM; no DNS is involved.
 */
public final class PartitionKeyer implements Serializable {
    private static final long serialVersionUID = 1L;

    private final KeyMode mode;

    public PartitionKeyer(KeyMode mode) {
        this.mode = mode;
    }

    public String keyOf(Canonicalization canonical) {
        String host = canonical.host();
        if (mode == KeyMode.HOST || canonical.hostType() != Canonicalization.HostType.DOMAIN) {
            return host;
        }
        String domain = EffectiveTldFinder.getAssignedDomain(host, false, false);
        return domain == null || domain.isEmpty() ? host : domain;
    }

    public KeyMode mode() {
        return mode;
    }
}
