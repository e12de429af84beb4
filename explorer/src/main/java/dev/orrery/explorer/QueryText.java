package dev.orrery.explorer;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A query typed on the page, parsed into a {@link Query} of the world: terms separated by
 * commas, in the spirit of the Flecs query language.
 *
 * <pre>
 * Position               with: every match holds Position (a component instance's name)
 * !Projectile            without
 * ?Health                optional: does not filter; its fields are shown when present
 * Primary || Secondary   any: at least one of them
 * changed(Position)      Position changed since the explorer last ran this query (whole chunks)
 * added(Health)          Health added since the explorer last ran this query (whole chunks)
 * ChildOf(123)           holds the pair (ChildOf, 123): the children of entity 123 (also 123v0)
 * ChildOf(*) or ChildOf  holds some pair of ChildOf: has a parent
 * !ChildOf(*)            holds none: a root
 * </pre>
 *
 * <p>Names are matched exactly, then ignoring case when that is unambiguous; an unknown name
 * is refused naming the nearest ones.
 *
 * <p><b>Threading:</b> parse on the tick thread (it builds the query on the world).
 */
final class QueryText {
    /** The components and relations a parsed query names, in order, for the columns shown. */
    final List<Component<?>> shown = new ArrayList<>();
    /** Whether rows are filtered one by one (a pair or a sparse filter): a chunk loop is refused. */
    boolean rowFiltered;
    /** Whether the query has a change filter: its count is the rows it visits, not {@code Query.count()}. */
    boolean changeFiltered;
    /** A plain reading of the terms. */
    final StringBuilder description = new StringBuilder();
    /** The pair terms with one target, as typed, and their targets: an answer names those not alive. */
    private final List<String> pairTerms = new ArrayList<>();
    private final List<Long> pairTargets = new ArrayList<>();

    QueryText() {
    }

    /** Thrown for a query that cannot be parsed or built; its message says where and what to type. */
    static final class BadQuery extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadQuery(String message) {
            super(message);
        }
    }

    /**
     * Parses {@code text} into a query on {@code world}; {@code into} receives what it shows.
     *
     * @throws BadQuery naming the term at fault and what to type
     */
    static Query parse(World world, String text, QueryText into) {
        if (text == null || text.isBlank()) {
            throw new BadQuery("type a query: component names separated by commas, such as Position, !Projectile, "
                    + "?Health, changed(Position), ChildOf(123)");
        }
        if (text.length() > 2000) {
            throw new BadQuery("the query is over 2000 characters; shorten it");
        }
        Query.Builder b = world.query();
        int terms = 0;
        for (String raw : text.split(",")) {
            String term = raw.strip();
            if (term.isEmpty()) {
                throw new BadQuery("an empty term in '" + text + "'; separate terms with single commas");
            }
            terms++;
            term(world, b, term, into);
        }
        if (terms == 0) {
            throw new BadQuery("the query '" + text + "' has no term; type component names separated by commas, such "
                    + "as Position, !Projectile");
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new BadQuery("the query cannot be built: " + e.getMessage());
        }
    }

    private static void term(World world, Query.Builder b, String term, QueryText q) {
        if (term.contains("||")) {
            List<Component<?>> any = new ArrayList<>();
            for (String name : term.split("\\|\\|")) {
                any.add(component(world, name.strip(), term));
            }
            b.any(any.toArray(new Component<?>[0]));
            any.forEach(c -> q.show(c));
            q.rowFiltered |= any.stream().anyMatch(Component::isSparse);
            q.describe("any of " + names(any));
            return;
        }
        char first = term.charAt(0);
        if (first == '!' || first == '?') {
            String rest = term.substring(1).strip();
            Relation r = pairRelation(world, rest);
            if (r != null) {
                String target = argument(rest);
                if (!target.equals("*")) {
                    throw new BadQuery("'" + term + "': a pair with one target cannot be " + (first == '!'
                            ? "excluded" : "optional") + "; write " + first + r.name() + "(*) for any target");
                }
                column(world, b, r.column(), first, q);
                return;
            }
            column(world, b, component(world, rest, term), first, q);
            return;
        }
        String lower = term.toLowerCase(Locale.ROOT);
        if (lower.startsWith("changed(") || lower.startsWith("added(")) {
            boolean changed = lower.startsWith("changed(");
            String name = argument(term);
            Component<?> c = component(world, name, term);
            if (c.isSparse()) {
                throw new BadQuery("'" + term + "': " + c.name() + " is sparse; change filters take table columns");
            }
            if (changed) {
                b.changed(c);
            } else {
                b.added(c);
            }
            q.changeFiltered = true;
            q.show(c);
            q.describe((changed ? "changed " : "added ") + c.name());
            return;
        }
        Relation r = pairRelation(world, term);
        if (r != null) {
            String target = argument(term);
            if (target.equals("*")) {
                column(world, b, r.column(), ' ', q);
            } else {
                long id = entityId(target, term, true);
                q.pairTerms.add(term);
                q.pairTargets.add(id);
                b.pair(r, id);
                q.rowFiltered = true;
                q.show(r.column());
                q.describe("(" + r.name() + ", " + id + ")");
            }
            return;
        }
        column(world, b, component(world, term, term), ' ', q);
    }

    private static void column(World world, Query.Builder b, Component<?> c, char how, QueryText q) {
        switch (how) {
            case '!' -> {
                b.without(c);
                q.describe("without " + c.name());
            }
            case '?' -> {
                b.optional(c);
                q.show(c);
                q.describe("optional " + c.name());
            }
            default -> {
                b.with(c);
                q.show(c);
                q.describe("with " + c.name());
            }
        }
        if (c.isSparse() && how != '?') {
            q.rowFiltered = true;
        }
    }

    private void show(Component<?> c) {
        if (!shown.contains(c)) {
            shown.add(c);
        }
    }

    private void describe(String s) {
        description.append(description.length() == 0 ? "" : ", ").append(s);
    }

    /** The relation a {@code Name(...)} term names, or null when the term is not one. */
    private static Relation pairRelation(World world, String term) {
        int open = term.indexOf('(');
        if (open <= 0 || !term.endsWith(")")) {
            if (open >= 0 || term.contains(")")) {
                throw new BadQuery("'" + term + "': unbalanced parentheses; write Relation(target) or changed(Name)");
            }
            return null; // a bare relation name is its marker column, a component like any other
        }
        String name = term.substring(0, open).strip();
        Relation r = relation(world, name);
        if (r == null) {
            List<String> names = new ArrayList<>();
            world.relations().all().forEach(x -> names.add(x.name()));
            throw new BadQuery("'" + term + "': no relation named '" + name + "'; the relations are " + names
                    + " (and changed(Name), added(Name))");
        }
        return r;
    }

    private static Relation relation(World world, String name) {
        for (Relation r : world.relations().all()) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        for (Relation r : world.relations().all()) {
            if (r.name().equalsIgnoreCase(name)) {
                return r;
            }
        }
        return null;
    }

    private static String argument(String term) {
        int open = term.indexOf('(');
        if (open < 0 || !term.endsWith(")")) {
            throw new BadQuery("'" + term + "': write the argument in parentheses, such as changed(Position)");
        }
        String arg = term.substring(open + 1, term.length() - 1).strip();
        if (arg.isEmpty()) {
            throw new BadQuery("'" + term + "': the parentheses are empty; name a component or an entity");
        }
        return arg;
    }

    /**
     * An entity id as the explorer writes it: a decimal long, or index{@code v}generation; a
     * parameter's (an {@code id=}, {@code parent=} or {@code entity=}), whose refusal offers
     * only those.
     */
    static long entityId(String text, String term) {
        return entityId(text, term, false);
    }

    /**
     * An entity id as {@link #entityId(String, String)} reads it; {@code pairTarget}: a pair
     * term's target, whose refusal also offers {@code *}, any target (which the caller reads).
     */
    static long entityId(String text, String term, boolean pairTarget) {
        String t = text.strip();
        try {
            int v = t.indexOf('v');
            if (v > 0) {
                int index = Integer.parseInt(t.substring(0, v));
                int generation = Integer.parseInt(t.substring(v + 1));
                if (index < 0 || generation < 0) {
                    throw new BadQuery("'" + term + "': '" + t + "' has a negative "
                            + (index < 0 ? "index" : "generation") + "; in index v generation (12v3) both are whole "
                            + "numbers from 0");
                }
                return Entity.of(index, generation);
            }
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new BadQuery("'" + term + "': '" + t + "' is not an entity id; write the id as a decimal number "
                    + "(as the explorer lists it) or as index v generation (12v3)"
                    + (pairTarget ? ", or * for any target" : ""));
        }
    }

    /**
     * Writes {@code message}, naming each pair term whose target is not a live entity now (the
     * term as typed, the target, what holds its slot and what to do), when there is one: such a
     * term matches nothing, and a count of 0 alone does not say why. Checked at each run (the
     * parse is kept, a target may die). Tick thread.
     */
    void noteDeadTargets(World world, Json json) {
        StringBuilder why = new StringBuilder();
        for (int i = 0; i < pairTargets.size(); i++) {
            long id = pairTargets.get(i);
            if (Entity.index(id) < 0 || !world.isAlive(id)) {
                why.append(why.length() == 0 ? "" : "; ").append(pairTerms.get(i)).append(": target ")
                        .append(Entity.toString(id)).append(" is not a live entity, so nothing holds a pair on it: ")
                        .append(Entity.index(id) < 0 ? "its index (the id's low 32 bits) is negative; copy a live id "
                                + "from a list, the tree, the map or a search" : Views.slotNow(world, id));
            }
        }
        if (why.length() > 0) {
            json.field("message", why.toString());
        }
    }

    /** The component instance named {@code name}: exactly, else ignoring case when one matches. */
    static Component<?> component(World world, String name, String term) {
        if (name.isEmpty()) {
            throw new BadQuery("'" + term + "': a term needs a component name");
        }
        Component<?> caseless = null;
        int caselessCount = 0;
        for (Component<?> c : world.columns()) {
            if (c.name().equals(name)) {
                return c;
            }
            if (c.name().equalsIgnoreCase(name)) {
                caseless = c;
                caselessCount++;
            }
        }
        if (caselessCount == 1) {
            return caseless;
        }
        throw new BadQuery("'" + term + "': no component named '" + name + "'" + nearest(world, name)
                + "; the components are " + allNames(world));
    }

    private static String nearest(World world, String name) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (Component<?> c : world.columns()) {
            int d = distance(c.name().toLowerCase(Locale.ROOT), name.toLowerCase(Locale.ROOT));
            if (d < bestD) {
                bestD = d;
                best = c.name();
            }
        }
        return best != null && bestD <= Math.max(2, name.length() / 3) ? " (did you mean " + best + "?)" : "";
    }

    /** Every component instance's name, in registration order, joined with commas (refusals list them). */
    static String allNames(World world) {
        Set<String> names = new LinkedHashSet<>();
        for (Component<?> c : world.columns()) {
            names.add(c.name());
        }
        return String.join(", ", names);
    }

    private static String names(List<Component<?>> cs) {
        List<String> out = new ArrayList<>();
        cs.forEach(c -> out.add(c.name()));
        return String.join(", ", out);
    }

    /** Levenshtein distance, for "did you mean". */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
