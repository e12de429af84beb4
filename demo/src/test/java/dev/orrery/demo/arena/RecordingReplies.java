package dev.orrery.demo.arena;

import dev.orrery.demo.net.ClientReplies;
import dev.orrery.demo.net.ErrorCode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test support: the replies an arena sends, kept by request number as {@code "OK"} (or
 * {@code "OK value"} when asked to keep results) or the error code's name; state broadcasts
 * are dropped. Replies come from the tick thread, so the map is concurrent.
 */
final class RecordingReplies implements ClientReplies {
    /** Each request's outcome, by request number. */
    final Map<Long, String> byRequest = new ConcurrentHashMap<>();
    private final boolean withResults;

    /** {@code withResults}: keep a reply's result after "OK " ({@code GET}'s value); else "OK" alone. */
    RecordingReplies(boolean withResults) {
        this.withResults = withResults;
    }

    @Override
    public boolean reply(long clientId, long requestId, String result) {
        byRequest.put(requestId, withResults && !result.isEmpty() ? "OK " + result : "OK");
        return true;
    }

    @Override
    public boolean replyError(long clientId, long requestId, ErrorCode code, String message) {
        byRequest.put(requestId, code.name());
        return true;
    }

    @Override
    public boolean broadcastState(long tick, long entities, String summary) {
        return true;
    }
}
