package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;

/**
 * Thrown when a system's job asks a chunk for a column it did not declare, or asks to write
 * a column it declared read-only.
 */
public final class UndeclaredAccessException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception naming the system and the column.
     *
     * @param owner the system's name
     * @param column the column asked for
     * @param write true for a write of a column not declared written, false for a read of a column
     *     not declared at all; picks the message and the fix ({@code .writes} or {@code .reads}; for
     *     a relation's marker column, {@code .reads(childOf.column())} as Java names it, and for a
     *     write the pair commands, since only the relation store writes that column)
     */
    public UndeclaredAccessException(String owner, Component<?> column, boolean write) {
        super("system '" + owner + "' " + (write ? "wrote" : "read") + " component " + column + " but declared "
                + (write ? "no write of it" : "neither a read nor a write of it") + "; "
                + (write && column.isRelationMarker()
                        ? "a relation's column is written only by the relation store: record job.commands().addPair(holder, "
                                + EffectChecks.declared(column).replace(".column()", "") + ", target) / removePair(...), "
                                + "declared with .adds(" + EffectChecks.declared(column) + ") / .removes("
                                + EffectChecks.declared(column) + ")"
                        : "add ." + (write ? "writes(" : "reads(") + EffectChecks.declared(column)
                                + ") to the system's declaration"));
    }

    private UndeclaredAccessException(String message) {
        super(message);
    }

    /** A change test ({@code changed}, {@code added}, {@code firstChanged}) of a column the system did not declare. */
    static UndeclaredAccessException changeTest(String owner, Component<?> column) {
        return new UndeclaredAccessException("system '" + owner + "' tested whether component " + column + " changed, "
                + "but declared neither a read nor a write of it, so it is not ordered after the systems that write it "
                + "and the answer would depend on timing; add .reads(" + EffectChecks.declared(column) + ") to the system's declaration");
    }
}
