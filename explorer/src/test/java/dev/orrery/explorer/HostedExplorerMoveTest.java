package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Explorer x a hosted world that moves between hosts: attached inside {@code call} on one
 * {@code WorldHost}, the world is removed and added to another, and the same explorer goes on
 * serving it from the new host's safe points. Between the hosts no safe point comes, so a read
 * is answered 503 (never 500) while the figures' history still answers; on the new host the
 * summary, the archetypes, a query and an entity show the world ticking on past the move (not
 * the world as it was when it left), and the history holds ticks from both hosts. Closing the
 * first host after the world left it does not touch the explorer; closing the second while the
 * explorer is attached closes the world, reads are answered 503 again, and closing the
 * explorer on the thread that closed the host leaves no thread and no listening port.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HostedExplorerMoveTest {
    private static final long DEADLINE_NANOS = 60_000_000_000L;

    @Test
    void anExplorerFollowsItsWorldFromOneHostToAnotherAndLeavesNothingWhenTheSecondCloses() throws Exception {
        Set<String> before = HostedWorlds.threadNames();
        Simulation sim = HostedWorlds.drifting();
        WorldHost first = WorldHost.builder().threads(2).build();
        WorldHost second = WorldHost.builder().threads(2).build();
        Explorer explorer;
        int port;
        try {
            HostedWorld w = first.add("wanderer", sim, 200);
            explorer = w.call(s -> {
                try {
                    return Explorer.attach(s, ExplorerOptions.loopback(0).withRequestTimeout(Duration.ofMillis(500)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(30, TimeUnit.SECONDS);
            port = explorer.port();
            Client client = new Client(explorer);
            assertEquals(200, client.getTicking("/api/archetypes").statusCode());
            assertEquals(50, client.queryCount("Pos"));

            Simulation back = w.remove().get(30, TimeUnit.SECONDS);
            long left = back.currentTick(); // the removing thread's view, ordered after the last tick on 'first'
            assertTrue(left > 0, "the world ticked on the first host");
            // none of these was read on the first host, so no shared answer is fresh: each waits for a safe point
            for (String path : new String[] {"/api/summary", "/api/query?size=7&q=Pos", "/api/named"}) {
                HttpResponse<String> r = client.get(path);
                assertEquals(503, r.statusCode(), path + " between the hosts (no safe point): " + r.body());
            }
            assertTrue(client.getOk("/api/history").contains("\"tick\""), "the history answers off the safe point");
            first.close(); // the world left it: nothing of the explorer's is touched
            assertEquals(left, back.currentTick(), "closing the first host did not tick the world");

            HostedWorld moved = second.add("wanderer", back, 200);
            long until = System.nanoTime() + DEADLINE_NANOS;
            long next = nextTick(client);
            while (next <= left + 5 && System.nanoTime() < until) {
                Thread.sleep(20);
                next = nextTick(client);
            }
            assertTrue(next > left + 5, "the summary shows the world ticking on the second host: nextTick " + next
                    + ", left the first at " + left);
            String archetypes = client.getTicking("/api/archetypes").body();
            assertTrue(archetypes.contains("Pos"), archetypes);
            assertEquals(50, client.queryCount("Pos"));
            long x0 = firstX(client);
            assertTrue(x0 >= left, "an entity's x (its start plus one a tick) shows ticks past the move: " + x0
                    + " at tick " + left + " or later");
            String history = client.getOk("/api/history");
            assertTrue(lastHistoryTick(history) > left, "the history has ticks from the second host: " + history);
            assertEquals(Optional.empty(), moved.failure(), "no tick failed on the second host (the hook's thread checks)");
        } finally {
            first.close();
            second.close(); // the explorer still attached
        }
        HttpResponse<String> closed = new Client(explorer).get("/api/query?size=9&q=Pos"); // never read: no shared answer
        assertEquals(503, closed.statusCode(), "a closed world has no safe point: " + closed.body());
        explorer.close(); // this thread closed the host: the world's tick thread now

        assertEquals(Set.of(), HostedWorlds.awaitLeftOver(before), "threads left behind");
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)); // free again
        }
    }

    /** The summary's {@code nextTick} (the simulation's current tick, read at a safe point). */
    private static long nextTick(Client client) throws Exception {
        HttpResponse<String> r = client.getTicking("/api/summary?t=" + System.nanoTime());
        assertEquals(200, r.statusCode(), r.body());
        return number(r.body(), "\"nextTick\":");
    }

    /** The x of the first entity a query for Pos lists (spawned at 0, so the number of ticks since). */
    private static long firstX(Client client) throws Exception {
        HttpResponse<String> r = client.getTicking("/api/query?size=1&q=Pos&x=" + System.nanoTime());
        assertEquals(200, r.statusCode(), r.body());
        return (long) Double.parseDouble(text(r.body(), "\"values\":[[\""));
    }

    /** The largest tick in a history answer's {@code "tick":[...]} array. */
    private static long lastHistoryTick(String history) {
        String ticks = history.substring(history.indexOf("\"tick\":[") + 8);
        ticks = ticks.substring(0, ticks.indexOf(']'));
        long last = -1;
        for (String t : ticks.split(",")) {
            if (!t.isBlank()) {
                last = Math.max(last, Long.parseLong(t.trim()));
            }
        }
        return last;
    }

    private static long number(String body, String key) {
        return Long.parseLong(text(body, key));
    }

    private static String text(String body, String key) {
        int at = body.indexOf(key);
        assertTrue(at >= 0, key + " in " + body);
        at += key.length();
        int end = at;
        while (end < body.length() && "-0123456789.eE".indexOf(body.charAt(end)) >= 0) {
            end++;
        }
        return body.substring(at, end);
    }
}
