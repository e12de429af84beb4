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
 * explorer's terms, and closing it again is harmless; attached and closed again and again, it
 * leaves no thread and frees its port.
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

    @Test
    void shouldLeaveNoThreadOrPortAfterRepeatedAttachAndCloseAndRefusePortAfterClose() throws Exception {
        try (Simulation sim = sim()) {
            Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
            int port = 0;
            Explorer last = null;
            for (int i = 0; i < 20; i++) { // on one port: each close frees it for the next attach
                last = Explorer.attach(sim, ExplorerOptions.loopback(port));
                port = last.port();
                new Client(last).get("/api"); // a request thread starts and a connection is served
                last.close();
                last.close(); // closing twice is harmless
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); // threads end just after close returns
            while (!explorerThreadsSince(before).isEmpty() && System.nanoTime() - until < 0) {
                Thread.sleep(20);
            }
            assertEquals(Set.of(), explorerThreadsSince(before), "20 explorers attached and closed");
            try (java.net.ServerSocket again = new java.net.ServerSocket()) {
                again.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port));
            }
            Explorer closed = last;
            for (Runnable call : new Runnable[] {closed::port, closed::url}) {
                IllegalStateException e = assertThrows(IllegalStateException.class, call::run);
                assertEquals("the explorer is closed and listens on no port; attach a new one with Explorer.attach",
                        e.getMessage());
            }
        }
    }

    private static Set<String> explorerThreadsSince(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && !before.contains(t) && t.getName().startsWith("orrery-explorer"))
                .map(Thread::getName).collect(Collectors.toSet());
    }
}
