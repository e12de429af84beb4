package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.access.StructuralEffects;
import dev.orrery.ecs.component.Component;
import java.util.List;
import org.junit.jupiter.api.Test;

class StructuralEffectsTest {
    record Position(float x, float y) {
    }

    record Health(int hp) {
    }

    record Marker() {
    }

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Health> health = world.component(Health.class);
    private final Component<Marker> marker = world.component(Marker.class);

    @Test
    void shouldAllowWhatIsDeclaredAndApplyIt() {
        CommandBuffer buf = new CommandBuffer(0);
        buf.declareEffects(StructuralEffects.builder("spawner").spawns(pos).adds(marker).removes(health)
                .despawns().build());
        long e = world.spawn(new Health(3));
        long h = buf.spawn();
        buf.add(h, pos, new Position(1, 2));
        buf.add(e, marker);
        buf.remove(e, health);
        buf.despawn(h);
        assertEquals(5, buf.commandCount());
        PlaybackReport r = new CommandPlayback().apply(world, buf);
        assertTrue(r.isClean(), r.toString());
        assertTrue(world.has(e, marker));
    }

    @Test
    void shouldRefuseEachUndeclaredKindNamingSystemAndComponent() {
        CommandBuffer buf = new CommandBuffer(0);
        buf.declareEffects(StructuralEffects.builder("mover").adds(marker).build());
        long e = world.spawn(new Health(3));
        UndeclaredCommandException spawn = assertThrows(UndeclaredCommandException.class, buf::spawn);
        assertTrue(spawn.getMessage().contains("'mover'") && spawn.getMessage().contains(".spawns("),
                spawn.getMessage());
        UndeclaredCommandException remove = assertThrows(UndeclaredCommandException.class,
                () -> buf.remove(e, health));
        assertTrue(remove.getMessage().contains(health.toString()) && remove.getMessage().contains(".removes("),
                remove.getMessage());
        UndeclaredCommandException set = assertThrows(UndeclaredCommandException.class,
                () -> buf.set(e, health, new Health(1)));
        assertTrue(set.getMessage().contains(".setsLater("), set.getMessage());
        assertThrows(UndeclaredCommandException.class, () -> buf.add(e, pos, new Position(0, 0)));
        assertThrows(UndeclaredCommandException.class, () -> buf.despawn(e));
        assertEquals(0, buf.commandCount(), "a refused command leaves nothing recorded");
        buf.add(e, marker);
        assertEquals(1, buf.commandCount());
    }

    /**
     * A template spawn needed only {@code .spawns(...)} with any components, where a spawn
     * through a shape needs every column declared: a system that declared {@code .spawns(pos)}
     * and spawned a template of Position and Health got no sync point before a later reader of
     * Health, which then missed the tick's new entities without a word. It is refused now as the
     * shape spawn is, naming the system, the template, the column and the declaration to add.
     */
    @Test
    void shouldRefuseATemplateSpawnWhoseColumnsAreNotAllDeclared() {
        Template crate = Template.named("Crate").with(pos, new Position(1, 2)).with(health, new Health(3)).build();
        CommandBuffer buf = new CommandBuffer(0);
        buf.declareEffects(StructuralEffects.builder("stacker").spawns(pos).build());
        UndeclaredCommandException e = assertThrows(UndeclaredCommandException.class, () -> buf.spawn(crate));
        assertTrue(e.getMessage().contains("'stacker'") && e.getMessage().contains("template 'Crate'")
                && e.getMessage().contains(health.toString()) && e.getMessage().contains(".spawns(" + health + ")"),
                e.getMessage());
        assertEquals(0, buf.commandCount(), "a refused template spawn leaves nothing recorded");
        buf.declareEffects(StructuralEffects.builder("stacker").spawns(pos).adds(health).build());
        buf.spawn(crate);                                     // a column among the adds counts, as for a shape
        buf.declareEffects(StructuralEffects.builder("stacker").spawns(pos, health).build());
        buf.spawn(crate);
        assertEquals(2, buf.commandCount());
        assertTrue(new CommandPlayback().apply(world, buf).isClean());
    }

    @Test
    void shouldCheckNothingWhenUnboundAndListTouchedComponents() {
        CommandBuffer buf = new CommandBuffer(0);
        assertTrue(buf.declaredEffects().isUnchecked());
        buf.despawn(buf.spawn());
        StructuralEffects fx = StructuralEffects.builder("s").spawns(pos, health).removes(health).setsLater(marker)
                .build();
        assertEquals(List.of(pos, health, marker), fx.touchedComponents());
        assertTrue(StructuralEffects.builder("none").build().isEmpty());
        buf.declareEffects(null);
        assertTrue(buf.declaredEffects().isUnchecked());
    }
}
