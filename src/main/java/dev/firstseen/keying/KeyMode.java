package dev.firstseen.keying;

/** What the dedup state, the frontier partitions and the record keys are grouped by. */
public enum KeyMode {
    /**
     * Registrable domain from the public suffix list, private suffixes included: {@code
     * a.example.co.uk} and {@code b.example.co.uk} share {@code example.co.uk}, while each {@code
     * *.blogspot.com} blog is its own key. The usual politeness unit of a crawler.
     */
    DOMAIN,
    /** The host name as it is: {@code www.example.com} and {@code example.com} are two keys. */
    HOST
}
