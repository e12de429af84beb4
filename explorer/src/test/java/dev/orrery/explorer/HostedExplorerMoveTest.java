package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
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
 * explorer on the thread that closed the host leaves no thread and no listening port. An event
 * stream opened on the first host stays open across the move: it goes on sending events while
 * the world is on no host, and its rows carry on from the tick it left at, on the same
 * connection, with no tick lost or sent twice.
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
            for (String path : new String[] {"/api/query?size=7&q=Pos", "/api/named"}) {
                HttpResponse<String> r = client.get(path);
                assertEquals(503, r.statusCode(), path + " between the hosts (no safe point): " + r.body());
            }
            String between = client.getOk("/api/summary"); // its figures, without the world
            assertTrue(between.contains("\"live\":false") && between.contains("between WorldHosts"), between);
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

    @Test
    void anEventStreamStaysOpenAcrossTheMoveAndItsRowsCarryOnFromTheTickTheWorldLeftAt() throws Exception {
        Simulation sim = HostedWorlds.drifting();
        WorldHost first = WorldHost.builder().threads(1).build();
        WorldHost second = WorldHost.builder().threads(1).build();
        Explorer explorer = null;
        InputStream body = null;
        try {
            HostedWorld w = first.add("streamed", sim, 200);
            explorer = w.call(s -> {
                try {
                    return Explorer.attach(s, ExplorerOptions.loopback(0));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(30, TimeUnit.SECONDS);
            Client client = new Client(explorer);
            HttpResponse<InputStream> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    client.uri("/api/stream")).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(200, stream.statusCode());
            body = stream.body();
            BlockingQueue<String> events = events(body);
            TreeSet<Long> ticks = new TreeSet<>();
            long until = System.nanoTime() + DEADLINE_NANOS;
            while (ticks.size() < 5 && System.nanoTime() < until) {
                rowTicks(nextEvent(events), ticks);
            }
            assertTrue(ticks.size() >= 5, "the stream sent rows on the first host: " + ticks);

            Simulation back = w.remove().get(30, TimeUnit.SECONDS);
            long left = back.currentTick(); // ordered after the last tick on 'first'
            for (int i = 0; i < 3; i++) { // a few periods with no host: events still come, no new rows
                String event = nextEvent(events);
                assertTrue(number(event, "{\"tick\":") < left, "no tick past " + left + " between the hosts: " + event);
                rowTicks(event, ticks);
            }
            second.add("streamed", back, 200);
            until = System.nanoTime() + DEADLINE_NANOS;
            while (ticks.last() <= left + 5 && System.nanoTime() < until) {
                rowTicks(nextEvent(events), ticks);
            }
            assertTrue(ticks.last() > left + 5, "the same stream sent rows of ticks on the second host: last "
                    + ticks.last() + ", left the first at " + left);
            assertTrue(ticks.contains(left - 1) && ticks.contains(left), "the rows hold the last tick on the first host ("
                    + (left - 1) + ") and the first on the second (" + left + "): " + ticks.subSet(left - 3, left + 3));
            assertEquals(ticks.last() - ticks.first() + 1, ticks.size(), "no tick lost across the move (each tick "
                    + "sent once, counted once): from " + ticks.first() + " to " + ticks.last());
        } finally {
            if (body != null) {
                body.close();
            }
            first.close();
            second.close();
            if (explorer != null) {
                explorer.close(); // this thread closed the host: the world's tick thread now
            }
        }
    }

    /** The {@code data:} lines of an event stream, read on a daemon thread into a queue (closed when the stream ends). */
    private static BlockingQueue<String> events(InputStream body) {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (line.startsWith("data: ")) {
                        events.add(line.substring(6));
                    }
                }
            } catch (IOException e) {
                // the test closed the stream
            }
            events.add("END");
        }, "stream-reader");
        reader.setDaemon(true);
        reader.start();
        return events;
    }

    /** The next event, failing when the stream ended or sent none for 30 s (events come four times a second). */
    private static String nextEvent(BlockingQueue<String> events) throws InterruptedException {
        String event = events.poll(30, TimeUnit.SECONDS);
        assertTrue(event != null && !event.equals("END"), "the stream is still sending: " + event);
        return event;
    }

    /** Adds the ticks of an event's {@code rows} to {@code ticks}, failing on one sent twice. */
    private static void rowTicks(String event, TreeSet<Long> ticks) {
        String rows = event.substring(event.indexOf("\"rows\":{"));
        String list = rows.substring(rows.indexOf("\"tick\":[") + 8);
        list = list.substring(0, list.indexOf(']'));
        List<Long> got = new ArrayList<>();
        for (String t : list.split(",")) {
            if (!t.isBlank()) {
                got.add(Long.parseLong(t.trim()));
            }
        }
        for (long t : got) {
            assertTrue(ticks.add(t), "tick " + t + " sent twice: " + event);
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
