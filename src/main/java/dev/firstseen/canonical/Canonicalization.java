package dev.firstseen.canonical;

import dev.firstseen.record.DeadLetterReason;

/**
 * The outcome of {@link Canonicalizer#canonicalize}: either a canonical URL with its host, or a
 * rejection reason with a human-readable detail. Never both.
 */
public final class Canonicalization {

    /** What kind of host the canonical URL has; keying treats IP literals differently. */
    public enum HostType {
        DOMAIN,
        IPV4,
        IPV6
    }

    private final String url;
    private final String host;
    private final HostType hostType;
    private final DeadLetterReason reason;
    private final String detail;

    private Canonicalization(
            String url, String host, HostType hostType, DeadLetterReason reason, String detail) {
        this.url = url;
        this.host = host;
        this.hostType = hostType;
        this.reason = reason;
        this.detail = detail;
    }

    static Canonicalization accepted(String url, String host, HostType hostType) {
        return new Canonicalization(url, host, hostType, null, null);
    }

    public static Canonicalization rejected(DeadLetterReason reason, String detail) {
        return new Canonicalization(null, null, null, reason, detail);
    }

    public boolean isAccepted() {
        return reason == null;
    }

    /** The canonical URL (ASCII only); null when rejected. */
    public String url() {
        return url;
    }

    /** The canonical host: lower-case ASCII name, dotted IPv4, or bracketed IPv6. */
    public String host() {
        return host;
    }

    public HostType hostType() {
        return hostType;
    }

    /** Why the input was rejected; null when accepted. */
    public DeadLetterReason reason() {
        return reason;
    }

    public String detail() {
        return detail;
    }

    @Override
    public String toString() {
        return isAccepted() ? url : "REJECTED(" + reason.code() + ": " + detail + ")";
    }
}
