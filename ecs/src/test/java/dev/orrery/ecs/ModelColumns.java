package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The columns {@link WorldModelTest} works with, registered in one world, and the values
 * it writes: random ones, the zero value a column gets when added without one, and the
 * model's own record arithmetic (reading and replacing one record component by reflection).
 * There is a value record with every primitive type, a named-instance pair, a column
 * whose instance name clashes with one of the pair, a tag and a reference component.
 */
final class ModelColumns {
    record Position(float x, float y, float z) {
    }

    record Stats(boolean alive, byte b, short s, char c, int i, long l, double d) {
    }

    record RenderData(float density, int color) {
    }

    record Frozen() {
    }

    /** A record with an object field: stored as a reference component. */
    record Label(String text) {
    }

    final Component<Position> pos;
    final Component<Stats> stats;
    final Component<RenderData> fog;
    final Component<RenderData> vignette;
    /** Shares the instance name "Fog" with {@link #fog}: never on one entity with it. */
    final Component<Position> fogPosition;
    final Component<Frozen> frozen;
    final Component<Label> label;
    /** Every column. */
    final List<Component<?>> all;
    /** The unnamed columns, which {@code World.spawn(Object...)} can fill. */
    final List<Component<?>> unnamed;
    private final Random rnd;

    ModelColumns(World world, Random rnd) {
        this.rnd = rnd;
        pos = world.component(Position.class);
        stats = world.component(Stats.class);
        fog = world.component(RenderData.class, "Fog");
        vignette = world.component(RenderData.class, "Vignette");
        fogPosition = world.component(Position.class, "Fog");
        frozen = world.component(Frozen.class);
        label = world.referenceComponent(Label.class);
        all = List.of(pos, stats, fog, vignette, fogPosition, frozen, label);
        unnamed = List.of(pos, stats, frozen, label);
    }

    Component<?> random() {
        return all.get(rnd.nextInt(all.size()));
    }

    /** Each column with probability 1/3, in random order. */
    List<Component<?>> randomSubset() {
        List<Component<?>> subset = new ArrayList<>();
        for (Component<?> c : all) {
            if (rnd.nextInt(3) == 0) {
                subset.add(c);
            }
        }
        Collections.shuffle(subset, rnd);
        return subset;
    }

    /** What a column holds when it is added without a value. */
    Object zero(Component<?> c) {
        if (c.type().javaClass() == Position.class) {
            return new Position(0, 0, 0);
        } else if (c == stats) {
            return new Stats(false, (byte) 0, (short) 0, '\0', 0, 0L, 0d);
        } else if (c == fog || c == vignette) {
            return new RenderData(0, 0);
        } else if (c == frozen) {
            return EntityModel.TAG;
        } else if (c == label) {
            return null;
        }
        throw new AssertionError("unknown column " + c);
    }

    /** A random value for the column, with signed zeros and extreme values now and then. */
    Object randomValue(Component<?> c) {
        if (c.type().javaClass() == Position.class) {
            return new Position(randomFloat(), randomFloat(), randomFloat());
        } else if (c == stats) {
            return new Stats(rnd.nextBoolean(), (byte) rnd.nextInt(), (short) rnd.nextInt(), (char) rnd.nextInt(65536),
                    rnd.nextInt(), rnd.nextLong(), randomDouble());
        } else if (c == fog || c == vignette) {
            return new RenderData(randomFloat(), rnd.nextInt());
        } else if (c == frozen) {
            return new Frozen();
        } else if (c == label) {
            return new Label("label-" + rnd.nextInt(100));
        }
        throw new AssertionError("unknown column " + c);
    }

    private float randomFloat() {
        switch (rnd.nextInt(10)) {
            case 0: return 0f;
            case 1: return -0.0f;
            case 2: return Float.MIN_VALUE;
            case 3: return -Float.MAX_VALUE;
            default: return (rnd.nextInt(20_001) - 10_000) / 64f;
        }
    }

    private double randomDouble() {
        switch (rnd.nextInt(6)) {
            case 0: return -0.0;
            case 1: return Double.MIN_VALUE;
            default: return rnd.nextGaussian() * 1e6;
        }
    }

    /** What the model stores for a value: tags are membership only. */
    static Object stored(Component<?> c, Object value) {
        return c.kind() == ComponentKind.TAG ? EntityModel.TAG : value;
    }

    /** True when {@code c} shares its instance name with another column in {@code held}. */
    static boolean clashesWith(Collection<Component<?>> held, Component<?> c) {
        for (Component<?> h : held) {
            if (h != c && h.name().equals(c.name())) {
                return true;
            }
        }
        return false;
    }

    /** True when two of the columns share an instance name. */
    static boolean hasNameClash(List<Component<?>> columns) {
        Set<String> names = new HashSet<>();
        for (Component<?> c : columns) {
            if (!names.add(c.name())) {
                return true;
            }
        }
        return false;
    }

    /** Record component {@code i} of {@code record}, boxed. */
    static Object field(Object record, int i) {
        try {
            return record.getClass().getRecordComponents()[i].getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** A copy of {@code record} with component {@code i} replaced. */
    static Object withField(Object record, int i, Object value) {
        try {
            RecordComponent[] rcs = record.getClass().getRecordComponents();
            Object[] args = new Object[rcs.length];
            Class<?>[] types = new Class<?>[rcs.length];
            for (int k = 0; k < rcs.length; k++) {
                args[k] = k == i ? value : rcs[k].getAccessor().invoke(record);
                types[k] = rcs[k].getType();
            }
            Constructor<?> ctor = record.getClass().getDeclaredConstructor(types);
            return ctor.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
