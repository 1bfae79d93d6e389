package dev.firstseen.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the README and in {@code docs/} leads somewhere: the file exists, and a
 * {@code #anchor} into a Markdown file names one of its headings, as GitHub derives anchors. The
 * README's measurements live in {@code docs/}, and sections move between the two; a link left
 * behind by such a move fails here instead of in a reader's browser.
 */
class DocLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void everyRelativeLinkResolves() throws IOException {
        Path root = DeploymentFiles.root();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path file : files) {
            Matcher m = LINK.matcher(Files.readString(file, StandardCharsets.UTF_8));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // https:, mailto: and the like
                }
                checked++;
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                Path to = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
                if (!Files.exists(to)) {
                    broken.add(root.relativize(file) + ": " + target + " (no such file)");
                } else if (hash >= 0 && to.toString().endsWith(".md")) {
                    String anchor = target.substring(hash + 1);
                    if (!anchors(to).contains(anchor)) {
                        broken.add(root.relativize(file) + ": " + target + " (no such heading)");
                    }
                }
            }
        }
        assertThat(checked).as("relative links checked").isGreaterThan(100);
        assertThat(broken).isEmpty();
    }

    @Test
    void anchorsAreDerivedAsGitHubDoes() {
        assertThat(anchor("Approximate mode's filter")).isEqualTo("approximate-modes-filter");
        assertThat(anchor("Micro-benchmarks (JMH)")).isEqualTo("micro-benchmarks-jmh");
        assertThat(anchor("One subtask of a large crawl, and sizing"))
                .isEqualTo("one-subtask-of-a-large-crawl-and-sizing");
    }

    /** The anchors of {@code md}'s headings, code blocks left out. */
    private static Set<String> anchors(Path md) throws IOException {
        Set<String> out = new HashSet<>();
        boolean code = false;
        for (String line : Files.readAllLines(md, StandardCharsets.UTF_8)) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (!code && line.startsWith("#")) {
                out.add(anchor(line.replaceFirst("^#+", "")));
            }
        }
        return out;
    }

    /** GitHub's anchor of a heading: lower case, punctuation but '-' dropped, spaces to '-'. */
    static String anchor(String heading) {
        return heading.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} \\-_]", "")
                .replace(' ', '-');
    }
}
