package dev.orrery.scheduler.executor;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The hand-off of a job, and of the command buffer its worker recorded, through the real
 * queues of the parallel executor ({@link JobQueues}), in the executor's two roles: the
 * coordinator fills a job and offers it on the job queue, then polls the completion queue;
 * a worker polls the job, records a spawn whose payload comes from the job into its own
 * command buffer, and offers the job back. When the coordinator has the job back it plays
 * the buffer back into the world, as a sync point does, and must see every recorded command
 * and payload word, made from what it wrote into the job: the job queue orders the
 * coordinator's writes before the worker's reads, the completion queue the worker's
 * recording before the playback. (Two actors, so it runs on a two-core machine.)
 *
 * <p>Result: (job back, entities spawned by playback, the spawned entity's hp).
 */
@JCStressTest
@Outcome(id = "0, 0, -1", expect = Expect.ACCEPTABLE, desc = "the job has not come back yet")
@Outcome(id = "1, 1, 7", expect = Expect.ACCEPTABLE, desc = "job back: the whole recording is visible")
@Outcome(expect = Expect.FORBIDDEN, desc = "job back but the recording, or the job's fields, not (fully) visible")
@State
public class CommandBufferHandOffTest {
    /** A one-field value component. */
    public record Hp(int value) {
    }

    /** What travels through the queues: the job's input, and the buffer its worker recorded into. */
    static final class Carried {
        int hp;
        CommandBuffer recordedBy;
    }

    private final JobQueues<Carried> queues = new JobQueues<>(4);
    private final Carried job = new Carried();
    private final CommandBuffer workerBuffer = new CommandBuffer(1);
    private final World world = new World(256);
    private final Component<Hp> hp = world.component(Hp.class);

    /** The coordinator: fills and hands out the job, then applies its buffer if it is back. */
    @Actor
    public void coordinator(III_Result r) {
        job.hp = 7;
        queues.offerJob(job);
        Carried j = queues.pollDone();
        if (j == null) {
            r.r1 = 0;
            r.r2 = 0;
            r.r3 = -1;
            return;
        }
        r.r1 = 1;
        world.apply(j.recordedBy);
        r.r2 = world.entityCount();
        int[] seen = {-1};
        world.query().with(hp).build().forEach((chunk, row) -> seen[0] = chunk.get(hp, row).value());
        r.r3 = seen[0];
    }

    /** A worker: takes the job if it is there, records into its buffer, hands the job back. */
    @Actor
    public void worker() {
        Carried j = queues.pollJob();
        if (j != null) {
            long e = workerBuffer.spawn();
            workerBuffer.add(e, hp, new Hp(j.hp));
            j.recordedBy = workerBuffer;
            queues.offerDone(j);
        }
    }
}
