package dev.firstseen.tools;

import dev.firstseen.config.FirstSeenSettings;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.ParameterTool;

/**
 * Minimal {@code --key value} parsing shared by the command-line tools: {@link CommandLine#parse}
 * (help, and options the usage does not name refused), and reads of options the usage names only,
 * so that the usage stays the whole list.
 */
final class ToolArgs {
    private final ParameterTool params;
    private final String usage;
    private final CommandLine.Named named;

    ToolArgs(String[] args, String usage) {
        this.params = CommandLine.parse(args, usage);
        this.usage = usage;
        this.named = CommandLine.namedIn(usage);
    }

    /** The job's settings from {@code conf}; on invalid options prints why and exits 2. */
    static FirstSeenSettings settingsOrExit(Configuration conf) {
        try {
            return FirstSeenSettings.from(conf);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            throw e; // not reached
        }
    }

    /** {@code key}, which a tool may read only if its usage names it. */
    private String named(String key) {
        if (!named.has(key)) {
            throw new IllegalStateException("--" + key + " is read but not in the usage: " + usage);
        }
        return key;
    }

    String get(String key, String defaultValue) {
        return params.get(named(key), defaultValue);
    }

    String required(String key) {
        String v = params.get(named(key));
        if (v == null || v.isBlank()) {
            System.err.println("Missing --" + key + "\n" + usage);
            System.exit(2);
        }
        return v;
    }

    long getLong(String key, long defaultValue) {
        try {
            return params.getLong(named(key), defaultValue);
        } catch (NumberFormatException e) {
            System.err.println("--" + key + " must be a number\n" + usage);
            System.exit(2);
            return defaultValue;
        }
    }

    boolean has(String key) {
        return params.has(named(key));
    }
}
