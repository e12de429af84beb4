package dev.orrery.demo.net;

/**
 * {@link ClientReplies#discarding()}: replies that go nowhere. Stateless, so any thread
 * may use it.
 */
enum DiscardingReplies implements ClientReplies {
    INSTANCE;

    @Override
    public boolean reply(long clientId, long requestId, String result) {
        return true;
    }

    @Override
    public boolean replyError(long clientId, long requestId, ErrorCode code, String message) {
        return true;
    }

    @Override
    public boolean broadcastState(long tick, long entities, String summary) {
        return true;
    }
}
