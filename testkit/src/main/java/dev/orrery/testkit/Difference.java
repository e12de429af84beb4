package dev.orrery.testkit;

/**
 * One way two worlds differ at the same tick: an entity alive in one only, a component one
 * entity holds in one world only, or a field whose values differ.
 *
 * @param entity the entity, as {@code index v generation} ({@code 3v1})
 * @param component the component's column name ({@code Position}, {@code RenderData:Fog}), or
 *     {@code null} when the entity itself is alive in one world only
 * @param field the field's name, or {@code null} for a whole component or entity
 * @param expected the reference run's value ({@code "absent"} when it has none)
 * @param actual the checked run's value ({@code "absent"} when it has none)
 */
public record Difference(String entity, String component, String field, String expected, String actual) {
    @Override
    public String toString() {
        String what = component == null ? "" : " " + component + (field == null ? "" : "." + field);
        return "entity " + entity + what + ": " + expected + " in the reference, " + actual + " here";
    }
}
