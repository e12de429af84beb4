package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The advice for a seed that names this machine otherwise than the node's host: given for
 * {@code localhost} against an IP literal (and for IPv6, bracketed as {@code host:port} needs),
 * never for a seed spelled as the host, and decided without a name lookup (a host name that is
 * neither a literal nor {@code localhost} is another machine, so a node's start never waits on a
 * resolver).
 */
class SeedSpellingTest {
    private static NodeSettings on(String host, String... seeds) {
        NodeSettings local = NodeSettings.local(0, List.of(seeds));
        return new NodeSettings(host, 0, local.seeds(), local.tickHz(), local.shards(), local.failover(),
                local.world(), local.extraConfig());
    }

    @Test
    void aSeedSpelledLocalhostForANodeOnTheLoopbackLiteralGetsTheLiteral() {
        String hint = SeedSpelling.hint(on("127.0.0.1", "localhost:25520"));
        assertTrue(hint != null && hint.contains("give the seed as 127.0.0.1:25520"), String.valueOf(hint));
    }

    @Test
    void anIpv6NodeIsSpelledInBracketsAndABracketedSeedOfItsOwnHostNeedsNoAdvice() {
        String hint = SeedSpelling.hint(on("::1", "localhost:25520"));
        assertTrue(hint != null && hint.contains("give the seed as [::1]:25520"), String.valueOf(hint));
        assertNull(SeedSpelling.hint(on("::1", "[::1]:25520")));
    }

    @Test
    void aSeedSpelledAsTheHostOrNamingAnotherHostGetsNone() {
        assertNull(SeedSpelling.hint(on("127.0.0.1", "127.0.0.1:25520")));
        assertNull(SeedSpelling.hint(on("127.0.0.1", "seed-1.orrery.invalid:25520", "10.1.2.3:25520")));
    }
}
