package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;

/**
 * The {@link SpawnWords} of spawns recorded as {@code spawn()} then one
 * {@code add(h, column, value)} per column, by kind: a kind is the target archetype, the
 * adds' opcodes, columns and payload lengths in order, and where each add sits in the buffer
 * relative to the first. A job recording the same spawn spawn after spawn gives one kind, so
 * command playback matches a spawn's pending adds against the kinds it has seen (a few
 * comparisons per add) and builds each kind's words once. Holds the last
 * {@value #KINDS} kinds, including those found not deferrable (so they are not examined
 * again); a stream of more kinds than that in turn rebuilds them.
 *
 * <p>The kinds hold archetypes of the world the playback applies to; a playback serves one
 * world (its executor's), so they keep nothing alive that the world does not.
 *
 * <p><b>Threading:</b> used by the thread applying one {@link CommandPlayback}, only.
 */
final class AddedSpawnKinds {
    private static final int KINDS = 8;

    private final Archetype[] targets = new Archetype[KINDS];
    // Per kind, per add: the header's opcode, payload length and column (header >>> 24), and the
    // add's position relative to the first add's.
    private final long[][] headers = new long[KINDS][];
    private final int[][] starts = new int[KINDS][];
    private final SpawnWords[] words = new SpawnWords[KINDS];
    private int next;
    private Component<?>[] columns = new Component<?>[8];

    /**
     * The words of a {@code spawn()} into {@code target} whose pending writes are the commands
     * at {@code locators[0..n)} (buffer id in the high half, position in the low), or
     * {@code null} when its values must be written at once: the commands span buffers, one is
     * not an add with a whole value, or a column is sparse, repeated or holds an entity
     * reference.
     */
    SpawnWords find(World world, Archetype target, long[] locators, int n, CommandBuffer[] byId) {
        int buffer = (int) (locators[0] >>> 32);
        int first = (int) locators[0];
        long[] data = byId[buffer].data;
        for (int k = 1; k < n; k++) {
            if ((int) (locators[k] >>> 32) != buffer) {
                return null;
            }
        }
        for (int i = 0; i < KINDS; i++) {
            if (targets[i] == target && matches(i, locators, n, data, first)) {
                return words[i];
            }
        }
        return remember(world, target, locators, n, data, first);
    }

    private boolean matches(int i, long[] locators, int n, long[] data, int first) {
        long[] h = headers[i];
        int[] s = starts[i];
        if (h.length != n) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            int at = (int) locators[k];
            if (at - first != s[k] || data[at + 1] >>> 24 != h[k]) {
                return false;
            }
        }
        return true;
    }

    /** Builds the kind of the given adds into the oldest entry, and returns its words. */
    private SpawnWords remember(World world, Archetype target, long[] locators, int n, long[] data, int first) {
        long[] h = new long[n];
        int[] s = new int[n];
        if (columns.length < n) {
            columns = new Component<?>[n];
        }
        boolean adds = true;
        long slots = 0;
        for (int k = 0; k < n; k++) {
            int at = (int) locators[k];
            long header = data[at + 1];
            h[k] = header >>> 24;
            s[k] = at - first;
            Component<?> c = world.components().column(CommandHeader.column(header));
            columns[k] = c;
            adds &= CommandHeader.op(header) == CommandBuffer.OP_ADD
                    && CommandHeader.payload(header) == c.type().fieldCount();
            int slot = target.slotOf(c.id());
            slots |= slot >= 0 && slot < Long.SIZE ? 1L << slot : 0L;
        }
        SpawnWords w = adds ? SpawnWords.ofAdds(target, columns, s, n, target.fieldsAllIn(slots)) : null;
        java.util.Arrays.fill(columns, 0, n, null);
        int i = next;
        next = (next + 1) % KINDS;
        targets[i] = target;
        headers[i] = h;
        starts[i] = s;
        words[i] = w;
        return w;
    }
}
