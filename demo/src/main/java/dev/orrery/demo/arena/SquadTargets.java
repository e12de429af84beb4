package dev.orrery.demo.arena;

import dev.orrery.engine.resource.ResourceCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Where each squad is heading: a point per squad, moved by clients' {@code MOVE} commands.
 * Squad numbers wrap: {@code MOVE 70 x y} moves squad {@code 70 % SQUADS}. Carried in
 * snapshots through {@link #CODEC}, so a replay starts from the recorded targets.
 *
 * <p><b>Threading:</b> written only by the input system (exclusive, so no job runs then);
 * read by steering jobs on any worker afterwards.
 */
public final class SquadTargets {
    /** Squads in the arena. */
    public static final int SQUADS = 64;

    /** Writes and reads the targets in snapshots. */
    public static final ResourceCodec<SquadTargets> CODEC = new ResourceCodec<>() {
        @Override
        public void write(SquadTargets value, DataOutput out) throws IOException {
            for (int i = 0; i < SQUADS; i++) {
                out.writeFloat(value.x[i]);
                out.writeFloat(value.y[i]);
            }
        }

        @Override
        public SquadTargets read(DataInput in) throws IOException {
            SquadTargets t = new SquadTargets();
            for (int i = 0; i < SQUADS; i++) {
                t.x[i] = in.readFloat();
                t.y[i] = in.readFloat();
            }
            return t;
        }
    };

    private final float[] x = new float[SQUADS];
    private final float[] y = new float[SQUADS];

    /** The squad a client's squad number maps to. */
    public static int squadOf(long number) {
        return (int) Math.floorMod(number, (long) SQUADS);
    }

    /** Target x of {@code squad}. */
    public float x(int squad) {
        return x[squad];
    }

    /** Target y of {@code squad}. */
    public float y(int squad) {
        return y[squad];
    }

    /** Sends {@code squad} towards (tx, ty). */
    public void set(int squad, float tx, float ty) {
        x[squad] = tx;
        y[squad] = ty;
    }
}
