package dev.orrery.ecs;

/**
 * Reads the second header word of a recorded command ({@link CommandBuffer}'s encoding):
 * opcode (8 bits), payload length in words (8), column id (24) and an auxiliary value (24),
 * from the top down.
 *
 * <p><b>Threading:</b> stateless.
 */
final class CommandHeader {
    private CommandHeader() {
    }

    /** The opcode ({@code CommandBuffer.OP_*}). */
    static int op(long header) {
        return (int) (header >>> 56);
    }

    /** The payload's length in words. */
    static int payload(long header) {
        return (int) (header >>> 48) & 0xFF;
    }

    /** The column id, for commands that name one. */
    static int column(long header) {
        return (int) (header >>> 24) & 0xFF_FFFF;
    }

    /**
     * The auxiliary value, by opcode: an index into the buffer's references (a template, a
     * shape's layout, a reference value) or a field index.
     */
    static int aux(long header) {
        return (int) (header & 0xFF_FFFFL);
    }
}
