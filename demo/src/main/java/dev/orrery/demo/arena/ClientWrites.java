package dev.orrery.demo.arena;

import dev.orrery.demo.net.ErrorCode;
import dev.orrery.demo.net.Refusal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The arena's allow-list of client writes: which component fields a client may {@code SET},
 * each with its valid range. Every other field is server-owned (its value is an index, an
 * entity id or a state the systems rely on: {@code Agent.team}, {@code Agent.squad},
 * {@code Projectile.*}, {@code Target.*}, {@code Velocity.*}) and a {@code SET} of it is
 * refused {@link ErrorCode#FORBIDDEN}; a value outside its field's range is refused
 * {@link ErrorCode#BAD_VALUE}. So no client line reaches a system with a value that breaks it.
 *
 * <p>This is the one table of the demo's write rules: the server checks a {@code SET} with it
 * at the boundary (before the input queue) and the input system checks again before it
 * writes, so a journal recorded before the rules, or one edited by hand, replays safely. It
 * is meant to move onto a per-field validator API in {@code ecs} once there is one.
 *
 * <p>Every writable field is a {@code float}; a value is checked after its conversion to
 * {@code float}, the form the world stores.
 *
 * <p><b>Threading:</b> immutable once built; any thread may use it.
 */
public final class ClientWrites {
    /**
     * One field a client may write, with its inclusive range.
     *
     * @param component the component instance name, as {@code SET} names it ({@code Primary})
     * @param field     the field name
     * @param min       the smallest value allowed
     * @param max       the largest value allowed
     */
    public record Rule(String component, String field, float min, float max) {
        /** Checks the names and that the range is finite and not empty. */
        public Rule {
            Objects.requireNonNull(component, "component");
            Objects.requireNonNull(field, "field");
            if (!(Float.isFinite(min) && Float.isFinite(max) && min <= max)) {
                throw new IllegalArgumentException(component + "." + field + " needs a finite range; got " + min
                        + " to " + max);
            }
        }

        /** Whether {@code value}, stored as a float, is in range. */
        public boolean allows(double value) {
            float f = (float) value;
            return Double.isFinite(value) && f >= min && f <= max;
        }
    }

    private final Map<String, Rule> rules = new LinkedHashMap<>();
    private final String allowed;

    private ClientWrites(List<Rule> list) {
        StringBuilder names = new StringBuilder();
        for (Rule r : list) {
            rules.put(key(r.component(), r.field()), r);
            names.append(names.length() == 0 ? "" : ", ").append(r.component()).append('.').append(r.field());
        }
        this.allowed = names.toString();
    }

    /**
     * The arena's rules: {@code Health.hp}, both weapons' numbers, and {@code Position} within
     * the arena ({@code 0} to just under its side).
     */
    public static ClientWrites forArena(ArenaConfig config) {
        float edge = Math.nextDown(config.side());
        List<Rule> list = new ArrayList<>();
        list.add(new Rule("Health", "hp", 0f, 1_000_000f));
        list.add(new Rule("Position", "x", 0f, edge));
        list.add(new Rule("Position", "y", 0f, edge));
        for (String weapon : new String[] {"Primary", "Secondary"}) {
            list.add(new Rule(weapon, "cooldown", 0f, 60f));
            list.add(new Rule(weapon, "reload", 0.05f, 60f));
            list.add(new Rule(weapon, "damage", 0f, 1_000_000f));
            list.add(new Rule(weapon, "speed", 0.1f, 1_000f));
            list.add(new Rule(weapon, "spread", 0f, 100f));
        }
        return new ClientWrites(list);
    }

    /** The rules, in the order they were declared. */
    public List<Rule> rules() {
        return Collections.unmodifiableList(new ArrayList<>(rules.values()));
    }

    /** The rule of a field, or null if clients may not write it. */
    public Rule rule(String component, String field) {
        return rules.get(key(component, field));
    }

    /**
     * Checks a {@code SET} as the client wrote it.
     *
     * @param valueText the value's text: a decimal (an exponent allowed) or {@code true}/{@code false}
     * @return null if the write is allowed, else a {@link ErrorCode#FORBIDDEN} or
     *         {@link ErrorCode#BAD_VALUE} refusal naming the field and its range
     */
    public Refusal check(String component, String field, String valueText) {
        Rule r = rule(component, field);
        if (r == null) {
            return forbidden(component, field);
        }
        double v;
        try {
            v = valueText.equals("true") || valueText.equals("false") ? Double.NaN : Double.parseDouble(valueText);
        } catch (NumberFormatException e) {
            v = Double.NaN;
        }
        return r.allows(v) ? null : outOfRange(r);
    }

    /** The refusal of a write to a server-owned (or unknown) field, listing the writable ones. */
    public Refusal forbidden(String component, String field) {
        return new Refusal(ErrorCode.FORBIDDEN, component + "." + field
                + " is server-owned and clients may not SET it; clients may SET " + allowed);
    }

    /** The refusal of a value out of {@code r}'s range, naming the range. */
    public static Refusal outOfRange(Rule r) {
        return new Refusal(ErrorCode.BAD_VALUE, r.component() + "." + r.field() + " takes a decimal number from "
                + format(r.min()) + " to " + format(r.max()) + "; send a value in that range");
    }

    private static String key(String component, String field) {
        return component + '.' + field;
    }

    private static String format(float f) {
        return f == Math.rint(f) && Math.abs(f) < 1e9f ? Long.toString((long) f) : Float.toString(f);
    }
}
