package dev.orrery.testkit;

/**
 * One way two worlds differ at the same tick: an entity alive in one only, a component one
 * entity holds in one world only, a field whose values differ, or a relation's pairs: a
 * holder's targets ({@code entity 2v1 Likes.targets: [3v1, 4v1] in the reference, [3v1, 5v1]
 * here}) or, where every holder's targets agree, the order of a target's holders ({@code
 * ChildOf.holders}: a parent's children), or, where both agree, with no entity, the pairs in
 * the order they were made ({@code relation Likes, pairs in the order made: [(0v1, 1v1), (2v1,
 * 3v1)] in the reference, [(2v1, 3v1), (0v1, 1v1)] here}, each as (holder, target), with
 * {@code 1 made and removed} where pairs were made and removed between them). Where
 * components and pairs agree, the layout: an
 * entity at another place in its archetype ({@code entity 1v1 place: [Pos] chunk 0 row 1 in
 * the reference, [Pos] chunk 0 row 2 here}), or, for the whole world, with no entity, an
 * archetype made and emptied in one world only ({@code archetype [Pos, Vel]: absent in the
 * reference, empty here}), the archetypes in another order ({@code archetype order: ...}, the
 * empty ones marked when only they moved) or other ids for the next spawns
 * ({@code next ids: [1v2, 2v2, 3v1] in the reference, [2v2, 1v2, 3v1] here}: ids freed in
 * another order).
 *
 * @param entity the entity, as {@code index v generation} ({@code 3v1}), or {@code null} for a
 *     difference of the whole world ({@code archetype [Pos, Vel]}, {@code archetype order},
 *     {@code next ids}) or of a relation's pairs in the order made
 * @param component the component's column name ({@code Position}, {@code RenderData:Fog}), the
 *     relation's name for a pair difference, or {@code null} when the entity itself is alive in
 *     one world only, or for a difference of place or of the whole world
 * @param field the field's name, {@code targets}, {@code holders} or {@code pairs in the order
 *     made} for a pair difference,
 *     {@code place}, {@code archetype [Pos, Vel]}, {@code archetype order} or {@code next ids}
 *     for the layout, or
 *     {@code null} for a whole component or entity
 * @param expected the reference run's value ({@code "absent"} when it has none)
 * @param actual the checked run's value ({@code "absent"} when it has none)
 */
public record Difference(String entity, String component, String field, String expected, String actual) {
    @Override
    public String toString() {
        if (entity == null) {
            return (component == null ? "" : "relation " + component + ", ") + field + ": " + expected
                    + " in the reference, " + actual + " here";
        }
        String what = component == null ? (field == null ? "" : " " + field)
                : " " + component + (field == null ? "" : "." + field);
        return "entity " + entity + what + ": " + expected + " in the reference, " + actual + " here";
    }
}
