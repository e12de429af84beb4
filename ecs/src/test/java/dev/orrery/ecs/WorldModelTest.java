package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.entity.Entity;
import dev.orrery.ecs.entity.StaleEntityException;
import dev.orrery.ecs.query.Query;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Applies a long random sequence of operations to a {@link World} and to a plain reference
 * model (a map from entity id to its components and values, plus a FIFO free list that
 * predicts every id), and compares the two after every operation that returns something
 * and in full at checkpoints.
 *
 * <p>The seed is random unless {@code -Dorrery.seed=N} forces one; a failure names the
 * seed and the step, so {@code mvn test -pl ecs -Dtest=WorldModelTest -Dorrery.seed=N}
 * replays it exactly. {@code -Dorrery.ops=N} changes the number of operations.
 */
class WorldModelTest {
    record Position(float x, float y, float z) {
    }

    record Stats(boolean alive, byte b, short s, char c, int i, long l, double d) {
    }

    record RenderData(float density, int color) {
    }

    record Frozen() {
    }

    /** A record with an object field: stored as a reference component. */
    record Label(String text) {
    }

    private static final Object TAG = new Object() {
        @Override
        public String toString() {
            return "<tag>";
        }
    };
    private static final int CHECKPOINT_EVERY = 4_000;
    private static final int MAX_LIVE = 2_000;

    private final long seed = Long.getLong("orrery.seed", new Random().nextLong());
    private final int operations = Integer.getInteger("orrery.ops", 200_000);
    private final Random rnd = new Random(seed);

    private final World world = new World(512);
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Stats> stats = world.component(Stats.class);
    private final Component<RenderData> fog = world.component(RenderData.class, "Fog");
    private final Component<RenderData> vignette = world.component(RenderData.class, "Vignette");
    /** Shares the instance name "Fog" with {@link #fog}: never on one entity with it. */
    private final Component<Position> fogPosition = world.component(Position.class, "Fog");
    private final Component<Frozen> frozen = world.component(Frozen.class);
    private final Component<Label> label = world.referenceComponent(Label.class);
    private final List<Component<?>> columns = List.of(pos, stats, fog, vignette, fogPosition, frozen, label);
    private final List<Component<?>> unnamed = List.of(pos, stats, frozen, label);

    // ---- the reference model
    private final Map<Long, Map<Component<?>, Object>> model = new HashMap<>();
    private final List<Long> liveList = new ArrayList<>();
    private final Map<Long, Integer> livePos = new HashMap<>();
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private int[] generations = new int[64];
    private int highWater;
    private final List<Long> dead = new ArrayList<>();

    private final List<Query> queries = new ArrayList<>();
    private final List<Terms> terms = new ArrayList<>();

    private int step;
    private long liveSum;
    private String operation = "set-up";
    /** The entity, column and other subject of the current operation, for the failure message. */
    private long subject = Entity.NULL;
    private Component<?> column;
    private Object detail;
    private final int[] counts = new int[32];

    @Test
    void shouldMatchAReferenceModelOverRandomOperations() {
        System.out.println("WorldModelTest: seed=" + seed + ", " + operations
                + " operations (replay with -Dorrery.seed=" + seed + ")");
        try {
            run();
        } catch (AssertionError | RuntimeException e) {
            String what = operation;
            if (subject != Entity.NULL) {
                what += " on " + Entity.toString(subject) + " (model: " + model.get(subject) + ")";
            }
            if (column != null) {
                what += ", column " + column;
            }
            if (detail != null) {
                what += ", " + detail;
            }
            throw new AssertionError("model test failed with seed " + seed + " at step " + step + " (" + what
                    + "); replay with -Dorrery.seed=" + seed + " -Dtest=WorldModelTest: " + e, e);
        }
    }

    private void run() {
        addQuery(List.of(pos), List.of(), List.of(), List.of());
        addQuery(List.of(fog, vignette), List.of(), List.of(), List.of());
        addQuery(List.of(pos), List.of(frozen), List.of(), List.of());
        addQuery(List.of(), List.of(), List.of(fog, fogPosition), List.of());
        addQuery(List.of(label), List.of(), List.of(), List.of(stats));
        addQuery(List.of(), List.of(), List.of(), List.of());
        addQuery(List.of(), List.of(pos, stats), List.of(), List.of());
        addQuery(List.of(frozen), List.of(), List.of(stats, vignette), List.of());

        for (step = 0; step < operations; step++) {
            subject = Entity.NULL;
            column = null;
            detail = null;
            int r = rnd.nextInt(1000);
            boolean crowded = liveList.size() > MAX_LIVE;
            if (r < 120) {
                if (crowded) {
                    despawn();
                } else {
                    spawnWithBuilder();
                }
            } else if (r < 150) {
                if (crowded) {
                    despawn();
                } else {
                    spawnWithValues();
                }
            } else if (r < 180) {
                if (crowded) {
                    despawn();
                } else {
                    spawnMany();
                }
            } else if (r < 320) {
                despawn();
            } else if (r < 470) {
                add();
            } else if (r < 590) {
                remove();
            } else if (r < 710) {
                set();
            } else if (r < 820) {
                get();
            } else if (r < 860) {
                stale();
            } else if (r < 920) {
                queryCount();
            } else if (r < 935) {
                queryIterate();
            } else if (r < 955) {
                queryWrite();
            } else if (r < 975) {
                moveTo();
            } else if (r < 985) {
                newQuery();
            } else if (r < 987) {
                despawnHalf();
            } else {
                has();
            }
            liveSum += liveList.size();
            if ((step + 1) % CHECKPOINT_EVERY == 0) {
                checkpoint();
            }
        }
        operation = "final checkpoint";
        checkpoint();
        System.out.println("WorldModelTest: operations by kind " + Arrays.toString(counts) + ", "
                + world.archetypes().count() + " archetypes, " + queries.size() + " queries, " + liveList.size()
                + " live entities at the end, " + liveSum / Math.max(1, operations) + " on average");
    }

    // ---------------------------------------------------------------- operations

    private void spawnWithBuilder() {
        operation = "spawn with builder";
        counts[0]++;
        List<Component<?>> subset = randomSubset();
        EntityBuilder b = world.entity();
        Map<Component<?>, Object> expected = new LinkedHashMap<>();
        for (Component<?> c : subset) {
            Object v = rnd.nextInt(4) == 0 ? null : randomValue(c);
            with(b, c, v);
            expected.put(c, v == null ? zero(c) : stored(c, v));
        }
        if (hasNameClash(subset)) {
            int before = world.entityCount();
            assertThrows(IllegalArgumentException.class, b::spawn, "spawn with two 'Fog' instances " + subset);
            assertEquals(before, world.entityCount());
            return;
        }
        long e = b.spawn();
        assertId(modelAllocate(), e);
        modelPut(e, expected);
    }

    private void spawnWithValues() {
        operation = "spawn(Object...)";
        counts[1]++;
        List<Component<?>> subset = new ArrayList<>();
        for (Component<?> c : unnamed) {
            if (rnd.nextBoolean()) {
                subset.add(c);
            }
        }
        Collections.shuffle(subset, rnd);
        Object[] values = new Object[subset.size()];
        Map<Component<?>, Object> expected = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            values[i] = randomValue(subset.get(i));
            expected.put(subset.get(i), stored(subset.get(i), values[i]));
        }
        long e = world.spawn(values);
        assertId(modelAllocate(), e);
        modelPut(e, expected);
    }

    private void spawnMany() {
        operation = "spawnMany";
        counts[2]++;
        List<Component<?>> subset = randomSubset();
        int n = rnd.nextInt(41);
        EntityBuilder b = world.entity();
        Map<Component<?>, Object> expected = new LinkedHashMap<>();
        for (Component<?> c : subset) {
            Object v = rnd.nextInt(4) == 0 ? null : randomValue(c);
            with(b, c, v);
            expected.put(c, v == null ? zero(c) : stored(c, v));
        }
        if (hasNameClash(subset)) {
            int before = world.entityCount();
            assertThrows(IllegalArgumentException.class, () -> b.spawnMany(n));
            assertEquals(before, world.entityCount());
            return;
        }
        long[] ids = b.spawnMany(n);
        assertEquals(n, ids.length);
        for (long e : ids) {
            assertId(modelAllocate(), e);
            modelPut(e, new LinkedHashMap<>(expected));
        }
    }

    private void despawn() {
        operation = "despawn";
        counts[3]++;
        if (liveList.isEmpty()) {
            return;
        }
        long e = randomLive();
        world.despawn(e);
        modelRelease(e);
        assertFalse(world.isAlive(e));
    }

    private void despawnHalf() {
        operation = "despawn every other entity";
        counts[4]++;
        List<Long> victims = new ArrayList<>();
        for (int i = 0; i < liveList.size(); i += 2) {
            victims.add(liveList.get(i));
        }
        for (long e : victims) {
            world.despawn(e);
            modelRelease(e);
        }
    }

    private void add() {
        operation = "add";
        counts[5]++;
        if (liveList.isEmpty()) {
            return;
        }
        long e = randomLive();
        Component<?> c = randomColumn();
        Map<Component<?>, Object> m = model.get(e);
        Object v = rnd.nextBoolean() ? randomValue(c) : null;
        subject = e;
        column = c;
        if (m.containsKey(c)) {
            assertThrows(IllegalStateException.class, () -> addTo(e, c, v));
        } else if (clashesWith(m.keySet(), c)) {
            assertThrows(IllegalArgumentException.class, () -> addTo(e, c, v));
        } else {
            addTo(e, c, v);
            m.put(c, v == null ? zero(c) : stored(c, v));
        }
        assertEntity(e);
    }

    private void remove() {
        counts[6]++;
        if (liveList.isEmpty()) {
            return;
        }
        long e = randomLive();
        Component<?> c = randomColumn();
        Map<Component<?>, Object> m = model.get(e);
        operation = "remove";
        subject = e;
        column = c;
        assertEquals(m.containsKey(c), world.remove(e, c));
        m.remove(c);
        if (rnd.nextInt(8) == 0) {
            assertEntity(e);
        }
    }

    private void set() {
        counts[7]++;
        if (liveList.isEmpty()) {
            return;
        }
        long e = randomLive();
        Component<?> c = randomColumn();
        Map<Component<?>, Object> m = model.get(e);
        operation = "set";
        subject = e;
        column = c;
        if (!m.containsKey(c)) {
            assertThrows(IllegalArgumentException.class, () -> setOn(e, c, randomValue(c)));
            return;
        }
        if (c.kind() == ComponentKind.VALUE && rnd.nextBoolean()) {
            Field f = c.field(rnd.nextInt(c.fields().size()));
            Object boxed = field(randomValue(c), f.index());
            setField(e, f, boxed);
            m.put(c, withField(m.get(c), f.index(), boxed));
        } else {
            Object v = randomValue(c);
            setOn(e, c, v);
            m.put(c, stored(c, v));
        }
        if (rnd.nextInt(4) == 0) {
            assertEntity(e);
        }
    }

    private void get() {
        operation = "get";
        counts[8]++;
        if (liveList.isEmpty()) {
            return;
        }
        long e = randomLive();
        subject = e;
        assertEntity(e);
    }

    private void has() {
        operation = "has";
        counts[9]++;
        if (liveList.isEmpty()) {
            return;
        }
        long e = randomLive();
        Component<?> c = randomColumn();
        assertEquals(model.get(e).containsKey(c), world.has(e, c), "has " + c);
    }

    private void stale() {
        operation = "stale id";
        counts[10]++;
        long e;
        if (dead.isEmpty() || rnd.nextInt(5) == 0) {
            e = Entity.of(highWater + rnd.nextInt(3), 1 + rnd.nextInt(2));
        } else {
            e = dead.get(rnd.nextInt(dead.size()));
        }
        subject = e;
        assertFalse(world.isAlive(e));
        Component<?> c = randomColumn();
        switch (rnd.nextInt(6)) {
            case 0: assertThrows(StaleEntityException.class, () -> world.get(e, c)); break;
            case 1: assertThrows(StaleEntityException.class, () -> world.has(e, c)); break;
            case 2: assertThrows(StaleEntityException.class, () -> world.despawn(e)); break;
            case 3: assertThrows(StaleEntityException.class, () -> world.add(e, c)); break;
            case 4: assertThrows(StaleEntityException.class, () -> world.remove(e, c)); break;
            default: assertThrows(StaleEntityException.class, () -> setOn(e, c, randomValue(c))); break;
        }
    }

    private void queryCount() {
        int q = rnd.nextInt(queries.size());
        operation = "count";
        detail = queries.get(q);
        counts[11]++;
        assertEquals(modelCount(q), queries.get(q).count(), operation);
    }

    private void queryIterate() {
        int q = rnd.nextInt(queries.size());
        operation = "iterate";
        detail = queries.get(q);
        counts[12]++;
        assertQuery(q);
    }

    private void queryWrite() {
        operation = "write Position.x through a chunk view";
        counts[13]++;
        Field px = pos.field("x");
        Set<Long> visited = new HashSet<>();
        queries.get(0).forEachChunk(chunk -> {
            float[] x = chunk.writeFloats(px);
            for (int i = 0, n = chunk.size(); i < n; i++) {
                x[i] += 1.5f;
                assertTrue(visited.add(chunk.entity(i)), "visited twice");
            }
        });
        assertEquals(modelMatches(0), visited);
        for (long e : visited) {
            Map<Component<?>, Object> m = model.get(e);
            Position p = (Position) m.get(pos);
            m.put(pos, new Position(p.x() + 1.5f, p.y(), p.z()));
        }
    }

    private void moveTo() {
        counts[14]++;
        if (liveList.isEmpty()) {
            return;
        }
        long e = randomLive();
        Archetype target = world.archetypes().get(rnd.nextInt(world.archetypes().count()));
        Map<Component<?>, Object> m = model.get(e);
        operation = "moveTo";
        subject = e;
        detail = target;
        world.moveTo(e, target);
        Map<Component<?>, Object> next = new LinkedHashMap<>();
        for (Component<?> c : target.components()) {
            next.put(c, m.containsKey(c) ? m.get(c) : zero(c));
        }
        m.clear();
        m.putAll(next);
        assertEntity(e);
    }

    private void newQuery() {
        operation = "build a query";
        counts[15]++;
        if (queries.size() >= 40) {
            return;
        }
        List<Component<?>> shuffled = new ArrayList<>(columns);
        Collections.shuffle(shuffled, rnd);
        int nWith = rnd.nextInt(3);
        int nWithout = rnd.nextInt(3);
        int nAny = rnd.nextInt(4);
        List<Component<?>> with = new ArrayList<>(shuffled.subList(0, nWith));
        List<Component<?>> without = new ArrayList<>(shuffled.subList(nWith, nWith + nWithout));
        List<Component<?>> any = new ArrayList<>();
        for (int i = 0; i < nAny; i++) {
            any.add(columns.get(rnd.nextInt(columns.size())));
        }
        addQuery(with, without, any, List.of(columns.get(rnd.nextInt(columns.size()))));
        assertQuery(queries.size() - 1);
    }

    // ---------------------------------------------------------------- checks

    private void checkpoint() {
        String was = operation;
        operation = "checkpoint after " + was;
        assertEquals(model.size(), world.entityCount(), "entity count");
        assertEquals(highWater, world.entityTable().highWater(), "high water");
        int[] expectedFree = free.stream().mapToInt(Integer::intValue).toArray();
        assertArrayEquals(expectedFree, world.entityTable().freeListInOrder(), "free list in reuse order");
        for (long e : liveList) {
            assertEntity(e);
        }
        WorldStructureTest.assertLocationsConsistent(world);
        for (int q = 0; q < queries.size(); q++) {
            assertQuery(q);
        }
        int checked = 0;
        for (int i = dead.size() - 1; i >= 0 && checked < 200; i--, checked++) {
            long e = dead.get(i);
            assertFalse(world.isAlive(e), "stale " + Entity.toString(e));
            assertThrows(StaleEntityException.class, () -> world.get(e, pos));
        }
        operation = was;
    }

    private void assertEntity(long e) {
        assertTrue(world.isAlive(e), "alive " + Entity.toString(e));
        Map<Component<?>, Object> m = model.get(e);
        Set<Component<?>> actual = new HashSet<>(world.archetypeOf(e).components());
        assertEquals(m.keySet(), actual, "columns of " + Entity.toString(e));
        for (Map.Entry<Component<?>, Object> en : m.entrySet()) {
            Component<?> c = en.getKey();
            Object v = world.get(e, c);
            switch (c.kind()) {
                case TAG: assertNull(v, "a tag reads as null"); break;
                case REFERENCE: assertSame(en.getValue(), v, c + " of " + Entity.toString(e)); break;
                default: assertEquals(en.getValue(), v, c + " of " + Entity.toString(e)); break;
            }
        }
    }

    private void assertQuery(int q) {
        Query query = queries.get(q);
        Set<Long> expected = modelMatches(q);
        Set<Long> seen = new HashSet<>();
        query.forEach((chunk, row) -> {
            long e = chunk.entity(row);
            assertTrue(seen.add(e), "entity " + Entity.toString(e) + " visited twice by " + query);
            Map<Component<?>, Object> m = model.get(e);
            if (m != null && m.containsKey(pos)) {
                assertEquals(m.get(pos), chunk.get(pos, row), "Position read through the chunk view");
            }
        });
        assertEquals(expected, seen, "entities matched by " + query);
        assertEquals(expected.size(), query.count(), "count of " + query);
        assertFalse(world.isStructureLocked());
    }

    private int modelCount(int q) {
        Terms t = terms.get(q);
        int n = 0;
        for (Map<Component<?>, Object> components : model.values()) {
            if (t.test(maskOf(components.keySet()))) {
                n++;
            }
        }
        return n;
    }

    private Set<Long> modelMatches(int q) {
        Terms t = terms.get(q);
        Set<Long> out = new HashSet<>();
        for (Map.Entry<Long, Map<Component<?>, Object>> en : model.entrySet()) {
            if (t.test(maskOf(en.getValue().keySet()))) {
                out.add(en.getKey());
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- model

    private long modelAllocate() {
        int index;
        if (!free.isEmpty()) {
            index = free.poll();
        } else {
            index = highWater++;
            if (index >= generations.length) {
                generations = Arrays.copyOf(generations, generations.length * 2);
            }
        }
        generations[index]++;
        return Entity.of(index, generations[index]);
    }

    private static void assertId(long expected, long actual) {
        assertEquals(Entity.toString(expected), Entity.toString(actual), "id handed out (index v generation)");
    }

    private void modelPut(long e, Map<Component<?>, Object> components) {
        if (model.put(e, components) != null) {
            fail("id " + Entity.toString(e) + " handed out while alive");
        }
        livePos.put(e, liveList.size());
        liveList.add(e);
    }

    private void modelRelease(long e) {
        model.remove(e);
        int i = livePos.remove(e);
        long last = liveList.remove(liveList.size() - 1);
        if (last != e) {
            liveList.set(i, last);
            livePos.put(last, i);
        }
        free.add(Entity.index(e));
        dead.add(e);
        if (dead.size() > 4000) {
            dead.subList(0, 2000).clear();
        }
    }

    private long randomLive() {
        return liveList.get(rnd.nextInt(liveList.size()));
    }

    private Component<?> randomColumn() {
        return columns.get(rnd.nextInt(columns.size()));
    }

    private List<Component<?>> randomSubset() {
        List<Component<?>> subset = new ArrayList<>();
        for (Component<?> c : columns) {
            if (rnd.nextInt(3) == 0) {
                subset.add(c);
            }
        }
        Collections.shuffle(subset, rnd);
        return subset;
    }

    private static boolean clashesWith(Set<Component<?>> held, Component<?> c) {
        for (Component<?> h : held) {
            if (h != c && h.name().equals(c.name())) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasNameClash(List<Component<?>> cs) {
        Set<String> names = new HashSet<>();
        for (Component<?> c : cs) {
            if (!names.add(c.name())) {
                return true;
            }
        }
        return false;
    }

    /** Builds a query from the terms, and the model's version of its terms as column bit masks. */
    private void addQuery(List<Component<?>> with, List<Component<?>> without, List<Component<?>> any,
                          List<Component<?>> optional) {
        queries.add(world.query()
                .with(with.toArray(new Component<?>[0]))
                .without(without.toArray(new Component<?>[0]))
                .any(any.toArray(new Component<?>[0]))
                .optional(optional.toArray(new Component<?>[0]))
                .build());
        terms.add(new Terms(maskOf(with), maskOf(without), maskOf(any)));
    }

    /** A query's terms over column bits (bit i is the column with id i). */
    private record Terms(int with, int without, int any) {
        boolean test(int mask) {
            return (mask & with) == with && (mask & without) == 0 && (any == 0 || (mask & any) != 0);
        }
    }

    private int maskOf(java.util.Collection<Component<?>> cs) {
        int mask = 0;
        for (Component<?> c : cs) {
            mask |= 1 << c.id(); // column ids are dense from 0 in this world, fewer than 32
        }
        return mask;
    }

    // ---------------------------------------------------------------- values

    private Object zero(Component<?> c) {
        if (c.type().javaClass() == Position.class) {
            return new Position(0, 0, 0);
        } else if (c == stats) {
            return new Stats(false, (byte) 0, (short) 0, '\0', 0, 0L, 0d);
        } else if (c == fog || c == vignette) {
            return new RenderData(0, 0);
        } else if (c == frozen) {
            return TAG;
        } else if (c == label) {
            return null;
        }
        throw new AssertionError("unknown column " + c);
    }

    /** What the model stores for a value: tags are membership only. */
    private static Object stored(Component<?> c, Object v) {
        return c.kind() == ComponentKind.TAG ? TAG : v;
    }

    private Object randomValue(Component<?> c) {
        if (c.type().javaClass() == Position.class) {
            return new Position(randomFloat(), randomFloat(), randomFloat());
        } else if (c == stats) {
            return new Stats(rnd.nextBoolean(), (byte) rnd.nextInt(), (short) rnd.nextInt(), (char) rnd.nextInt(65536),
                    rnd.nextInt(), rnd.nextLong(), randomDouble());
        } else if (c == fog || c == vignette) {
            return new RenderData(randomFloat(), rnd.nextInt());
        } else if (c == frozen) {
            return new Frozen();
        } else if (c == label) {
            return new Label("label-" + rnd.nextInt(100));
        }
        throw new AssertionError("unknown column " + c);
    }

    private float randomFloat() {
        switch (rnd.nextInt(10)) {
            case 0: return 0f;
            case 1: return -0.0f;
            case 2: return Float.MIN_VALUE;
            case 3: return -Float.MAX_VALUE;
            default: return (rnd.nextInt(20_001) - 10_000) / 64f;
        }
    }

    private double randomDouble() {
        switch (rnd.nextInt(6)) {
            case 0: return -0.0;
            case 1: return Double.MIN_VALUE;
            default: return rnd.nextGaussian() * 1e6;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void with(EntityBuilder b, Component<?> c, Object v) {
        if (v == null) {
            b.with(c);
        } else {
            b.with((Component) c, v);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void addTo(long e, Component<?> c, Object v) {
        if (v == null) {
            world.add(e, c);
        } else {
            world.add(e, (Component) c, v);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void setOn(long e, Component<?> c, Object v) {
        world.set(e, (Component) c, v);
    }

    /** Writes one field through the typed setter for its type, or through raw bits for the small types. */
    private void setField(long e, Field f, Object boxed) {
        switch (f.type()) {
            case FLOAT: world.setFloat(e, f, (Float) boxed); break;
            case INT: world.setInt(e, f, (Integer) boxed); break;
            case LONG: world.setLong(e, f, (Long) boxed); break;
            case DOUBLE: world.setDouble(e, f, (Double) boxed); break;
            default: world.setBits(e, f, f.type().bitsOf(boxed)); break;
        }
    }

    private static Object field(Object record, int i) {
        try {
            return record.getClass().getRecordComponents()[i].getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A copy of {@code record} with component {@code i} replaced (the model's own record arithmetic). */
    private static Object withField(Object record, int i, Object value) {
        try {
            RecordComponent[] rcs = record.getClass().getRecordComponents();
            Object[] args = new Object[rcs.length];
            Class<?>[] types = new Class<?>[rcs.length];
            for (int k = 0; k < rcs.length; k++) {
                args[k] = k == i ? value : rcs[k].getAccessor().invoke(record);
                types[k] = rcs[k].getType();
            }
            Constructor<?> ctor = record.getClass().getDeclaredConstructor(types);
            return ctor.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
