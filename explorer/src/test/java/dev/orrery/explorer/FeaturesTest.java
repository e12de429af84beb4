package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Range;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.Simulation;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The explorer on the engine's features the {@link Fixture} does not use: fields of every
 * primitive type with a {@code @Range}, tags, sparse columns, reference components (one
 * without a {@code toString}, one whose {@code toString} throws), named instances, and a
 * relation registered after the explorer attached.
 */
class FeaturesTest {
    record Pos(float x, float y) {
    }

    record Flags(boolean on, byte b, char c, long l, double d, short s, @Range(min = 0, max = 10) int r) {
    }

    record Frozen() {
    }

    record Buff(int level) {
    }

    /** A reference component without a toString. */
    static final class Brain {
    }

    /** A reference component whose toString throws. */
    static final class Broken {
        @Override
        public String toString() {
            throw new IllegalStateException("no text");
        }
    }

    /** A world of those, ticking, with an explorer whose sink takes every edit it is handed. */
    private static final class Features implements AutoCloseable {
        final World world = new World();
        final List<Edit> submitted = new CopyOnWriteArrayList<>();
        final long parent;
        final long a;
        final long b;
        final long dead;
        final Simulation sim;
        final Explorer explorer;
        final Client client;
        final Thread ticker;

        Features() throws Exception {
            Component<Pos> pos = world.component(Pos.class);
            Component<Pos> home = world.component(Pos.class, "Home");
            Component<Buff> buff = world.component(Buff.class, Storage.SPARSE);
            parent = world.spawn(new Pos(1, 2));
            a = world.spawn(new Pos(3, 4), new Flags(true, (byte) 1, 'x', 5L, 2.5, (short) 3, 4), new Frozen());
            world.add(a, home, new Pos(9, 9));
            world.add(a, buff, new Buff(2));
            world.add(a, world.referenceComponent(Brain.class), new Brain());
            world.add(a, world.referenceComponent(Broken.class), new Broken());
            world.relations().add(a, world.relations().childOf(), parent);
            b = world.spawn(new Pos(5, 5));
            dead = world.spawn(new Pos(0, 0));
            world.despawn(dead);
            EditSink sink = new EditSink() {
                @Override
                public String submit(Edit e) {
                    submitted.add(e);
                    return null;
                }

                @Override
                public String readOnly(String component, String field) {
                    return null;
                }
            };
            sim = Simulation.builder(world).seed(1).workers(1).hashEvery(0).systems(s -> s.system("noop")
                    .query(world.query().with(pos).build()).reads(pos).forEachChunk(j -> { })).build();
            explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withEdits(sink)
                    .withRequestTimeout(Duration.ofSeconds(10)));
            Relation late = world.relations().register("Late", true, false, Cleanup.REMOVE_PAIR); // after attach
            world.relations().add(b, late, parent);
            client = new Client(explorer);
            ticker = new Thread(() -> sim.run(0, 200, null), "features-tick");
            ticker.setDaemon(true);
            ticker.start();
        }

        /** Posts an edit of {@code entity}, waiting out a 503 (no safe point yet). */
        HttpResponse<String> edit(long entity, String component, String field, String value) throws Exception {
            String form = "entity=" + entity + "&component=" + component + "&field=" + field + "&value=" + value;
            long until = System.nanoTime() + 30_000_000_000L;
            HttpResponse<String> r = client.edit(form);
            while (r.statusCode() == 503 && System.nanoTime() < until) {
                Thread.sleep(50);
                r = client.edit(form);
            }
            return r;
        }

        @Override
        public void close() throws InterruptedException {
            long until = System.nanoTime() + 60_000_000_000L;
            while (ticker.isAlive() && System.nanoTime() < until) {
                sim.stop();
                ticker.join(100);
            }
            explorer.close();
            sim.close();
        }
    }

    @Test
    void shouldShowAReferenceComponentWithoutAToStringOrWithAFailingOneAsTextNotAnIdentityHashOrA500()
            throws Exception {
        try (Features f = new Features()) {
            HttpResponse<String> entity = f.client.getTicking("/api/entity?id=" + f.a);
            assertEquals(200, entity.statusCode(), entity.body());
            String body = entity.body();
            assertFalse(body.contains("$Brain@"), "an identity hash differs in every replay: " + body);
            assertTrue(body.contains("\"text\":\"(a Brain without a toString: give it one"), body);
            assertTrue(body.contains("(its toString failed: java.lang.IllegalStateException: no text)"), body);
            HttpResponse<String> query = f.client.getTicking("/api/query?q=Brain%2C%20Broken");
            assertEquals(200, query.statusCode(), query.body());
            assertTrue(query.body().contains("\"values\":[[\"(a Brain without a toString") && query.body()
                    .contains("(its toString failed"), query.body());
        }
    }

    @Test
    void shouldShowASparseComponentWithItsValueOnTheEntityAndInQueries() throws Exception {
        try (Features f = new Features()) {
            String a = f.client.getTicking("/api/entity?id=" + f.a).body();
            assertTrue(a.contains("{\"name\":\"Buff\",\"type\":\"Buff\",\"sparse\":true,"), a);
            assertTrue(a.contains("\"fields\":[{\"name\":\"level\",\"type\":\"INT\",\"value\":\"2\",\"editable\":true}]"),
                    a);
            String b = f.client.getTicking("/api/entity?id=" + f.b).body();
            assertFalse(b.contains("\"name\":\"Buff\""), "b holds no Buff: " + b);
            String buffs = f.client.getTicking("/api/query?q=Buff").body();
            assertTrue(buffs.contains("\"count\":1,") && buffs.contains("\"rowFiltered\":true"), buffs);
            assertTrue(buffs.contains("{\"id\":" + f.a + ",") && buffs.contains("\"values\":[[\"2\"]]"), buffs);
            String without = f.client.getTicking("/api/query?q=Pos%2C%20%21Buff").body();
            assertTrue(without.contains("\"count\":2,") && !without.contains("{\"id\":" + f.a + ","), without);
        }
    }

    @Test
    void shouldTakeAnEditOfEveryTypedFieldTypeAndHandItToTheSink() throws Exception {
        try (Features f = new Features()) {
            String[][] good = {{"Flags", "on", "false"}, {"Flags", "b", "-128"}, {"Flags", "l", "-9000000000"},
                {"Flags", "d", "1e300"}, {"Flags", "s", "32767"}, {"Flags", "r", "10"}, {"Home", "x", "7.5"},
                {"Buff", "level", "3"}};
            for (String[] e : good) {
                HttpResponse<String> r = f.edit(f.a, e[0], e[1], e[2]);
                assertEquals(202, r.statusCode(), String.join(".", e) + ": " + r.body());
            }
            assertEquals(good.length, f.submitted.size(), f.submitted.toString());
        }
    }

    @Test
    void shouldRefuseAtOnceAnEditOfNoSuchFieldOrAValueNotOfItsTypeNamingTheMistake() throws Exception {
        try (Features f = new Features()) {
            String[][] refused = {
                {"Nope", "x", "1", "no component named 'Nope' (names are matched exactly); the components are Pos"},
                {"Flags", "nope", "1", "Flags has no field 'nope'; its fields are on, b, c, l, d, s, r"},
                {"Frozen", "x", "1", "Frozen is a tag: it has no fields to edit"},
                {"Brain", "value", "1", "Brain is a reference component"},
                {"Late", "target", "1", "Late.target is the relation's target"},
                {"Flags", "on", "maybe", "Flags.on is a boolean; 'maybe' is not one: type true or false"},
                {"Flags", "b", "200", "Flags.b is a byte; '200' is not one: type a whole number from -128 to 127"},
                {"Flags", "l", "1.5", "Flags.l is a long; '1.5' is not one: type a whole number"},
                {"Flags", "d", "1e999", "Flags.d is a double; '1e999' is not one: type a number"},
            };
            for (String[] e : refused) {
                long entity = e[0].equals("Late") ? f.b : f.a;
                HttpResponse<String> r = f.edit(entity, e[0], e[1], e[2]);
                assertEquals(409, r.statusCode(), String.join(".", e) + ": " + r.body());
                assertTrue(r.body().contains("\"status\":\"refused\",\"reason\":\"" + e[3]), e[3] + ": " + r.body());
            }
            HttpResponse<String> huge = f.edit(f.a, "Pos", "x", "9".repeat(5000));
            assertEquals(400, huge.statusCode(), huge.body());
            assertTrue(huge.body().contains("the value is 5000 characters long"), huge.body());
            assertEquals(List.of(), f.submitted, "no refused edit reached the sink");
            // whether the entity lives and holds the component, and the field's @Range, are the
            // simulation's to check at the edit's tick (the same in every replay): taken here
            assertEquals(202, f.edit(f.dead, "Pos", "x", "1").statusCode());
            assertEquals(202, f.edit(f.b, "Flags", "on", "true").statusCode());
            assertEquals(202, f.edit(f.a, "Flags", "r", "11").statusCode());
            assertEquals(3, f.submitted.size(), f.submitted.toString());
        }
    }

    @Test
    void shouldRefuseAnIdWithANegativeIndexOrGenerationNamingTheForm() throws Exception {
        try (Features f = new Features()) {
            for (String id : new String[] {"1v-1", "-5v2"}) {
                HttpResponse<String> r = f.client.getTicking("/api/entity?id=" + id);
                assertEquals(400, r.statusCode(), r.body());
                assertTrue(r.body().contains("in index v generation (12v3) both are whole numbers from 0"), r.body());
            }
            HttpResponse<String> q = f.client.getTicking("/api/query?q=ChildOf(3v-2)");
            assertEquals(400, q.statusCode(), q.body());
            assertTrue(q.body().contains("'ChildOf(3v-2)': '3v-2' has a negative generation"), q.body());
        }
    }
}
