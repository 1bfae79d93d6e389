package dev.firstseen.tools;

import dev.firstseen.config.FirstSeenSettings;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.ParameterTool;

/** Minimal {@code --key value} parsing shared by the command-line tools. */
final class ToolArgs {
    private final ParameterTool params;
    private final String usage;

    ToolArgs(String[] args, String usage) {
        this.params = ParameterTool.fromArgs(args);
        this.usage = usage;
        if (params.has("help")) {
            System.out.println(usage);
            System.exit(0);
        }
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

    String get(String key, String defaultValue) {
        return params.get(key, defaultValue);
    }

    String required(String key) {
        String v = params.get(key);
        if (v == null || v.isBlank()) {
            System.err.println("Missing --" + key + "\n" + usage);
            System.exit(2);
        }
        return v;
    }

    long getLong(String key, long defaultValue) {
        try {
            return params.getLong(key, defaultValue);
        } catch (NumberFormatException e) {
            System.err.println("--" + key + " must be a number\n" + usage);
            System.exit(2);
            return defaultValue;
        }
    }

    boolean has(String key) {
        return params.has(key);
    }
}
