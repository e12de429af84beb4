package dev.orrery.explorer;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import java.util.HashMap;
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

    /** Whether edits are on. */
    boolean on() {
        return sink != null;
    }
}
