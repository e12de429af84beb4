package dev.orrery.examples.newcomer.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.CommandKind;
import dev.orrery.ecs.CommandOutcome;
import dev.orrery.ecs.PlaybackReport;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.RefusedCommandException;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.UndeclaredCommandException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.EntityRef;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.SystemFailedException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An ant colony written from docs/command-buffers-and-sync-points.md only: queens lay twin
 * larvae from a job (two provisional handles, each twin's {@code @EntityRef} naming the other,
 * one of them recorded before the other twin exists), larvae grow by a column write a sync
 * point after they are laid, hatch by a remove and two adds, workers are born from a prepared
 * shape, queens are fed by a deferred {@code set}, starving ants are despawned, and a later
 * system of the same playback mourns them (too late: {@code SKIPPED_DEAD}). Run on 1, 2 and 4
 * workers, the state hashes and the playback totals agree, and the counts are the ones the
 * rules give.
 */
class ColonyTest {
    record Position(float x, float y) {}
    record Velocity(float x, float y) {}
    record Energy(int e) {}
    record Larva(int age) {}
    record Twin(@EntityRef long other) {}
    record Queen() {}
    record Mourned() {}

    static final int QUEENS = 6, WORKERS = 40, TICKS = 30, HATCH_AGE = 5, ADULT_ENERGY = 4;

    /** The colony's handles, registered the same way every time. */
    record Colony(World world, Component<Position> pos, Component<Velocity> vel, Component<Energy> energy,
                  Component<Larva> larva, Component<Twin> twin, Component<Queen> queen,
                  Component<Mourned> mourned) {
        static Colony create() {
            World w = new World();
            Colony c = new Colony(w, w.component(Position.class), w.component(Velocity.class),
                    w.component(Energy.class), w.component(Larva.class), w.component(Twin.class),
                    w.component(Queen.class), w.component(Mourned.class));
            for (int i = 0; i < QUEENS; i++) w.spawn(new Position(i, 0), new Energy(10), new Queen());
            for (int i = 0; i < WORKERS; i++) w.spawn(new Position(0, i), new Velocity(1, 0), new Energy(3 + i % 7));
            return c;
        }
    }

    /**
     * Builds the colony's simulation. With {@code mournFirst} the mourning system runs before
     * the starving one in the same playback, so its adds land before the despawns do.
     */
    static Simulation build(int workers, boolean mournFirst) {
        Colony c = Colony.create();
        World w = c.world();
        Field ex = c.energy().field("e"), age = c.larva().field("age"), px = c.pos().field("x"), vx = c.vel().field("x");
        Field py = c.pos().field("y");
        Shape worker = w.shape(c.pos(), c.vel(), c.energy());
        Query queens = w.query().with(c.queen(), c.pos(), c.energy()).build();
        Query larvae = w.query().with(c.larva()).build();
        Query movers = w.query().with(c.pos(), c.vel()).build();
        Query adults = w.query().with(c.energy(), c.vel()).build();
        Query fed = w.query().with(c.energy()).build();
        Query twins = w.query().with(c.energy(), c.twin()).build();
        return Simulation.builder(w).seed(3).workers(workers).systems(s -> {
            s.system("lay").query(queens).reads(c.pos(), c.energy())
                    .spawns(c.pos(), c.larva(), c.twin(), c.vel(), c.energy())
                    .forEachChunk(job -> {
                        CommandBuffer cmd = job.commands();
                        float[] x = job.chunk().readFloats(px);
                        int[] e = job.chunk().readInts(ex);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            long a = cmd.spawn();                        // provisional handles
                            cmd.add(a, c.pos(), new Position(x[i], 1));
                            cmd.add(a, c.larva(), new Larva(0));
                            long b = cmd.spawn();
                            cmd.add(b, c.pos(), new Position(x[i], 2));
                            cmd.add(b, c.larva(), new Larva(0));
                            cmd.add(b, c.twin(), new Twin(a));           // a exists only in the buffer
                            cmd.add(a, c.twin(), new Twin(b));           // a used again after b's spawn
                            if (e[i] % 4 == 0) {                         // a worker, from the shape
                                long wk = cmd.spawn(worker);
                                cmd.setFloat(wk, px, x[i]);
                                cmd.setFloat(wk, py, 3);
                                cmd.setFloat(wk, vx, 1);
                                cmd.setInt(wk, ex, 2);
                            }
                        }
                    });
            s.system("grow").after("lay").query(larvae).writes(c.larva())
                    .removes(c.larva()).adds(c.vel(), c.energy())
                    .forEachChunk(job -> {
                        int[] a = job.chunk().writeInts(age);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            if (++a[i] < HATCH_AGE) continue;
                            long ant = job.chunk().entity(i);
                            job.commands().remove(ant, c.larva());
                            job.commands().add(ant, c.vel(), new Velocity(0, 1));
                            job.commands().add(ant, c.energy(), new Energy(ADULT_ENERGY));
                        }
                    });
            s.system("move").after("grow").query(movers).reads(c.vel()).writes(c.pos()).forEachChunk(job -> {
                float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
                for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i];
            });
            s.system("burn").after("move").query(adults).writes(c.energy()).forEachChunk(job -> {
                int[] e = job.chunk().writeInts(ex);
                for (int i = 0; i < job.chunk().size(); i++) e[i]--;
            });
            s.system("feed").after("burn").query(queens).reads(c.energy()).setsLater(c.energy()).forEachChunk(job -> {
                int[] e = job.chunk().readInts(ex);
                for (int i = 0; i < job.chunk().size(); i++) {
                    job.commands().set(job.chunk().entity(i), c.energy(), new Energy(e[i] + 1));
                }
            });
            s.system("starve").after(mournFirst ? "mourn" : "feed").query(fed).reads(c.energy()).despawns().forEachChunk(job -> {
                int[] e = job.chunk().readInts(ex);
                for (int i = 0; i < job.chunk().size(); i++) {
                    if (e[i] <= 0) job.commands().despawn(job.chunk().entity(i));
                }
            });
            s.system("mourn").after(mournFirst ? "feed" : "starve").query(twins).reads(c.energy()).adds(c.mourned())
                    .beforeStructuralChanges()                   // same playback as starve's despawns
                    .forEachChunk(job -> {
                        int[] e = job.chunk().readInts(ex);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            if (e[i] <= 0) job.commands().add(job.chunk().entity(i), c.mourned());
                        }
                    });
        }).build();
    }

    record Outcome(long hash, long larvae, long twinsChecked, long adults, long queenEnergy, long mourned,
                   PlaybackReport totals) {}

    static Outcome run(int workers, boolean mournFirst) {
        try (Simulation sim = build(workers, mournFirst)) {
            for (int t = 0; t < TICKS; t++) sim.tick();
            World w = sim.world();
            Component<Larva> larva = w.component(Larva.class);
            Component<Twin> twin = w.component(Twin.class);
            Component<Energy> energy = w.component(Energy.class);
            long[] larvae = {0}, twinsChecked = {0}, adults = {0}, queenEnergy = {0}, mourned = {0};
            w.query().with(larva, twin).build().forEachReadOnly((view, row) -> {
                long e = view.entity(row);
                long other = w.get(e, twin).other();
                assertFalse(CommandBuffer.isProvisional(other), "a provisional handle outlived its playback");
                assertTrue(w.isAlive(other), "a twin's twin is alive");
                assertEquals(e, w.get(other, twin).other(), "twins name each other");
                assertEquals(w.get(e, larva).age(), w.get(other, larva).age(), "twins are laid together");
                larvae[0]++;
                twinsChecked[0]++;
            });
            w.query().with(energy, w.component(Velocity.class)).build().forEachReadOnly((view, row) -> adults[0]++);
            w.query().with(w.component(Queen.class)).build().forEachReadOnly(
                    (view, row) -> queenEnergy[0] += w.get(view.entity(row), energy).e());
            w.query().with(w.component(Mourned.class)).build().forEachReadOnly((view, row) -> mourned[0]++);
            PlaybackReport totals = new PlaybackReport();
            totals.add(sim.commandTotals());
            return new Outcome(w.stateHash(), larvae[0], twinsChecked[0], adults[0], queenEnergy[0], mourned[0], totals);
        }
    }

    static List<String> counts(PlaybackReport r) {
        List<String> out = new ArrayList<>();
        for (CommandKind k : CommandKind.values()) {
            for (CommandOutcome o : CommandOutcome.values()) out.add(k + "/" + o + "=" + r.count(k, o));
        }
        return out;
    }

    @Test
    void theColonyIsTheSameOnOneTwoAndFourWorkers() {
        Outcome one = run(1, false), two = run(2, false), four = run(4, false);
        assertEquals(one.hash(), two.hash(), "1 and 2 workers");
        assertEquals(one.hash(), four.hash(), "1 and 4 workers");
        assertEquals(counts(one.totals()), counts(two.totals()));
        assertEquals(counts(one.totals()), counts(four.totals()));
        assertEquals(one, new Outcome(one.hash(), two.larvae(), two.twinsChecked(), two.adults(), two.queenEnergy(),
                two.mourned(), one.totals()));
    }

    @Test
    void theCountsAreTheOnesTheRulesGive() {
        Outcome o = run(2, false);
        PlaybackReport r = o.totals();
        // Each tick every queen lays two larvae; a larva hatches on its fifth growth (the tick it
        // was laid counts: the sync point after 'lay' lets 'grow' see it), so at the end the
        // larvae of the last four ticks remain.
        assertEquals((long) QUEENS * 2 * (HATCH_AGE - 1), o.larvae(), "larvae of the last ticks");
        assertEquals((long) QUEENS * 2 * TICKS + WORKERS_FROM_SHAPE(), r.count(CommandKind.SPAWN, CommandOutcome.APPLIED));
        // The queens: fed one a tick by a deferred set (never burn: they have no Velocity).
        assertEquals((long) QUEENS * (10 + TICKS), o.queenEnergy(), "queens fed every tick");
        assertEquals((long) QUEENS * TICKS, r.count(CommandKind.SET, CommandOutcome.APPLIED));
        // A hatched twin burns its 4 energy in 4 ticks and starves; 'mourn', later in the same
        // playback, adds to an entity 'starve' already despawned: skipped, not refused.
        long starvedTwins = r.count(CommandKind.ADD, CommandOutcome.SKIPPED_DEAD);
        // A twin laid at tick L hatches at L + 4 and starves at L + 7: those laid at 0 to 22.
        assertEquals((long) QUEENS * 2 * (TICKS - (HATCH_AGE - 1) - (ADULT_ENERGY - 1)), starvedTwins);
        assertEquals(0, o.mourned(), "no add reached a despawned ant");
        long despawned = r.count(CommandKind.DESPAWN, CommandOutcome.APPLIED);
        assertEquals(despawned, starvedTwins + WORKERS + WORKERS_FROM_SHAPE(), "every ant starves once, twins mourned too late");
        assertEquals(0, r.count(CommandOutcome.REFUSED), () -> String.valueOf(r.messages()));
    }

    /** Whether command playback is strict here: -Dorrery.commands.strict, else on under -ea. */
    static boolean strict() {
        String forced = System.getProperty("orrery.commands.strict");
        boolean assertions = false;
        assert assertions = true;
        return forced != null ? Boolean.parseBoolean(forced) : assertions;
    }

    /** Workers laid from the shape: a queen's energy is 10 + t when she lays at tick t; every fourth tick. */
    static long WORKERS_FROM_SHAPE() {
        long n = 0;
        for (int t = 0; t < TICKS; t++) if ((10 + t) % 4 == 0) n += QUEENS;
        return n;
    }

    @Test
    void playbackOrderIsTheGraphsOrderNotTheThreads() {
        Outcome late = run(2, false), early = run(2, true);
        // mourn before starve: its adds are played first, then the despawns take the ants.
        assertEquals(0, early.totals().count(CommandKind.ADD, CommandOutcome.SKIPPED_DEAD));
        assertEquals(late.totals().count(CommandKind.ADD, CommandOutcome.SKIPPED_DEAD),
                early.totals().count(CommandKind.ADD, CommandOutcome.APPLIED)
                        - late.totals().count(CommandKind.ADD, CommandOutcome.APPLIED));
        assertEquals(run(4, true).hash(), early.hash());
    }

    /**
     * The chapter's strict-mode snippet, with a buffer used directly (no schedule): the refusal
     * says the command came from code outside a schedule, not from a numbered system, and asks
     * to fix that code rather than "the recording system".
     */
    @Test
    void aRefusalInABufferUsedDirectlyNamesNoSystem() {
        assumeTrue(strict(), "strict mode is on under -ea, as in this build's tests");
        Colony c = Colony.create();
        World world = c.world();
        CommandBuffer commands = new CommandBuffer(0);
        long missile = commands.spawn();
        commands.add(missile, c.pos(), new Position(5, 5));
        world.apply(commands);
        long queen = world.spawn(new Position(0, 0), new Energy(1), new Queen());
        commands.set(queen, c.larva(), new Larva(1));                  // the queen has no Larva
        RefusedCommandException refused = assertThrows(RefusedCommandException.class, () -> world.apply(commands));
        String m = refused.getMessage();
        assertFalse(m.contains("system #"), m);
        assertFalse(m.contains("recording system"), m);
        assertTrue(m.contains("outside a schedule"), m);
        assertTrue(m.contains("world.apply"), m);
        String first = refused.report().firstRefusal();
        assertTrue(first.startsWith("set Larva on ") && first.contains("outside a schedule"), first);
    }

    /** A job that records an add its system did not declare: the failure names the system, the component and the fix, in words. */
    @Test
    void anUndeclaredAddNamesTheSystemTheComponentAndTheDeclaration() {
        Colony c = Colony.create();
        World w = c.world();
        try (Simulation sim = Simulation.builder(w).workers(2).systems(s -> s.system("crown")
                .query(w.query().with(c.queen()).build()).reads(c.energy())
                .forEachChunk(job -> job.commands().add(job.chunk().entity(0), c.mourned()))).build()) {
            SystemFailedException failed = assertThrows(SystemFailedException.class, sim::tick);
            UndeclaredCommandException cause = assertInstanceOf(UndeclaredCommandException.class, failed.getCause());
            assertTrue(cause.getMessage().startsWith("system 'crown' recorded an add of component Mourned but declared"),
                    cause.getMessage());
            assertTrue(cause.getMessage().contains(".adds(Mourned)"), cause.getMessage());
            assertEquals(0, w.query().with(c.mourned()).build().count(), "nothing was added");
        }
    }

    /** A shape spawn whose shape holds a column the system did not declare: the message says the shape holds it. */
    @Test
    void anUndeclaredShapeColumnIsNamedAsTheShapes() {
        Colony c = Colony.create();
        World w = c.world();
        Shape worker = w.shape(c.pos(), c.vel(), c.energy());
        try (Simulation sim = Simulation.builder(w).systems(s -> s.system("breed")
                .query(w.query().with(c.queen()).build()).reads(c.energy()).spawns(c.pos(), c.vel())
                .forEachChunk(job -> job.commands().spawn(worker))).build()) {
            SystemFailedException failed = assertThrows(SystemFailedException.class, sim::tick);
            String m = failed.getCause().getMessage();
            assertTrue(m.startsWith("system 'breed' recorded a spawn through a shape holding component Energy but"), m);
            assertTrue(m.contains(".spawns(Energy)"), m);
        }
    }

    /**
     * Strict mode (on under -ea) in a simulation: a refused set ends the tick at its sync point
     * under either failure policy, after the rest of the playback was applied; the phases after
     * it do not run, the tick does not count, and tick() again runs the same tick again.
     */
    @Test
    void aRefusalAtASyncPointEndsTheTickUnderEitherPolicyAndTheTickRunsAgain() {
        assumeTrue(strict(), "strict mode is on under -ea, as in this build's tests");
        for (FailurePolicy policy : FailurePolicy.values()) {
            Colony c = Colony.create();
            World w = c.world();
            ResourceKey<LongSum> after = ResourceKey.of("after", LongSum.class);
            try (Simulation sim = Simulation.builder(w).workers(2).resource(after, new LongSum()).systems(s -> {
                s.system("weigh").query(w.query().with(c.queen()).build()).reads(c.energy())
                        .setsLater(c.larva()).adds(c.mourned()).forEachChunk(job -> {
                            for (int i = 0; i < job.chunk().size(); i++) {
                                job.commands().add(job.chunk().entity(i), c.mourned());     // applied
                                job.commands().set(job.chunk().entity(i), c.larva(), new Larva(1)); // refused
                            }
                        });
                s.system("later").inPhase(Phase.POST_UPDATE).reducesResource(after)
                        .exclusive((world, job) -> job.add(after, 1));
            }).build()) {
                sim.onSystemFailure(policy);
                RefusedCommandException refused = assertThrows(RefusedCommandException.class, sim::tick);
                assertTrue(refused.getMessage().contains("recorded by system 'weigh'"), refused.getMessage());
                assertEquals(QUEENS, w.query().with(c.mourned()).build().count(), "the rest was applied");
                assertEquals(0, sim.currentTick(), policy + ": the tick does not count");
                assertEquals(0, sim.skippedTicks(), policy + ": not a skipped tick");
                assertEquals(0, sim.resources().get(after).total(), policy + ": later phases did not run");
                assertThrows(RefusedCommandException.class, sim::tick, "the same tick again");
                assertEquals(0, sim.currentTick());
            }
        }
    }
}
