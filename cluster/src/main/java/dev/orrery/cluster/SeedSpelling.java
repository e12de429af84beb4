package dev.orrery.cluster;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Why a node's seeds may never let it in although a node runs at each: Pekko tells nodes
 * apart by the host as written in their addresses, so a seed written {@code localhost:25520}
 * for a node that advertises itself as {@code 127.0.0.1:25520} (as every node of
 * {@link NodeSettings#local} does) reaches that node, which drops the join as addressed to
 * another. This finds the seeds whose host is this machine spelled otherwise than this node's
 * own host, which a node of the same settings advertises, and says how to write them.
 *
 * <p><b>Threading:</b> stateless; any thread. It makes no name lookup: only IP literals and
 * {@code localhost} are compared, so it cannot block on a resolver or need a network.
 */
final class SeedSpelling {
    private SeedSpelling() {
    }

    /**
     * The advice for the seeds of {@code settings} whose host is written otherwise than
     * {@code settings.host()} but names the same machine (the same address, or both loopback),
     * or null when there is none.
     *
     * @param settings a node's settings
     * @return one sentence naming each such seed and its spelling as this node's host, or null
     */
    static String hint(NodeSettings settings) {
        List<String> respelled = new ArrayList<>();
        List<String> written = new ArrayList<>();
        for (String seed : settings.seeds()) {
            int colon = seed.lastIndexOf(':');
            String host = seed.substring(0, Math.max(colon, 0));
            String own = settings.host();
            if (!bare(host).equalsIgnoreCase(bare(own)) && sameMachine(host, own)) {
                written.add(seed);
                respelled.add((own.indexOf(':') >= 0 && !own.startsWith("[") ? "[" + own + "]" : own)
                        + seed.substring(colon));
            }
        }
        if (written.isEmpty()) {
            return null;
        }
        return "seed " + String.join(", ", written) + " names this machine otherwise than this node's host ("
                + settings.host() + "), and a node answers only to its address as it advertises it (Pekko compares "
                + "hosts as written): if the seed node's host is " + settings.host() + " too, give the seed as "
                + String.join(", ", respelled) + " (that node's ClusterNode.hostPort())";
    }

    /**
     * Whether hosts {@code a} and {@code b} name one machine, decided without a name lookup (a
     * node's start must not wait on a resolver, nor need a network): only IP literals and
     * {@code localhost} are compared, as the same address or both loopback; any other host
     * name is taken as another machine (Pekko says so if it cannot reach it).
     */
    private static boolean sameMachine(String a, String b) {
        InetAddress x = literal(a);
        InetAddress y = literal(b);
        return x != null && y != null && (x.equals(y) || (x.isLoopbackAddress() && y.isLoopbackAddress()));
    }

    /** {@code host} without the brackets of an IPv6 literal. */
    private static String bare(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** {@code host} as an address when it is {@code localhost} or an IP literal, else null (no lookup made). */
    private static InetAddress literal(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return InetAddress.getLoopbackAddress();
        }
        String h = bare(host);
        try {
            if (h.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
                // parsed here: InetAddress.getByName looks a quad with an octet over 255 up as a name
                String[] parts = h.split("\\.");
                byte[] quad = new byte[4];
                for (int i = 0; i < 4; i++) {
                    int octet = Integer.parseInt(parts[i]);
                    if (octet > 255) {
                        return null; // no address: Pekko says it cannot reach it
                    }
                    quad[i] = (byte) octet;
                }
                return InetAddress.getByAddress(quad);
            }
            if (h.indexOf(':') >= 0 && h.matches("[0-9A-Fa-f:][0-9A-Fa-f:.]*")) {
                return InetAddress.getByName(h); // with a colon, always parsed as an IPv6 literal, never looked up
            }
        } catch (UnknownHostException e) {
            return null; // not a valid IPv6 literal after all
        }
        return null;
    }
}
