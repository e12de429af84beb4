package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-entity spawn paths: the shape cache behind spawn(values...) and prepared {@link Shape}s. */
class SpawnShapeTest {
    record Position(float x, float y, float z) {
    }

    record Velocity(float x, float y, float z) {
    }

    record Frozen() {
    }

    record Mixed(int i, long l, double d, boolean b, byte by, short s, char c, float f) {
    }

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Velocity> vel = world.component(Velocity.class);

    private List<String> names(long e) {
        return world.storage().namedInstances().namesOf(Entity.index(e));
    }

    @Test
    void shouldResolveEachSequenceOfClassesOnceAndKeepItsRegistrationOrder() {
        long a = world.spawn(new Position(1, 2, 3), new Velocity(4, 5, 6));
        long b = world.spawn(new Position(7, 8, 9), new Velocity(0, 1, 0));
        long c = world.spawn(new Velocity(1, 1, 1), new Position(2, 2, 2));
        assertSame(world.archetypeOf(a), world.archetypeOf(c), "one archetype whatever the argument order");
        assertEquals(new Position(7, 8, 9), world.get(b, pos));
        assertEquals(new Velocity(1, 1, 1), world.get(c, vel));
        assertEquals(List.of("Position", "Velocity"), names(b));
        assertEquals(List.of("Velocity", "Position"), names(c), "names register in argument order");
        assertEquals(2, shapes().size(), "two argument orders, two cached shapes");
    }

    private SpawnShapes shapes() {
        return world.spawns().shapes();
    }

    @Test
    void shouldRefuseANullValueOrAColumnTwiceAndSpawnNothing() {
        world.spawn(new Position(1, 1, 1), new Velocity(1, 1, 1)); // the shape is cached: a null must not match it
        long before = world.stateHash();
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> world.spawn(new Position(1, 1, 1), null));
        assertTrue(npe.getMessage().contains("component value 1"), npe.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> world.spawn(new Position(1, 1, 1), new Position(2, 2, 2)));
        assertTrue(twice.getMessage().contains("given twice"), twice.getMessage());
        IllegalArgumentException notRecord = assertThrows(IllegalArgumentException.class,
                () -> world.spawn(new Position(1, 1, 1), "a string"));
        assertTrue(notRecord.getMessage().contains("referenceComponent(String.class)"), notRecord.getMessage());
        assertEquals(before, world.stateHash(), "nothing was spawned");
        assertEquals(1, world.entityCount());
    }

    @Test
    void shouldSpawnThroughAShapeTheSameWorldAsThroughValues() {
        World other = new World();
        Component<Position> p2 = other.component(Position.class);
        Component<Velocity> v2 = other.component(Velocity.class);
        Shape shape = other.shape(p2, v2);
        for (int i = 0; i < 300; i++) {
            world.spawn(new Position(i, -i, 0.5f), new Velocity(1, 2, i));
            shape.spawn(new Position(i, -i, 0.5f), new Velocity(1, 2, i));
        }
        assertEquals(world.stateHash(), other.stateHash());
        assertEquals(List.of(pos, vel).toString(), shape.columns().toString());
        assertSame(shape.archetype(), other.archetypeOf(other.spawn(new Position(0, 0, 0), new Velocity(0, 0, 0))));
    }

    @Test
    void shouldWriteFieldsThroughTheRowWithoutRecords() {
        Shape shape = world.shape(pos, vel);
        Field px = pos.field("x");
        Field pz = pos.field("z");
        Field vy = vel.field("y");
        long e = shape.spawnRow().setFloat(px, 3).setFloat(pz, -1).setFloat(vy, 9).id();
        long f = shape.spawnRow().setBits(px, Float.floatToRawIntBits(7f)).set(vel, new Velocity(1, 2, 3)).id();
        assertEquals(new Position(3, 0, -1), world.get(e, pos));
        assertEquals(new Velocity(0, 9, 0), world.get(e, vel));
        assertEquals(new Position(7, 0, 0), world.get(f, pos));
        assertEquals(new Velocity(1, 2, 3), world.get(f, vel));
    }

    @Test
    void shouldWriteEveryFieldTypeThroughTheComposedWriter() {
        Component<Mixed> mixed = world.component(Mixed.class);
        Mixed m = new Mixed(-7, Long.MIN_VALUE + 3, Math.PI, true, (byte) -2, (short) 300, 'q', Float.MIN_VALUE);
        long e = world.spawn(m);
        long f = world.shape(mixed).spawn(m);
        assertEquals(m, world.get(e, mixed));
        assertEquals(m, world.get(f, mixed));
    }

    @Test
    void shouldLeaveAColumnZeroForANullShapeValueOnEveryArity() {
        Component<Burning> burning = world.component(Burning.class);
        Position p = new Position(1, 2, 3);
        Velocity v = new Velocity(4, 5, 6);
        long one = world.shape(pos).spawn((Object) null);
        long two = world.shape(pos, vel).spawn(p, null);
        long twoFirst = world.shape(pos, vel).spawn(null, v);
        long three = world.shape(pos, vel, burning).spawn(p, null, new Burning(9));
        assertEquals(new Position(0, 0, 0), world.get(one, pos));
        assertEquals(p, world.get(two, pos));
        assertEquals(new Velocity(0, 0, 0), world.get(two, vel));
        assertEquals(new Position(0, 0, 0), world.get(twoFirst, pos));
        assertEquals(v, world.get(twoFirst, vel));
        assertEquals(new Velocity(0, 0, 0), world.get(three, vel));
        assertEquals(new Burning(9), world.get(three, burning));
        world.despawn(two); // its row is reused below: a null value must still leave zeros, not the old values
        long reused = world.shape(pos, vel).spawn(null, null);
        assertEquals(new Position(0, 0, 0), world.get(reused, pos));
        assertEquals(new Velocity(0, 0, 0), world.get(reused, vel));
    }

    @Test
    void shouldRefuseABadShapeCallAndSpawnNothing() {
        Shape shape = world.shape(pos, vel);
        long before = world.stateHash();
        IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
                () -> shape.spawn(new Position(1, 1, 1)));
        assertTrue(count.getMessage().contains("takes 2 values"), count.getMessage());
        IllegalArgumentException three = assertThrows(IllegalArgumentException.class,
                () -> shape.spawn(new Position(1, 1, 1), new Velocity(1, 1, 1), new Frozen()));
        assertTrue(three.getMessage().contains("but 3 were given"), three.getMessage());
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> shape.spawn(new Velocity(1, 1, 1), new Position(1, 1, 1)));
        assertTrue(type.getMessage().contains("given for component"), type.getMessage());
        assertEquals(before, world.stateHash());
        assertEquals(0, world.entityCount());
        World other = new World();
        Component<Frozen> foreign = other.component(Frozen.class);
        IllegalArgumentException wrongWorld = assertThrows(IllegalArgumentException.class,
                () -> world.shape(pos, foreign));
        assertTrue(wrongWorld.getMessage().contains("another world"), wrongWorld.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.shape(pos, pos));
    }

    @Test
    void shouldRefuseAStaleRowAWrongFieldAndAFieldOutsideTheShape() {
        Component<Frozen> frozen = world.component(Frozen.class);
        Component<Mixed> mixed = world.component(Mixed.class);
        Shape shape = world.shape(pos, vel);
        Shape.Row row = shape.spawnRow();
        long e = row.id();
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> row.setInt(pos.field("x"), 1));
        assertTrue(type.getMessage().contains("FLOAT"), type.getMessage());
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
                () -> row.setInt(mixed.field("i"), 1));
        assertTrue(outside.getMessage().contains("not part of"), outside.getMessage());
        world.add(e, frozen); // the entity's row moves to another archetype
        IllegalStateException stale = assertThrows(IllegalStateException.class, () -> row.setFloat(pos.field("x"), 1));
        assertTrue(stale.getMessage().contains("stale"), stale.getMessage());
        assertEquals(new Position(0, 0, 0), world.get(e, pos), "the refused write changed nothing");
    }

    @Test
    void shouldRefuseAShapeSpawnDuringIteration() {
        Shape shape = world.shape(pos);
        shape.spawn();
        Query q = world.query().with(pos).build();
        IllegalStateException locked = assertThrows(IllegalStateException.class,
                () -> q.forEachChunk(c -> shape.spawn()));
        assertTrue(locked.getMessage().startsWith("structural change (spawn)"), locked.getMessage());
        assertEquals(1, world.entityCount());
    }

    @Test
    void shouldSpawnZeroedAndInBulk() {
        Shape shape = world.shape(pos, vel);
        long[] ids = shape.spawnMany(100);
        long one = shape.spawn();
        assertEquals(101, world.entityCount());
        assertEquals(new Position(0, 0, 0), world.get(ids[57], pos));
        assertEquals(new Velocity(0, 0, 0), world.get(one, vel));
        assertNotEquals(ids[0], one);
        assertEquals(List.of("Position", "Velocity"), names(ids[99]));
    }

    record Burning(float heat) {
    }

    @Test
    void shouldSpawnSparseColumnsBesideTheRowOnEveryFastPath() {
        Component<Burning> burning = world.component(Burning.class, Storage.SPARSE);
        long a = world.spawn(new Position(1, 1, 1), new Burning(3));
        long b = world.spawn(new Position(2, 2, 2), new Burning(4)); // the cached shape
        Shape shape = world.shape(pos, burning);
        long c = shape.spawn(new Position(5, 5, 5), new Burning(6));
        long d = shape.spawnRow().setFloat(pos.field("y"), 7).setFloat(burning.field("heat"), 8).id();
        long e = shape.spawnRow().set(burning, new Burning(9)).id();
        for (long x : new long[] {a, b, c, d, e}) {
            assertEquals(List.of(pos), world.archetypeOf(x).components(), "sparse columns stay out of the archetype");
            assertTrue(world.has(x, burning));
        }
        assertEquals(new Burning(4), world.get(b, burning));
        assertEquals(new Burning(6), world.get(c, burning));
        assertEquals(new Position(0, 7, 0), world.get(d, pos));
        assertEquals(new Burning(8), world.get(d, burning));
        assertEquals(new Burning(9), world.get(e, burning));
        assertEquals(List.of("Position", "Burning"), names(c));
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class,
                () -> world.shape(pos).spawnRow().setFloat(burning.field("heat"), 1));
        assertTrue(outside.getMessage().contains("not part of"), outside.getMessage());
    }

    @Test
    void shouldLetABatchWriterSetTheShapesSparseColumnsRowByRow() {
        Component<Burning> burning = world.component(Burning.class, Storage.SPARSE);
        Shape shape = world.shape(pos, burning);
        Field px = pos.field("x");
        boolean[] heldEveryRow = {true};
        long[] ids = shape.spawnMany(5, (rows, from, to, first) -> {
            float[] x = rows.writeFloats(px);
            for (int r = from; r < to; r++) {
                heldEveryRow[0] &= rows.has(burning, r) && rows.get(burning, r).equals(new Burning(0));
                x[r] = first + (r - from);
                rows.set(burning, r, new Burning(10 + first + (r - from)));
            }
        });
        assertTrue(heldEveryRow[0], "every new row holds the sparse column, zeroed, while the writer runs");
        for (int i = 0; i < ids.length; i++) {
            assertEquals(new Position(i, 0, 0), world.get(ids[i], pos));
            assertEquals(new Burning(10 + i), world.get(ids[i], burning));
        }
        IllegalArgumentException array = assertThrows(IllegalArgumentException.class,
                () -> shape.spawnMany(1, (rows, from, to, first) -> rows.writeFloats(burning.field("heat"))));
        assertTrue(array.getMessage().contains("get(Burning, row)"), array.getMessage());
    }

    record Speed(float v) {
    }

    @Test
    void shouldSpawnTheSameThroughEveryArityAndKeepNoReferenceToTheValues() {
        World other = new World();
        Position p = new Position(1, 2, 3);
        Velocity v = new Velocity(4, 5, 6);
        Burning b = new Burning(7);
        Speed s = new Speed(8);
        long[] fixed = {world.spawn(p), world.spawn(p, v), world.spawn(p, v, b), world.spawn(p, v, b, s)};
        long[] varargs = {other.spawn(new Object[] {p}), other.spawn(new Object[] {p, v}),
            other.spawn(new Object[] {p, v, b}), other.spawn(new Object[] {p, v, b, s})};
        assertEquals(other.stateHash(), world.stateHash());
        for (int i = 0; i < fixed.length; i++) {
            assertEquals(other.storage().namedInstances().namesOf(Entity.index(varargs[i])), names(fixed[i]));
        }
        assertTrue(world.spawns().arguments().holdsNothing(), "the reused argument arrays must not keep a record alive");
    }

    @Test
    void shouldTakeTheLastShapesPathOnlyWhenEveryClassMatchesInOrder() {
        World other = new World();
        Position p = new Position(1, 2, 3);
        Velocity v = new Velocity(4, 5, 6);
        Burning b = new Burning(7);
        Speed s = new Speed(8);
        // Each arity twice in a row (the second call matches the last shape without an array), and
        // the same classes in another order right after (the last shape must not match then).
        Object[][] calls = {{p}, {p}, {p, v}, {p, v}, {v, p}, {v, p}, {p, v, b}, {p, v, b}, {b, v, p},
            {p, v, b, s}, {p, v, b, s}, {s, b, v, p}, {p}};
        long[] fixed = new long[calls.length];
        for (int i = 0; i < calls.length; i++) {
            Object[] c = calls[i];
            fixed[i] = switch (c.length) {
                case 1 -> world.spawn(c[0]);
                case 2 -> world.spawn(c[0], c[1]);
                case 3 -> world.spawn(c[0], c[1], c[2]);
                default -> world.spawn(c[0], c[1], c[2], c[3]);
            };
            other.spawn(c.clone());
        }
        assertEquals(other.stateHash(), world.stateHash(), "the same world as through spawn(Object...)");
        assertEquals(List.of("Velocity", "Position"), names(fixed[5]), "names in call order, not the last shape's");
        assertEquals(v, world.get(fixed[5], vel));
        assertEquals(List.of("Speed", "Burning", "Velocity", "Position"), names(fixed[11]));
        NullPointerException missing = assertThrows(NullPointerException.class, () -> world.spawn(p, null));
        assertTrue(missing.getMessage().contains("component value 1"), missing.getMessage());
        world.spawn(p, v);
        assertThrows(NullPointerException.class, () -> world.spawn(p, null), "a null never matches the last shape");
        assertTrue(world.spawns().arguments().holdsNothing(), "the reused argument arrays must not keep a record alive");
    }

    @Test
    void shouldSpawnInBulkWithValuesTheSameWorldAsOneByOne() {
        Field px = pos.field("x");
        Field vy = vel.field("y");
        Shape shape = world.shape(pos, vel);
        shape.spawn(new Position(-1, 0, 0), new Velocity(0, 0, 0)); // rows before the batch are not the writer's
        int n = 5_000; // several chunks, starting mid-chunk
        long[] ids = shape.spawnMany(n, (rows, from, to, first) -> {
            float[] x = rows.writeFloats(px);
            float[] y = rows.writeFloats(vy);
            for (int r = from; r < to; r++) {
                x[r] = first + (r - from);
                y[r] = 2f * (first + (r - from));
            }
        });
        World other = new World();
        Component<Position> opos = other.component(Position.class);
        Component<Velocity> ovel = other.component(Velocity.class);
        other.spawn(new Position(-1, 0, 0), new Velocity(0, 0, 0));
        for (int i = 0; i < n; i++) {
            other.spawn(new Position(i, 0, 0), new Velocity(0, 2f * i, 0));
        }
        assertEquals(other.stateHash(), world.stateHash());
        assertEquals(new Position(4321, 0, 0), world.get(ids[4321], pos));
        assertEquals(List.of("Position", "Velocity"), names(ids[n - 1]));
        IllegalStateException locked = assertThrows(IllegalStateException.class,
                () -> shape.spawnMany(3, (rows, from, to, first) -> world.spawn(new Position(0, 0, 0))));
        assertTrue(locked.getMessage().contains("Shape.spawnMany"), locked.getMessage());
        assertEquals(n + 1 + 3, world.entityCount(), "the batch is spawned before its writer runs");
        world.spawn(new Position(0, 0, 0)); // and the lock is released after a writer throws
    }

    @Test
    void shouldSpawnInBulkAcrossBlocksAndRecycledIdsTheSameWorldAsOneByOne() {
        // A bulk spawn places its rows a block of entities at a time; here its recycled ids
        // (5 000, from the free list) fill more than one block and end inside another.
        World other = new World();
        other.component(Position.class); // the same column ids as this world's
        other.component(Velocity.class);
        for (World w : List.of(world, other)) {
            long[] first = new long[6_000];
            for (int i = 0; i < first.length; i++) {
                first[i] = w.spawn(new Position(i, 0, 0));
            }
            for (int i = 0; i < 5_000; i++) {
                w.despawn(first[(i * 7) % first.length]); // 7 and 6 000 are coprime: 5 000 distinct ids, scattered
            }
        }
        int n = 12_000;
        long[] bulk = world.shape(pos, vel).spawnMany(n);
        long[] single = new long[n];
        for (int i = 0; i < n; i++) {
            single[i] = other.spawn(new Position(0, 0, 0), new Velocity(0, 0, 0));
        }
        assertEquals(Arrays.toString(single), Arrays.toString(bulk));
        assertEquals(other.stateHash(), world.stateHash());
        for (int k : new int[] {0, 4_095, 4_096, 4_999, 5_000, 8_192, n - 1}) {
            assertEquals(List.of("Position", "Velocity"), names(bulk[k]), "entity " + k + " of the batch");
            assertEquals(new Velocity(0, 0, 0), world.get(bulk[k], vel));
        }
        assertEquals(other.entityCount(), world.entityCount());
    }

    @Test
    void shouldClearRowsAChunkHeldBeforeButSkipNeverUsedOnes() {
        Shape shape = world.shape(pos, vel);
        long[] full = new long[300];
        for (int i = 0; i < full.length; i++) {
            full[i] = shape.spawn(new Position(9, 9, 9), new Velocity(9, 9, 9));
        }
        for (long e : full) {
            world.despawn(e);
        }
        long[] bulk = shape.spawnMany(200);
        long one = shape.spawn();
        long moved = world.spawn(new Position(7, 7, 7));
        world.add(moved, vel);
        for (long e : bulk) {
            assertEquals(new Position(0, 0, 0), world.get(e, pos), "a reused row must be zeroed");
        }
        assertEquals(new Velocity(0, 0, 0), world.get(one, vel));
        assertEquals(new Velocity(0, 0, 0), world.get(moved, vel), "an add into a reused row zeroes the new column");
    }

    @Test
    void shouldSpawnARowAsTheZeroSpawnDoesOnAReusedRowWithItsNamesAndArrivalStamp() {
        // spawnRow() places its zeroed row without the values path spawn() takes: the same
        // world must come out (reused row zeroed, ids, names, the arrival an added query sees)
        World other = new World();
        Component<Position> otherPos = other.component(Position.class);
        Component<Velocity> otherVel = other.component(Velocity.class);
        Shape shape = world.shape(pos, vel);
        Shape otherShape = other.shape(otherPos, otherVel);
        long old = shape.spawn(new Position(9, 9, 9), new Velocity(9, 9, 9));
        other.despawn(otherShape.spawn(new Position(9, 9, 9), new Velocity(9, 9, 9)));
        world.despawn(old); // its row and index are reused below
        Query added = world.query().added(vel).build();
        added.forEach((c, i) -> { });
        long e = shape.spawnRow().setFloat(pos.field("y"), 4).id();
        long f = otherShape.spawn();
        other.setFloat(f, otherPos.field("y"), 4);
        assertEquals(f, e, "the same recycled id");
        assertEquals(new Position(0, 4, 0), world.get(e, pos), "the reused row's other fields are zeroed");
        assertEquals(new Velocity(0, 0, 0), world.get(e, vel));
        assertEquals(List.of("Position", "Velocity"), names(e));
        assertSame(vel, world.findComponent(e, "Velocity"));
        List<Long> seen = new java.util.ArrayList<>();
        added.forEach((c, i) -> seen.add(c.entity(i)));
        assertEquals(List.of(e), seen, "the new row arrived after the query's last run");
        assertEquals(other.stateHash(), world.stateHash());
    }

    @Test
    void shouldReserveSoTheNextSpawnsAllocateNoStorage() {
        Shape shape = world.shape(pos, vel);
        for (int i = 0; i < 3; i++) {
            shape.spawn(); // warm the path (class loading, the first chunk)
        }
        shape.reserve(20_000);
        for (int i = 0; i < 3; i++) {
            shape.spawn();
        }
        ThreadAllocation meter = ThreadAllocation.ofCurrentThread();
        long before = meter.bytes();
        for (int i = 0; i < 20_000 - 3; i++) {
            shape.spawn();
        }
        long allocated = meter.bytes() - before;
        assertEquals(20_003, world.entityCount());
        // Their storage is over 600 KB (rows, entity table, name index); a few hundred bytes
        // of JIT warm-up may still show, so the bound is well under one growth step.
        assertTrue(allocated < 16_384, "the spawns a reserve(20 000) made room for allocated " + allocated + " bytes");
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> shape.reserve(-1));
        assertTrue(negative.getMessage().contains("negative"), negative.getMessage());
    }

    @Test
    void shouldRefuseABulkSpawnOfWhatReserveRefusesWithTheSameMessage() {
        Shape shape = world.shape(pos, vel);
        shape.spawnMany(3);
        IllegalArgumentException reserve = assertThrows(IllegalArgumentException.class,
                () -> shape.reserve(Integer.MAX_VALUE));
        IllegalArgumentException spawn = assertThrows(IllegalArgumentException.class,
                () -> shape.spawnMany(Integer.MAX_VALUE));
        assertEquals(reserve.getMessage().replace("reserve room for", "spawn"), spawn.getMessage());
        assertTrue(spawn.getMessage().startsWith("cannot spawn 2147483647 more entities: the world would need ")
                && spawn.getMessage().contains("spawn fewer"), spawn.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> world.entity().with(pos, new Position(1, 2, 3)).spawnMany(Integer.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> world.spawnMany(
                Template.named("p").with(pos, new Position(0, 0, 0)).build(), Integer.MAX_VALUE));
        assertEquals(3, world.entityCount(), "nothing was spawned");
        shape.spawnMany(2); // and the world goes on
        assertEquals(5, world.entityCount());
    }
}
