package dev.firstseen.canonical;

import dev.firstseen.record.DeadLetterReason;
import java.io.Serializable;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a URL as an extractor found it into the canonical form that is FirstSeen's dedup identity.
 * A pure function: no I/O, no DNS, no shared mutable state; safe to call from any thread.
 *
 * <p>Safe base rules ({@link CanonicalProfile#BASE}): only equivalences that RFC 3986 section 6 and
 * the WHATWG URL Standard agree hold for http(s), applied by small named rules in this order —
 * {@link WhitespaceRule}, {@link SchemeRule}, userinfo removal, {@link HostRule}, {@link PortRule},
 * {@link PathRule}, {@link QueryRule}, fragment removal. Two URLs get the same canonical form only
 * if every conforming server must treat them as the same resource, so the canonical form never
 * merges distinct pages. The {@link OptInRule}s of a {@link CanonicalProfile} go further, each with
 * a documented risk. The output is ASCII and canonicalizing it again returns it unchanged.
 *
 * <p>With the safe rules alone, {@link AlreadyCanonical} first checks in one pass whether the input
 * is already in canonical form, and if so answers with the input itself: the same answer the rules
 * give, without taking the URL apart.
 *
 * <p>The canonical form is only a key: the URL sent to the fetcher is the original.
 */
public final class Canonicalizer implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Schemes with an authority and a default port that this canonicalizer knows how to read. */
    public static final Set<String> KNOWN_SCHEMES = Set.of("http", "https", "ftp", "ws", "wss");

    private final Set<String> schemes;
    private final int maxLength;
    private final CanonicalProfile profile;
    private final boolean pathRules;
    private final boolean queryRules;

    /** Whether {@link AlreadyCanonical} may answer: only for the safe rules, which it mirrors. */
    private final boolean fastPath;

    private final boolean http;
    private final boolean https;

    /** The safe profile. */
    public Canonicalizer(Set<String> schemes, int maxLength) {
        this(schemes, maxLength, CanonicalProfile.safe());
    }

    /**
     * @param schemes schemes to accept, a subset of {@link #KNOWN_SCHEMES}
     * @param maxLength longest canonical URL accepted, in characters
     * @param profile opt-in rules on top of the safe ones
     */
    public Canonicalizer(Set<String> schemes, int maxLength, CanonicalProfile profile) {
        TreeSet<String> lower = new TreeSet<>();
        for (String s : schemes) {
            String scheme = s.toLowerCase(Locale.ROOT);
            if (!KNOWN_SCHEMES.contains(scheme)) {
                throw new IllegalArgumentException(
                        String.format(
                                Locale.ROOT,
                                "Scheme '%s' is not supported; choose from %s",
                                s,
                                KNOWN_SCHEMES));
            }
            lower.add(scheme);
        }
        if (lower.isEmpty()) {
            throw new IllegalArgumentException("At least one scheme must be accepted");
        }
        if (maxLength < 16) {
            throw new IllegalArgumentException("maxLength must be at least 16, was " + maxLength);
        }
        this.schemes = Set.copyOf(lower);
        this.maxLength = maxLength;
        this.profile = profile;
        this.pathRules =
                profile.has(OptInRule.STRIP_SESSION_IDS)
                        || profile.has(OptInRule.COLLAPSE_SLASHES)
                        || profile.has(OptInRule.STRIP_TRAILING_SLASH);
        this.queryRules =
                profile.has(OptInRule.STRIP_SESSION_IDS)
                        || profile.has(OptInRule.STRIP_TRACKING)
                        || profile.has(OptInRule.STRIP_EMPTY_PARAMS)
                        || profile.has(OptInRule.SORT_QUERY);
        this.fastPath = profile.rules().isEmpty();
        this.http = this.schemes.contains("http");
        this.https = this.schemes.contains("https");
    }

    /** http and https, 8 KiB. */
    public static Canonicalizer defaults() {
        return new Canonicalizer(Set.of("http", "https"), 8192);
    }

    /**
     * The IDNA implementation canonical hosts depend on: ICU4J's version and its Unicode version. A
     * new Unicode version can map some hosts differently, so the job records this in its state and
     * refuses a restore with another one (see the README, Recovery).
     */
    public static String idnaVersion() {
        return "icu4j-"
                + com.ibm.icu.util.VersionInfo.ICU_VERSION
                + "/unicode-"
                + com.ibm.icu.lang.UCharacter.getUnicodeVersion();
    }

    /**
     * The canonical form of {@code input}, or why it has none. Total: any exception a rule or a
     * library throws on some input becomes a rejection ({@link DeadLetterReason#UNPROCESSABLE}),
     * never an exception that would fail and restart the job on the same record forever.
     */
    public Canonicalization canonicalize(String input) {
        if (fastPath) {
            try {
                Canonicalization same = AlreadyCanonical.check(input, http, https, maxLength);
                if (same != null) {
                    return same;
                }
            } catch (RuntimeException e) {
                // Not expected; the rules then answer, and they are total.
            }
        }
        return canonicalizeByRules(input);
    }

    /** The rules alone, without {@link AlreadyCanonical}: what its answers are checked against. */
    Canonicalization canonicalizeByRules(String input) {
        try {
            return run(input);
        } catch (Rejected r) {
            return Canonicalization.rejected(r.reason, r.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            return Canonicalization.rejected(
                    DeadLetterReason.UNPROCESSABLE, "canonicalizer failed: " + e);
        }
    }

    private Canonicalization run(String input) throws Rejected {
        String s = WhitespaceRule.apply(input);
        if (s.isEmpty()) {
            throw new Rejected(DeadLetterReason.EMPTY, "empty URL");
        }
        int colon = SchemeRule.schemeEnd(s);
        String scheme = SchemeRule.scheme(s, colon, schemes);
        int len = s.length();

        // Special schemes ignore any number of slashes or backslashes before the authority.
        int authStart = colon + 1;
        while (authStart < len && PathRule.isSeparator(s.charAt(authStart))) {
            authStart++;
        }
        int authEnd = authStart;
        while (authEnd < len) {
            char c = s.charAt(authEnd);
            if (c == '/' || c == '\\' || c == '?' || c == '#') {
                break;
            }
            authEnd++;
        }

        // Rule "userinfo": dropped. Credentials never select a different resource of a crawl.
        int hostStart = s.lastIndexOf('@', authEnd - 1) + 1;
        if (hostStart < authStart) {
            hostStart = authStart;
        }
        int hostEnd = hostStart;
        if (hostStart < authEnd && s.charAt(hostStart) == '[') {
            int close = s.indexOf(']', hostStart);
            hostEnd = close < 0 || close >= authEnd ? authEnd : close + 1;
        } else {
            while (hostEnd < authEnd && s.charAt(hostEnd) != ':') {
                hostEnd++;
            }
        }
        int portStart = hostEnd;
        if (portStart < authEnd) {
            if (s.charAt(portStart) != ':') {
                throw new Rejected(DeadLetterReason.BAD_HOST, "text after the IPv6 literal");
            }
            portStart++;
        }

        HostRule.Host host = HostRule.apply(s, hostStart, hostEnd);
        if (profile.has(OptInRule.STRIP_WWW) && host.type() == Canonicalization.HostType.DOMAIN) {
            host = new HostRule.Host(WwwRule.apply(host.name()), host.type());
        }
        int port = PortRule.apply(s, portStart, authEnd, SchemeRule.defaultPort(scheme));

        StringBuilder out = new StringBuilder(len + 16);
        out.append(scheme).append("://").append(host.name());
        if (port >= 0) {
            out.append(':').append(port);
        }
        int pathEnd = authEnd;
        while (pathEnd < len && s.charAt(pathEnd) != '?' && s.charAt(pathEnd) != '#') {
            pathEnd++;
        }
        int pathStart = out.length();
        PathRule.apply(s, authEnd, pathEnd, out);
        if (pathRules) {
            // An opt-in rule can leave a dot segment behind ("/%2e;jsessionid=x" becomes "/."):
            // apply the path rule again until neither changes anything, so that the canonical
            // form is a fixed point. Each round makes the path shorter, so this ends.
            String path = out.substring(pathStart);
            for (int round = 0; round < 16; round++) {
                String rewritten = PathOptInRules.apply(path, profile);
                if (rewritten.equals(path)) {
                    break;
                }
                StringBuilder again = new StringBuilder(rewritten.length());
                PathRule.apply(rewritten, 0, rewritten.length(), again);
                path = again.toString();
            }
            out.setLength(pathStart);
            out.append(path);
        }
        if (pathEnd < len && s.charAt(pathEnd) == '?') {
            int queryEnd = s.indexOf('#', pathEnd + 1);
            int queryStart = out.length();
            QueryRule.apply(s, pathEnd + 1, queryEnd < 0 ? len : queryEnd, out);
            if (queryRules && out.length() > queryStart) {
                String query = QueryOptInRules.apply(out.substring(queryStart + 1), profile);
                out.setLength(queryStart);
                if (!query.isEmpty()) {
                    out.append('?').append(query);
                }
            }
        }
        // Rule "fragment": dropped; it never reaches the server.
        if (out.length() > maxLength) {
            throw new Rejected(
                    DeadLetterReason.CANONICAL_TOO_LONG,
                    "canonical URL has " + out.length() + " characters, more than " + maxLength);
        }
        return Canonicalization.accepted(out.toString(), host.name(), host.type(), s);
    }

    public Set<String> schemes() {
        return schemes;
    }

    public int maxLength() {
        return maxLength;
    }

    /** The rules in use; its {@link CanonicalProfile#id()} is stored in the job's state. */
    public CanonicalProfile profile() {
        return profile;
    }
}
