package dev.orrery.demo.arena;

import dev.orrery.ecs.ChunkConsumer;
import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import java.util.Arrays;

/**
 * Where each squad is heading, read from the squad entities ({@link Squad}) into flat arrays
 * for the steering jobs: the point by the squad entity's index (an agent's {@code ChildOf}
 * target, its parent, names the entity) and the entity by squad number (for {@code MOVE} and
 * spawns). The squad entities are the state; this is a copy the input system refreshes, so
 * it is not in snapshots: after a restore the next refresh reads the restored squads.
 *
 * <p>Squad numbers wrap: {@code MOVE 70 x y} moves squad {@code 70 % SQUADS}.
 *
 * <p>Steering looks a point up by entity index rather than reading the parent's component by
 * id: the 64 points fit in a cache line or two, and a by-id read per agent would cost an
 * entity-table and chunk look-up each.
 *
 * <p><b>Threading:</b> refreshed only by the input system (exclusive, so no job runs then);
 * read by steering jobs on any worker afterwards.
 */
public final class SquadTargets {
    /** Squads in the arena. */
    public static final int SQUADS = 64;

    private final long[] entities = new long[SQUADS];
    // By squad entity index: its point. Sized to the highest squad entity index + 1.
    private float[] x = new float[SQUADS];
    private float[] y = new float[SQUADS];
    private final ChunkConsumer reader = this::read;
    private final Query squads;
    private final Field number;
    private final Field pointX;
    private final Field pointY;

    /**
     * A table filled from the squad entities {@code squads} matches (rows with {@link Squad}),
     * reading their {@code numberField}, {@code xField} and {@code yField}.
     */
    SquadTargets(Query squads, Field numberField, Field xField, Field yField) {
        this.squads = squads;
        this.number = numberField;
        this.pointX = xField;
        this.pointY = yField;
    }

    /** The squad a client's squad number maps to. */
    public static int squadOf(long number) {
        return (int) Math.floorMod(number, (long) SQUADS);
    }

    /**
     * Reads every squad entity: its point by entity index and its entity by number. Allocates
     * only when a squad entity's index outgrows the arrays.
     */
    void refresh() {
        Arrays.fill(entities, Entity.NULL);
        squads.forEachChunk(reader);
    }

    private void read(ChunkView c) {
        int[] n = c.readInts(number);
        float[] px = c.readFloats(pointX);
        float[] py = c.readFloats(pointY);
        long[] ids = c.entities();
        for (int r = 0, size = c.size(); r < size; r++) {
            long e = ids[r];
            int idx = Entity.index(e);
            if (idx >= x.length) {
                int grown = Math.max(idx + 1, x.length * 2);
                x = Arrays.copyOf(x, grown);
                y = Arrays.copyOf(y, grown);
            }
            entities[n[r]] = e;
            x[idx] = px[r];
            y[idx] = py[r];
        }
    }

    /** The squad entity of squad {@code number} (0 to {@link #SQUADS} - 1), or {@link Entity#NULL} before it exists. */
    public long entity(int number) {
        return entities[number];
    }

    /** Target x of the squad whose entity has index {@code squadIndex} (an agent's parent's index). */
    public float x(int squadIndex) {
        return x[squadIndex];
    }

    /** Target y of the squad whose entity has index {@code squadIndex}. */
    public float y(int squadIndex) {
        return y[squadIndex];
    }

    /** What it holds, in one line (the explorer shows it as the resource's value). */
    @Override
    public String toString() {
        return SQUADS + " squads' rally points, read from the squad entities each tick";
    }
}
