package dev.orrery.ecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A game's component record in a named module that does not open its package: the refusal
 * names the module, the package and the exact line to add to its {@code module-info.java}.
 * The game's module is compiled here and loaded in a layer of its own.
 */
class ClosedModuleRecordTest {
    @Test
    void shouldNameTheOpensLineToAddWhenARecordsModuleDoesNotOpenItsPackage(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src");
        Path out = dir.resolve("out");
        Files.createDirectories(src.resolve("my/game/components"));
        Files.writeString(src.resolve("module-info.java"), "module my.game { }\n");
        Files.writeString(src.resolve("my/game/components/Spark.java"),
                "package my.game.components;\npublic record Spark(float v) {}\n");
        Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "--release", "17", "-d", out.toString(), src.resolve("module-info.java").toString(),
                src.resolve("my/game/components/Spark.java").toString()).redirectErrorStream(true).start();
        String log = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(javac.waitFor(5, TimeUnit.MINUTES), "javac did not end: " + log);
        assertEquals(0, javac.exitValue(), log);

        Configuration cf = ModuleLayer.boot().configuration().resolve(ModuleFinder.of(out), ModuleFinder.of(),
                Set.of("my.game"));
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getSystemClassLoader());
        Class<?> spark = layer.findLoader("my.game").loadClass("my.game.components.Spark");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ComponentType.ofRecord(0, spark));
        for (String part : List.of("cannot access the record my.game.components.Spark",
                "module my.game does not open package my.game.components to dev.orrery.ecs",
                "add 'opens my.game.components to dev.orrery.ecs;' to the module-info.java of module my.game")) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
        }
    }
}
