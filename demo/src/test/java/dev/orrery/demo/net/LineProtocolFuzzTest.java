package dev.orrery.demo.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Coverage-guided fuzzing of the demo server's reading of a client's bytes: the line scanner
 * and the request dispatcher ({@link RequestDispatcher#scan}, the code {@code CommandServer}
 * runs on each read) with the request parser behind it, over one connection, with the bytes
 * arriving in pieces of several sizes. Whatever the bytes, every request line gets exactly
 * one answer, in order: a reply {@code OK <n> ...} or {@code ERR <n> <CODE> <message>} of at
 * most one printable ASCII line, or a well-formed command offered to the sink (whose answer,
 * for GET and SET, the simulation owes, and a {@code QUIT}'s {@code BYE} waits for those answers);
 * nothing throws, nothing is read after {@code QUIT},
 * and what the connection holds stays within its line limit. {@code mvn verify} runs the
 * committed corpus ({@code LineProtocolFuzzTestInputs/readLines}); a longer run is described in
 * docs/design/engine-and-cluster.md.
 */
class LineProtocolFuzzTest {
    /** The smallest line limit, so that short inputs reach TOO_LONG. */
    private static final int MAX_LINE = 64;
    /** Bytes a fuzz input may hold: a few dozen lines at the limit. */
    private static final int MAX_INPUT = 64 * MAX_LINE;
    private static final Pattern REPLY = Pattern.compile("(OK ([0-9]+)( [ -~]*)?|ERR ([0-9]+) ([A-Z_]+) [ -~]*)\n");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    /** A SET value's form; its length is the line's (zeros padding a number are taken, however many). */
    private static final Pattern VALUE = Pattern.compile("[-+]?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?|true|false");

    @FuzzTest(maxDuration = "10m")
    void readLines(byte[] data) {
        if (data.length > MAX_INPUT) {
            return; // the server reads a connection a buffer at a time; longer inputs add nothing
        }
        ServerConfig config = ServerConfig.defaults().withMaxLineBytes(MAX_LINE).withMaxSpawnCount(500)
                .withSpawnBudget(1_000).withClientRate(1, 8);
        Counters counters = new Counters();
        List<String> replies = new ArrayList<>();
        List<ClientCommand> offered = new ArrayList<>();
        ClientCommandSink sink = new ClientCommandSink() {
            @Override
            public boolean offer(ClientCommand command) {
                checkWellFormed(command);
                offered.add(command);
                return offered.size() % 5 != 0; // every fifth is BUSY: a full input queue
            }

            @Override
            public Refusal check(ClientCommand command) {
                return command instanceof ClientCommand.SetProperty s && s.component().startsWith("Server")
                        ? new Refusal(ErrorCode.FORBIDDEN, s.component() + " is server-owned") : null;
            }
        };
        RequestDispatcher dispatcher = new RequestDispatcher(config, sink, counters, (c, line, now) -> {
            replies.add(StandardCharsets.US_ASCII.decode(line.duplicate()).toString());
        });
        Connection c = new Connection(1, null, ServerConfig.loopback(), 0, config, counters);
        int at = 0;
        for (int piece = 0; at < data.length && !c.quitting; piece++) {
            int n = Math.min(Math.min(data.length - at, c.in.remaining()), 1 + (piece * 37 + data.length) % 300);
            c.in.put(data, at, n);
            at += n;
            c.in.flip();
            dispatcher.scan(c, Long.MAX_VALUE, piece * 1_000_000L);
            assertTrue(c.quitting || !c.in.hasRemaining(), "the scan stopped before the end with no reason");
            c.in.compact();
            assertTrue(c.lineLength <= MAX_LINE + 1, "the line held grew past the limit: " + c.lineLength);
        }
        long newlines = 0;
        for (byte b : data) {
            newlines += b == '\n' ? 1 : 0;
        }
        assertTrue(c.requests <= newlines + data.length / (MAX_LINE + 1), "more requests than lines: " + c.requests);
        // each request number is answered exactly once: by a reply, or owed by the simulation (a GET
        // or SET the sink took)
        boolean[] answered = new boolean[(int) c.requests + 1];
        long next = 1;
        for (String r : replies) {
            var m = REPLY.matcher(r);
            assertTrue(m.matches() && r.length() <= ServerConfig.MAX_OUTBOUND_LINE_BYTES, "not one reply line: " + r);
            long number = Long.parseLong(m.group(2) != null ? m.group(2) : m.group(4));
            assertTrue(number >= next && number <= c.requests, "reply " + r + " out of order (next " + next + ")");
            answered[(int) number] = true;
            next = number + 1;
        }
        int owed = 0;
        for (int i = 0; i < offered.size(); i++) {
            ClientCommand x = offered.get(i);
            if ((i + 1) % 5 != 0 && (x instanceof ClientCommand.GetProperty || x instanceof ClientCommand.SetProperty)) {
                long number = x.requestId();
                assertTrue(number >= 1 && number <= c.requests && !answered[(int) number], "owed twice: " + x);
                answered[(int) number] = true;
                owed++;
            }
        }
        if (c.byeRequest != 0) { // a QUIT whose BYE waits for the owed answers
            assertTrue(c.quitting && c.owed > 0 && !answered[(int) c.byeRequest], "a BYE waits for nothing");
            answered[(int) c.byeRequest] = true;
        }
        for (int i = 1; i <= c.requests; i++) {
            assertTrue(answered[i], "request " + i + " got no answer: " + replies);
        }
        assertEquals(owed, c.owed, "answers the simulation owes");
    }

    /** What the parser promises the sink: only well-formed commands. */
    private static void checkWellFormed(ClientCommand command) {
        if (command instanceof ClientCommand.MoveSquad m) {
            assertTrue(m.squad() >= 0 && Float.isFinite(m.x()) && Float.isFinite(m.y()), m.toString());
        } else if (command instanceof ClientCommand.SpawnWave w) {
            assertTrue(w.count() >= 1 && w.count() <= 500, w.toString());
        } else if (command instanceof ClientCommand.GetProperty g) {
            assertTrue(g.entity() >= 0 && NAME.matcher(g.component()).matches() && NAME.matcher(g.field()).matches(),
                    g.toString());
        } else if (command instanceof ClientCommand.SetProperty s) {
            assertTrue(s.entity() >= 0 && NAME.matcher(s.component()).matches() && NAME.matcher(s.field()).matches()
                    && VALUE.matcher(s.value()).matches(), s.toString());
        }
    }
}
