package dev.firstseen.tools;

import dev.firstseen.config.internal.NearestName;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.util.ParameterTool;

/**
 * The {@code --name value} command lines of the tools and benchmark harnesses, checked against
 * their usage text: {@code --help} (or {@code -h}) prints it, and an option it does not name is
 * refused before any work starts. Flink's {@link ParameterTool} alone takes any option and ignores
 * the ones nobody reads, so a misspelt {@code --distnct 1000000} ran a 50 M-URL scale run for
 * minutes and {@code scripts/size --rat 1e-4} printed a plan for the default rate.
 *
 * <p>The usage text is the list: each {@code --name} in it is an option, and a name written as
 * {@code --name.<...>} or {@code --name.*} stands for every option that starts with {@code name.}
 * (the job options a harness passes on, {@code --firstseen.<job option>}).
 */
public final class CommandLine {
    private CommandLine() {}

    /** The options a usage text names: exact names, and prefixes (ending in a dot). */
    record Named(Set<String> names, Set<String> prefixes) {
        boolean has(String key) {
            if (names.contains(key)) {
                return true;
            }
            for (String p : prefixes) {
                if (key.startsWith(p) && key.length() > p.length()) {
                    return true;
                }
            }
            return false;
        }

        /** The options as the usage writes them, for a message. */
        String list() {
            List<String> all = new ArrayList<>();
            names.forEach(n -> all.add("--" + n));
            prefixes.forEach(p -> all.add("--" + p + "*"));
            return String.join(", ", all);
        }
    }

    /** Every {@code --name} in {@code usage}; see the class comment for prefixes. */
    static Named namedIn(String usage) {
        Set<String> names = new LinkedHashSet<>();
        Set<String> prefixes = new LinkedHashSet<>();
        int i = 0;
        while ((i = usage.indexOf("--", i)) >= 0) {
            int start = i + 2;
            int end = start;
            while (end < usage.length() && isNameChar(usage.charAt(end))) {
                end++;
            }
            String name = usage.substring(start, end);
            boolean opens = end < usage.length() && "<*".indexOf(usage.charAt(end)) >= 0;
            if (!name.isEmpty() && Character.isLetter(name.charAt(0))) {
                if (name.endsWith(".") && opens) {
                    prefixes.add(name);
                } else {
                    names.add(name.endsWith(".") ? name.substring(0, name.length() - 1) : name);
                }
            }
            i = end;
        }
        names.add("help");
        return new Named(names, prefixes);
    }

    private static boolean isNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    }

    /**
     * Why {@code p} cannot run against {@code usage}: a line per option the usage does not name,
     * with the nearest option it does name when one is a typo away; null if every option is named.
     */
    static String unknownOptions(ParameterTool p, String usage) {
        Named named = namedIn(usage);
        List<String> lines = new ArrayList<>();
        for (String key : p.toMap().keySet()) {
            if (named.has(key) || key.equals("h")) {
                continue;
            }
            String near = NearestName.of(key, named.names());
            lines.add(
                    "Unknown option --"
                            + key
                            + (near != null ? " (did you mean --" + near + "?)" : "")
                            + ".");
        }
        if (lines.isEmpty()) {
            return null;
        }
        lines.add("Options: " + named.list() + ". --help prints the usage.");
        return String.join("\n", lines);
    }

    /**
     * {@code args} parsed for a {@code main} whose options {@code usage} names: with arguments that
     * do not parse or an option the usage does not name it prints why and the usage and exits 2;
     * otherwise with {@code --help} or {@code -h} it prints the usage and exits 0, so that a
     * command line with {@code --help} added checks its options without running.
     */
    public static ParameterTool parse(String[] args, String usage) {
        ParameterTool p;
        try {
            p = ParameterTool.fromArgs(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage() + "\n" + usage);
            System.exit(2);
            throw e; // not reached
        }
        String why = unknownOptions(p, usage);
        if (why != null) {
            System.err.println(why + "\n" + usage);
            System.exit(2);
        }
        if (p.has("help") || p.has("h")) {
            System.out.println(usage);
            System.exit(0);
        }
        return p;
    }
}
