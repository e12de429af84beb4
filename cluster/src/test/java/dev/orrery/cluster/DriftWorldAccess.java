package dev.orrery.cluster;

import dev.orrery.cluster.world.WorldBlueprint;

/** Hands {@link DriftWorld} (package-private) to the tests of other packages. */
public final class DriftWorldAccess {
    /** {@link DriftWorld#PUSH}. */
    public static final int PUSH = DriftWorld.PUSH;

    /** A drift world of 200 particles. */
    public WorldBlueprint blueprint() {
        return new DriftWorld(200);
    }

    /** {@link DriftWorld#push}. */
    public static byte[] push(int id) {
        return DriftWorld.push(id);
    }
}
