package dev.orrery.explorer;

import java.util.Map;

/**
 * The fields of an edit as {@code POST /api/edit} sends them (a form: entity, component,
 * field, value), read from the form's decoded fields and checked for what the request alone
 * shows: all four present, the names not blank, the entity an id, the value short. Whether the
 * component and field exist and may be edited, and whether the value fits the field, is
 * {@link EditRules#check}'s to say against the world.
 *
 * <p><b>Threading:</b> immutable; read on a request thread.
 *
 * @param entity    the entity's id
 * @param component the component instance's name, as typed
 * @param field     the field's name, as typed
 * @param value     the value, stripped of surrounding white space
 */
record EditForm(long entity, String component, String field, String value) {
    /** Longest value an edit may carry (a number or a boolean is far shorter). */
    static final int MAX_VALUE = 100;

    /**
     * The edit {@code form} (a form's decoded fields, as {@link Routes#query} reads them) asks for.
     *
     * @throws QueryText.BadQuery naming what is missing or wrong, answered 400
     */
    static EditForm of(Map<String, String> form) {
        String entityText = form.get("entity");
        String component = form.get("component");
        String field = form.get("field");
        String value = form.get("value");
        if (entityText == null || component == null || field == null || value == null || component.isBlank()
                || field.isBlank()) {
            throw new QueryText.BadQuery("an edit needs entity (the id), component, field and value");
        }
        long entity = QueryText.entityId(entityText, "entity=" + entityText);
        if (value.length() > MAX_VALUE) {
            throw new QueryText.BadQuery("the value is " + value.length() + " characters long; a field takes a number "
                    + "or true/false of at most " + MAX_VALUE + " characters");
        }
        return new EditForm(entity, component, field, value.strip());
    }
}
