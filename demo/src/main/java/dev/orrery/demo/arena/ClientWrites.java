package dev.orrery.demo.arena;

import dev.orrery.demo.net.ErrorCode;
import dev.orrery.demo.net.Refusal;
import dev.orrery.ecs.component.Field;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arena's allow-list of client writes: which component fields a client may {@code SET}
 * at all. Every other field is server-owned (its value is an index, an entity id or a state
 * the systems rely on: {@code Agent.team}, {@code Agent.squad}, {@code Projectile.*},
 * {@code Target.*}, {@code Velocity.*}, {@code Squad.*}, and {@code ChildOf.target}, an agent's
 * parent, which no allow-list may hold) and a {@code SET} of it is refused
 * {@link ErrorCode#FORBIDDEN}.
 *
 * <p>The values a field takes are not here: they are the world's field rules, a
 * {@link dev.orrery.ecs.component.Range} on the component record or a validator the arena
 * registers ({@code Position} within the arena, {@code Agent.team} below the team count).
 * The input system checks a {@code SET}'s value with {@code World.checkWrite} and writes it
 * with {@code World.setProperty}, both of which refuse a value that breaks a rule; the
 * refusal is answered {@link ErrorCode#BAD_VALUE} with the rule's message. The server checks
 * this list at the boundary (before the input queue) and the input system checks it again, so
 * a journal recorded before the rules, or edited by hand, replays safely.
 *
 * <p><b>Threading:</b> immutable once built; any thread may use it.
 */
public final class ClientWrites {
    private final Map<String, Field> fields = new LinkedHashMap<>();
    private final String allowed;

    /**
     * An allow-list of {@code fields}, each named by its column's instance name and field
     * name ({@code Primary.damage}).
     *
     * @throws IllegalArgumentException if a field is a relation's marker ({@code ChildOf.target}):
     *     only the relation store writes it, so a client write could never be applied
     */
    public ClientWrites(List<Field> fields) {
        StringBuilder names = new StringBuilder();
        for (Field f : fields) {
            if (f.component().isRelationMarker()) {
                throw new IllegalArgumentException(f.component().name() + "." + f.name() + " is the marker of relation "
                        + f.component().relation() + ", which only the relation store writes; leave it off the "
                        + "allow-list (a client changes squads by the server's commands, not by SET)");
            }
            String key = key(f.component().name(), f.name());
            this.fields.put(key, f);
            names.append(names.length() == 0 ? "" : ", ").append(key);
        }
        this.allowed = names.toString();
    }

    /** The fields clients may write, in the order they were given. */
    public List<Field> fields() {
        return List.copyOf(fields.values());
    }

    /** The field a client may write under these names, or null if clients may not write it. */
    public Field field(String component, String field) {
        return fields.get(key(component, field));
    }

    /**
     * Checks that a {@code SET} names a field clients may write.
     *
     * @return null if the field is on the list, else a {@link ErrorCode#FORBIDDEN} refusal
     *         naming the fields that are
     */
    public Refusal check(String component, String field) {
        return field(component, field) != null ? null : forbidden(component, field);
    }

    /** The refusal of a write to a server-owned (or unknown) field, listing the writable ones. */
    public Refusal forbidden(String component, String field) {
        return new Refusal(ErrorCode.FORBIDDEN, component + "." + field
                + " is server-owned and clients may not SET it; clients may SET " + allowed);
    }

    private static String key(String component, String field) {
        return component + '.' + field;
    }
}
