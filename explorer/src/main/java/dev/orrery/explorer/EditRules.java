package dev.orrery.explorer;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which fields the page may edit, and why not: none while edits are off; never a relation's
 * target (only the relation store writes it), a reference component's value or a
 * {@code char}; otherwise what the application's {@link EditSink#readOnly} says. The page
 * shows a field it may not edit read-only with the reason, and the explorer refuses an edit
 * of it before it reaches the sink.
 *
 * <p><b>Threading:</b> built on the tick thread (it reads the world's columns); immutable after,
 * used on any thread (the sink's {@code readOnly} is thread-safe).
 */
final class EditRules {
    private final EditSink sink;
    /** The explorer's own reasons by {@code Component.field}, for the columns known at attach. */
    private final Map<String, String> own = new HashMap<>();
    /** The reason every field is read-only for (a past state), or null. */
    private final String all;

    private EditRules(String all) {
        this.sink = null;
        this.all = all;
    }

    /** Rules that make every field read-only for {@code reason} (the world as it was: the past is not edited). */
    static EditRules frozen(String reason) {
        return new EditRules(reason);
    }

    /** The rules for {@code sink}'s edits of {@code world}'s columns (read now: call on the tick thread). */
    EditRules(EditSink sink, World world) {
        this.sink = sink;
        this.all = null;
        for (Component<?> c : world.columns()) {
            for (Field f : c.fields()) {
                String why = ownReason(c, f);
                if (why != null) {
                    own.put(c.name() + "." + f.name(), why);
                }
            }
        }
    }

    /** Why {@code field} of {@code component} cannot be edited from the page, or null when it can. */
    String readOnly(Component<?> component, Field field) {
        if (all != null) {
            return all;
        }
        if (sink == null) {
            return "edits are off; attach the explorer with ExplorerOptions.withEdits(sink) (the demo: "
                    + "--explore-edits)";
        }
        String why = ownReason(component, field);
        return why != null ? why : readOnly(component.name(), field.name());
    }

    private static String ownReason(Component<?> component, Field field) {
        if (component.isRelationMarker()) {
            return component.name() + "." + field.name() + " is the relation's target, which only the relation "
                    + "store writes (world.relations().add/remove); it cannot be set as a field";
        }
        if (component.kind() == ComponentKind.REFERENCE || field.type() == FieldType.OBJECT) {
            return component.name() + " is a reference component; only fields of primitives can be typed here";
        }
        if (field.type() == FieldType.CHAR) {
            return component.name() + "." + field.name() + " is a char, which the page cannot type; edit numbers "
                    + "and booleans";
        }
        return null;
    }

    /** Why an edit named by {@code component} and {@code field} is refused before the sink, or null. Any thread. */
    String readOnly(String component, String field) {
        if (sink == null) {
            return "edits are off; attach the explorer with ExplorerOptions.withEdits(sink) (the demo: "
                    + "--explore-edits)";
        }
        String why = own.get(component + "." + field);
        if (why != null) {
            return why;
        }
        try {
            return sink.readOnly(component, field);
        } catch (RuntimeException e) {
            return "the application's EditSink.readOnly failed for " + component + "." + field + ": " + e;
        }
    }

    /**
     * Why an edit of {@code field} of {@code component} to {@code value} is refused before the
     * sink, or null: read against the world as it is now (a column registered after attach
     * included), so the sink is handed only a component and field that exist and may be
     * edited, and a value of the field's type. Whether the entity lives and holds it, and the
     * field's {@code @Range} and validators, are the simulation's to check when it applies the
     * edit (at its tick, the same in every replay), and it reports them as the edit's outcome.
     * Tick thread.
     */
    String check(World world, String component, String field, String value) {
        Component<?> c = null;
        for (Component<?> x : world.columns()) {
            if (x.name().equals(component)) {
                c = x;
                break;
            }
        }
        if (c == null) {
            return "no component named '" + component + "' (names are matched exactly); the components are "
                    + QueryText.allNames(world);
        }
        Field f = null;
        for (Field x : c.fields()) {
            if (x.name().equals(field)) {
                f = x;
            }
        }
        if (f == null) {
            List<String> names = new ArrayList<>();
            c.fields().forEach(x -> names.add(x.name()));
            return names.isEmpty() ? c.name() + " is a tag: it has no fields to edit"
                    : c.name() + " has no field '" + field + "'; its fields are " + String.join(", ", names);
        }
        String why = readOnly(c, f);
        if (why != null) {
            return why;
        }
        Object boxed = parse(f.type(), value);
        if (boxed == null) {
            return c.name() + "." + f.name() + " is " + typeName(f.type()) + "; '" + clip(value) + "' is not one: type "
                    + expected(f.type());
        }
        return null;
    }

    /** {@code text} as a value of {@code type}, boxed, or null when it is not one. */
    static Object parse(FieldType type, String text) {
        String t = text.strip();
        try {
            switch (type) {
                case BOOLEAN -> {
                    return t.equalsIgnoreCase("true") ? Boolean.TRUE : t.equalsIgnoreCase("false") ? Boolean.FALSE
                            : null;
                }
                case BYTE -> {
                    return Byte.parseByte(t);
                }
                case SHORT -> {
                    return Short.parseShort(t);
                }
                case INT -> {
                    return Integer.parseInt(t);
                }
                case LONG -> {
                    return Long.parseLong(t);
                }
                case FLOAT -> {
                    float v = Float.parseFloat(t);
                    return Float.isInfinite(v) && !t.contains("Infinity") ? null : v;
                }
                case DOUBLE -> {
                    double v = Double.parseDouble(t);
                    return Double.isInfinite(v) && !t.contains("Infinity") ? null : v;
                }
                default -> {
                    return null;
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String typeName(FieldType type) {
        String name = type.javaType().getSimpleName();
        return (type == FieldType.INT ? "an " : "a ") + name;
    }

    private static String expected(FieldType type) {
        return switch (type) {
            case BOOLEAN -> "true or false";
            case BYTE -> "a whole number from " + Byte.MIN_VALUE + " to " + Byte.MAX_VALUE;
            case SHORT -> "a whole number from " + Short.MIN_VALUE + " to " + Short.MAX_VALUE;
            case INT -> "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
            case LONG -> "a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
            case FLOAT -> "a number (such as 12.5) within a float's range";
            case DOUBLE -> "a number (such as 12.5) within a double's range";
            default -> "a value the page cannot type";
        };
    }

    private static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }

    /** Whether edits are on. */
    boolean on() {
        return sink != null;
    }
}
