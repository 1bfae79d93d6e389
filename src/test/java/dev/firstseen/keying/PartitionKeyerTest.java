package dev.firstseen.keying;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firstseen.canonical.Canonicalizer;
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
}
