package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Chunk;

/**
 * The row check of {@link ChunkView}'s per-row calls ({@code entity}, {@code get}, {@code set},
 * {@code has}, {@code changed}, {@code markChanged}): a row must be live, in {@code [0, size())}.
 * A chunk's arrays are longer than its live rows, so without it a row past {@code size()} read
 * or wrote a dead slot (whose value a later zero-valued spawn into that row took over), and a
 * row past the arrays failed with a bare {@link ArrayIndexOutOfBoundsException}.
 */
final class ChunkRows {
    private ChunkRows() {
    }

    /**
     * Returns {@code row} when it is a live row of {@code chunk}.
     *
     * @throws IndexOutOfBoundsException naming the row, the chunk's components and its size
     */
    static int live(Chunk chunk, int row) {
        if (Integer.compareUnsigned(row, chunk.size()) >= 0) { // one compare: negative rows are large unsigned
            throw new IndexOutOfBoundsException("row " + row + " is outside this chunk of "
                    + chunk.archetype().components() + ", which has " + chunk.size() + " rows (0 to size() - 1)");
        }
        return row;
    }
}
