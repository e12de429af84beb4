package dev.orrery.explorer;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * What keeps other web pages out. Any page the user opens can send requests to 127.0.0.1,
 * so: a request whose {@code Host} header is not this explorer's address is refused (a page
 * that rebinds its own host name to 127.0.0.1 sends its own name, and so cannot read the
 * answers either); and a request that changes state must carry the session's token in the
 * {@value #TOKEN_HEADER} header, which only the explorer's own page (and a script that asked
 * {@code /api/session}) knows, and, when it has an {@code Origin}, come from this origin.
 * A cross-origin page cannot set that header without a CORS preflight, which the explorer
 * never grants.
 *
 * <p><b>Threading:</b> immutable once built; any thread.
 */
final class Guard {
    /** The header a state-changing request carries the session token in. */
    static final String TOKEN_HEADER = "X-Orrery-Token";

    private final String token;
    private final Set<String> hosts = new LinkedHashSet<>();
    private final Set<String> origins = new LinkedHashSet<>();

    Guard(InetAddress bind, int port) {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        this.token = HexFormat.of().formatHex(bytes);
        Set<String> names = new LinkedHashSet<>();
        names.add("127.0.0.1");
        names.add("localhost");
        names.add("[::1]");
        if (!bind.isAnyLocalAddress()) {
            String a = bind.getHostAddress();
            names.add(a.contains(":") ? "[" + a + "]" : a);
        }
        for (String n : names) {
            hosts.add(n + ":" + port);
            if (port == 80) {
                hosts.add(n);
            }
            origins.add("http://" + n + (port == 80 ? "" : ":" + port));
        }
    }

    /** The session token the page sends with every change. */
    String token() {
        return token;
    }

    /** The first address the explorer answers to, for messages. */
    String home() {
        return "http://" + hosts.iterator().next() + "/";
    }

    /** Null when {@code host} (the Host header) names this explorer, else why the request is refused. */
    String checkHost(String host) {
        if (host == null || host.isEmpty()) {
            return "the request has no Host header; the explorer answers only requests to " + home();
        }
        if (hosts.contains(host.toLowerCase(Locale.ROOT))) {
            return null;
        }
        return "the explorer answers only requests addressed to itself (" + String.join(", ", hosts)
                + "), not to Host '" + host + "': a guard against DNS rebinding; open " + home();
    }

    /**
     * Null when a state-changing request may go on, else why not: it must come from this
     * origin (when it says where from) and carry the session token.
     */
    String checkChange(WebServer.Request r) {
        String origin = r.header("origin");
        if (origin != null && !origins.contains(origin.toLowerCase(Locale.ROOT))) {
            return "a change from origin '" + origin + "' is refused; only the explorer's own page ("
                    + String.join(", ", origins) + ") may change anything";
        }
        String site = r.header("sec-fetch-site");
        if (site != null && !site.equals("same-origin") && !site.equals("none")) {
            return "a change sent by a " + site + " page is refused; only the explorer's own page may change anything";
        }
        String sent = r.header(TOKEN_HEADER);
        if (sent == null || !MessageDigest.isEqual(sent.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8))) {
            return (sent == null ? "the request carries no " : "the request carries a wrong ") + TOKEN_HEADER
                    + " header; the explorer's page sends it, and a script reads it from GET /api/session";
        }
        return null;
    }
}
