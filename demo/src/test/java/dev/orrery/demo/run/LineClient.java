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

    int statesSeen() {
        return statesSeen;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
