package dev.orrery.scheduler.executor;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * The park/unpark handshake the parallel executor's idle threads use ({@link IdleParker}):
 * an idle thread announces a park, re-checks for work and parks; a producer publishes work
 * through the real job queue ({@link JobQueues}), fences and unparks the thread if it
 * announced a park. A lost wake-up would leave the idle thread parked for good with work
 * waiting: jcstress reports that as STALE.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "the idle thread saw the work or was woken")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "a lost wake-up: parked with work waiting")
@State
public class IdleParkerHandshakeTest {
    private final JobQueues<Object> queues = new JobQueues<>(4);
    private final IdleParker parker = new IdleParker(null);

    /** The idle thread, as a worker runs it: parks until a job is there, then takes it. */
    @Actor
    public void idle() {
        parker.bind(Thread.currentThread());
        while (queues.pollJob() == null) {
            parker.parkUnless(queues::hasJobs);
        }
    }

    /** The producer, as the coordinator hands out a job: offer, then wake. */
    @Signal
    public void publish() {
        queues.offerJob(Boolean.TRUE);
        parker.wake();
    }
}
