package dev.orrery.explorer;

import java.util.List;

/**
 * Where the explorer hands a field edit made on the page, when edits are on. An edit is an
 * input, not a write: the application puts it through the same path as a client's command
 * (its allow-list of writable fields, the input pipeline, the journal), so it is applied on a
 * coming tick, recorded and replayed, and the world's field rules check its value.
 *
 * <p><b>Threading:</b> {@link #submit} and {@link #outcomes} are called on the explorer's
 * HTTP threads, possibly several at once; an implementation is thread-safe and does not
 * block for long (it never waits for a tick).
 */
public interface EditSink {
    /**
     * Offers one edit: set field {@code field} of component instance {@code component} on
     * entity {@code entity} to {@code value} (as typed: a decimal number, {@code true} or
     * {@code false}).
     *
     * @return null when the edit was taken (it is applied at a coming tick), else why it was
     *     refused, naming the field and what to do
     */
    String submit(long entity, String component, String field, String value);

    /** The last outcomes of taken edits as the simulation answered them (newest last); none by default. */
    default List<String> outcomes() {
        return List.of();
    }
}
