package dev.orrery.scheduler.executor;

import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.scheduler.LevelSystem;

/**
 * The run-time side of a level system ({@link LevelSystem}) inside one executor: the
 * hierarchy taken as the system starts, and the stages its levels are run in. A stage is
 * either one large level split into several jobs of slot ranges, or one job holding a
 * stretch of consecutive small levels (run in order by one thread, so each still sees its
 * parents done). Stage {@code k + 1} is handed out only once every job of stage {@code k}
 * is back: that is the barrier between levels.
 *
 * <p>A job covers slots {@code [from, to)}; {@link #run} calls the body once per level in
 * that range, keying the worker's commands and events by the first slot of each call. Since
 * the jobs of one run cover ascending, disjoint slot ranges, playback order is slot order
 * whatever the split (one job over {@code [0, size)}, or many).
 *
 * <p><b>Threading:</b> {@link #collect} and {@link #nextStage} run on the executor's calling
 * thread while none of the system's jobs is out; {@link #run} runs on the worker that took
 * the job and only reads the hierarchy, which the job hand-off published to it.
 */
final class LevelWalk {
    /** Slots beyond this do not fit the chunk-ordinal bits of a command's sort key. */
    static final int MAX_SLOTS = 1 << 24;

    private final World world;
    private final Relation relation;
    private final LevelSystem body;
    private Hierarchy hierarchy;
    /** The first level not yet handed out this run. */
    private int level;

    LevelWalk(World world, Relation relation, LevelSystem body) {
        this.world = world;
        this.relation = relation;
        this.body = body;
    }

    /**
     * As the system starts: takes the relation's hierarchy (rebuilt if the pairs changed)
     * and returns its slot count.
     *
     * @throws IllegalStateException if the hierarchy has more slots than a command key can order
     */
    int collect(String system) {
        hierarchy = world.relations().hierarchy(relation);
        level = 0;
        int size = hierarchy.size();
        if (size > MAX_SLOTS) {
            throw new IllegalStateException("level system '" + system + "' walks " + size + " slots of " + relation
                    + ", more than the " + MAX_SLOTS + " a command's sort key can order; split the forest over "
                    + "several relations");
        }
        return size;
    }

    /**
     * Prepares the next stage in {@code jobs}: the next level split into at most
     * {@code maxJobs} ranges of at least {@code minSlots} slots when it holds two such
     * ranges or more, else one job over it and the small levels that follow it. Returns the
     * number of jobs, 0 when every level has been handed out.
     */
    int nextStage(Job[] jobs, int maxJobs, long minSlots) {
        Hierarchy h = hierarchy;
        if (h == null || level >= h.levels()) {
            return 0;
        }
        int levels = h.levels();
        long min = Math.max(1, minSlots);
        int from = h.levelStart(level);
        int n = h.levelEnd(level) - from;
        int want = (int) Math.min(Math.min(maxJobs, jobs.length), n / min);
        if (want >= 2) {
            for (int k = 0; k < want; k++) {
                jobs[k].reset(from + (int) ((long) n * k / want), from + (int) ((long) n * (k + 1) / want));
            }
            level++;
            return want;
        }
        int end = level + 1;
        while (end < levels && (h.levelEnd(end) - h.levelStart(end)) / min < 2) {
            end++;
        }
        jobs[0].reset(from, h.levelStart(end));
        level = end;
        return 1;
    }

    /** Marks every level handed out: the run goes inline as one job, or is skipped. */
    void handedOutAll() {
        level = Integer.MAX_VALUE;
    }

    /**
     * Runs {@code job}'s slots on {@code context}: one body call per level the range meets, each
     * keyed by its first slot.
     */
    void run(WorkerContext context, int position, Job job) {
        Hierarchy h = hierarchy;
        int to = job.to;
        int l = levelOf(h, job.from);
        for (int from = job.from; from < to; l++) {
            int end = Math.min(to, h.levelEnd(l));
            context.key(position, from);
            body.run(context, h, from, end);
            from = end;
        }
    }

    /** The level holding {@code slot} (a binary search over the level starts). */
    private static int levelOf(Hierarchy h, int slot) {
        int lo = 0;
        int hi = h.levels() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (h.levelStart(mid) <= slot) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
