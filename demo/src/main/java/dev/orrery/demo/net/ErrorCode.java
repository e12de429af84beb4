package dev.orrery.demo.net;

/**
 * The codes an {@code ERR <request> <code> <message>} reply carries. The server itself
 * sends the first six; the simulation answers {@link #NOT_FOUND} and {@link #BAD_VALUE}
 * through {@link CommandServer#replyError}.
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
    /** The simulation's input queue is full; the same request may be sent again later. */
    BUSY,
    /** The server is at its connection limit; sent once, then the connection is closed. */
    FULL,
    /** The simulation knows no such entity, component instance or field. */
    NOT_FOUND,
    /** The value does not fit the field (wrong type or out of range). */
    BAD_VALUE,
    /** The server failed while handling the request; the request was not applied. */
    INTERNAL
}
