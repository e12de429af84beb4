package dev.orrery.ecs.component;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code long} field of a value component as holding an entity id. When a command
 * buffer writes such a field with a provisional handle (an entity spawned in the same
 * tick), playback replaces the handle with the real id, so one job can spawn an entity and
 * name it in another entity's component: {@code record Target(@EntityRef long entity) {}}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD})
public @interface EntityRef {
}
