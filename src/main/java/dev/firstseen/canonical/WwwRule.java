package dev.firstseen.canonical;

import crawlercommons.domains.EffectiveTldFinder;

/**
 * Opt-in rule "strip-www": {@code www.example.com} and {@code www2.example.com} become {@code
 * example.com}, but only when the rest is still a registrable domain ({@code www.co.uk} stays).
 */
final class WwwRule {
    private WwwRule() {}

    static String apply(String host) {
        String stripped = stripOnce(host);
        while (!stripped.equals(host)) { // www.www.example.com: idempotent only if repeated
            host = stripped;
            stripped = stripOnce(host);
        }
        return host;
    }

    private static String stripOnce(String host) {
        if (!host.startsWith("www")) {
            return host;
        }
        int i = 3;
        while (i < host.length() && host.charAt(i) >= '0' && host.charAt(i) <= '9') {
            i++;
        }
        if (i >= host.length() || host.charAt(i) != '.') {
            return host;
        }
        String rest = host.substring(i + 1);
        return EffectiveTldFinder.getAssignedDomain(rest, true, false) == null ? host : rest;
    }
}
