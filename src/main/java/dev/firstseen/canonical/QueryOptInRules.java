package dev.firstseen.canonical;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The opt-in rules that rewrite the canonical query: strip-empty-params, strip-tracking,
 * strip-session-ids and sort-query. Parameters are split on '&'; a parameter's name is the text
 * before its first '=' (compared lower-case). Returns the new query without '?', empty if nothing
 * is left.
 */
final class QueryOptInRules {
    private QueryOptInRules() {}

    static String apply(String query, CanonicalProfile p) {
        boolean strip =
                p.has(OptInRule.STRIP_TRACKING)
                        || p.has(OptInRule.STRIP_SESSION_IDS)
                        || p.has(OptInRule.STRIP_EMPTY_PARAMS);
        List<String> params = new ArrayList<>();
        int from = 0;
        while (from <= query.length()) {
            int amp = query.indexOf('&', from);
            int end = amp < 0 ? query.length() : amp;
            String param = query.substring(from, end);
            if (!strip || !remove(param, p)) {
                params.add(param);
            }
            from = end + 1;
        }
        if (p.has(OptInRule.SORT_QUERY)) {
            params.sort(Comparator.comparing(QueryOptInRules::name)); // stable: keeps value order
        }
        if (params.size() == 1 && params.get(0).isEmpty()) {
            return "";
        }
        return String.join("&", params);
    }

    private static String name(String param) {
        int eq = param.indexOf('=');
        return eq < 0 ? param : param.substring(0, eq);
    }

    private static boolean remove(String param, CanonicalProfile p) {
        if (p.has(OptInRule.STRIP_EMPTY_PARAMS) && (param.isEmpty() || param.charAt(0) == '=')) {
            return true;
        }
        String name = name(param).toLowerCase(Locale.ROOT);
        if (p.has(OptInRule.STRIP_TRACKING) && p.isTracking(name)) {
            return true;
        }
        if (p.has(OptInRule.STRIP_SESSION_IDS)) {
            if (name.equals("jsessionid")
                    || name.equals("phpsessid")
                    || name.startsWith("aspsessionid")
                    || name.equals("cfid")
                    || name.equals("cftoken")) {
                return true;
            }
            if (name.equals("sid")) {
                String value = param.substring(Math.min(param.length(), 4));
                return value.length() == 32 && value.chars().allMatch(Character::isLetterOrDigit);
            }
        }
        return false;
    }
}
