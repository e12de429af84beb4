package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The reference model of {@link WorldModelTest}: what a world should hold, kept in plain
 * collections and none of the world's machinery. Each live entity maps to its columns and
 * their values (a tag maps to {@link #TAG}, an unset reference to null); a first-in
 * first-out queue of free indices and a generation per index predict every id the world
 * hands out.
 */
final class EntityModel {
    /** The value the model keeps for a tag: membership only. */
    static final Object TAG = new Object() {
        @Override
        public String toString() {
            return "<tag>";
        }
    };

    private final Map<Long, Map<Component<?>, Object>> entities = new HashMap<>();
    private final List<Long> live = new ArrayList<>();
    private final Map<Long, Integer> livePosition = new HashMap<>();
    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private final List<Long> dead = new ArrayList<>();
    private int[] generations = new int[64];
    private int highWater;

    /** The id the world must hand out for its next new entity; the caller then {@link #put}s it. */
    long allocate() {
        int index;
        if (!free.isEmpty()) {
            index = free.poll();
        } else {
            index = highWater++;
            if (index >= generations.length) {
                generations = Arrays.copyOf(generations, generations.length * 2);
            }
        }
        generations[index]++;
        return Entity.of(index, generations[index]);
    }

    /** Records a spawned entity and its columns. */
    void put(long entity, Map<Component<?>, Object> columns) {
        if (entities.put(entity, columns) != null) {
            throw new AssertionError("id " + Entity.toString(entity) + " handed out while alive");
        }
        livePosition.put(entity, live.size());
        live.add(entity);
    }

    /** Forgets a despawned entity; its index goes to the back of the free queue. */
    void release(long entity) {
        entities.remove(entity);
        int i = livePosition.remove(entity);
        long last = live.remove(live.size() - 1);
        if (last != entity) {
            live.set(i, last);
            livePosition.put(last, i);
        }
        free.add(Entity.index(entity));
        dead.add(entity);
        if (dead.size() > 4000) {
            dead.subList(0, 2000).clear();
        }
    }

    /** The columns and values of a live entity (mutable: operations update it in place). */
    Map<Component<?>, Object> get(long entity) {
        return entities.get(entity);
    }

    int size() {
        return entities.size();
    }

    boolean isEmpty() {
        return entities.isEmpty();
    }

    /** The live entities, in no meaningful order (read-only). */
    List<Long> live() {
        return Collections.unmodifiableList(live);
    }

    long randomLive(Random rnd) {
        return live.get(rnd.nextInt(live.size()));
    }

    /** Recently despawned ids (read-only). */
    List<Long> dead() {
        return Collections.unmodifiableList(dead);
    }

    /** One past the largest index handed out. */
    int highWater() {
        return highWater;
    }

    /** The free indices in the order they will be reused. */
    int[] freeInOrder() {
        return free.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The number of live entities whose columns satisfy {@code terms}. */
    int count(Terms terms) {
        int n = 0;
        for (Map<Component<?>, Object> columns : entities.values()) {
            if (terms.test(maskOf(columns.keySet()))) {
                n++;
            }
        }
        return n;
    }

    /** The live entities whose columns satisfy {@code terms}. */
    Set<Long> matching(Terms terms) {
        Set<Long> out = new HashSet<>();
        for (Map.Entry<Long, Map<Component<?>, Object>> en : entities.entrySet()) {
            if (terms.test(maskOf(en.getValue().keySet()))) {
                out.add(en.getKey());
            }
        }
        return out;
    }

    /** One bit per column: bit {@code i} is the column with id {@code i} (fewer than 32 in the model test). */
    static int maskOf(Collection<Component<?>> columns) {
        int mask = 0;
        for (Component<?> c : columns) {
            mask |= 1 << c.id();
        }
        return mask;
    }

    /** A query's terms, as column masks. */
    record Terms(int with, int without, int any) {
        static Terms of(Collection<Component<?>> with, Collection<Component<?>> without, Collection<Component<?>> any) {
            return new Terms(maskOf(with), maskOf(without), maskOf(any));
        }

        boolean test(int mask) {
            return (mask & with) == with && (mask & without) == 0 && (any == 0 || (mask & any) != 0);
        }
    }
}
