package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * Coverage-guided fuzzing of the explorer's HTTP request reader ({@link RequestReader#read})
 * and what every route then reads of the request's own text: the path's and the query
 * string's %-escapes ({@link Routes#path}, {@link Routes#query}). The bytes come in pieces of
 * several sizes, then the end of the stream. Whatever they are, the only outcomes are a
 * request within the server's bounds ({@link WebServer#MAX_HEAD}, {@link WebServer#MAX_HEADERS},
 * {@link WebServer#MAX_BODY}), no request for no bytes, or a {@link WebServer.BadRequest} with a
 * 4xx/501 status and a message; then a decoded path and query or an
 * {@link IllegalArgumentException} (answered 400); never another exception, and never a read
 * past the head and body limits. {@code mvn verify} runs the committed corpus
 * ({@code RequestReaderFuzzTestInputs/readRequest}); a longer run is described in
 * docs/design/engine-and-cluster.md.
 */
class RequestReaderFuzzTest {
    private static final int MAX_INPUT = WebServer.MAX_HEAD + WebServer.MAX_BODY + 1024;
    private static final Set<Integer> REFUSALS = Set.of(400, 413, 431, 501);

    @FuzzTest(maxDuration = "10m")
    void readRequest(byte[] data) throws IOException {
        if (data.length > MAX_INPUT) {
            return; // the reader stops at its limits; longer inputs add nothing
        }
        Pieces in = new Pieces(data);
        WebServer.Request r;
        try {
            r = RequestReader.read(in);
        } catch (WebServer.BadRequest bad) {
            assertTrue(REFUSALS.contains(bad.status), "status " + bad.status + ": " + bad.getMessage());
            assertTrue(bad.getMessage() != null && !bad.getMessage().isEmpty());
            assertJsonText(Json.error(bad.getMessage()));
            assertTrue(in.at <= WebServer.MAX_HEAD + WebServer.MAX_BODY, "read " + in.at + " bytes");
            return;
        }
        if (r == null) {
            assertEquals(0, data.length, "no request, but bytes were sent");
            return;
        }
        assertTrue(r.method().matches("[A-Z]{1,16}"), r.method());
        assertTrue(r.path().startsWith("/") && r.path().indexOf('?') < 0, r.path());
        assertTrue(r.headers().size() <= WebServer.MAX_HEADERS);
        int headEnd = indexOfBlankLine(data);
        assertTrue(headEnd >= 0 && headEnd + 4 <= WebServer.MAX_HEAD, "head end " + headEnd);
        String declared = r.header("content-length");
        assertEquals(declared == null ? 0 : Integer.parseInt(declared), r.body().length);
        assertTrue(r.body().length <= WebServer.MAX_BODY);
        assertArrayEquals(Arrays.copyOfRange(data, headEnd + 4, headEnd + 4 + r.body().length), r.body());
        assertTrue(in.at <= Math.max(WebServer.MAX_HEAD, headEnd + 4 + r.body().length),
                "the reader reads a head's buffer and the body, nothing more: " + in.at);
        try {
            String path = Routes.path(r.path());
            assertTrue(path.length() <= r.path().length(), path);
            Map<String, String> q = Routes.query(r.rawQuery());
            q.forEach((k, v) -> assertTrue(k.length() + v.length() <= r.rawQuery().length(), k + "=" + v));
        } catch (IllegalArgumentException badEscape) {
            assertTrue(badEscape.getMessage() != null, "a bad %-escape is named");
        }
    }

    private static int indexOfBlankLine(byte[] b) {
        for (int i = 0; i + 3 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** JSON text as the explorer sends it: no raw control character (they are escaped). */
    private static void assertJsonText(String json) {
        for (int i = 0; i < json.length(); i++) {
            assertTrue(json.charAt(i) >= 0x20, "raw control character in " + json);
        }
    }

    /** A client's bytes in pieces of varying size, then the end of the stream. */
    private static final class Pieces implements ReadableByteChannel {
        private final byte[] data;
        int at;
        private int reads;

        Pieces(byte[] data) {
            this.data = data;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (at == data.length) {
                return -1;
            }
            int n = Math.min(Math.min(dst.remaining(), data.length - at), 1 + (reads++ * 131 + data.length) % 2048);
            dst.put(data, at, n);
            at += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
