package dev.firstseen.keying;

import crawlercommons.domains.EffectiveTldFinder;
import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

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

    /*
     * The public suffix lookup walks a trie label by label and allocates on the way; it was a
     * quarter of canonicalize-and-key in CanonicalizeBenchmark. Links repeat hosts, so a
     * direct-mapped memo of the last host seen in each slot answers most of them with one hash
     * and one string comparison. An entry is immutable and replaces its slot in one reference
     * write, so the memo needs no lock even if an instance were shared between threads. Not
     * serialized: every copy of the keyer starts empty.
     */
    static final int MEMO_SLOTS = 4096;

    private transient HostKey[] memo;

    public PartitionKeyer(KeyMode mode) {
        this.mode = mode;
    }

    public String keyOf(Canonicalization canonical) {
        String host = canonical.host();
        if (mode == KeyMode.HOST || canonical.hostType() != Canonicalization.HostType.DOMAIN) {
            return host;
        }
        HostKey[] m = memo;
        if (m == null) {
            memo = m = new HostKey[MEMO_SLOTS];
        }
        int slot = memoSlot(host);
        HostKey known = m[slot];
        if (known != null && known.host().equals(host)) {
            return known.key();
        }
        String key = registrableDomainOrHost(host);
        m[slot] = new HostKey(host, key);
        return key;
    }

    static int memoSlot(String host) {
        int h = host.hashCode();
        return (h ^ (h >>> 16)) & (MEMO_SLOTS - 1);
    }

    /** The registrable domain of a DNS host name, or the host if it has none. */
    static String registrableDomainOrHost(String host) {
        String domain = EffectiveTldFinder.getAssignedDomain(host, false, false);
        return domain == null || domain.isEmpty() ? host : domain;
    }

    /**
     * A host name as an operator writes it (a {@code forget-key} op, a hot domain): its normalized
     * form and its key, or null if it is not a host name this keyer can key.
     */
    public HostKey keyOfHost(Canonicalizer canonicalizer, String name) {
        Canonicalization c = canonicalizer.canonicalize("http://" + name + "/");
        if (!c.isAccepted()) {
            return null;
        }
        try {
            return new HostKey(c.host(), keyOf(c));
        } catch (RuntimeException e) {
            return null; // the public suffix lookup is a library's; see CanonicalizeAndKeyFunction
        }
    }

    /** A normalized host name and its partition key; the host is a key if the two are equal. */
    public record HostKey(String host, String key) {
        public boolean isKey() {
            return key.equals(host);
        }
    }

    public KeyMode mode() {
        return mode;
    }

    /**
     * Identifies the public suffix list domain keys come from: the SHA-256 (first 16 hex digits) of
     * the list crawler-commons ships. Another list can key some hosts differently, so the job
     * records this in its state and refuses a restore with another one (see the README, Recovery).
     */
    public static String suffixListVersion() {
        return SuffixListVersion.ID;
    }

    private static final class SuffixListVersion {
        static final String ID = compute();

        private static String compute() {
            try (InputStream in =
                    EffectiveTldFinder.class.getResourceAsStream("/effective_tld_names.dat")) {
                if (in == null) {
                    return "unknown";
                }
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(in.readAllBytes());
                return "sha256:" + HexFormat.of().formatHex(digest, 0, 8);
            } catch (IOException | NoSuchAlgorithmException e) {
                return "unknown";
            }
        }
    }
}
