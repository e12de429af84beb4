package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.EntityRef;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A command buffer's provisional handle (generation 0) names an entity only once that
 * buffer's playback resolves it. Written straight to the world into an {@link EntityRef}
 * field (a spawn, add, set, field or property write, a template value), it would name no
 * entity: every such write refuses it, naming the field, and changes nothing; the same value
 * recorded in the buffer that spawned the handle is resolved as before.
 */
class ProvisionalRefTest {
    record Homing(@EntityRef long target, float speed) {
    }

    record Plain(long id) {
    }

    @Test
    void everyDirectWriteRefusesAProvisionalHandleInAnEntityRefFieldAndChangesNothing() {
        World w = new World();
        Component<Homing> homing = w.component(Homing.class);
        Component<Homing> seeker = w.component(Homing.class, "Seeker", Storage.SPARSE);
        Field target = homing.field("target");
        long real = w.spawn();
        long holder = w.spawn(new Homing(real, 1f));
        long bare = w.spawn();
        w.spawn(new Homing(real, 2f)); // the spawn shape is cached: the next spawn(Homing) takes the matched path
        CommandBuffer commands = new CommandBuffer(0);
        long provisional = commands.spawn();
        Homing bad = new Homing(provisional, 3f);

        Map<String, Executable> writes = new LinkedHashMap<>();
        writes.put("world.set", () -> w.set(holder, homing, bad));
        writes.put("world.add", () -> w.add(bare, homing, bad));
        writes.put("world.add sparse", () -> w.add(bare, seeker, bad));
        writes.put("world.spawn(a)", () -> w.spawn(bad));
        writes.put("world.spawn(values...)", () -> w.spawn(new Object[] {bad}));
        writes.put("shape.spawn", () -> w.shape(homing).spawn(bad));
        writes.put("builder.spawn", () -> w.entity().with(homing, bad).spawn());
        writes.put("builder.spawnMany", () -> w.entity().with(homing, bad).spawnMany(3));
        writes.put("builder.spawn sparse", () -> w.entity().with(seeker, bad).spawn());
        writes.put("world.setLong", () -> w.setLong(holder, target, provisional));
        writes.put("world.setProperty", () -> w.setProperty(holder, "Homing", "target", provisional));
        writes.put("property handle", () -> w.property("Homing", "target").setLong(holder, provisional));
        writes.put("template", () -> Template.named("t").with(homing, bad));
        long hash = w.stateHash();
        int count = w.entityCount();
        for (Map.Entry<String, Executable> write : writes.entrySet()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, write.getValue(), write.getKey());
            String m = e.getMessage();
            assertTrue(m.contains(".target") && m.contains("provisional handle")
                    && m.contains("record this write in the command buffer that spawned it"), write.getKey() + ": " + m);
        }
        assertEquals(count, w.entityCount(), "no entity spawned");
        assertEquals(hash, w.stateHash(), "nothing written");
        assertEquals(real, w.get(holder, homing).target());
        assertFalse(w.has(bare, homing));
        assertFalse(w.has(bare, seeker));
    }

    /**
     * A shape's spawn row writes straight to the world too: its {@code setLong} and
     * {@code setBits} refuse a provisional handle in an entity-ref field, table or sparse, as
     * {@code world.setLong} does, leaving the field as the spawn left it.
     */
    @Test
    void aShapesSpawnRowRefusesAProvisionalHandleInAnEntityRefField() {
        World w = new World();
        Component<Homing> homing = w.component(Homing.class);
        Component<Homing> seeker = w.component(Homing.class, "Seeker", Storage.SPARSE);
        long real = w.spawn();
        long provisional = new CommandBuffer(0).spawn();
        Shape.Row row = w.shape(homing, seeker).spawnRow();
        Map<String, Executable> writes = new LinkedHashMap<>();
        writes.put("row.setLong", () -> row.setLong(homing.field("target"), provisional));
        writes.put("row.setBits", () -> row.setBits(homing.field("target"), provisional));
        writes.put("row.setLong sparse", () -> row.setLong(seeker.field("target"), provisional));
        writes.put("row.setBits sparse", () -> row.setBits(seeker.field("target"), provisional));
        for (Map.Entry<String, Executable> write : writes.entrySet()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, write.getValue(), write.getKey());
            assertTrue(e.getMessage().contains(".target was given") && e.getMessage().contains("provisional handle"),
                    write.getKey() + ": " + e.getMessage());
        }
        assertEquals(0L, w.get(row.id(), homing).target(), "nothing written");
        assertEquals(0L, w.get(row.id(), seeker).target(), "nothing written");
        row.setLong(homing.field("target"), real).setBits(seeker.field("target"), real); // a real id passes
        assertEquals(real, w.get(row.id(), homing).target());
        assertEquals(real, w.get(row.id(), seeker).target());
    }

    @Test
    void theSameValueRecordedInTheBufferIsResolvedAndRealIdsNullAndPlainLongsPass() {
        World w = new World();
        Component<Homing> homing = w.component(Homing.class);
        Component<Plain> plain = w.component(Plain.class);
        long holder = w.spawn(new Homing(0, 1f));
        CommandBuffer commands = new CommandBuffer(0);
        long provisional = commands.spawn();
        commands.set(holder, homing, new Homing(provisional, 2f));
        PlaybackReport report = new CommandPlayback().apply(w, commands);
        assertTrue(report.isClean(), report.toString());
        long spawned = w.get(holder, homing).target();
        assertTrue(w.isAlive(spawned), "the recorded handle was resolved to the new entity");

        w.set(holder, homing, new Homing(dev.orrery.ecs.component.Entity.NULL, 3f)); // no entity: allowed
        assertEquals(0L, w.get(holder, homing).target());
        long p = new CommandBuffer(1).spawn();
        long e = w.spawn(new Plain(p)); // a long that is not an entity reference is not checked
        assertEquals(p, w.get(e, plain).id());
    }
}
