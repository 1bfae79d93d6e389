package dev.firstseen.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.config.FirstSeenSettings;
import dev.firstseen.job.FirstSeenJob;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NormalizeTest {
    private static String normalize(byte[] input, String... args) throws Exception {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--kafka.bootstrap-servers";
        all[args.length + 1] = "unused:0";
        FirstSeenSettings s = FirstSeenSettings.from(FirstSeenJob.parseArgs(all));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8);
        Normalize.run(new ByteArrayInputStream(input), out, s);
        out.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void oneLineOutPerLineInInOrder() throws Exception {
        byte[] in =
                ("HTTP://WWW.Example.COM:80/a/./b?utm_source=x#top\r\n"
                                + "mailto:x@y.z\n"
                                + "\n"
                                + "{\"url\":\"http://alice.blogspot.com/p\",\"depth\":1}\n"
                                + "http://exa mple.com/")
                        .getBytes(StandardCharsets.UTF_8);
        assertThat(normalize(in))
                .isEqualTo(
                        "http://www.example.com/a/b?utm_source=x\texample.com\n"
                                + "INVALID\tunsupported-scheme\n"
                                + "INVALID\tempty\n"
                                + "http://alice.blogspot.com/p\talice.blogspot.com\n"
                                + "INVALID\tbad-host\n");
    }

    @Test
    void optionsSelectTheProfileAndKeyMode() throws Exception {
        byte[] in =
                "http://www.example.com/a/?utm_source=x&b=2&a=1\n".getBytes(StandardCharsets.UTF_8);
        assertThat(
                        normalize(
                                in,
                                "--canonical.rules",
                                "strip-tracking;sort-query;strip-www",
                                "--keying.mode",
                                "HOST"))
                .isEqualTo("http://example.com/a/?a=1&b=2\texample.com\n");
    }

    @Test
    void invalidUtf8IsReportedLikeTheJob() throws Exception {
        byte[] in = {'h', 't', (byte) 0xff, '\n'};
        assertThat(normalize(in)).isEqualTo("INVALID\tinvalid-utf8\n");
    }
}
