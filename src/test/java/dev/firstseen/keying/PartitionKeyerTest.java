package dev.firstseen.keying;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.canonical.Canonicalization;
import dev.firstseen.canonical.Canonicalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PartitionKeyerTest {
    private final Canonicalizer canon = Canonicalizer.defaults();
    private final PartitionKeyer domain = new PartitionKeyer(KeyMode.DOMAIN);
    private final PartitionKeyer host = new PartitionKeyer(KeyMode.HOST);

    private String domainKey(String url) {
        return domain.keyOf(canon.canonicalize(url));
    }

    private String hostKey(String url) {
        return host.keyOf(canon.canonicalize(url));
    }

    @Test
    void domainModeUsesRegistrableDomain() {
        assertThat(domainKey("http://www.example.com/a")).isEqualTo("example.com");
        assertThat(domainKey("http://a.b.example.co.uk/")).isEqualTo("example.co.uk");
        assertThat(domainKey("http://EXAMPLE.com./")).isEqualTo("example.com"); // via canonical
        // Private suffixes count: each blog is its own key.
        assertThat(domainKey("http://alice.blogspot.com/")).isEqualTo("alice.blogspot.com");
        assertThat(domainKey("http://bob.github.io/x")).isEqualTo("bob.github.io");
        // IDN hosts are keyed in punycode, like their canonical URL.
        assertThat(domainKey("http://www.bücher.de/")).isEqualTo("xn--bcher-kva.de");
    }

    @Test
    void hostsWithoutRegistrableDomainKeyByHost() {
        assertThat(domainKey("http://localhost:8080/")).isEqualTo("localhost");
        assertThat(domainKey("http://co.uk/")).isEqualTo("co.uk"); // a public suffix itself
    }

    @Test
    void ipHostsKeyByAddress() {
        assertThat(domainKey("http://10.1.2.3/a")).isEqualTo("10.1.2.3");
        assertThat(domainKey("http://0x0a.1.2.3/a")).isEqualTo("10.1.2.3");
        assertThat(domainKey("http://[2001:db8::1]/")).isEqualTo("[2001:db8::1]");
    }

    @Test
    void hostModeKeepsTheHost() {
        assertThat(hostKey("http://www.example.com/a")).isEqualTo("www.example.com");
        assertThat(hostKey("http://example.com/a")).isEqualTo("example.com");
        assertThat(hostKey("http://127.1/")).isEqualTo("127.0.0.1");
    }

    /**
     * The host memo answers exactly what the public suffix lookup does: 40,000 hosts (about ten per
     * memo slot) under a few registrable domains and suffixes, drawn with repeats in a seeded
     * order, each compared with the lookup itself.
     */
    @Test
    void memoizedKeysEqualTheLookupForHostsThatShareSlots() {
        String[] suffixes = {"com", "co.uk", "github.io", "de", "blogspot.com"};
        List<Canonicalization> hosts = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            String h = "h" + i + ".d" + (i % 97) + "." + suffixes[i % suffixes.length];
            hosts.add(canon.canonicalize("http://" + h + "/"));
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int n = 0; n < 200_000; n++) {
            // Half the draws from the first 2,000 hosts, so that many find their slot still theirs.
            int i = random.nextInt(2) == 0 ? random.nextInt(2_000) : random.nextInt(hosts.size());
            Canonicalization c = hosts.get(i);
            assertThat(domain.keyOf(c))
                    .as(c.host())
                    .isEqualTo(PartitionKeyer.registrableDomainOrHost(c.host()));
        }
    }

    /** Two hosts with different keys in one slot, alternating: each gets its own key every time. */
    @Test
    void hostsInOneSlotDoNotTakeEachOthersKey() {
        Map<Integer, String> firstInSlot = new HashMap<>();
        String a = null;
        String b = null;
        for (int i = 0; a == null; i++) {
            String h = "www.site" + i + (i % 2 == 0 ? ".co.uk" : ".com");
            String earlier = firstInSlot.putIfAbsent(PartitionKeyer.memoSlot(h), h);
            if (earlier != null) {
                a = earlier;
                b = h;
            }
        }
        String keyA = PartitionKeyer.registrableDomainOrHost(a);
        String keyB = PartitionKeyer.registrableDomainOrHost(b);
        assertThat(keyA).isNotEqualTo(keyB);
        for (int round = 0; round < 3; round++) {
            assertThat(domainKey("http://" + a + "/x")).isEqualTo(keyA);
            assertThat(domainKey("http://" + b + "/x")).isEqualTo(keyB);
        }
    }

    /**
     * Hosts of one length in one slot, which only the memo's byte comparison tells apart: differing
     * in the middle, and differing only in their first character.
     */
    @Test
    void hostsOfOneLengthInOneSlotKeepTheirKeys() {
        String[] middle =
                sameLengthPairInOneSlot(
                        i -> String.format(java.util.Locale.ROOT, "s%05d.d%d.com", i, i % 10));
        String[] first =
                sameLengthPairInOneSlot(
                        i ->
                                "abcdefghijklmnopqrstuvwxyz0123456789".charAt(i % 36)
                                        + "x"
                                        + i / 36
                                        + ".com");
        assertThat(first[0].substring(1)).isEqualTo(first[1].substring(1));
        for (String[] pair : new String[][] {middle, first}) {
            for (int round = 0; round < 3; round++) {
                for (String h : pair) {
                    assertThat(domainKey("http://" + h + "/"))
                            .as(h)
                            .isEqualTo(PartitionKeyer.registrableDomainOrHost(h));
                }
            }
        }
    }

    /** The first two hosts {@code host(0), host(1), ...} of one length, one slot, two keys. */
    private static String[] sameLengthPairInOneSlot(java.util.function.IntFunction<String> host) {
        Map<Integer, List<String>> bySlot = new HashMap<>();
        for (int i = 0; ; i++) {
            String h = host.apply(i);
            String key = PartitionKeyer.registrableDomainOrHost(h);
            List<String> inSlot =
                    bySlot.computeIfAbsent(PartitionKeyer.memoSlot(h), k -> new ArrayList<>());
            for (String earlier : inSlot) {
                if (earlier.length() == h.length()
                        && !PartitionKeyer.registrableDomainOrHost(earlier).equals(key)) {
                    return new String[] {earlier, h};
                }
            }
            inSlot.add(h);
        }
    }

    /**
     * The memo is written without a lock (an entry replaces its slot in one reference write): a
     * keyer shared by two threads keys both threads' hosts right while they interleave.
     */
    @Test
    void aKeyerUsedFromTwoThreadsKeysBothRight() throws Exception {
        String[] hosts = new String[4_000];
        for (int i = 0; i < hosts.length; i++) {
            hosts[i] = "www.h" + i + (i % 3 == 0 ? ".co.uk" : ".com");
        }
        Runnable keyAll =
                () -> {
                    for (int round = 0; round < 5; round++) {
                        for (String h : hosts) {
                            assertThat(domainKey("http://" + h + "/"))
                                    .isEqualTo(PartitionKeyer.registrableDomainOrHost(h));
                        }
                    }
                };
        keyAll.run();
        java.util.concurrent.atomic.AtomicReference<Throwable> failed =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread other =
                new Thread(
                        () -> {
                            try {
                                keyAll.run();
                            } catch (Throwable t) {
                                failed.set(t);
                            }
                        });
        other.start();
        keyAll.run();
        other.join();
        assertThat(failed.get()).isNull();
    }
}
