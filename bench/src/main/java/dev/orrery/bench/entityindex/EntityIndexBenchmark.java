package dev.orrery.bench.entityindex;

import dev.orrery.bench.fixture.Position;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.prototype.PrototypeIndex;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Micro-benchmarks of the prototype index: registering one component at a time, batch
 * registration of a template on many entities, and look-up by name with and without the
 * look-up cache; plus the index's share of a world add+remove. Each figure is per entity
 * (registration) or per look-up.
 *
 * <pre>java -jar bench/target/benchmarks.jar EntityIndexBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EntityIndexBenchmark {
    private static final int ENTITIES = 1024;
    private static final int LOOKUPS = 1024;

    /** Whether look-ups go through the (prototype, name) cache or always walk the chain. */
    @Param({"true", "false"})
    public boolean cache;

    private final EntityIndexWorkload workload = new EntityIndexWorkload(75);
    private PrototypeIndex index;
    private int[] entities;
    private int[] lookupEntities;
    private int[] lookupNames;
    private int[] templateColumns;
    private int[] templateNames;
    private int next;

    private World world;
    private Component<Tag> tag;
    private long worldEntity;

    /** A tag component for the world benchmark. */
    public record Tag() {
    }

    /** A value component for the world benchmark. */
    public record Position(float x, float y, float z) {
    }

    /** Builds an index holding every composition on 16 entities each, and the look-up mix. */
    @Setup
    public void setUp() {
        index = new PrototypeIndex(cache);
        entities = new int[ENTITIES];
        for (int i = 0; i < ENTITIES; i++) {
            entities[i] = 10_000 + i;
        }
        templateColumns = workload.columns[workload.columns.length - 1];
        templateNames = workload.names[workload.names.length - 1];
        SplittableRandom rnd = new SplittableRandom(7);
        int populated = EntityIndexWorkload.COMPOSITIONS * 16;
        for (int e = 0; e < populated; e++) {
            int c = e % EntityIndexWorkload.COMPOSITIONS;
            for (int k = 0; k < workload.columns[c].length; k++) {
                index.register(e, workload.columns[c][k], workload.names[c][k]);
            }
        }
        lookupEntities = new int[LOOKUPS];
        lookupNames = new int[LOOKUPS];
        for (int i = 0; i < LOOKUPS; i++) {
            int e = rnd.nextInt(populated);
            int c = e % EntityIndexWorkload.COMPOSITIONS;
            lookupEntities[i] = e;
            // three in four look-ups ask for a name the entity holds, the rest for any name
            lookupNames[i] = rnd.nextInt(4) != 0 ? workload.names[c][rnd.nextInt(workload.names[c].length)]
                    : workload.nameHashes[rnd.nextInt(workload.nameHashes.length)];
        }
        world = new World();
        tag = world.component(Tag.class);
        worldEntity = world.spawn(new Position(1, 2, 3));
    }

    /** Builds one entity by registering a composition's components one at a time, then releases it. */
    @Benchmark
    public int registerOneAtATime() {
        int c = next++ % EntityIndexWorkload.COMPOSITIONS;
        int[] cols = workload.columns[c];
        int[] names = workload.names[c];
        int e = 5_000;
        for (int k = 0; k < cols.length; k++) {
            index.register(e, cols[k], names[k]);
        }
        int p = index.prototypeOf(e);
        index.release(e);
        return p;
    }

    /** Registers an 11-component template on 1024 entities in one call, then releases them (per entity). */
    @Benchmark
    @OperationsPerInvocation(ENTITIES)
    public int batchRegister() {
        index.registerAll(entities, 0, ENTITIES, templateColumns, templateNames);
        int p = index.prototypeOf(entities[0]);
        for (int e : entities) {
            index.release(e);
        }
        return p;
    }

    /** Registers the same 11-component template one entity and one component at a time (per entity). */
    @Benchmark
    @OperationsPerInvocation(ENTITIES)
    public int registerTemplateOneByOne() {
        for (int e : entities) {
            for (int k = 0; k < templateColumns.length; k++) {
                index.register(e, templateColumns[k], templateNames[k]);
            }
        }
        int p = index.prototypeOf(entities[0]);
        for (int e : entities) {
            index.release(e);
        }
        return p;
    }

    /** Looks up a name on an entity (per look-up); chains are 1 to 11 links long. */
    @Benchmark
    @OperationsPerInvocation(LOOKUPS)
    public int lookup() {
        int sum = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            sum += index.find(lookupEntities[i], lookupNames[i]);
        }
        return sum;
    }

    /** A world add and remove of a tag: the archetype move plus the index's transition, both ways. */
    @Benchmark
    public boolean worldAddRemove() {
        world.add(worldEntity, tag);
        return world.remove(worldEntity, tag);
    }
}
