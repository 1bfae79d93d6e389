package dev.firstseen.canonical;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

/**
 * The safe base rules plus a set of {@link OptInRule}s. Its {@link #id()} names the base version,
 * the opt-in rules and (for strip-tracking) a hash of the parameter list; the job stores it in its
 * state and refuses a restore under another id, because a different canonical form would make every
 * known URL look new.
 */
public final class CanonicalProfile implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Version of the safe base rules; bump it whenever a base rule changes its output. */
    public static final String BASE = "rfc3986-safe/1";

    /** Default {@code canonical.tracking-parameters}; a trailing '*' matches a prefix. */
    public static final List<String> DEFAULT_TRACKING_PARAMETERS =
            List.of(
                    "utm_*",
                    "gclid",
                    "dclid",
                    "gbraid",
                    "wbraid",
                    "fbclid",
                    "msclkid",
                    "mc_cid",
                    "mc_eid",
                    "yclid",
                    "igshid",
                    "twclid",
                    "ttclid",
                    "li_fat_id",
                    "_ga",
                    "_gl",
                    "_hsenc",
                    "_hsmi",
                    "mkt_tok");

    private final Set<OptInRule> rules;
    private final List<String> trackingParameters;
    private final String id;

    public CanonicalProfile(Set<OptInRule> rules, List<String> trackingParameters) {
        this.rules = rules.isEmpty() ? EnumSet.noneOf(OptInRule.class) : EnumSet.copyOf(rules);
        List<String> lower = new ArrayList<>();
        for (String p : trackingParameters) {
            String t = p.trim().toLowerCase(Locale.ROOT);
            if (!t.isEmpty()) {
                lower.add(t);
            }
        }
        Collections.sort(lower);
        this.trackingParameters = List.copyOf(lower);
        StringBuilder sb = new StringBuilder(BASE);
        for (OptInRule r : this.rules) {
            sb.append('+').append(r.ruleName());
            if (r == OptInRule.STRIP_TRACKING) {
                CRC32 crc = new CRC32();
                crc.update(
                        String.join(",", this.trackingParameters).getBytes(StandardCharsets.UTF_8));
                sb.append(String.format(Locale.ROOT, "[%08x]", crc.getValue()));
            }
        }
        this.id = sb.toString();
    }

    /** The safe profile: no opt-in rules. */
    public static CanonicalProfile safe() {
        return new CanonicalProfile(EnumSet.noneOf(OptInRule.class), DEFAULT_TRACKING_PARAMETERS);
    }

    /**
     * Parses rule names; throws {@link IllegalArgumentException} naming the unknown ones and the
     * known ones.
     */
    public static CanonicalProfile of(List<String> ruleNames, List<String> trackingParameters) {
        EnumSet<OptInRule> rules = EnumSet.noneOf(OptInRule.class);
        List<String> unknown = new ArrayList<>();
        for (String n : ruleNames) {
            if (n.isBlank()) {
                continue;
            }
            OptInRule r = OptInRule.byName(n);
            if (r == null) {
                unknown.add(n);
            } else {
                rules.add(r);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            Locale.ROOT,
                            "Unknown canonicalization rule(s) %s; known rules: %s",
                            unknown,
                            Arrays.stream(OptInRule.values())
                                    .map(OptInRule::ruleName)
                                    .collect(Collectors.joining(", "))));
        }
        return new CanonicalProfile(rules, trackingParameters);
    }

    public boolean has(OptInRule rule) {
        return rules.contains(rule);
    }

    public Set<OptInRule> rules() {
        return Collections.unmodifiableSet(rules);
    }

    public List<String> trackingParameters() {
        return trackingParameters;
    }

    /** E.g. {@code rfc3986-safe/1+sort-query+strip-tracking[1a2b3c4d]}. */
    public String id() {
        return id;
    }

    /** True if {@code name} (already lower case) is a tracking parameter of this profile. */
    boolean isTracking(String name) {
        for (String p : trackingParameters) {
            if (p.endsWith("*")
                    ? name.startsWith(p.substring(0, p.length() - 1))
                    : name.equals(p)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return id;
    }
}
