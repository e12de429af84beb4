package dev.orrery.explorer;

/**
 * Where the explorer hands a field edit made on the page, when edits are on. An edit is an
 * input, not a write: the application puts it through the same path as a client's command
 * (its allow-list of writable fields, the input pipeline, the journal), so it is applied on a
 * coming tick, recorded and replayed, and the world's field rules check its value.
 *
 * <p>Every edit has a number ({@link Edit#id()}) and the page shows its outcome against it:
 * refused at once (what {@link #submit} returns), then, for one that was taken, applied at a
 * tick ({@link Edit#applied}) or refused by the simulation with its reason
 * ({@link Edit#refused}), or superseded by a later edit of the same field in the same tick.
 * A sink that never reports leaves the edit shown as waiting for its outcome.
 *
 * <p><b>Threading:</b> {@link #submit} and {@link #readOnly} are called on the explorer's
 * HTTP threads, possibly several at once; an implementation is thread-safe and does not
 * block for long (it never waits for a tick). {@link Edit#applied} and {@link Edit#refused}
 * may be called on any thread, typically the tick thread where the input is applied.
 */
public interface EditSink {
    /**
     * Offers edit {@code edit}: set its field to its value (as typed: a decimal number,
     * {@code true} or {@code false}). Keep the edit (its {@link Edit#id()} may travel with the
     * input) to report its outcome when the simulation applies or refuses it.
     *
     * @param edit the edit, never null; its component and field names, whether the field may be
     *     edited and its value's type were checked against the world at a recent safe point
     * @return null when the edit was taken (it is applied at a coming tick), else why it was
     *     refused, naming the field and what to do
     */
    String submit(Edit edit);

    /**
     * Why field {@code field} of component instance {@code component} cannot be edited from
     * the page (the page shows it read-only with this reason), or null when it can be. By
     * default every field can; the explorer itself makes a relation's target and a reference
     * component read-only.
     *
     * @param component the component instance's name, as {@link Edit#component()} gives it
     * @param field the field's name, as {@link Edit#field()} gives it
     * @return the reason shown beside the field, or {@code null} to let it be edited
     */
    default String readOnly(String component, String field) {
        return null;
    }
}
