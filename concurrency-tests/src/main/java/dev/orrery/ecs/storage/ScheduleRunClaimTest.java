package dev.orrery.ecs.storage;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two runs racing for one world's {@link ScheduleRunClaim}: the first claims it, writes the
 * world (here a plain field) and gives it back; the second claims it and reads what the world
 * holds, and keeps it. At most one holds the claim at a time, and a claim taken after a
 * give-back sees everything the run before it wrote (the claim's compare-and-set and its
 * volatile release). Both being refused, or both holding it, or the second reading a stale
 * world after the first gave it back, would be a broken claim.
 */
@JCStressTest
@Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "the first ran and gave back; the second then saw its write")
@Outcome(id = "1, -1", expect = Expect.ACCEPTABLE, desc = "the second was refused while the first held the world")
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "the second claimed first and kept it; the first was refused")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "both held the world, or the second missed the first's write")
@Outcome(expect = Expect.FORBIDDEN, desc = "both refused, or an impossible pair")
@State
public class ScheduleRunClaimTest {
    private final ScheduleRunClaim claim = new ScheduleRunClaim();
    private int world;

    /** A run that claims the world, writes it and gives it back. */
    @Actor
    public void first(II_Result r) {
        if (claim.enter() == null) {
            world = 42;
            claim.exit();
            r.r1 = 1;
        } else {
            r.r1 = 0;
        }
    }

    /** A run that claims the world and reads it, keeping the claim. */
    @Actor
    public void second(II_Result r) {
        r.r2 = claim.enter() == null ? world : -1;
    }
}
