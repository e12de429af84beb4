package dev.orrery.demo.arena;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import java.util.Arrays;

/**
 * A uniform grid over the arena that answers "which agents are near (x, y)": rebuilt from
 * scratch once a tick by {@link #rebuild}, then read by the separation scan and the
 * firing and projectile jobs. It copies each agent's position, team and id into flat arrays
 * sorted by cell (a counting sort), so a neighbour scan reads contiguous memory (position
 * and team interleaved, and the cells of a grid row adjacent, so a 3 x 3 scan is three
 * contiguous runs) and never touches the world.
 *
 * <p>The agents of a cell are in query order, so every scan visits neighbours in the same
 * order on any worker count.
 *
 * <p><b>Threading:</b> {@link #rebuild} runs on one thread (an exclusive system) while no
 * job reads the grid; afterwards any number of jobs may read it at once. The scheduler's
 * hand-off of jobs to workers makes the rebuild visible to them.
 */
public final class SpatialGrid {
    private final float cellSize;
    private final float inverseCell;
    private final int columns;
    private final int[] cellStart;
    private final int[] cursor;
    private int[] cellOf = new int[1024];
    /** x, y and team (as raw int bits) of each slot, interleaved: one cache line serves several neighbours. */
    private float[] packed = new float[3 * 1024];
    private long[] ids = new long[1024];
    /** Slot of each agent by entity index; -1 for an index that is no agent in the grid. */
    private int[] slotOfIndex = new int[1024];
    private int size;

    /**
     * A grid of square cells of {@code cellSize} covering {@code [0, side)} on both axes.
     *
     * @throws IllegalArgumentException if the sizes are not positive or give over 16 M cells
     */
    public SpatialGrid(float side, float cellSize) {
        if (!(side > 0) || !(cellSize > 0)) {
            throw new IllegalArgumentException("grid side and cell size must be positive; got " + side + ", " + cellSize);
        }
        this.cellSize = cellSize;
        this.inverseCell = 1f / cellSize;
        long cols = (long) Math.ceil(side / cellSize);
        if (cols * cols > 1 << 24) {
            throw new IllegalArgumentException("a grid of side " + side + " and cell " + cellSize + " has " + cols * cols
                    + " cells, over 16 M; use fewer agents or larger cells");
        }
        this.columns = (int) cols;
        this.cellStart = new int[columns * columns + 1];
        this.cursor = new int[columns * columns];
    }

    /** The cell's side length. */
    public float cellSize() {
        return cellSize;
    }

    /** Cells along one side. */
    public int columns() {
        return columns;
    }

    /** Agents in the grid. */
    public int size() {
        return size;
    }

    /** The column (or row) of coordinate {@code v}, clamped into the grid. */
    public int cellCoordinate(float v) {
        int c = (int) (v * inverseCell);
        return c < 0 ? 0 : Math.min(c, columns - 1);
    }

    /** First slot of cell ({@code cx}, {@code cy}); the cell's agents are {@code [start, end)}. */
    public int start(int cx, int cy) {
        return cellStart[cy * columns + cx];
    }

    /** One past the last slot of cell ({@code cx}, {@code cy}). */
    public int end(int cx, int cy) {
        return cellStart[cy * columns + cx + 1];
    }

    /** x of the agent in {@code slot}. */
    public float x(int slot) {
        return packed[3 * slot];
    }

    /** y of the agent in {@code slot}. */
    public float y(int slot) {
        return packed[3 * slot + 1];
    }

    /** Team of the agent in {@code slot}. */
    public int team(int slot) {
        return Float.floatToRawIntBits(packed[3 * slot + 2]);
    }

    /**
     * The interleaved slot data, read-only: {@code [3 s]} x, {@code [3 s + 1]} y,
     * {@code [3 s + 2]} team as raw int bits. For scans that want plain array loops.
     */
    public float[] packed() {
        return packed;
    }

    /** Entity id of the agent in {@code slot}. */
    public long entity(int slot) {
        return ids[slot];
    }

    /**
     * The slot of the agent whose entity index is {@code index} ({@link Entity#index}), or -1
     * if no agent in the grid has it.
     */
    public int slotOfIndex(int index) {
        return index < slotOfIndex.length ? slotOfIndex[index] : -1;
    }

    /**
     * The nearest agent not of team {@code team} within {@code radius} of (x, y), or -1.
     * Scans the cells the radius touches; ties keep the first found (grid order).
     */
    public int nearestEnemy(float x, float y, int team, float radius) {
        int x0 = cellCoordinate(x - radius);
        int x1 = cellCoordinate(x + radius);
        int y0 = cellCoordinate(y - radius);
        int y1 = cellCoordinate(y + radius);
        float best = radius * radius;
        int found = -1;
        for (int cy = y0; cy <= y1; cy++) {
            for (int cx = x0; cx <= x1; cx++) {
                for (int s = start(cx, cy), e = end(cx, cy); s < e; s++) {
                    if (team(s) == team) {
                        continue;
                    }
                    float dx = packed[3 * s] - x;
                    float dy = packed[3 * s + 1] - y;
                    float d2 = dx * dx + dy * dy;
                    if (d2 < best) {
                        best = d2;
                        found = s;
                    }
                }
            }
        }
        return found;
    }

    /**
     * Refills the grid from every chunk {@code agents} matches, reading the position fields
     * and the team field given. Allocates only when the agent count outgrows the arrays.
     */
    public void rebuild(Query agents, Field px, Field py, Field team) {
        int n = agents.count();
        if (n > ids.length) {
            int cap = Math.max(n, ids.length * 3 / 2);
            cellOf = new int[cap];
            packed = new float[3 * cap];
            ids = new long[cap];
        }
        int[] counts = cellStart;
        Arrays.fill(counts, 0);
        int[] cells = cellOf;
        float[] packed = this.packed;
        int cols = columns;
        // Pass 1: the cell of every agent, in query order, the count per cell, the top entity index.
        int[] at = {0};
        int[] top = {0};
        agents.forEachChunk(chunk -> {
            float[] x = chunk.readFloats(px);
            float[] y = chunk.readFloats(py);
            long[] e = chunk.entities();
            int i = at[0];
            int t = top[0];
            for (int r = 0, m = chunk.size(); r < m; r++, i++) {
                int c = cellCoordinate(y[r]) * cols + cellCoordinate(x[r]);
                cells[i] = c;
                counts[c + 1]++;
                t = Math.max(t, Entity.index(e[r]));
            }
            at[0] = i;
            top[0] = t;
        });
        if (top[0] >= slotOfIndex.length) {
            slotOfIndex = new int[Math.max(top[0] + 1, slotOfIndex.length * 3 / 2)];
        }
        int[] slotOf = slotOfIndex;
        Arrays.fill(slotOf, -1);
        for (int c = 1; c < counts.length; c++) {
            counts[c] += counts[c - 1];
        }
        // Pass 2: scatter, noting each agent's slot by its entity index.
        int[] cursor = this.cursor;
        System.arraycopy(counts, 0, cursor, 0, cursor.length);
        at[0] = 0;
        agents.forEachChunk(chunk -> {
            float[] x = chunk.readFloats(px);
            float[] y = chunk.readFloats(py);
            int[] t = chunk.readInts(team);
            long[] e = chunk.entities();
            int i = at[0];
            for (int r = 0, m = chunk.size(); r < m; r++, i++) {
                int slot = cursor[cells[i]]++;
                packed[3 * slot] = x[r];
                packed[3 * slot + 1] = y[r];
                packed[3 * slot + 2] = Float.intBitsToFloat(t[r]);
                ids[slot] = e[r];
                slotOf[Entity.index(e[r])] = slot;
            }
            at[0] = i;
        });
        size = n;
    }

    /** Its size in one line (the explorer shows it as the resource's value). */
    @Override
    public String toString() {
        return "spatial grid: " + size() + " points in cells of " + cellSize + " units, " + columns + " columns";
    }
}
