package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Schedule;
import dev.orrery.testkit.probe.ModulePathProbe;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A game with a {@code module-info.java} whose tests run under Maven Surefire has the engine on
 * the module path and the kit (test scope) on the class path. The kit refuses that at once,
 * naming the fix, instead of an {@code IllegalAccessError} from the engine's qualified exports;
 * the fix it names (the kit on the module path too) works, and so does the class path alone.
 * Each layout runs in a JVM of its own.
 */
class ModulePathTest {
    private static String where(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String engineAndBelow() throws ClassNotFoundException {
        List<String> parts = new ArrayList<>(List.of(where(Simulation.class), where(Schedule.class), where(World.class)));
        for (String name : List.of("it.unimi.dsi.fastutil.longs.LongArrayList", "org.jctools.queues.MpscArrayQueue",
                "com.lmax.disruptor.RingBuffer")) {
            parts.add(where(Class.forName(name)));
        }
        return String.join(File.pathSeparator, parts);
    }

    private static String probe(String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(options));
        command.add(ModulePathProbe.class.getName());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the probe did not end: " + out);
        assertEquals(0, p.exitValue(), out);
        return out.strip();
    }

    @Test
    void shouldRefuseTheKitOnTheClassPathBesideTheEngineOnTheModulePathNamingTheFix() throws Exception {
        String out = probe("-p", engineAndBelow(), "--add-modules", "dev.orrery.engine",
                "-cp", where(DeterminismCheck.class) + File.pathSeparator + where(ModulePathProbe.class));
        assertTrue(out.startsWith("refused: java.lang.IllegalStateException: DeterminismCheck.of: orrery-testkit is "
                + "on the class path while orrery-engine is on the module path (module dev.orrery.engine)"), out);
        assertTrue(out.contains("<useModulePath>false</useModulePath>"), out);
        assertTrue(out.contains("--add-modules dev.orrery.testkit"), out);
    }

    @Test
    void shouldRunWithTheKitOnTheModulePathToo() throws Exception {
        Path kit = Path.of(where(DeterminismCheck.class)); // the kit's classes folder, read as a module
        String out = probe("-p", engineAndBelow() + File.pathSeparator + kit,
                "--add-modules", "dev.orrery.engine,dev.orrery.testkit", "-cp", where(ModulePathProbe.class));
        assertTrue(out.matches("ran \\d+"), out);
    }

    @Test
    void shouldRunWithEverythingOnTheClassPath() throws Exception {
        String out = probe("-cp", engineAndBelow() + File.pathSeparator + where(DeterminismCheck.class)
                + File.pathSeparator + where(ModulePathProbe.class));
        assertTrue(out.matches("ran \\d+"), out);
    }
}
