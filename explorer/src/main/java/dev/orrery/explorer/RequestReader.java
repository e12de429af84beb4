package dev.orrery.explorer;

import static dev.orrery.explorer.WebServer.MAX_BODY;
import static dev.orrery.explorer.WebServer.MAX_HEAD;
import static dev.orrery.explorer.WebServer.MAX_HEADERS;

import dev.orrery.explorer.WebServer.BadRequest;
import dev.orrery.explorer.WebServer.Request;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads and checks one HTTP/1.1 request from a {@link WebServer} connection, within the
 * server's bounds ({@link WebServer#MAX_HEAD}, {@link WebServer#MAX_HEADERS},
 * {@link WebServer#MAX_BODY}); what cannot be served is a {@link WebServer.BadRequest} with
 * the status to answer.
 *
 * <p><b>Threading:</b> stateless; called on the request thread that serves the connection.
 */
final class RequestReader {
    private RequestReader() {
    }

    /**
     * The request on {@code c}, null if it closed before sending one. {@code c} is the
     * connection's socket; a fuzz test hands it other channels (any bytes, in any pieces).
     */
    static Request read(ReadableByteChannel c) throws IOException, BadRequest {
        ByteBuffer buf = ByteBuffer.allocate(MAX_HEAD);
        int headEnd = -1;
        while (headEnd < 0) {
            if (!buf.hasRemaining()) {
                throw new BadRequest(431, "the request head is over " + MAX_HEAD + " bytes; send fewer or shorter "
                        + "headers");
            }
            int from = Math.max(0, buf.position() - 3);
            if (c.read(buf) < 0) {
                if (buf.position() == 0) {
                    return null;
                }
                throw new BadRequest(400, "the connection closed in the middle of the request head");
            }
            headEnd = find(buf.array(), from, buf.position());
        }
        String head = new String(buf.array(), 0, headEnd, StandardCharsets.ISO_8859_1);
        String[] lines = head.split("\r\n", -1);
        String[] parts = lines[0].split(" ", -1);
        if (parts.length != 3 || !parts[0].matches("[A-Z]{1,16}") || !parts[2].matches("HTTP/1\\.[01]")) {
            throw new BadRequest(400, "malformed request line; send METHOD /path HTTP/1.1");
        }
        String target = parts[1];
        if (!target.startsWith("/")) {
            throw new BadRequest(400, "the request target must be a path starting with / (this is not a proxy)");
        }
        if (lines.length - 1 > MAX_HEADERS) {
            throw new BadRequest(431, "more than " + MAX_HEADERS + " header lines");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            int colon = line.indexOf(':');
            if (colon <= 0 || line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                throw new BadRequest(400, "malformed header line " + (i + 1) + "; send Name: value");
            }
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            if (headers.putIfAbsent(name, value) != null && (name.equals("host") || name.equals("content-length"))) {
                throw new BadRequest(400, "the request has two " + name + " headers");
            }
        }
        if (headers.containsKey("transfer-encoding")) {
            throw new BadRequest(501, "chunked request bodies are not taken; send the body with Content-Length");
        }
        int length = 0;
        String declared = headers.get("content-length");
        if (declared != null) {
            if (!declared.matches("[0-9]{1,9}")) {
                throw new BadRequest(400, "Content-Length '" + declared + "' is not a length");
            }
            length = Integer.parseInt(declared);
            if (length > MAX_BODY) {
                throw new BadRequest(413, "the request body is " + length + " bytes; the explorer takes at most "
                        + MAX_BODY);
            }
        }
        byte[] body = new byte[length];
        int have = Math.min(length, buf.position() - (headEnd + 4));
        System.arraycopy(buf.array(), headEnd + 4, body, 0, have);
        ByteBuffer rest = ByteBuffer.wrap(body, have, length - have);
        while (rest.hasRemaining()) {
            if (c.read(rest) < 0) {
                throw new BadRequest(400, "the connection closed after " + rest.position() + " of " + length
                        + " body bytes");
            }
        }
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? null : target.substring(q + 1);
        return new Request(parts[0], path, query, Collections.unmodifiableMap(headers), body);
    }

    /** The index of the blank line ending the head in {@code bytes[from, to)}, or -1. */
    private static int find(byte[] bytes, int from, int to) {
        for (int i = from; i + 3 < to; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n' && bytes[i + 2] == '\r' && bytes[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
