package dev.orrery.demo.net;

/**
 * The codes an {@code ERR <request> <code> <message>} reply carries. The server sends most
 * of them itself, some ({@link #FORBIDDEN}, {@link #BAD_VALUE}, {@link #QUOTA}) on the
 * sink's word through {@link ClientCommandSink#check}; the simulation answers
 * {@link #NOT_FOUND} and {@link #BAD_VALUE} through {@link CommandServer#replyError}.
 * demo/PROTOCOL.md lists each with what a client should do.
 */
public enum ErrorCode {
    /** The line has the wrong number of arguments, or an argument of the wrong form. */
    MALFORMED,
    /** The verb is not one the protocol knows. */
    UNKNOWN,
    /** The line is longer than the server's line limit; it was discarded up to its line feed. */
    TOO_LONG,
    /** A command came before {@code HELLO}, or {@code HELLO} came twice. */
    PROTOCOL,
    /**
     * The simulation's input queue is full, or this connection is over its share of it; the
     * same request may be sent again later.
     */
    BUSY,
    /** The server is at its connection limit, overall or for the client's address; sent once, then the connection is closed. */
    FULL,
    /** The simulation knows no such entity, component instance or field. */
    NOT_FOUND,
    /** The value does not fit the field (wrong type or out of the field's range). */
    BAD_VALUE,
    /** The field is server-owned: clients may not {@code SET} it. */
    FORBIDDEN,
    /** A limit is reached: the world's entity cap or this connection's spawn budget. */
    QUOTA,
    /** The connection said no {@code HELLO} in time, or sent nothing for too long; sent once (number 0), then it is closed. */
    TIMEOUT,
    /** The server failed while handling the request; the request was not applied. */
    INTERNAL
}
