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
    private final String fetchable;

    private Canonicalization(
            String url,
            String host,
            HostType hostType,
            DeadLetterReason reason,
            String detail,
            String fetchable) {
        this.fetchable = fetchable;
        this.url = url;
        this.host = host;
        this.hostType = hostType;
        this.reason = reason;
        this.detail = detail;
    }

    static Canonicalization accepted(String url, String host, HostType hostType, String fetchable) {
        return new Canonicalization(url, host, hostType, null, null, fetchable);
    }

    public static Canonicalization rejected(DeadLetterReason reason, String detail) {
        return new Canonicalization(null, null, null, reason, detail, null);
    }

    /**
     * The input as a browser reads it before parsing: leading and trailing C0 controls and spaces
     * removed, and tabs and newlines inside (WHATWG basic URL parser, steps 1 and 3). The
     * frontier's {@code url}, the one to fetch, is this form: a trailing NUL or line feed would
     * break a fetcher's own parser, and no browser would send it. Null when rejected.
     */
    public String fetchable() {
        return fetchable;
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
