package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * Once warm, the calls a steady-state loop makes on a bare world allocate nothing per call:
 * iterating a query entity by entity (read-only or not, with a sparse filter or not), spawning
 * from a template, finding a named instance, by-id reads and writes, change-filtered chunk
 * loops, sparse adds and removes. Each call runs {@value #WARM} times first (the JIT compiled
 * it), then the least of {@value #WINDOWS} windows of {@value #CALLS} calls is measured with
 * HotSpot's per-thread allocation counter (a window now and then pays for the JIT): it must
 * stay under one byte a call. Bytes, never time. The consumers are built before the measure
 * (a capturing lambda made per call is the caller's allocation, not the world's).
 */
class PerCallAllocationTest {
    record Position(float x, float y) {
    }

    record Velocity(float dx, float dy) {
    }

    record Fog(float density) {
    }

    record Burning(float dps) {
    }

    record Spawned() {
    }

    private static final int WARM = 20_000;
    private static final int WINDOWS = 3;
    private static final int CALLS = 10_000;
    private static final int ENTITIES = 64;

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Velocity> vel = world.component(Velocity.class);
    private final Component<Fog> fog = world.component(Fog.class, "Fog");
    private final Component<Burning> burning = world.component(Burning.class, Storage.SPARSE);
    private final Component<Spawned> spawned = world.component(Spawned.class);
    private final Position somewhere = new Position(1, 2);
    private final Velocity drift = new Velocity(3, 4);
    private final Burning fire = new Burning(5);
    private final long[] ids = new long[ENTITIES];
    private long sink;
    private long last;

    PerCallAllocationTest() {
        for (int i = 0; i < ENTITIES; i++) {
            ids[i] = world.spawn(new Position(i, 0), new Velocity(1, 1), new Fog(0.5f));
            if (i % 2 == 0) {
                world.add(ids[i], burning, fire);
            }
        }
    }

    /** The least bytes one call of {@code call} allocated, averaged over a window, once warm. */
    private static double bytesPerCall(IntConsumer call) {
        ThreadAllocation meter = ThreadAllocation.ofCurrentThread();
        for (int i = 0; i < WARM; i++) {
            call.accept(i);
        }
        long least = Long.MAX_VALUE;
        for (int w = 0; w < WINDOWS; w++) {
            long before = meter.bytes();
            for (int i = 0; i < CALLS; i++) {
                call.accept(i);
            }
            least = Math.min(least, meter.bytes() - before);
        }
        return (double) least / CALLS;
    }

    private static void assertAllocatesNothing(String what, IntConsumer call) {
        double perCall = bytesPerCall(call);
        assertTrue(perCall < 1, what + " allocated " + perCall + " bytes a call once warm");
    }

    @Test
    void shouldIterateAQueryEntityByEntityWithoutAllocating() {
        // Was 24 bytes a call: forEach and forEachReadOnly wrapped the body in a chunk lambda
        // capturing it, the query and the filter flag, on every call.
        Query moving = world.query().with(pos, vel).build();
        Query burningOnes = world.query().with(pos).with(burning).build();
        EntityConsumer body = (c, row) -> sink += row;
        sink = 0;
        moving.forEach(body);
        assertEquals((long) ENTITIES * (ENTITIES - 1) / 2, sink, "every row visited once");
        sink = 0;
        burningOnes.forEach(body);
        assertEquals(ENTITIES / 2, burningOnes.count());
        assertEquals((long) (ENTITIES / 2) * (ENTITIES - 2) / 2, sink, "the even rows, those burning");
        assertAllocatesNothing("query.forEach", i -> moving.forEach(body));
        assertAllocatesNothing("query.forEachReadOnly", i -> moving.forEachReadOnly(body));
        assertAllocatesNothing("query.forEach with a sparse filter", i -> burningOnes.forEach(body));
    }

    @Test
    void shouldSpawnFromATemplateWithoutAllocating() {
        // Was 113 bytes a spawn: the template's columns and values copied, and the archetype
        // looked up from a sorted copy of the columns (a comparator, an id array) every time;
        // command playback's template spawns went the same way.
        Template unit = Template.named("unit").with(pos, somewhere).with(vel, drift).with(fog, new Fog(0.25f)).build();
        long first = world.spawn(unit);
        assertEquals(somewhere, world.get(first, pos));
        assertEquals(fog, world.findComponent(first, "Fog"), "the template's names registered");
        world.despawn(first);
        assertAllocatesNothing("world.spawn(template) and a despawn", i -> world.despawn(world.spawn(unit)));
        // The buffer's spawns hold a tag of their own, so a chunk loop finds the one alive.
        Template tagged = Template.named("tagged").with(pos, somewhere).with(fog, new Fog(0.25f)).with(spawned).build();
        Query fromBuffer = world.query().with(spawned).build();
        ChunkConsumer find = c -> last = c.entity(0);
        CommandBuffer buffer = new CommandBuffer(0);
        CommandPlayback playback = new CommandPlayback();
        last = world.spawn(tagged);
        assertAllocatesNothing("a command buffer's spawn(template) played back, and a despawn", i -> {
            buffer.despawn(last);
            buffer.spawn(tagged);
            playback.apply(world, buffer);
            fromBuffer.forEachChunk(find);
        });
        assertEquals(ENTITIES + 1, world.entityCount());
        assertEquals(1, fromBuffer.count());
        assertEquals(new Fog(0.25f), world.get(last, fog));
    }

    @Test
    void shouldFindNamedInstancesAndSetPropertiesWithoutAllocating() {
        // Was 40 bytes a findComponent and 136 a setProperty: the name hashed through a new
        // UTF-8 byte array, the null check's message supplier capturing the operation, and
        // setProperty's "Fog.density" concatenated for a refusal that was not made.
        Float thick = 0.75f;
        world.setProperty(ids[3], "Fog", "density", thick);
        assertEquals(new Fog(0.75f), world.get(ids[3], fog));
        assertEquals(fog, world.findComponent(ids[3], "Fog"));
        assertAllocatesNothing("world.findComponent", i -> sink += world.findComponent(ids[i % ENTITIES], "Fog").id());
        assertAllocatesNothing("world.setProperty of a boxed value",
                i -> world.setProperty(ids[i % ENTITIES], "Fog", "density", thick));
        PropertyHandle density = world.property("Fog", "density");
        assertAllocatesNothing("a property handle's getFloat and setFloat",
                i -> density.setFloat(ids[i % ENTITIES], density.getFloat(ids[i % ENTITIES]) + 1));
    }

    @Test
    void shouldMoveWholeArchetypesInBulkWithoutAllocating() {
        // Was about 420 bytes a call: the archetypes to move and their targets gathered in new
        // lists, and per archetype a row sink capturing the two and a slot map, besides the
        // world's own sink made from a method reference on each call.
        for (int i = 0; i < ENTITIES; i++) {
            world.spawn(new Position(i, 1)); // a second archetype the query matches
        }
        Query positioned = world.query().with(pos).build();
        Query tagged = world.query().with(spawned).build();
        assertEquals(2 * ENTITIES, world.addToAll(positioned, spawned));
        assertEquals(2 * ENTITIES, tagged.count());
        assertEquals(0, world.addToAll(positioned, spawned), "those that hold it do not move");
        assertEquals(new Position(5, 0), world.get(ids[5], pos), "values move with their rows");
        assertEquals(2 * ENTITIES, world.removeFromAll(positioned, spawned));
        assertEquals(0, tagged.count());
        assertAllocatesNothing("world.addToAll and removeFromAll over two archetypes",
                i -> sink += world.addToAll(positioned, spawned) + world.removeFromAll(positioned, spawned));
        assertEquals(0, tagged.count());
        assertEquals(2 * ENTITIES, positioned.count());
        assertEquals(new Fog(0.5f), world.get(ids[7], fog));
    }

    @Test
    void shouldReadAParentWithoutAllocating() {
        // Was 32 bytes a call: parent(child) looked ChildOf up by name through an iterator.
        Relation childOf = world.relations().childOf();
        for (int i = 1; i < ENTITIES; i++) {
            world.relations().add(ids[i], childOf, ids[0]);
        }
        assertEquals(ids[0], world.relations().parent(ids[7]));
        assertAllocatesNothing("relations().parent", i -> sink += world.relations().parent(ids[1 + i % (ENTITIES - 1)]));
        assertAllocatesNothing("relations().childOf", i -> sink += world.relations().childOf().id());
    }

    @Test
    void shouldAllocateNothingForByIdCallsChangeFiltersAndSparseChangesOnABareWorld() {
        // These allocated nothing when first measured; kept so that they go on not to.
        Query fresh = world.query().with(pos).added(pos).build();
        Query moved = world.query().with(pos).changed(pos).build();
        Query burningOnes = world.query().with(pos).with(burning).build();
        ChunkConsumer count = c -> sink += c.size();
        Field px = pos.field("x");
        moved.forEachChunk(count);
        world.setFloat(ids[5], px, 9);
        sink = 0;
        moved.forEachChunk(count);
        assertEquals(ENTITIES, sink, "the one chunk a write stamped passes the changed filter");
        assertAllocatesNothing("world.has, table and sparse", i -> sink += world.has(ids[i % ENTITIES], pos)
                && world.has(ids[i % ENTITIES], burning) ? 1 : 0);
        assertAllocatesNothing("world.set and a typed get and set by id", i -> {
            world.set(ids[i % ENTITIES], vel, drift);
            world.setFloat(ids[i % ENTITIES], px, world.getFloat(ids[i % ENTITIES], px) + 1);
        });
        assertAllocatesNothing("a changed filter after a write", i -> {
            world.setFloat(ids[i % ENTITIES], px, i);
            moved.forEachChunk(count);
        });
        assertAllocatesNothing("an added filter", i -> fresh.forEachChunk(count));
        assertAllocatesNothing("a changed filter, read-only", i -> moved.forEachChunkReadOnly(count));
        assertAllocatesNothing("counting with a sparse filter", i -> sink += burningOnes.count());
        assertAllocatesNothing("a sparse add and remove", i -> {
            long e = ids[1 + 2 * (i % (ENTITIES / 2))]; // the odd ones, not burning
            world.add(e, burning, fire);
            world.remove(e, burning);
        });
        assertEquals(ENTITIES / 2, burningOnes.count());
    }
}
