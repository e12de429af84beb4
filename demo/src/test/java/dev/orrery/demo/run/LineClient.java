package dev.orrery.demo.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A blocking line client for the end-to-end tests; reads give up after ten seconds rather than hang. */
final class LineClient implements AutoCloseable {
    private final Socket socket;
    private final BufferedReader reader;
    private final OutputStream out;
    private int statesSeen;

    LineClient(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(10_000);
        reader = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        out = socket.getOutputStream();
    }

    /** Sends a line and returns the next reply that is not a STATE push. */
    String ask(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return nextReply();
    }

    /** Sends text as it is (it should end in a line feed); replies are read with {@link #nextReply}. */
    void sendRaw(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    String nextReply() throws IOException {
        while (true) {
            String l = reader.readLine();
            if (l == null || !l.startsWith("STATE ")) {
                return l;
            }
            statesSeen++;
        }
    }

    /** Reads until a STATE push arrives (or the read times out) and returns it. */
    String awaitState() throws IOException {
        while (true) {
            String l = reader.readLine();
            if (l == null || l.startsWith("STATE ")) {
                statesSeen++;
                return l;
            }
        }
    }

    /**
     * Waits until every input this server took before now has been applied to the world: sends
     * {@code SET} of an entity that does not exist, which the boundary lets through (Health.hp is
     * writable), so it goes into the input ring behind every {@code MOVE}, {@code SPAWN} and
     * {@code SET} already answered {@code OK} (the server's selector thread is the ring's one
     * producer, and a tick drains it in ring order), and which only the tick's input system
     * answers, {@code NOT_FOUND}, after applying the inputs ahead of it in the same or an earlier
     * tick. So once the reply is read, a wave answered {@code OK} earlier has been spawned, and a
     * count taken after {@code stop()} includes it. It changes nothing in the world.
     *
     * @param request the number this client's next request gets (its requests so far plus one)
     */
    void awaitInputsApplied(int request) throws IOException {
        String reply = ask("SET 999999999999 Health hp 1");
        if (reply == null || !reply.startsWith("ERR " + request + " NOT_FOUND")) {
            throw new AssertionError("expected the simulation's NOT_FOUND for request " + request + ", got: " + reply);
        }
    }

    int statesSeen() {
        return statesSeen;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
