package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.Simulation;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an explorer leaves when it goes: attached to a closed simulation it is refused before
 * it binds a port or starts a thread; closed, it refuses what it can no longer answer in the
 * explorer's terms, and closing it again is harmless.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExplorerLifecycleTest {
    record Pos(float x) {
    }

    private static Simulation sim() {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        world.spawn(new Pos(1));
        return Simulation.builder(world).seed(1).systems(s -> s.system("look").query(world.query().with(pos).build())
                .reads(pos).forEachChunk(job -> { })).build();
    }

    @Test
    void shouldRefuseToAttachToAClosedSimulationBeforeStartingAServer() {
        Simulation sim = sim();
        sim.close();
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Explorer.attach(sim, ExplorerOptions.loopback(0)));
        assertEquals("simulation is closed; build a new one with Simulation.builder(world)", e.getMessage());
        assertEquals(Set.of(), explorerThreadsSince(before), "a refused attach started no server");
    }

    private static Set<String> explorerThreadsSince(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t) && t.getName().startsWith("orrery-explorer"))
                .map(Thread::getName).collect(Collectors.toSet());
    }
}
