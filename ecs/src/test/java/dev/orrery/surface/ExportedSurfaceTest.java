package dev.orrery.surface;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.surface.planted.PlantedLeak;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scanner behind every module's surface test finds a leak when one is put back. */
class ExportedSurfaceTest {
    private final ExportedSurface ecs = ExportedSurface.of(World.class);

    @Test
    void shouldReportEachMemberThatNamesAHiddenType() {
        List<String> leaks = ecs.leaksOf(PlantedLeak.class);
        String p = PlantedLeak.class.getName();
        assertEquals(List.of(
                p + ".archetype names dev.orrery.ecs.archetype.Archetype (package dev.orrery.ecs.archetype is not exported to everyone by dev.orrery.ecs)",
                p + ".archetypes names dev.orrery.ecs.archetype.Archetype (package dev.orrery.ecs.archetype is not exported to everyone by dev.orrery.ecs)",
                p + ".columns names it.unimi.dsi.fastutil.ints.IntList (library module it.unimi.dsi.fastutil.core is not required transitively)",
                p + ".hidden names " + p + "$Hidden (not public)"),
                leaks.stream().sorted().toList());
    }

    @Test
    void shouldReportEachMemberThatNamesALibraryType() {
        String p = PlantedLeak.class.getName();
        assertEquals(List.of(p + ".columns names it.unimi.dsi.fastutil.ints.IntList (library module it.unimi.dsi.fastutil.core)"),
                ecs.libraryTypesOf(PlantedLeak.class));
        assertNull(ecs.libraryOf(World.class), "an Orrery module's type");
        assertNull(ecs.libraryOf(java.util.List.class), "a JDK type");
        assertNull(ecs.libraryOf(int[].class), "a primitive array");
        assertEquals(Map.of(), ecs.libraryTypesByPackage(), "the ecs module's own surface names no library type");
    }

    @Test
    void shouldSeeTheExportedPackagesAndTheJdkAsVisible() {
        assertNull(ecs.hiddenBecause(Component.class));
        assertNull(ecs.hiddenBecause(World[].class));
        assertNull(ecs.hiddenBecause(java.util.List.class));
        assertTrue(ecs.hiddenBecause(Archetype.class).contains("not exported"));
    }

    @Test
    void shouldListEveryPublicTypeOfTheExportedPackagesOnly() {
        List<Class<?>> types = ecs.types();
        assertTrue(types.contains(World.class));
        assertTrue(types.stream().noneMatch(c -> c.getPackageName().equals("dev.orrery.ecs.archetype")));
        assertTrue(ecs.lines().stream().anyMatch(l -> l.startsWith("class dev.orrery.ecs.World (final)")), "a type line per exported type");
    }
}
