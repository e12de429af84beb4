package dev.orrery.explorer;

/**
 * One edit made on the explorer's page: its number, the field and the value, and its
 * outcome once known. The explorer makes it and hands it to the {@link EditSink}; the sink
 * (or the system that applies the input) reports the outcome with {@link #applied} or
 * {@link #refused}. The first outcome reported counts; later ones are ignored.
 *
 * <p><b>Threading:</b> the getters on any thread; {@link #applied} and {@link #refused} on
 * any thread, at most one taking effect (they are synchronized on the explorer's ledger).
 */
public final class Edit {
    /** Where an edit stands. */
    enum Status {
        /** Taken by the sink; no outcome yet. */
        PENDING,
        /** Applied at {@link Edit#tick()}. */
        APPLIED,
        /** Refused, at once or by the simulation, for {@link Edit#reason()}. */
        REFUSED,
        /** Applied, then overwritten in the same tick by a later edit of the same field. */
        SUPERSEDED
    }

    private final EditLedger ledger;
    private final long id;
    private final long entity;
    private final String component;
    private final String field;
    private final String value;
    private final long madeAtMillis;
    private Status status = Status.PENDING;
    private long tick = -1;
    private String reason;
    private long supersededBy;

    Edit(EditLedger ledger, long id, long entity, String component, String field, String value) {
        this.ledger = ledger;
        this.id = id;
        this.entity = entity;
        this.component = component;
        this.field = field;
        this.value = value;
        this.madeAtMillis = System.currentTimeMillis();
    }

    /**
     * The edit's number, unique in this explorer, from 1.
     *
     * @return the number, 1 or more, as the page shows it
     */
    public long id() {
        return id;
    }

    /**
     * The entity whose field is set.
     *
     * @return the entity's id
     */
    public long entity() {
        return entity;
    }

    /**
     * The component instance's name ({@code Primary}, {@code Health}).
     *
     * @return the instance name, never null
     */
    public String component() {
        return component;
    }

    /**
     * The field's name.
     *
     * @return the record component's name ({@code hp}), never null
     */
    public String field() {
        return field;
    }

    /**
     * The value as typed on the page, trimmed.
     *
     * @return the text, never null
     */
    public String value() {
        return value;
    }

    /**
     * Reports that the edit was applied in tick {@code tick}. Any thread.
     *
     * @param tick the tick in which it was applied, as the page shows it
     */
    public void applied(long tick) {
        ledger.applied(this, tick);
    }

    /**
     * Reports that the simulation refused the edit, for {@code why} (shown on the page as it is). Any thread.
     *
     * @param why the reason, naming the field and what to do; {@code null} shows "refused (no
     *     reason given)"
     */
    public void refused(String why) {
        ledger.refused(this, why == null ? "refused (no reason given)" : why);
    }

    @Override
    public String toString() {
        return "edit " + id + ": " + component + "." + field + " = " + value + " on entity " + entity;
    }

    // ---- the ledger's side (guarded by the ledger's lock)

    Status status() {
        return status;
    }

    long tick() {
        return tick;
    }

    String reason() {
        return reason;
    }

    long supersededBy() {
        return supersededBy;
    }

    long madeAtMillis() {
        return madeAtMillis;
    }

    boolean sameTarget(Edit other) {
        return entity == other.entity && component.equals(other.component) && field.equals(other.field);
    }

    void settle(Status s, long atTick, String why, long by) {
        status = s;
        tick = atTick;
        reason = why;
        supersededBy = by;
    }
}
