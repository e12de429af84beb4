package dev.orrery.engine;

/**
 * One preallocated entry of the input ring. A producer fills {@code client}, {@code type}
 * and the payload; the tick thread stamps {@code tick} and {@code sequence}; the journal
 * thread reads it all. The Disruptor's sequences order these writes (see the package
 * documentation), so the fields are plain.
 */
final class InputSlot {
    int client;
    int type;
    int length;
    final byte[] payload;
    long tick;
    int sequence;

    InputSlot(int maxPayload) {
        this.payload = new byte[maxPayload];
    }
}
