package dev.orrery.testkit;

/**
 * One way two worlds differ at the same tick: an entity alive in one only, a component one
 * entity holds in one world only, a field whose values differ, or a relation's pairs: a
 * holder's targets ({@code entity 2v1 Likes.targets: [3v1, 4v1] in the reference, [3v1, 5v1]
 * here}) or, where every holder's targets agree, the order of a target's holders ({@code
 * ChildOf.holders}: a parent's children).
 *
 * @param entity the entity, as {@code index v generation} ({@code 3v1})
 * @param component the component's column name ({@code Position}, {@code RenderData:Fog}), the
 *     relation's name for a pair difference, or {@code null} when the entity itself is alive in
 *     one world only
 * @param field the field's name, {@code targets} or {@code holders} for a pair difference, or
 *     {@code null} for a whole component or entity
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
