package dev.orrery.ecs.storage;

import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;

/**
 * Whether scheduled jobs are running over a world, and which systems they belong to: the
 * marker that makes {@code World}'s by-id writes ({@code set}, {@code setFloat},
 * {@code setProperty}...) refuse to run inside a job. A job may only write what its system
 * declared, and a by-id write through the world checks no declaration (and, from a worker
 * thread, races with the jobs of every other system), so a job writes by id through its
 * {@code JobContext} instead. This is apart from the structure lock, which a plain
 * {@code Query.forEachChunk} also takes: by-id writes stay allowed in such an iteration.
 *
 * <p><b>Threading:</b> {@link #enter} and {@link #exit} are called by the thread that runs
 * the schedule, while no job runs (before it hands out a phase's jobs, after every one has
 * come back); jobs read the marker after the executor's job hand-off, which orders the
 * write before the read. A plain field is therefore enough for the threads it guards: the
 * owner and the jobs. A thread outside the schedule (one that calls the world while it should
 * not) reads it with no such edge and may miss it; the checks are no guard against that
 * thread. The job's system name is per thread ({@link #jobStarts}, {@link #jobEnds}), set and
 * read by the thread that runs the job. The run condition being tested is marked with the thread
 * that tests it ({@link #conditionStarts}), which is the only thread that ever matches it.
 */
public final class JobsRunning {
    private String systems;
    // The system whose job runs on this thread, for messages; set by the executor around each job.
    private final ThreadLocal<String> jobOnThread = new ThreadLocal<>();
    // The thread testing a system's run condition, and that system, for messages; set by the owner around the
    // test. A job's thread compares itself with it, so a stale value it may read never matches it.
    private Thread conditionThread;
    private String conditionSystem;

    /** A marker with no jobs running; one per world, made by the world. */
    public JobsRunning() {
    }

    /**
     * Marks jobs as running; {@code systems} says which (for example
     * {@code "phase Update: systems move, steer"}) and appears in the refusal message.
     */
    public void enter(String systems) {
        this.systems = java.util.Objects.requireNonNull(systems, "systems");
    }

    /** Marks that no job runs any more. */
    public void exit() {
        this.systems = null;
    }

    /** True between {@link #enter} and {@link #exit}. */
    public boolean isRunning() {
        return systems != null;
    }

    /**
     * Refuses a by-id write while jobs run.
     *
     * @param operation the world method, for the message ({@code "setFloat"})
     * @param entity the entity written
     * @param subject the component, field or property written
     * @throws IllegalStateException naming the write, the running systems and the fix
     */
    public void checkByIdWrite(String operation, long entity, Object subject) {
        if (systems != null) {
            throw refused(operation, entity, subject);
        }
    }

    /**
     * Refuses a by-id read while jobs run: like a write, it checks no declaration, so it could
     * read a column another system's job is writing on another thread at that moment.
     *
     * @param operation the world method, for the message ({@code "getFloat"})
     * @param entity the entity read
     * @param subject the component, field or property read
     * @throws IllegalStateException naming the read, the running systems and the fix
     */
    public void checkByIdRead(String operation, long entity, Object subject) {
        if (systems != null) {
            String condition = conditionOnThread();
            if (condition != null) {
                throw new IllegalStateException("world." + operation + "(" + Entity.toString(entity) + ", " + subject
                        + ") called" + inCondition(condition) + conditionFix(condition, "read the entity"));
            }
            String system = jobOnThread.get();
            String call = jobCall(operation, subject, false);
            throw new IllegalStateException("world." + operation + "(" + Entity.toString(entity) + ", " + subject
                    + ") called " + (system != null ? "inside system '" + system + "' " : "") + "while scheduled jobs "
                    + "run (" + systems + "); a job reads by entity id through its JobContext"
                    + (call != null ? ": " + call + ", with " + componentOf(subject) + " in its system's .reads(...) "
                            + "(or .writes(...))"
                            : " (job.get(...), job.has(...), job.getFloat(...), job.getInt(...)) with the component in its system's "
                            + ".reads(...) (or .writes(...))")
                    + ", or the read belongs in an exclusive system");
        }
    }

    /**
     * Refuses a query's {@code count()} inside a job: counting refreshes the query's match
     * list, which the scheduler and the other jobs read. A count on the thread that runs the
     * schedule (a range system's count as it starts) stays allowed.
     *
     * @throws IllegalStateException naming the query, the system and the fix
     */
    public void checkCount(Object query) {
        if (systems != null) {
            String system = jobOnThread.get();
            if (system != null) {
                throw new IllegalStateException(query + " counted inside system '" + system + "'; counting "
                        + "refreshes the query's match list, which the other jobs read at the same time. Count it "
                        + "before the phase (an exclusive system, or a range system's count), or count job.chunk()'s "
                        + "rows in the job");
            }
        }
    }

    /**
     * Refuses a structural call on the world ({@code spawn}, {@code despawn}, {@code add}...)
     * made from a job, with the fix a job has: record it in {@code job.commands()} under the
     * matching declaration. Called only while the structure lock is held, which refuses the
     * call anyway; this names the system and the job's way instead of the lock's generic one.
     *
     * @param operation the world method ({@code "spawn"}, {@code "add"})
     * @param subject the component or relation, or null
     * @throws IllegalStateException when a job of a system runs on the calling thread
     */
    public void checkStructural(String operation, Object subject) {
        String system = systems == null ? null : jobOnThread.get();
        if (system == null) {
            return;
        }
        String what = subject == null ? operation : operation + " " + subject;
        String s = subject == null ? "..." : String.valueOf(subject);
        String command = switch (operation) {
            case "spawn" -> "job.commands().spawn(...), with .spawns(...) in the system's declaration";
            case "despawn" -> "job.commands().despawn(entity), with .despawns() in the system's declaration";
            case "add" -> "job.commands().add(entity, " + s + ", value), with .adds(" + s + ") in the system's declaration";
            case "remove" -> "job.commands().remove(entity, " + s + "), with .removes(" + s + ") in the system's declaration";
            case "add pair", "remove pair", "remove pairs" -> "job.commands().addPair/removePair(...)";
            default -> "job.commands()";
        };
        throw new IllegalStateException("structural change (" + what + ") attempted during " + systems
                + ", inside system '" + system + "'; a job records structural changes in its command buffer, applied "
                + "at the next sync point: " + command + " (or make it an exclusive system, which changes the world "
                + "directly)");
    }

    /**
     * Refuses registering a new component column while jobs run: the registry is not
     * thread-safe and the jobs read it. Called by the world only for a column not registered
     * yet, on any thread (the marker is set by the owner before the jobs are handed out).
     *
     * @param column the column as messages print it ({@code "Late"}, {@code "RenderData:Fog"})
     * @throws IllegalStateException while jobs run, naming the column, the system and the fix
     */
    public void checkRegistration(String column) {
        if (systems == null) {
            return;
        }
        String system = jobOnThread.get();
        throw new IllegalStateException("component registration (" + column + ") attempted during " + systems
                + (system != null ? ", inside system '" + system + "'" : "") + "; the jobs read the component registry, "
                + "which is not thread-safe, so register every component at set-up, on the world's thread before the "
                + "schedule runs, and keep its handle (or register it in an exclusive system)");
    }

    /** The executor starts a job of {@code system} on the calling thread (named in refusals). */
    public void jobStarts(String system) {
        jobOnThread.set(system);
    }

    /** The job started on the calling thread has ended. */
    public void jobEnds() {
        jobOnThread.set(null);
    }

    /**
     * The calling thread (the one that runs the schedule) starts testing the run condition of
     * {@code system}: until {@link #conditionEnds}, a refusal on this thread names the run
     * condition and a run condition's fix instead of a job's.
     *
     * @param system the guarded system's name
     */
    public void conditionStarts(String system) {
        conditionSystem = system;
        conditionThread = Thread.currentThread();
    }

    /** The run condition started by {@link #conditionStarts} has been tested (or threw). */
    public void conditionEnds() {
        conditionThread = null;
        conditionSystem = null;
    }

    /** The system whose run condition the calling thread tests, or null. */
    private String conditionOnThread() {
        return conditionThread == Thread.currentThread() ? conditionSystem : null;
    }

    private static String inCondition(String system) {
        return " inside the run condition of system '" + system + "'";
    }

    /**
     * A run condition's way to what it reached for: {@code doing} ({@code "iterate the query"})
     * in an exclusive system that writes a resource, which the condition tests; the graph
     * orders that system before the guarded one, as the condition's resources are the guarded
     * system's reads.
     */
    private static String conditionFix(String system, String doing) {
        return "; a run condition reads only the resources it names (it is tested on the schedule's thread as '"
                + system + "' would start, while other systems' jobs may run). " + Character.toUpperCase(doing.charAt(0))
                + doing.substring(1) + " in an exclusive system declared .writesResource(KEY) that puts what the "
                + "condition needs into job.resourceForWrite(KEY), and test that resource: "
                + ".runIf(RunCondition.resource(KEY, value -> ...)); in the phase of '" + system + "', the graph "
                + "orders that writer before it";
    }

    /**
     * Refuses a query's direct iteration ({@code forEachChunk}, {@code forEach}) while jobs run:
     * from a job it would race with the other jobs and move the change clock.
     *
     * @param query the query's description for the message ({@code "query with [Position]"})
     * @throws IllegalStateException naming the query, the system and the fix
     */
    public void checkIteration(Object query) {
        if (systems != null) {
            String condition = conditionOnThread();
            if (condition != null) {
                throw new IllegalStateException(query + " iterated" + inCondition(condition)
                        + conditionFix(condition, "iterate the query"));
            }
            String system = jobOnThread.get();
            throw new IllegalStateException(query + " iterated " + (system != null ? "inside system '" + system
                    + "'" : "while scheduled jobs run (" + systems + ")") + "; a direct iteration from a job races with "
                    + "the other jobs and moves the change clock. Give the query to the system with .query(query) and "
                    + "loop over job.chunk(), or iterate it in an exclusive system");
        }
    }

    private IllegalStateException refused(String operation, long entity, Object subject) {
        String condition = conditionOnThread();
        if (condition != null) {
            return new IllegalStateException("world." + operation + "(" + Entity.toString(entity) + ", " + subject
                    + ") called" + inCondition(condition) + "; a run condition only tests, on the resources it names: "
                    + "it changes nothing. Make the write in a system (an exclusive system, or a job through the "
                    + "system's declared writes), and let the condition test a resource that system writes");
        }
        String system = jobOnThread.get();
        String call = jobCall(operation, subject, true);
        return new IllegalStateException("world." + operation + "(" + Entity.toString(entity) + ", " + subject
                + ") called " + (system != null ? "inside system '" + system + "' " : "") + "while scheduled jobs run ("
                + systems + "); a job writes by entity id through its JobContext"
                + (call != null ? ": " + call + ", with " + componentOf(subject) + " in its system's .writes(...)"
                        : " (job.set(...), job.setFloat(...)) with the component in its system's .writes(...)")
                + ", or the write belongs in an exclusive system");
    }

    /**
     * The JobContext call that does what world.{@code operation} on {@code subject} does
     * ({@code job.getFloat(entity, Pos.x)}), or null where the job has none to name: the
     * typed accessor of the same name, or, for a raw-bits or boxed call on a field of a
     * numeric type, the typed one of that field's type. Built only for a refusal.
     */
    private static String jobCall(String operation, Object subject, boolean write) {
        String name = switch (operation) {
            case "get", "has", "getFloat", "getInt", "getLong", "getDouble",
                    "set", "setFloat", "setInt", "setLong", "setDouble" -> operation;
            default -> subject instanceof Field f ? typed(f.type(), write) : null;
        };
        if (name == null) {
            return null;
        }
        return "job." + name + "(entity, " + subject + (write ? ", value)" : ")");
    }

    /** {@code getFloat}/{@code setFloat} for a float field; null for a type with no typed accessor. */
    private static String typed(FieldType type, boolean write) {
        String suffix = switch (type) {
            case INT -> "Int";
            case FLOAT -> "Float";
            case LONG -> "Long";
            case DOUBLE -> "Double";
            default -> null;
        };
        return suffix == null ? null : (write ? "set" : "get") + suffix;
    }

    /** The component a refused call names: the field's, or the component itself. */
    private static Object componentOf(Object subject) {
        return subject instanceof Field f ? f.component() : subject;
    }
}
