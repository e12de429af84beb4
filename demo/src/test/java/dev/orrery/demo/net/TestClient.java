package dev.orrery.demo.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** A blocking line client for tests; every read gives up after a few seconds rather than hang. */
final class TestClient implements AutoCloseable {
    private final Socket socket;
    private final BufferedReader reader;
    private final OutputStream out;

    TestClient(int port) throws IOException {
        this(port, 0);
    }

    /** @param receiveBuffer the socket's receive buffer, or 0 for the default */
    TestClient(int port, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(10_000);
        reader = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        out = socket.getOutputStream();
    }

    void send(String line) throws IOException {
        sendRaw((line + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next line, or null at end of stream. */
    String read() throws IOException {
        return reader.readLine();
    }

    /** The next line that is not a STATE push. */
    String readReply() throws IOException {
        String line;
        do {
            line = read();
        } while (line != null && line.startsWith("STATE "));
        return line;
    }

    /** Sends HELLO and returns the client id from {@code OK 1 <id>}. */
    long hello(String name) throws IOException {
        send("HELLO " + name);
        String reply = readReply();
        if (reply == null || !reply.startsWith("OK 1 ")) {
            throw new AssertionError("HELLO was answered '" + reply + "'");
        }
        return Long.parseLong(reply.substring(5));
    }

    /** True if the server closed the connection (end of stream or reset) within the read timeout. */
    boolean closedByServer() {
        try {
            while (true) {
                if (reader.readLine() == null) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
