package dev.orrery.ecs;

import static dev.orrery.ecs.ModelColumns.clashesWith;
import static dev.orrery.ecs.ModelColumns.hasNameClash;
import static dev.orrery.ecs.ModelColumns.stored;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.EntityModel.Terms;
import dev.orrery.ecs.ModelColumns.Position;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.StaleEntityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Applies a long random sequence of operations to a {@link World} and to a plain
 * {@link EntityModel}, and compares the two after each operation that returns something and
 * in full at checkpoints: every live entity's columns and values, row locations and dense
 * chunks, the free list, every query's matches as a set, and stale ids.
 *
 * <p>Every run plays the fixed seeds in {@link #FIXED_SEEDS} ({@value #FIXED_OPS}
 * operations each), so CI is reproducible, plus one random seed ({@value #RANDOM_OPS}
 * operations) that finds new cases; each run prints its seed with the exact command that
 * replays it, and a failure names the seed, the step and that command:
 * {@code mvn -pl ecs test -Dtest=WorldModelTest -Dorrery.seed=N -Dorrery.ops=M} runs that one
 * seed alone ({@code java.util.Random} is the same on every JDK). {@code -Dorrery.ops=M}
 * alone changes the number of operations of the random seed.
 *
 * <p>Over about 500 lines: each operation sits next to its model update and its check, which is
 * what a reader replaying a failure needs; the model and the values live apart
 * ({@link EntityModel}, {@link ModelColumns}).
 */
class WorldModelTest {
    private static final int CHECKPOINT_EVERY = 4_000;
    private static final int MAX_LIVE = 2_000;
    private static final int MAX_QUERIES = 40;

    /** Seeds every run plays, so a CI failure on one of them replays without the log. */
    static final long[] FIXED_SEEDS = {1L, 0x5EED_0F_0E5L, 20_261_123L};
    static final int FIXED_OPS = 40_000;
    static final int RANDOM_OPS = 200_000;

    private long seed;
    private int operations;
    private Random rnd;

    /** Small chunks (16 rows for most archetypes), so chunk boundaries are crossed all the time. */
    private final World world = new World(512);
    private ModelColumns cols;
    private final EntityModel model = new EntityModel();
    private final List<Query> queries = new ArrayList<>();
    private final List<Terms> terms = new ArrayList<>();

    private int step;
    private String operation = "set-up";
    /** The entity, column and other subject of the current operation, for the failure message. */
    private long subject = Entity.NULL;
    private Component<?> column;
    private Object detail;
    private final int[] counts = new int[16];
    private long liveSum;

    /**
     * The fixed seeds and one random seed, or only {@code -Dorrery.seed} when it is given
     * (a replay).
     */
    static Stream<Arguments> seeds() {
        Long forced = Long.getLong("orrery.seed");
        if (forced != null) {
            return Stream.of(Arguments.of("replayed", forced, Integer.getInteger("orrery.ops", RANDOM_OPS)));
        }
        Stream<Arguments> fixed = Arrays.stream(FIXED_SEEDS).mapToObj(s -> Arguments.of("fixed", s, FIXED_OPS));
        long random = new Random().nextLong();
        return Stream.concat(fixed,
                Stream.of(Arguments.of("random", random, Integer.getInteger("orrery.ops", RANDOM_OPS))));
    }

    /** The command that replays exactly this run. */
    static String replayCommand(long seed, int operations) {
        return "mvn -pl ecs test -Dtest=WorldModelTest -Dorrery.seed=" + seed + " -Dorrery.ops=" + operations;
    }

    @ParameterizedTest(name = "{0} seed {1}, {2} operations")
    @MethodSource("seeds")
    void shouldMatchAReferenceModelOverRandomOperations(String kind, long seed, int operations) {
        this.seed = seed;
        this.operations = operations;
        this.rnd = new Random(seed);
        this.cols = new ModelColumns(world, rnd);
        System.out.println("WorldModelTest: " + kind + " seed=" + seed + ", " + operations
                + " operations; replay with: " + replayCommand(seed, operations));
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
                    + "); replay with: " + replayCommand(seed, operations) + " : " + e, e);
        }
    }

    private void run() {
        addQuery(List.of(cols.pos), List.of(), List.of(), List.of());
        addQuery(List.of(cols.fog, cols.vignette), List.of(), List.of(), List.of());
        addQuery(List.of(cols.pos), List.of(cols.frozen), List.of(), List.of());
        addQuery(List.of(), List.of(), List.of(cols.fog, cols.fogPosition), List.of());
        addQuery(List.of(cols.label), List.of(), List.of(), List.of(cols.stats));
        addQuery(List.of(), List.of(), List.of(), List.of());
        addQuery(List.of(), List.of(cols.pos, cols.stats), List.of(), List.of());
        addQuery(List.of(cols.frozen), List.of(), List.of(cols.stats, cols.vignette), List.of());

        for (step = 0; step < operations; step++) {
            subject = Entity.NULL;
            column = null;
            detail = null;
            int r = rnd.nextInt(1000);
            boolean crowded = model.size() > MAX_LIVE;
            if (r < 180 && crowded) {
                despawn();
            } else if (r < 120) {
                spawnWithBuilder();
            } else if (r < 150) {
                spawnWithValues();
            } else if (r < 180) {
                spawnMany();
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
            } else if (r < 880) {
                queryCount();
            } else if (r < 895) {
                queryIterate();
            } else if (r < 905) {
                queryWrite();
            } else if (r < 935) {
                moveTo();
            } else if (r < 945) {
                newQuery();
            } else if (r < 947) {
                despawnHalf();
            } else {
                has();
            }
            liveSum += model.size();
            if ((step + 1) % CHECKPOINT_EVERY == 0) {
                checkpoint();
            }
        }
        operation = "final checkpoint";
        checkpoint();
        System.out.println("WorldModelTest: operations by kind " + Arrays.toString(counts) + ", "
                + world.storage().archetypes().count() + " archetypes, " + queries.size() + " queries, " + model.size()
                + " live entities at the end, " + liveSum / Math.max(1, operations) + " on average");
    }

    // ---------------------------------------------------------------- operations

    private void spawnWithBuilder() {
        operation = "spawn with builder";
        counts[0]++;
        List<Component<?>> subset = cols.randomSubset();
        EntityBuilder b = world.entity();
        Map<Component<?>, Object> expected = fill(b, subset);
        if (hasNameClash(subset)) {
            detail = subset;
            int before = world.entityCount();
            assertThrows(IllegalArgumentException.class, b::spawn);
            assertEquals(before, world.entityCount());
            return;
        }
        long e = b.spawn();
        assertId(model.allocate(), e);
        model.put(e, expected);
    }

    private void spawnWithValues() {
        operation = "spawn(Object...)";
        counts[1]++;
        List<Component<?>> subset = new ArrayList<>();
        for (Component<?> c : cols.unnamed) {
            if (rnd.nextBoolean()) {
                subset.add(c);
            }
        }
        Collections.shuffle(subset, rnd);
        Object[] values = new Object[subset.size()];
        Map<Component<?>, Object> expected = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            values[i] = cols.randomValue(subset.get(i));
            expected.put(subset.get(i), stored(subset.get(i), values[i]));
        }
        long e = world.spawn(values);
        assertId(model.allocate(), e);
        model.put(e, expected);
    }

    private void spawnMany() {
        operation = "spawnMany";
        counts[2]++;
        List<Component<?>> subset = cols.randomSubset();
        int n = rnd.nextInt(41);
        EntityBuilder b = world.entity();
        Map<Component<?>, Object> expected = fill(b, subset);
        if (hasNameClash(subset)) {
            detail = subset;
            int before = world.entityCount();
            assertThrows(IllegalArgumentException.class, () -> b.spawnMany(n));
            assertEquals(before, world.entityCount());
            return;
        }
        long[] ids = b.spawnMany(n);
        assertEquals(n, ids.length);
        for (long e : ids) {
            assertId(model.allocate(), e);
            model.put(e, new LinkedHashMap<>(expected));
        }
    }

    /** Puts each column into the builder, with a random value or (one time in four) none. */
    private Map<Component<?>, Object> fill(EntityBuilder b, List<Component<?>> subset) {
        Map<Component<?>, Object> expected = new LinkedHashMap<>();
        for (Component<?> c : subset) {
            Object v = rnd.nextInt(4) == 0 ? null : cols.randomValue(c);
            with(b, c, v);
            expected.put(c, v == null ? cols.zero(c) : stored(c, v));
        }
        return expected;
    }

    private void despawn() {
        operation = "despawn";
        counts[3]++;
        if (model.isEmpty()) {
            return;
        }
        long e = model.randomLive(rnd);
        subject = e;
        world.despawn(e);
        model.release(e);
        assertFalse(world.isAlive(e));
    }

    private void despawnHalf() {
        operation = "despawn every other entity";
        counts[4]++;
        List<Long> victims = new ArrayList<>();
        for (int i = 0; i < model.live().size(); i += 2) {
            victims.add(model.live().get(i));
        }
        for (long e : victims) {
            subject = e;
            world.despawn(e);
            model.release(e);
        }
    }

    private void add() {
        operation = "add";
        counts[5]++;
        if (model.isEmpty()) {
            return;
        }
        long e = model.randomLive(rnd);
        Component<?> c = cols.random();
        Map<Component<?>, Object> m = model.get(e);
        Object v = rnd.nextBoolean() ? cols.randomValue(c) : null;
        subject = e;
        column = c;
        if (m.containsKey(c)) {
            assertThrows(IllegalStateException.class, () -> addTo(e, c, v));
        } else if (clashesWith(m.keySet(), c)) {
            assertThrows(IllegalArgumentException.class, () -> addTo(e, c, v));
        } else {
            addTo(e, c, v);
            m.put(c, v == null ? cols.zero(c) : stored(c, v));
        }
        assertEntity(e);
    }

    private void remove() {
        operation = "remove";
        counts[6]++;
        if (model.isEmpty()) {
            return;
        }
        long e = model.randomLive(rnd);
        Component<?> c = cols.random();
        Map<Component<?>, Object> m = model.get(e);
        subject = e;
        column = c;
        assertEquals(m.containsKey(c), world.remove(e, c), "remove returns whether the entity held it");
        m.remove(c);
        if (rnd.nextInt(8) == 0) {
            assertEntity(e);
        }
    }

    private void set() {
        operation = "set";
        counts[7]++;
        if (model.isEmpty()) {
            return;
        }
        long e = model.randomLive(rnd);
        Component<?> c = cols.random();
        Map<Component<?>, Object> m = model.get(e);
        subject = e;
        column = c;
        if (!m.containsKey(c)) {
            assertThrows(IllegalArgumentException.class, () -> setOn(e, c, cols.randomValue(c)));
            return;
        }
        if (c.kind() == ComponentKind.VALUE && rnd.nextBoolean()) {
            Field f = c.field(rnd.nextInt(c.fields().size()));
            detail = f;
            Object boxed = ModelColumns.field(cols.randomValue(c), f.index());
            setField(e, f, boxed);
            m.put(c, ModelColumns.withField(m.get(c), f.index(), boxed));
        } else {
            Object v = cols.randomValue(c);
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
        if (model.isEmpty()) {
            return;
        }
        long e = model.randomLive(rnd);
        subject = e;
        assertEntity(e);
    }

    private void has() {
        operation = "has";
        counts[9]++;
        if (model.isEmpty()) {
            return;
        }
        long e = model.randomLive(rnd);
        Component<?> c = cols.random();
        subject = e;
        column = c;
        assertEquals(model.get(e).containsKey(c), world.has(e, c));
    }

    private void stale() {
        operation = "stale id";
        counts[10]++;
        List<Long> dead = model.dead();
        long e;
        if (dead.isEmpty() || rnd.nextInt(5) == 0) {
            e = Entity.of(model.highWater() + rnd.nextInt(3), 1 + rnd.nextInt(2));
        } else {
            e = dead.get(rnd.nextInt(dead.size()));
        }
        detail = "stale " + Entity.toString(e);
        assertFalse(world.isAlive(e));
        Component<?> c = cols.random();
        switch (rnd.nextInt(6)) {
            case 0: assertThrows(StaleEntityException.class, () -> world.get(e, c)); break;
            case 1: assertThrows(StaleEntityException.class, () -> world.has(e, c)); break;
            case 2: assertThrows(StaleEntityException.class, () -> world.despawn(e)); break;
            case 3: assertThrows(StaleEntityException.class, () -> world.add(e, c)); break;
            case 4: assertThrows(StaleEntityException.class, () -> world.remove(e, c)); break;
            default: assertThrows(StaleEntityException.class, () -> setOn(e, c, cols.randomValue(c))); break;
        }
    }

    private void queryCount() {
        operation = "count";
        counts[11]++;
        int q = rnd.nextInt(queries.size());
        detail = queries.get(q);
        assertEquals(model.count(terms.get(q)), queries.get(q).count());
    }

    private void queryIterate() {
        operation = "iterate";
        counts[12]++;
        int q = rnd.nextInt(queries.size());
        detail = queries.get(q);
        assertQuery(q);
    }

    /** Adds 1.5 to Position.x of every entity through the chunk arrays, as a system would. */
    private void queryWrite() {
        operation = "write Position.x through a chunk view";
        counts[13]++;
        Field px = cols.pos.field("x");
        Set<Long> visited = new HashSet<>();
        queries.get(0).forEachChunk(chunk -> {
            float[] x = chunk.writeFloats(px);
            for (int i = 0, n = chunk.size(); i < n; i++) {
                x[i] += 1.5f;
                assertTrue(visited.add(chunk.entity(i)), "visited twice");
            }
        });
        assertEquals(model.matching(terms.get(0)), visited);
        for (long e : visited) {
            Map<Component<?>, Object> m = model.get(e);
            Position p = (Position) m.get(cols.pos);
            m.put(cols.pos, new Position(p.x() + 1.5f, p.y(), p.z()));
        }
    }

    private void moveTo() {
        operation = "moveTo";
        counts[14]++;
        if (model.isEmpty()) {
            return;
        }
        long e = model.randomLive(rnd);
        Archetype target = world.storage().archetypes().get(rnd.nextInt(world.storage().archetypes().count()));
        Map<Component<?>, Object> m = model.get(e);
        subject = e;
        detail = target;
        world.moveTo(e, target);
        Map<Component<?>, Object> next = new LinkedHashMap<>();
        for (Component<?> c : target.components()) {
            next.put(c, m.containsKey(c) ? m.get(c) : cols.zero(c));
        }
        m.clear();
        m.putAll(next);
        assertEntity(e);
    }

    private void newQuery() {
        operation = "build a query";
        counts[15]++;
        if (queries.size() >= MAX_QUERIES) {
            return;
        }
        List<Component<?>> shuffled = new ArrayList<>(cols.all);
        Collections.shuffle(shuffled, rnd);
        int nWith = rnd.nextInt(3);
        int nWithout = rnd.nextInt(3);
        int nAny = rnd.nextInt(4);
        List<Component<?>> with = new ArrayList<>(shuffled.subList(0, nWith));
        List<Component<?>> without = new ArrayList<>(shuffled.subList(nWith, nWith + nWithout));
        List<Component<?>> any = new ArrayList<>();
        for (int i = 0; i < nAny; i++) {
            any.add(cols.random());
        }
        Component<?> optional = cols.random();
        if (!any.isEmpty() && without.containsAll(any)) { // could never match: refused, the world unchanged
            assertThrows(IllegalArgumentException.class, () -> addQuery(with, without, any, List.of(optional)));
            return;
        }
        addQuery(with, without, any, List.of(optional));
        detail = queries.get(queries.size() - 1);
        assertQuery(queries.size() - 1);
    }

    // ---------------------------------------------------------------- checks

    private void checkpoint() {
        String was = operation;
        operation = "checkpoint after " + was;
        assertEquals(model.size(), world.entityCount(), "entity count");
        assertEquals(model.highWater(), world.storage().entityTable().highWater(), "high water");
        assertArrayEquals(model.freeInOrder(), world.storage().entityTable().freeListInOrder(), "free list in reuse order");
        for (long e : model.live()) {
            assertEntity(e);
        }
        WorldStructureTest.assertLocationsConsistent(world);
        for (int q = 0; q < queries.size(); q++) {
            assertQuery(q);
        }
        List<Long> dead = model.dead();
        for (int i = dead.size() - 1; i >= Math.max(0, dead.size() - 200); i--) {
            long e = dead.get(i);
            assertFalse(world.isAlive(e), "stale " + Entity.toString(e));
            assertThrows(StaleEntityException.class, () -> world.get(e, cols.pos));
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
        Set<Long> expected = model.matching(terms.get(q));
        Set<Long> seen = new HashSet<>();
        query.forEach((chunk, row) -> {
            long e = chunk.entity(row);
            assertTrue(seen.add(e), "entity " + Entity.toString(e) + " visited twice by " + query);
            Map<Component<?>, Object> m = model.get(e);
            if (m != null && m.containsKey(cols.pos)) {
                assertEquals(m.get(cols.pos), chunk.get(cols.pos, row), "Position read through the chunk view");
            }
        });
        assertEquals(expected, seen, "entities matched by " + query);
        assertEquals(expected.size(), query.count(), "count of " + query);
        assertFalse(world.isStructureLocked());
    }

    private static void assertId(long expected, long actual) {
        assertEquals(Entity.toString(expected), Entity.toString(actual), "id handed out (index v generation)");
    }

    /** Builds a query from the terms, and keeps the model's version of the terms beside it. */
    private void addQuery(List<Component<?>> with, List<Component<?>> without, List<Component<?>> any,
                          List<Component<?>> optional) {
        queries.add(world.query()
                .with(with.toArray(new Component<?>[0]))
                .without(without.toArray(new Component<?>[0]))
                .any(any.toArray(new Component<?>[0]))
                .optional(optional.toArray(new Component<?>[0]))
                .build());
        terms.add(Terms.of(with, without, any));
    }

    // ---------------------------------------------------------------- untyped calls into the world

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void with(EntityBuilder b, Component<?> c, Object v) {
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
}
