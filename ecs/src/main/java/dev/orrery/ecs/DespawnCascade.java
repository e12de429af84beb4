package dev.orrery.ecs;

import dev.orrery.ecs.component.Entity;
import java.util.Arrays;

/**
 * The despawn of an entity that is in a pair: the whole cascade inside one despawn call.
 * First the doomed set, breadth first: the entity, then the holders of each doomed entity
 * under {@link Cleanup#DESPAWN_HOLDER} relations (relation order, pair order), then theirs.
 * Then, in that order, each doomed entity loses the pairs it holds, the surviving holders of
 * pairs targeting it lose those pairs ({@link Cleanup#REMOVE_PAIR}; their marker column is
 * rewritten or removed), and the host despawns it. Entity ids are therefore freed in an order
 * fixed by the state. Scratch arrays are kept, so a warm cascade allocates nothing.
 *
 * <p><b>Threading:</b> the world's thread, as every structural change.
 */
final class DespawnCascade {
    private static final int NONE = -1;

    private final Relations.Host host;
    // The entities to despawn in order, and a per-index stamp marking the doomed.
    private long[] doomed = new long[16];
    private int[] doomStamp = new int[0];
    private int stamp;

    DespawnCascade(Relations.Host host) {
        this.host = host;
    }

    /** Despawns {@code entity} and what its relations' cleanup reaches; returns how many died. */
    int despawn(long entity, RelationStore[] stores, boolean anyCleanupDespawns) {
        int n = 0;
        stamp++;
        if (stamp == Integer.MAX_VALUE) {
            Arrays.fill(doomStamp, 0);
            stamp = 1;
        }
        int bound = Entity.index(entity) + 1;
        for (RelationStore s : stores) {
            bound = Math.max(bound, s.entityBound());
        }
        if (doomStamp.length < bound) {
            doomStamp = Arrays.copyOf(doomStamp, Math.max(bound, doomStamp.length * 2));
        }
        n = doom(entity, n);
        if (anyCleanupDespawns) {
            for (int i = 0; i < n; i++) {
                int ti = Entity.index(doomed[i]);
                for (RelationStore s : stores) {
                    if (s.relation.cleanup() != Cleanup.DESPAWN_HOLDER) {
                        continue;
                    }
                    for (int p = s.firstOfTarget(ti); p != NONE; p = s.nextOfTarget(p)) {
                        long h = s.holderAt(p);
                        if (doomStamp[Entity.index(h)] != stamp) {
                            n = doom(h, n);
                        }
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            long e = doomed[i];
            int idx = Entity.index(e);
            for (RelationStore s : stores) {
                for (int p = s.firstOfHolder(idx); p != NONE; p = s.firstOfHolder(idx)) {
                    s.unlink(p); // the holder dies: its marker goes with its row
                }
                for (int p = s.firstOfTarget(idx); p != NONE; p = s.firstOfTarget(idx)) {
                    long h = s.holderAt(p);
                    if (doomStamp[Entity.index(h)] == stamp) {
                        s.unlink(p);
                    } else {
                        unlinkKeepingMarker(s, p, h, host); // REMOVE_PAIR: the holder lives on without it
                    }
                }
            }
            host.despawnOne(e);
        }
        return n;
    }

    private int doom(long e, int n) {
        doomStamp[Entity.index(e)] = stamp; // sized to every index a store knows

        if (n == doomed.length) {
            doomed = Arrays.copyOf(doomed, n * 2);
        }
        doomed[n] = e;
        return n + 1;
    }

    /** Unlinks pair {@code p} of a holder that lives on, and keeps its marker column true. */
    static void unlinkKeepingMarker(RelationStore s, int p, long holder, Relations.Host host) {
        int hi = Entity.index(holder);
        boolean wasFirst = s.firstOfHolder(hi) == p;
        s.unlink(p);
        int first = s.firstOfHolder(hi);
        if (first == NONE) {
            host.removeMarker(holder, s.relation.marker());
        } else if (wasFirst) {
            host.writeMarker(holder, s.relation.marker(), s.targetAt(first));
        }
    }
}
