package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.UndeclaredAccessException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
import dev.orrery.scheduler.check.CheckedMode;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Declared access enforced wherever a job can reach data, on every executor: by-id access
 * through the job, World's by-id writes refused inside a job, writes into a read-only
 * column's array caught in checked mode, and resource access checked in checked mode. Each
 * test fails if its check is removed: the offending job would then run without a failure.
 */
class DeclaredAccessTest {
    record Pos(float x) {
    }

    record Hp(int hp) {
    }

    /** A world of {@code n} entities with Pos(i) and Hp(100), in small chunks so the parallel executor splits. */
    private static World world(int n) {
        World w = new World(256);
        for (int i = 0; i < n; i++) {
            w.spawn(new Pos(i), new Hp(100));
        }
        return w;
    }

    private static long[] ids(World w) {
        long[] ids = new long[all(w).count()];
        int[] k = {0};
        all(w).forEach((chunk, row) -> ids[k[0]++] = chunk.entity(row));
        return ids;
    }

    private static ScheduleExecutor executor(Schedule s, int workers) {
        return s.executor(workers);
    }

    private static Query all(World w) {
        return w.query().with(w.component(Pos.class), w.component(Hp.class)).build();
    }

    @org.junit.jupiter.api.Test
    void shouldRefuseASystemThatDeclaresAnotherWorldsComponent() {
        World w = world(10);
        Component<Pos> pos = w.component(Pos.class);
        World other = new World();
        Component<Hp> foreign = other.component(Hp.class); // id 0 there, the id of Pos here
        for (String kind : new String[] {"reads", "writes", "spawns"}) {
            Schedule.Builder b = Schedule.builder(w);
            var sys = b.system("mixed").query(w.query().with(pos).build());
            sys = switch (kind) {
                case "reads" -> sys.reads(foreign);
                case "writes" -> sys.writes(foreign);
                default -> sys.spawns(foreign);
            };
            sys.forEachChunk(job -> { });
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build, kind);
            assertTrue(e.getMessage().contains("system 'mixed' declares component Hp, which another world registered")
                    && e.getMessage().contains("world.component(Hp.class)"), e.getMessage());
        }
    }

    @org.junit.jupiter.api.Test
    void shouldNameTheReferenceHandleWhenASystemDeclaresAnotherWorldsReferenceComponent() {
        World w = world(10);
        Component<Pos> pos = w.component(Pos.class);
        Component<StringBuilder> note = new World().referenceComponent(StringBuilder.class);
        Schedule.Builder b = Schedule.builder(w);
        b.system("noted").query(w.query().with(pos).build()).reads(note).forEachChunk(job -> { });
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains("system 'noted' declares component StringBuilder, which another world "
                + "registered; declare this world's handle (world.referenceComponent(StringBuilder.class))"),
                e.getMessage());
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldReadAndWriteOtherEntitiesByIdThroughTheJobWhenDeclared(int workers) {
        World w = world(200);
        Component<Pos> pos = w.component(Pos.class);
        Component<Hp> hp = w.component(Hp.class);
        Field x = pos.field("x");
        Field hpf = hp.field("hp");
        long first = EcsInternals.archetypes(all(w)).get(0).chunk(0).entity(0);
        // Each row writes its own entity's Hp from its own Pos, by id; reads the first entity's Pos by id.
        Schedule s = Schedule.builder(w).minBatchRows(16)
                .system("byId").query(all(w)).reads(pos).writes(hp)
                .forEachChunk(job -> {
                    float base = job.getFloat(first, x);
                    for (int r = 0, n = job.chunk().size(); r < n; r++) {
                        long e = job.chunk().entity(r);
                        job.setInt(e, hpf, (int) (job.getFloat(e, x) - base) + job.getInt(e, hpf));
                        job.set(e, hp, new Hp(job.get(e, hp).hp() + 1));
                    }
                })
                .build();
        try (ScheduleExecutor ex = executor(s, workers)) {
            ex.run();
        }
        for (long e : ids(w)) {
            assertEquals((int) w.getFloat(e, x) + 101, w.getInt(e, hpf));
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldRefuseAnUndeclaredByIdReadOrWriteNamingSystemAndComponent(int workers) {
        World w = world(100);
        Component<Pos> pos = w.component(Pos.class);
        Component<Hp> hp = w.component(Hp.class);
        Schedule writes = Schedule.builder(w).minBatchRows(16)
                .system("sneaky").query(all(w)).reads(pos, hp)
                .forEachChunk(job -> job.setInt(job.chunk().entity(0), hp.field("hp"), 0))
                .build();
        try (ScheduleExecutor ex = executor(writes, workers)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            UndeclaredAccessException cause = assertInstanceOf(UndeclaredAccessException.class, e.getCause());
            assertEquals("system 'sneaky' wrote component Hp but declared no write of it; add .writes(Hp) to the "
                    + "system's declaration", cause.getMessage());
        }
        Schedule reads = Schedule.builder(w).minBatchRows(16)
                .system("nosy").query(all(w)).writes(pos)
                .forEachChunk(job -> job.get(job.chunk().entity(0), hp))
                .build();
        try (ScheduleExecutor ex = executor(reads, workers)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            assertTrue(e.getCause().getMessage().startsWith("system 'nosy' read component Hp but declared neither"),
                    e.getCause().getMessage());
        }
        for (long e : ids(w)) {
            assertEquals(100, w.get(e, hp).hp(), "no write went through");
        }
    }

    @org.junit.jupiter.api.Test
    void shouldRefuseANullValueInAJobsByIdSetNamingTheCallAsTheWorldDoes() {
        World w = world(10);
        Component<Hp> hp = w.component(Hp.class);
        Schedule s = Schedule.builder(w)
                .system("clears").query(all(w)).writes(hp)
                .forEachChunk(job -> job.set(job.chunk().entity(0), hp, null))
                .build();
        try (ScheduleExecutor ex = executor(s, 1)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            NullPointerException cause = assertInstanceOf(NullPointerException.class, e.getCause());
            assertEquals("job.set(entity, Hp, value): the value is null; give the new value (a record of zeros to "
                    + "zero it)", cause.getMessage());
        }
        for (long e : ids(w)) {
            assertEquals(100, w.get(e, hp).hp(), "no write went through");
        }
    }

    /** A job's by-id read of an id its world never issued, or of a despawned entity, says which, naming the system. */
    @org.junit.jupiter.api.Test
    void shouldTellANeverIssuedIdFromADespawnedOneInAJobsByIdRead() {
        World w = world(10);
        Component<Hp> hp = w.component(Hp.class);
        long despawned = w.spawn(new Pos(0), new Hp(1));
        w.despawn(despawned);
        long neverIssued = dev.orrery.ecs.component.Entity.of(5_000, 1);
        for (long id : new long[] {neverIssued, despawned}) {
            Schedule s = Schedule.builder(w)
                    .system("reader").query(all(w)).reads(hp)
                    .forEachChunk(job -> job.get(id, hp))
                    .build();
            try (ScheduleExecutor ex = executor(s, 1)) {
                SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
                String m = assertInstanceOf(dev.orrery.ecs.component.StaleEntityException.class, e.getCause())
                        .getMessage();
                assertTrue(m.contains(id == neverIssued ? "never handed out by this world" : "is not alive (despawned")
                        && m.contains("get Hp in system 'reader' refused"), m);
            }
        }
    }

    record Homing(@dev.orrery.ecs.component.EntityRef long target) {
    }

    @org.junit.jupiter.api.Test
    void shouldRefuseAProvisionalHandleWrittenDirectlyIntoAnEntityRefFieldFromAJob() {
        World w = world(10);
        Component<Homing> homing = w.component(Homing.class);
        for (long e : ids(w)) {
            w.add(e, homing, new Homing(e));
        }
        Query q = w.query().with(w.component(Pos.class), homing).build();
        Map<String, Consumer<dev.orrery.scheduler.JobContext>> writes = Map.of(
                "job.set", job -> job.set(job.chunk().entity(0), homing, new Homing(job.commands().spawn())),
                "job.setLong", job -> job.setLong(job.chunk().entity(0), homing.field("target"), job.commands().spawn()),
                "chunk.set", job -> job.chunk().set(homing, 0, new Homing(job.commands().spawn())));
        for (Map.Entry<String, Consumer<dev.orrery.scheduler.JobContext>> write : writes.entrySet()) {
            Schedule s = Schedule.builder(w)
                    .system("aims").query(q).writes(homing).spawns()
                    .forEachChunk(job -> write.getValue().accept(job))
                    .build();
            try (ScheduleExecutor ex = executor(s, 1)) {
                SystemFailedException e = assertThrows(SystemFailedException.class, ex::run, write.getKey());
                IllegalArgumentException cause = assertInstanceOf(IllegalArgumentException.class, e.getCause());
                assertTrue(cause.getMessage().startsWith("entity-reference field Homing.target was given ")
                        && cause.getMessage().contains("provisional handle"), write.getKey() + ": " + cause.getMessage());
            }
        }
        for (long e : ids(w)) {
            assertEquals(e, w.get(e, homing).target(), "no provisional handle stored");
        }
    }

    @org.junit.jupiter.api.Test
    void shouldNameTheJobAccessorThatFitsAFieldOfAnotherType() {
        World w = world(10);
        Component<Pos> pos = w.component(Pos.class);
        Schedule s = Schedule.builder(w)
                .system("typo").query(all(w)).reads(pos)
                .forEachChunk(job -> job.getInt(job.chunk().entity(0), pos.field("x")))
                .build();
        try (ScheduleExecutor ex = executor(s, 1)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            assertEquals("field Pos.x is FLOAT, not INT; use job.getFloat/job.setFloat", e.getCause().getMessage());
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldRefuseWorldByIdWritesInsideAJobButNotOutside(int workers) {
        World w = world(100);
        Component<Pos> pos = w.component(Pos.class);
        Component<Hp> hp = w.component(Hp.class);
        Field hpf = hp.field("hp");
        Schedule s = Schedule.builder(w).minBatchRows(16)
                .system("racy").query(all(w)).writes(hp)
                .forEachChunk(job -> w.setInt(job.chunk().entity(0), hpf, 1))
                .build();
        try (ScheduleExecutor ex = executor(s, workers)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(cause.getMessage().startsWith("world.setInt("), cause.getMessage());
            assertTrue(cause.getMessage().contains("phase Update (systems racy)"), cause.getMessage());
            assertTrue(cause.getMessage().contains("JobContext"), cause.getMessage());
        }
        for (long e : ids(w)) {
            assertEquals(100, w.getInt(e, hpf), "no write went through");
        }
        // Outside a job: in a plain iteration (structure locked) and in an exclusive system.
        all(w).forEachChunk(c -> w.setInt(c.entity(0), hpf, 7));
        Schedule exclusive = Schedule.builder(w)
                .system("owner").exclusive(world -> {
                    for (long e : ids(world)) {
                        world.set(e, hp, new Hp(9));
                    }
                })
                .system("after").query(all(w)).reads(pos).forEachChunk(job -> { })
                .build();
        try (ScheduleExecutor ex = executor(exclusive, workers)) {
            assertDoesNotThrow(() -> ex.run());
        }
        for (long e : ids(w)) {
            assertEquals(9, w.getInt(e, hpf));
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldCatchAWriteIntoAReadOnlyColumnsArrayInCheckedMode(int workers) {
        assertTrue(CheckedMode.ENABLED, "tests run with -ea, which turns checked mode on");
        World w = world(100);
        Component<Pos> pos = w.component(Pos.class);
        Component<Hp> hp = w.component(Hp.class);
        Schedule s = Schedule.builder(w).minBatchRows(16)
                .system("cheat").query(all(w)).reads(pos).writes(hp)
                .forEachChunk(job -> {
                    float[] x = job.chunk().readFloats(pos.field("x")); // allowed: a declared read...
                    x[0] += 1; // ...but this writes through it
                })
                .build();
        try (ScheduleExecutor ex = executor(s, workers)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            assertEquals("cheat", e.system());
            UndeclaredAccessException cause = assertInstanceOf(UndeclaredAccessException.class, e.getCause());
            assertEquals("system 'cheat' wrote component Pos but declared no write of it; add .writes(Pos) to the "
                    + "system's declaration", cause.getMessage());
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldCheckResourceAccessAgainstTheDeclarationInCheckedMode(int workers) {
        assertTrue(CheckedMode.ENABLED, "tests run with -ea, which turns checked mode on");
        ResourceKey<int[]> declared = ResourceKey.of("Declared", int[].class);
        ResourceKey<int[]> other = ResourceKey.of("Other", int[].class);
        World w = world(100);
        Component<Pos> pos = w.component(Pos.class);
        Schedule reader = Schedule.builder(w).minBatchRows(16)
                .system("reader").query(all(w)).reads(pos).readsResource(declared)
                .forEachChunk(job -> {
                    CheckedMode.checkResourceRead(declared); // declared: passes
                    CheckedMode.checkResourceRead(other);
                })
                .build();
        try (ScheduleExecutor ex = executor(reader, workers)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            UndeclaredResourceAccessException cause = assertInstanceOf(UndeclaredResourceAccessException.class,
                    e.getCause());
            assertEquals("system 'reader' read resource 'Other' but declared neither a read nor a write of it; add "
                    + ".readsResource(Other) to the system's declaration", cause.getMessage());
        }
        Schedule writer = Schedule.builder(w).minBatchRows(16)
                .system("writer").query(all(w)).reads(pos).readsResource(declared)
                .forEachChunk(job -> CheckedMode.checkResourceWrite(declared))
                .build();
        try (ScheduleExecutor ex = executor(writer, workers)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            assertTrue(e.getCause().getMessage().startsWith("system 'writer' asked to write resource 'Declared' but "
                    + "declared no write of it"), e.getCause().getMessage());
        }
        Schedule range = Schedule.builder(w).minBatchRows(1)
                .system("ranged").writesResource(declared)
                .forEachRange(() -> 64, (job, from, to) -> CheckedMode.checkResourceWrite(declared))
                .build();
        try (ScheduleExecutor ex = executor(range, workers)) {
            assertDoesNotThrow(() -> ex.run());
        }
        assertDoesNotThrow(() -> CheckedMode.checkResourceWrite(other), "outside a job nothing is checked");
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldRefuseAChangeTestOfAnUndeclaredColumnNamingTheDeclarationToAdd(int workers) {
        World w = world(100);
        Component<Pos> pos = w.component(Pos.class);
        Component<Hp> hp = w.component(Hp.class);
        for (String which : List.of("changed", "added", "changedRow", "firstChanged")) {
            Schedule s = Schedule.builder(w).minBatchRows(16)
                    .system("peeker").query(all(w)).writes(pos)
                    .forEachChunk(job -> {
                        switch (which) {
                            case "changed" -> job.chunk().changed(hp);
                            case "added" -> job.chunk().added(hp);
                            case "changedRow" -> job.chunk().changed(hp, 0);
                            default -> job.chunk().firstChanged(hp);
                        }
                    })
                    .build();
            try (ScheduleExecutor ex = executor(s, workers)) {
                SystemFailedException e = assertThrows(SystemFailedException.class, ex::run, which);
                UndeclaredAccessException cause = assertInstanceOf(UndeclaredAccessException.class, e.getCause(), which);
                assertTrue(cause.getMessage().startsWith("system 'peeker' tested whether component Hp changed")
                        && cause.getMessage().endsWith("add .reads(Hp) to the system's declaration"), cause.getMessage());
            }
        }
        Schedule declared = Schedule.builder(w).minBatchRows(16)
                .system("reader").query(all(w)).writes(pos).reads(hp)
                .forEachChunk(job -> job.chunk().changed(hp))
                .build();
        try (ScheduleExecutor ex = executor(declared, workers)) {
            ex.run(); // declared: allowed
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldRefuseAQueryIteratedInsideAJobNamingTheSystemAndTheFix(int workers) {
        World w = world(100);
        Component<Pos> pos = w.component(Pos.class);
        Query everyone = all(w);
        for (boolean perEntity : new boolean[] {false, true}) {
            Schedule s = Schedule.builder(w).minBatchRows(16)
                    .system("nested").query(everyone).reads(pos)
                    .forEachChunk(job -> {
                        if (perEntity) {
                            everyone.forEach((view, row) -> { });
                        } else {
                            everyone.forEachChunk(view -> { });
                        }
                    })
                    .build();
            try (ScheduleExecutor ex = executor(s, workers)) {
                SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
                IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
                assertTrue(cause.getMessage().contains("iterated inside system 'nested'")
                        && cause.getMessage().contains(".query(query)"), cause.getMessage());
                assertTrue(cause.getMessage().startsWith("query with [Pos, Hp] iterated"), "names, not column ids: "
                        + cause.getMessage());
            }
        }
        int[] seen = {0};
        Schedule exclusive = Schedule.builder(w)
                .system("allowed").exclusive(world -> everyone.forEachChunk(view -> seen[0] += view.size()))
                .build();
        try (ScheduleExecutor ex = executor(exclusive, workers)) {
            ex.run();
        }
        assertEquals(100, seen[0], "an exclusive system may iterate a query");
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldRefuseWorldByIdReadsAndCountsInsideAJobButNotOutside(int workers) {
        World w = world(100);
        Component<Pos> pos = w.component(Pos.class);
        Component<Hp> hp = w.component(Hp.class);
        Field hpf = hp.field("hp");
        Query everyone = all(w);
        List<Map.Entry<String, Consumer<Long>>> reads = List.of( // the message's start, the read
                Map.entry("world.getInt(", e -> w.getInt(e, hpf)),
                Map.entry("world.get(", e -> w.get(e, hp)),
                Map.entry("world.has(", e -> w.has(e, hp)),
                Map.entry("world.getValue(", e -> w.getValue(e, hpf)),
                Map.entry("world.getProperty(", e -> w.getProperty(e, "Hp", "hp")),
                Map.entry("world.findComponent(", e -> w.findComponent(e, "Hp")),
                Map.entry("query with [Pos, Hp] counted inside system 'peek'", e -> everyone.count()));
        for (Map.Entry<String, Consumer<Long>> read : reads) {
            Schedule s = Schedule.builder(w).minBatchRows(16)
                    .system("peek").query(everyone).reads(pos)
                    .forEachChunk(job -> read.getValue().accept(job.chunk().entity(0)))
                    .build();
            try (ScheduleExecutor ex = executor(s, workers)) {
                SystemFailedException e = assertThrows(SystemFailedException.class, ex::run, read.getKey());
                IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
                assertTrue(cause.getMessage().startsWith(read.getKey()), cause.getMessage());
                assertTrue(cause.getMessage().contains("job.") || cause.getMessage().contains("count job.chunk()"),
                        cause.getMessage());
            }
        }
        // Outside a job: on the owner thread, in an exclusive system, and in a range system's count.
        long first = ids(w)[0];
        reads.forEach(r -> assertDoesNotThrow(() -> r.getValue().accept(first)));
        int[] counted = {0};
        Schedule allowed = Schedule.builder(w)
                .system("owner").exclusive(world -> counted[0] = world.getInt(first, hpf) + everyone.count())
                .system("range").forEachRange(everyone::count, (job, from, to) -> { })
                .build();
        try (ScheduleExecutor ex = executor(allowed, workers)) {
            assertDoesNotThrow(() -> ex.run());
        }
        assertEquals(200, counted[0]);
    }
}
