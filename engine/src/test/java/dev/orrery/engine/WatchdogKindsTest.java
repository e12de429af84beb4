package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.States;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The watchdog beside each kind of system: it names the slow system and says what its job's
 * range counts (chunks, a range system's indices, a level system's slots; an exclusive or
 * on-enter system as exclusive), and, where no job runs (a slow run condition, a slow
 * observer hook at a sync point), says the tick is between jobs and lists what runs there.
 */
class WatchdogKindsTest {
    enum Mode { ON }

    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);

    /** Slow until the watchdog has reported (at most 10 s), however late a loaded machine runs its thread. */
    static void slow(List<String> reports) {
        long until = System.nanoTime() + 10_000_000_000L;
        while (reports.isEmpty() && System.nanoTime() < until) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "chunk      | slow | ' chunks ['",
        "range      | slow | ' indices [0, 1) for '",
        "level      | slow | ' slots [0, 2) for '",
        "exclusive  | slow | 'worker 0 (exclusive) for '",
        "onEnter    | slow | 'worker 0 (exclusive) for '",
        "condition  |      | no job running: the tick is between jobs (taking its inputs, testing a run condition, ",
        "hook       |      | no job running: the tick is between jobs (taking its inputs, testing a run condition, "})
    void shouldNameTheSlowSystemAndWhatItsJobCovers(String kind, String system, String job) {
        List<String> reports = new CopyOnWriteArrayList<>();
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        Relation childOf = world.relations().childOf();
        long root = world.spawn(new Hp(1));
        world.relations().add(world.spawn(new Hp(2)), childOf, root);
        if (kind.equals("hook")) {
            world.observe(hp).onAdd((w, e, commands) -> slow(reports));
        }
        Consumer<Schedule.Builder> systems = s -> {
            switch (kind) {
                case "chunk" -> s.system("slow").query(world.query().with(hp).build()).reads(hp)
                        .forEachChunk(j -> slow(reports));
                case "range" -> s.system("slow").forEachRange(() -> 1, (j, from, to) -> slow(reports));
                case "level" -> s.system("slow").reads(hp).forEachLevel(childOf, (j, h, from, to) -> slow(reports));
                case "exclusive" -> s.system("slow").exclusive(w -> slow(reports));
                case "onEnter" -> s.system("slow").onEnter(MODE, Mode.ON).exclusive(w -> slow(reports));
                case "condition" -> s.system("gated").runIf(RunCondition.of("slow", r -> {
                    slow(reports);
                    return true;
                })).exclusive(w -> { });
                case "hook" -> s.system("spawner").spawns(hp).forEachRange(() -> 1,
                        (j, from, to) -> j.commands().add(j.commands().spawn(), hp, new Hp(3)));
                default -> throw new AssertionError(kind);
            }
        };
        try (Simulation sim = Simulation.builder(world).stepSeconds(0.01).workers(2)
                .resource(MODE, new States<>(Mode.class, Mode.ON))
                .watchdog(5, (tick, elapsed, name, what) -> reports.add(name + "|" + what))
                .systems(systems).build()) {
            sim.tick();
        }
        assertEquals(1, reports.size(), reports.toString());
        String[] report = reports.get(0).split("\\|", 2);
        assertEquals(system == null ? "" : system, report[0], reports.toString());
        assertTrue(report[1].contains(job), reports.toString());
    }
}
