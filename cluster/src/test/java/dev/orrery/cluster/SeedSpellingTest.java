package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
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

    /**
     * No seed sends the node's start to a resolver: not a host name, and not a dotted quad with
     * an octet over 255, which {@code InetAddress.getByName} does not parse as a literal but looks
     * up as a name. A security manager hears every lookup ({@code checkConnect(host, -1)}) of this
     * thread; skipped where the JDK no longer lets one be set.
     */
    @Test
    @SuppressWarnings("removal")
    void noSeedIsLookedUp() {
        Thread me = Thread.currentThread();
        List<String> lookedUp = new ArrayList<>();
        SecurityManager listening = new SecurityManager() {
            @Override
            public void checkConnect(String host, int port) {
                if (port == -1 && Thread.currentThread() == me) {
                    lookedUp.add(host);
                }
            }

            @Override
            public void checkPermission(java.security.Permission perm) {
            }

            @Override
            public void checkPermission(java.security.Permission perm, Object context) {
            }
        };
        try {
            System.setSecurityManager(listening);
        } catch (UnsupportedOperationException e) {
            Assumptions.abort("this JDK lets no security manager be set: " + e.getMessage());
        }
        String hint;
        try {
            hint = SeedSpelling.hint(on("127.0.0.1", "999.1.1.1:25520", "seed-1.orrery.invalid:25520",
                    "localhost:25520", "[::1]:25520", "10.1.2.3:25520", ".:1:25520"));
        } finally {
            System.setSecurityManager(null);
        }
        assertEquals(List.of(), lookedUp, "hosts looked up");
        assertTrue(hint != null && hint.startsWith("seed localhost:25520, [::1]:25520 names this machine"),
                String.valueOf(hint));
    }
}
