package dev.firstseen.tools;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A seeded, deterministic stream of what link extractors send: Zipf-distributed domains, navigation
 * links repeated constantly, article links with a long tail, each written in one of several
 * spellings that canonicalize to the same URL (case, default port, fragment, dot segments, escapes,
 * white space, JSON wrapping), and a share of bad records (other schemes, relative links, broken
 * hosts, invalid UTF-8, huge values, broken JSON). It counts the distinct pages and bad records it
 * produced, so a run's output can be checked against it.
 */
public final class CrawlStream {
    private static final String[] TLDS = {
        ".com", ".co.uk", ".de", ".org", ".blogspot.com", ".net", ".com.au", ".fr"
    };
    private static final String[] NAV = {
        "/", "/about/", "/contact", "/login", "/search", "/category/news/", "/category/sport/",
        "/category/tech/", "/tags/", "/privacy", "/terms", "/feed.xml", "/help/", "/jobs/",
        "/shop/", "/events/", "/archive/", "/team", "/press/", "/sitemap.html"
    };

    private final SplittableRandom rnd;
    private final int domains;
    private final double badRate;
    private final double[] zipfCdf;
    private final double hotShare;
    private final Set<Long> identities = new HashSet<>();
    private long records;
    private long bad;

    /**
     * @param seed the same seed gives the same stream
     * @param domains number of domains, Zipf(1.0)-distributed
     * @param badRate share of bad records, 0 to 1
     */
    public CrawlStream(long seed, int domains, double badRate) {
        this(seed, domains, badRate, 0);
    }

    /**
     * As above, with domain 0 ({@code site0.com}) taking {@code hotShare} of the good records
     * before the Zipf draw, and 50 times the article pages of other domains: one hot domain. With a
     * share of 0 the stream is the same as without it.
     */
    public CrawlStream(long seed, int domains, double badRate, double hotShare) {
        this.rnd = new SplittableRandom(seed);
        this.domains = domains;
        this.badRate = badRate;
        this.zipfCdf = zipfCdf(domains);
        this.hotShare = hotShare;
    }

    /** The cumulative distribution of Zipf(1) over {@code n} ranks. */
    public static double[] zipfCdf(int n) {
        double[] cdf = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1.0 / (i + 1);
            cdf[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cdf[i] /= sum;
        }
        return cdf;
    }

    public byte[] next() {
        records++;
        if (rnd.nextDouble() < badRate) {
            bad++;
            return badRecord();
        }
        boolean hot = hotShare > 0 && rnd.nextDouble() < hotShare;
        int d = hot ? 0 : domain();
        // Half the links are site navigation, repeated on every page of the site.
        boolean nav = rnd.nextBoolean();
        int pages = hotShare > 0 && d == 0 ? 1_000_000 : 20_000;
        int page = nav ? rnd.nextInt(NAV.length) : (int) (Math.pow(rnd.nextDouble(), 2) * pages);
        identities.add(((long) d << 32) | (nav ? page : NAV.length + page));
        String url = spell(d, nav ? NAV[page] : articlePath(page));
        return url.getBytes(StandardCharsets.UTF_8);
    }

    /** Distinct pages produced so far: what a correct dedup emits. */
    public long distinct() {
        return identities.size();
    }

    public long bad() {
        return bad;
    }

    public long records() {
        return records;
    }

    private int domain() {
        return zipfRank(zipfCdf, rnd.nextDouble());
    }

    /** The rank whose CDF interval holds {@code u} in [0, 1): the inverse of {@link #zipfCdf}. */
    public static int zipfRank(double[] cdf, double u) {
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    static String host(int d) {
        if (d % 97 == 13) {
            return "10." + (d >> 16 & 255) + "." + (d >> 8 & 255) + "." + (d & 255);
        }
        if (d % 53 == 7) {
            return "www.bücher-" + d + ".de";
        }
        return "www.site" + d + TLDS[d % TLDS.length];
    }

    private static String articlePath(int page) {
        if (page % 3 == 0) {
            return "/item?id=" + page + "&lang=en";
        }
        return "/" + (2000 + page % 25) + "/" + (1 + page % 12) + "/article-" + page + ".html";
    }

    /** One of several spellings of scheme://host/path that all share a canonical form. */
    private String spell(int d, String path) {
        String scheme = d % 2 == 0 ? "https" : "http";
        String host = host(d);
        switch (rnd.nextInt(12)) {
            case 0:
                return scheme.toUpperCase(Locale.ROOT)
                        + "://"
                        + host.toUpperCase(Locale.ROOT)
                        + path;
            case 1:
                return scheme + "://" + host + (scheme.equals("https") ? ":443" : ":80") + path;
            case 2:
                return scheme + "://" + host + path + "#comments";
            case 3:
                return scheme + "://" + host + "/a/.." + path;
            case 4:
                return "  " + scheme + "://" + host + path + "\t";
            case 5:
                return scheme + "://" + host + path.replace("a", "%61");
            case 6:
                return "{\"url\":\""
                        + scheme
                        + "://"
                        + host
                        + path
                        + "\",\"found_on\":\""
                        + scheme
                        + "://"
                        + host
                        + "/\",\"depth\":"
                        + rnd.nextInt(5)
                        + "}";
            case 7:
                return path.indexOf('?') < 0
                        ? scheme + "://" + host + path + "?"
                        : scheme + "://" + host + path;
            default:
                return scheme + "://" + host + path;
        }
    }

    private byte[] badRecord() {
        switch (rnd.nextInt(10)) {
            case 0:
                return ("mailto:editor@site" + rnd.nextInt(100) + ".com")
                        .getBytes(StandardCharsets.UTF_8);
            case 1:
                return "javascript:void(0)".getBytes(StandardCharsets.UTF_8);
            case 2:
                return ("/relative/link-" + rnd.nextInt(1000)).getBytes(StandardCharsets.UTF_8);
            case 3:
                return ("http://bad host " + rnd.nextInt(100) + ".com/")
                        .getBytes(StandardCharsets.UTF_8);
            case 4:
                byte[] garbage = new byte[1 + rnd.nextInt(200)];
                rnd.nextBytes(garbage);
                garbage[0] = (byte) 0xC3; // a lead byte followed by anything but a continuation
                if (garbage.length > 1) {
                    garbage[1] = 'x';
                }
                return garbage;
            case 5:
                return ("http://site1.com/" + "x".repeat(70_000)).getBytes(StandardCharsets.UTF_8);
            case 6:
                return "{\"href\":\"http://site1.com/\"}".getBytes(StandardCharsets.UTF_8);
            case 7:
                return "{\"url\": \"http://site1.com/".getBytes(StandardCharsets.UTF_8);
            case 8:
                return ("tel:+44" + rnd.nextInt(1_000_000)).getBytes(StandardCharsets.UTF_8);
            default:
                return "http://site1.com:99999/".getBytes(StandardCharsets.UTF_8);
        }
    }
}
