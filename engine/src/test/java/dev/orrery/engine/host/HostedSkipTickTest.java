package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * WorldHost x FailurePolicy.SKIP_TICK: on a host of several worlds, the warning a skipping
 * world logs by default says which world (as well as which system), the host's counters
 * show the skips on that world only, and removing the world leaves the host serving the rest.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostedSkipTickTest {

    @Test
    void aSkippingWorldIsNamedInItsWarningAndRemovingItLeavesTheRestTicking() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Filters filter = Filters.capture(Simulation.class.getName(), warnings);
        List<String> heard = new CopyOnWriteArrayList<>();
        try (WorldHost host = WorldHost.builder().threads(2)
                .onFailure((w, tick, e) -> heard.add(w.name() + "@" + tick)).build()) {
            SimulationBuilder[] holder = new SimulationBuilder[1];
            holder[0] = HostWorkload.builder(5, 100, 1, s -> HostWorkload.failing(holder[0].resources(), 2, 1).accept(s));
            HostedWorld shaky = host.add("shaky", holder[0].onSystemFailure(FailurePolicy.SKIP_TICK).build(), 200);
            HostedWorld calm = host.add("calm", HostWorkload.build(6, 100), 200);
            HostedWorld still = host.add("still", HostWorkload.build(7, 100), 200);

            eventually(() -> shaky.stats().skippedTicks() >= 3, () -> "the shaky world skips: " + shaky.stats());
            eventually(() -> !warnings.isEmpty(), () -> "a warning for the first skip");
            String warning = warnings.get(0);
            assertTrue(warning.contains("fragile"), "the warning names the system: " + warning);
            assertTrue(warning.contains("'shaky'"), "and, on a host of several worlds, the world: " + warning);
            assertEquals(1, warnings.size(), "only the first failure of a system is logged: " + warnings);
            assertEquals(0, calm.stats().skippedTicks(), "the neighbours skip nothing: " + calm.stats());
            assertTrue(host.stats().skippedTicks() >= shaky.stats().skippedTicks(), "the host counts them: "
                    + host.stats());

            Simulation back = shaky.remove().join();
            assertTrue(back.skippedTicks() >= 3, "the simulation handed back counts its skips");
            assertEquals(List.of("calm", "still"), host.worlds().stream().map(HostedWorld::name).toList());
            long calmBefore = calm.stats().ticks();
            long stillBefore = still.stats().ticks();
            eventually(() -> calm.stats().ticks() > calmBefore + 10 && still.stats().ticks() > stillBefore + 10,
                    () -> "the host serves the rest: " + calm.stats() + " / " + still.stats());
            assertEquals(List.of(), heard, "skipped ticks are no failures of the host's worlds");
            back.bindTickThread();
            back.close();
        } finally {
            filter.remove();
        }
    }

    /**
     * A java.util.logging filter on one logger (where System.Logger goes by default) that
     * notes each message; reached reflectively, as this module does not read java.logging.
     */
    private record Filters(Object logger, Class<?> filterType) {
        static Filters capture(String name, List<String> into) throws ReflectiveOperationException {
            Class<?> loggerType = Class.forName("java.util.logging.Logger");
            Class<?> filterType = Class.forName("java.util.logging.Filter");
            Object logger = loggerType.getMethod("getLogger", String.class).invoke(null, name);
            Object filter = Proxy.newProxyInstance(HostedSkipTickTest.class.getClassLoader(), new Class<?>[] {filterType},
                    (proxy, method, args) -> {
                        if (method.getName().equals("isLoggable")) {
                            into.add(String.valueOf(args[0].getClass().getMethod("getMessage").invoke(args[0])));
                            return true;
                        }
                        return method.getName().equals("equals") ? proxy == args[0]
                                : method.getName().equals("hashCode") ? System.identityHashCode(proxy) : "capture";
                    });
            loggerType.getMethod("setFilter", filterType).invoke(logger, filter);
            return new Filters(logger, filterType);
        }

        void remove() throws ReflectiveOperationException {
            logger.getClass().getMethod("setFilter", filterType).invoke(logger, new Object[] {null});
        }
    }

    private static void eventually(BooleanSupplier condition, Supplier<String> message) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - until < 0, message);
            Thread.sleep(5);
        }
    }
}
