package dev.orrery.surface.planted;

import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import it.unimi.dsi.fastutil.ints.IntList;
import java.util.List;

/** A type that leaks on purpose, for {@code ExportedSurfaceTest}: each public member below names a type users cannot see, but one. */
public class PlantedLeak {
    /** Names an internal package's type. */
    public Archetype archetype() {
        return null;
    }

    /** Names it inside a type argument. */
    public List<? extends Archetype> archetypes() {
        return List.of();
    }

    /** Names a library the ecs module does not require transitively. */
    public void columns(IntList ids) {
    }

    /** Names a type that is not public. */
    protected Hidden hidden() {
        return null;
    }

    /** Names only what users see: no leak. */
    public Component<?> column(World world) {
        return null;
    }

    static final class Hidden {
    }
}
