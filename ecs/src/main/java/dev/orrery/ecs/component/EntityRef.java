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
 *
 * <p>Only that buffer's playback resolves a handle. Written straight to the world into such
 * a field (a spawn, add or set of the record, a field or property write, a shape row's
 * write, a job's by-id or chunk write, a template's value), a provisional handle would
 * name no entity: it is refused with an {@link IllegalArgumentException} naming the field,
 * before anything is written. Record the write in the buffer that spawned the handle
 * instead. The check reads only the entity-ref fields, and only of types that have some. A
 * shape's bulk writer ({@code Shape.spawnMany(n, writer)}) writes the chunk's arrays
 * unchecked, as its values are trusted.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD})
public @interface EntityRef {
}
