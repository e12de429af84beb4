package dev.orrery.explorer;

import java.util.List;

/**
 * The application's live map: where its entities are, by kind (a team, projectiles). The
 * explorer asks for points at a safe point and draws them; a source with more entities than
 * {@link MapPoints#capacity()} down-samples (every n-th, for example). Read the world in
 * {@link #sample} with {@code query.forEachChunkReadOnly} (or {@code forEachReadOnly}): a
 * read-only iteration takes no change tick, so the map changes no later snapshot, as the
 * explorer's own pages do not.
 *
 * <p><b>Threading:</b> {@link #sample} is called on the tick thread between ticks, where the
 * world may be read; {@link #kinds}, {@link #width} and {@link #height} on any thread, so they
 * return fixed values.
 */
public interface MapSource {
    /**
     * The names of the point kinds, indexed by the kind {@link MapPoints#add} is given.
     *
     * @return the names, the same on every call; kind {@code i} is {@code kinds().get(i)}
     */
    List<String> kinds();

    /**
     * The map's width in world units (x runs from 0 to it).
     *
     * @return the width, the same on every call
     */
    float width();

    /**
     * The map's height in world units (y runs from 0 to it).
     *
     * @return the height, the same on every call
     */
    float height();

    /**
     * Adds the points to draw now, at most {@code points.capacity()} of them. Tick thread, between ticks.
     *
     * @param points the sample to fill; {@link MapPoints#add} returns false once it is full
     */
    void sample(MapPoints points);
}
