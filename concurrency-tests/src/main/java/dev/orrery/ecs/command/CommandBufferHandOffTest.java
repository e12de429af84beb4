package dev.orrery.ecs.command;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The hand-off of a worker's command buffer to the applying thread: the worker records,
 * then publishes completion with a volatile write; the applier, once it sees completion,
 * must see every recorded command and every payload word. This is the protocol the
 * scheduler uses at each sync point.
 *
 * <p>Result: (completion seen, commands seen, payload seen). Seeing completion with fewer
 * than two commands, or a command without its payload, is forbidden.
 */
@JCStressTest
@Outcome(id = "0, .*, .*", expect = Expect.ACCEPTABLE, desc = "completion not yet published")
@Outcome(id = "1, 2, 7", expect = Expect.ACCEPTABLE, desc = "completion seen with every command and payload")
@Outcome(expect = Expect.FORBIDDEN, desc = "completion seen but the recording is not")
@State
public class CommandBufferHandOffTest {
    private static final World WORLD = new World();
    private static final Component<Hp> HP = WORLD.component(Hp.class);

    /** A one-field value component. */
    public record Hp(int value) {
    }

    private final CommandBuffer buffer = new CommandBuffer(1);
    private volatile boolean done;

    /** The worker: records a spawn and an add with payload, then signals completion. */
    @Actor
    public void worker() {
        long h = buffer.spawn();
        buffer.add(h, HP, new Hp(7));
        done = true;
    }

    /** The applying thread: after completion it must see the whole recording. */
    @Actor
    public void applier(III_Result r) {
        if (!done) {
            r.r1 = 0;
            return;
        }
        r.r1 = 1;
        r.r2 = buffer.commandCount();
        int last = buffer.size - 1;
        r.r3 = last >= 0 ? (int) buffer.data[last] : -1;
    }
}
