package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.prototype.PrototypeIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The shortcuts that keep the prototype index current without a chain walk (a spawn shape
 * adopting its remembered prototype, a move plan repeating its last transition) must leave
 * every entity's instances registered exactly as the step-by-step rules say: spawn in
 * argument order, add appends, remove drops, a move drops what it loses and appends what it
 * gains in column-id order. A random mix of every path runs against a plain model, with
 * enough despawns that prototypes are reclaimed and their handles reused while the
 * shortcuts hold remembered handles.
 */
class RegistrationOrderTest {
    record A(int v) {
    }

    record B(int v) {
    }

    record C(int v) {
    }

    record D() {
    }

    record E(long v) {
    }

    record F(float v) {
    }

    @Test
    void shouldRegisterInstancesExactlyAsTheRulesSayOnEveryPath() {
        World world = new World();
        List<Component<?>> columns = List.of(world.component(A.class), world.component(B.class),
                world.component(C.class), world.component(D.class), world.component(E.class), world.component(F.class));
        Object[] values = {new A(1), new B(2), new C(3), new D(), new E(4), new F(5)};
        Map<Long, List<Integer>> model = new HashMap<>();
        List<Long> live = new ArrayList<>();
        CommandPlayback playback = new CommandPlayback();
        CommandBuffer buffer = new CommandBuffer(0);
        PrototypeIndex index = world.storage().namedInstances().index();
        Random random = new Random(42);
        int startEpoch = index.reclaimEpoch();
        for (int step = 0; step < 40_000; step++) {
            int op = random.nextInt(10);
            if (op < 3 || live.isEmpty()) {
                List<Integer> order = randomSubsetInOrder(random, columns.size());
                Object[] args = new Object[order.size()];
                for (int i = 0; i < args.length; i++) {
                    args[i] = values[order.get(i)];
                }
                long e;
                if (op == 0 && !order.isEmpty()) {
                    Component<?>[] cols = new Component<?>[order.size()];
                    for (int i = 0; i < cols.length; i++) {
                        cols[i] = columns.get(order.get(i));
                    }
                    e = world.shape(cols).spawn(args);
                } else {
                    e = world.spawn(args);
                }
                live.add(e);
                model.put(e, new ArrayList<>(order));
            } else if (op < 5 || live.size() > 60) { // few live entities: prototypes often lose their last one
                long e = live.remove(random.nextInt(live.size()));
                world.despawn(e);
                model.remove(e);
            } else if (op < 7) {
                long e = live.get(random.nextInt(live.size()));
                int c = random.nextInt(columns.size());
                List<Integer> held = model.get(e);
                if (held.contains(c)) {
                    world.remove(e, columns.get(c));
                    held.remove(Integer.valueOf(c));
                } else {
                    world.add(e, columns.get(c));
                    held.add(c);
                }
            } else {
                // Several entities move through one playback, each by one to three changes.
                // Playback batches each run of consecutive commands on one entity into one move,
                // and flushes early when a column removed in the batch is added again.
                int n = 1 + random.nextInt(20);
                Map<Long, boolean[]> intended = new HashMap<>();
                List<long[]> commands = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    long e = live.get(random.nextInt(live.size()));
                    boolean[] held = intended.computeIfAbsent(e, x -> heldOf(model.get(x), columns.size()));
                    int c = random.nextInt(columns.size());
                    if (held[c]) {
                        buffer.remove(e, columns.get(c));
                    } else {
                        buffer.add(e, columns.get(c));
                    }
                    commands.add(new long[] {e, c, held[c] ? 0 : 1});
                    held[c] = !held[c];
                }
                playback.apply(world, buffer);
                long batch = Entity.NULL;
                boolean[] start = null;
                boolean[] target = null;
                for (long[] cmd : commands) {
                    long e = cmd[0];
                    int c = (int) cmd[1];
                    if (e != batch || (cmd[2] == 1 && start[c] && !target[c])) {
                        if (batch != Entity.NULL) {
                            applyMove(model.get(batch), target);
                        }
                        batch = e;
                        start = heldOf(model.get(e), columns.size());
                        target = start.clone();
                    }
                    target[c] = cmd[2] == 1;
                }
                applyMove(model.get(batch), target);
            }
            if (step % 1_000 == 999) {
                for (long e : live) {
                    List<Integer> expected = new ArrayList<>();
                    for (int c : model.get(e)) {
                        expected.add(columns.get(c).id());
                    }
                    List<Integer> actual = new ArrayList<>();
                    for (int c : index.columnsOf(Entity.index(e))) {
                        actual.add(c);
                    }
                    assertEquals(expected, actual, "instances of " + Entity.toString(e) + " at step " + step);
                }
            }
        }
        assertTrue(index.reclaimEpoch() - startEpoch > 10,
                "the run must reclaim prototypes while shortcuts remember handles");
    }

    /** A move drops the columns it loses and appends the ones it gains, by column id. */
    private static void applyMove(List<Integer> held, boolean[] target) {
        held.removeIf(c -> !target[c]);
        for (int c = 0; c < target.length; c++) {
            if (target[c] && !held.contains(c)) {
                held.add(c);
            }
        }
    }

    private static List<Integer> randomSubsetInOrder(Random random, int n) {
        List<Integer> out = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            if (random.nextBoolean()) {
                out.add(random.nextInt(out.size() + 1), c);
            }
        }
        return out;
    }

    private static boolean[] heldOf(List<Integer> held, int n) {
        boolean[] out = new boolean[n];
        for (int c : held) {
            out[c] = true;
        }
        return out;
    }
}
