package dev.orrery.ecs.component;

/**
 * A boundary write refused because the value breaks the field's {@link Range} or one of its
 * {@link FieldValidator}s. Nothing was written. The message names the entity, the column and
 * field ({@code Agent.squad}), the value and the rule; a server can pass it to its client as
 * is.
 */
public final class InvalidFieldValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The entity the write was for, an {@link Entity} id. */
    private final long entity;
    private final transient Field field;
    /** The refused value, as text. */
    private final String value;
    /** What the field takes, as the range or validator said it. */
    private final String rule;

    /**
     * A refusal of {@code value} (as text) in {@code field} of {@code entity}.
     *
     * @param entity the entity the write was for
     * @param field  the field written; named in the message, not serialized
     * @param value  the refused value, as text
     * @param rule   what the field takes, as the validator said it
     */
    public InvalidFieldValueException(long entity, Field field, String value, String rule) {
        super("entity " + Entity.toString(entity) + ": " + field + " = " + value + " is refused; " + field + " takes " + rule
                + ". Nothing was written: send a value the field takes");
        this.entity = entity;
        this.field = field;
        this.value = value;
        this.rule = rule;
    }

    /**
     * The entity the write was for.
     *
     * @return the entity's id
     */
    public long entity() {
        return entity;
    }

    /**
     * The field the write was for.
     *
     * @return the field handle; {@code null} in an exception read back from serialized form (the
     *     field is not serialized)
     */
    public Field field() {
        return field;
    }

    /**
     * The refused value, as text.
     *
     * @return the value as the caller gave it, in text ("-5", "NaN")
     */
    public String value() {
        return value;
    }

    /**
     * What the field takes, as the range or validator said it ({@code "a whole number from 0 to 63"}).
     *
     * @return the rule's words, which finish "the field takes ..."
     */
    public String rule() {
        return rule;
    }
}
