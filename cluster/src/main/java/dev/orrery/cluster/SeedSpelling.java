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
 * <p><b>Threading:</b> stateless; any thread. It resolves host names, so call it where a
 * lookup may block (a node's start), not on Pekko's threads.
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
            String host = seed.substring(0, colon);
            if (!host.equalsIgnoreCase(settings.host()) && sameMachine(host, settings.host())) {
                written.add(seed);
                respelled.add(settings.host() + seed.substring(colon));
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

    private static boolean sameMachine(String a, String b) {
        try {
            for (InetAddress x : InetAddress.getAllByName(a)) {
                for (InetAddress y : InetAddress.getAllByName(b)) {
                    if (x.equals(y) || (x.isLoopbackAddress() && y.isLoopbackAddress())) {
                        return true;
                    }
                }
            }
        } catch (UnknownHostException | SecurityException e) {
            return false; // Pekko will say it cannot reach the seed; nothing to add here
        }
        return false;
    }
}
