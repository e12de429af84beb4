package dev.orrery.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The links of a tree of Markdown files as GitHub renders them, read once each, for
 * {@link MarkdownLinksTest}: inline links and images and reference definitions outside fenced
 * code, inline code and HTML comments; the anchors a file offers (headings' GitHub slugs,
 * {@code <a id/name>}); which targets exist; which files links reach. {@code root} is the
 * repository's root.
 */
final class MarkdownLinks {
    private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,}).*$");
    private static final Pattern ATX = Pattern.compile("^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern SETEXT = Pattern.compile("^ {0,3}(=+|-+)[ \\t]*$");
    private static final Pattern DEFINITION = Pattern.compile("^ {0,3}\\[([^\\]]+)]:[ \\t]*(<[^>\\n]*>|\\S+)",
            Pattern.MULTILINE);
    private static final Pattern HTML_ANCHOR = Pattern.compile(
            "<a\\s[^>]*?\\b(?:id|name)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s>]+))", Pattern.CASE_INSENSITIVE);
    private static final Pattern SCHEME = Pattern.compile("^(?:[A-Za-z][A-Za-z0-9+.-]*:|//).*");
    private static final Pattern LINE_ANCHOR = Pattern.compile("^L\\d+(?:C\\d+)?(?:-L\\d+(?:C\\d+)?)?$");
    /** What stands in for a character of inline code or a comment: not a bracket, not a space. */
    private static final char MASK = 'x';

    private final Path root;
    private final Map<Path, List<Link>> links = new HashMap<>();
    private final Map<Path, Set<String>> anchors = new HashMap<>();

    MarkdownLinks(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** A link's target as written, and the line (from 1) where the target starts. */
    record Link(int line, String target) {
    }

    /** The links of a Markdown file, in order. */
    List<Link> of(Path md) {
        return links.computeIfAbsent(md.toAbsolutePath().normalize(), p -> find(read(p)));
    }

    /** The problems of a file's links, each starting with the file (from the root) and line. */
    List<String> check(Path md) {
        Path file = md.toAbsolutePath().normalize();
        List<String> problems = new ArrayList<>();
        for (Link link : of(file)) {
            String problem = problem(file, link.target());
            if (problem != null) {
                problems.add(root.relativize(file) + ":" + link.line() + ": '" + link.target() + "' " + problem);
            }
        }
        return problems;
    }

    /** The Markdown files (absolute, normalized) reached from {@code starts} by links, starts included. */
    Set<Path> reachable(List<Path> starts) {
        Set<Path> reached = new LinkedHashSet<>();
        Deque<Path> todo = new ArrayDeque<>();
        for (Path s : starts) {
            todo.add(s.toAbsolutePath().normalize());
        }
        while (!todo.isEmpty()) {
            Path md = todo.poll();
            if (!Files.isRegularFile(md) || !reached.add(md)) {
                continue;
            }
            for (Link link : of(md)) {
                Path target = resolve(md, link.target());
                if (target != null && Files.isDirectory(target)) {
                    target = target.resolve("README.md");
                }
                if (target != null && target.toString().endsWith(".md")) {
                    todo.add(target);
                }
            }
        }
        return reached;
    }

    /** The file or folder a relative link names, or null for an absolute URL or an anchor alone. */
    private Path resolve(Path md, String target) {
        if (SCHEME.matcher(target).matches()) {
            return null;
        }
        String path = target.replaceFirst("[#?].*$", "");
        if (path.isEmpty()) {
            return null;
        }
        path = decode(path);
        return (path.startsWith("/") ? root.resolve(path.substring(1)) : md.getParent().resolve(path)).normalize();
    }

    private String problem(Path md, String target) {
        if (target.isEmpty()) {
            return "is empty: a link needs a file, a folder, an anchor or a URL";
        }
        if (SCHEME.matcher(target).matches()) {
            return null; // an absolute URL: not fetched
        }
        int hash = target.indexOf('#');
        String fragment = hash < 0 ? null : decode(target.substring(hash + 1));
        Path file = resolve(md, target);
        if (file == null) {
            file = md;
        } else if (!file.startsWith(root)) {
            return "leaves the repository";
        } else if (!Files.exists(file)) {
            String folder = root.relativize(md.getParent()).toString();
            return "names no file or folder (read from " + (folder.isEmpty() ? "the project root" : folder + "/")
                    + ")";
        } else if (root.relativize(file).toString().matches("(?:.*/)?target(?:/.*)?")) {
            return "points into a build folder (target/), which is not in the repository: link the source";
        }
        if (fragment == null || fragment.isEmpty()) {
            return null;
        }
        if (Files.isDirectory(file)) {
            file = file.resolve("README.md");
            if (!Files.isRegularFile(file)) {
                return "has an anchor, but the folder has no README.md to hold it";
            }
        }
        if (!file.toString().endsWith(".md")) {
            return LINE_ANCHOR.matcher(fragment).matches() ? null
                    : "has an anchor on a file that is not Markdown (only #L<line> works there)";
        }
        Set<String> known = anchors.computeIfAbsent(file, f -> anchors(read(f)));
        if (known.contains(fragment)) {
            return null;
        }
        List<String> near = new ArrayList<>();
        for (String a : known) {
            if (a.contains(fragment) || fragment.contains(a)
                    || a.startsWith(fragment.substring(0, Math.min(5, fragment.length())))) {
                near.add("#" + a);
            }
        }
        return "names no heading or anchor of " + root.relativize(file)
                + (near.isEmpty() ? "" : ", which has headings " + String.join(", ", near));
    }

    /** The anchors a Markdown file offers: its headings' GitHub slugs and its HTML anchors. */
    static Set<String> anchors(List<String> lines) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean[] code = codeLines(lines);
        for (int i = 0; i < lines.size(); i++) {
            if (code[i]) {
                continue;
            }
            String line = lines.get(i);
            String heading = null;
            Matcher atx = ATX.matcher(line);
            if (atx.matches()) {
                heading = atx.group(2) == null ? "" : atx.group(2);
            } else if (i + 1 < lines.size() && !code[i + 1] && SETEXT.matcher(lines.get(i + 1)).matches()
                    && !line.isBlank() && (i == 0 || lines.get(i - 1).isBlank() || code[i - 1]
                            || ATX.matcher(lines.get(i - 1)).matches())) {
                heading = line.strip(); // one-line setext headings: a longer paragraph is not a heading here
            }
            if (heading != null) {
                String slug = slug(heading);
                String unique = slug;
                while (seen.containsKey(unique)) { // github-slugger: -1, -2, ... until unused
                    int n = seen.merge(slug, 1, Integer::sum);
                    unique = slug + "-" + n;
                }
                seen.put(unique, 0);
                out.add(unique);
            }
            Matcher a = HTML_ANCHOR.matcher(line);
            while (a.find()) {
                out.add(a.group(1) != null ? a.group(1) : a.group(2) != null ? a.group(2) : a.group(3));
            }
        }
        return out;
    }

    /** A heading's slug as GitHub makes it from the rendered text, before duplicates are numbered. */
    static String slug(String heading) {
        StringBuilder text = new StringBuilder();
        Matcher code = Pattern.compile("(`+)(.+?)\\1").matcher(heading);
        int from = 0;
        while (code.find()) {
            text.append(rendered(heading.substring(from, code.start()))).append(code.group(2).strip());
            from = code.end();
        }
        text.append(rendered(heading.substring(from)));
        StringBuilder slug = new StringBuilder();
        text.toString().toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            int type = Character.getType(c);
            if (c == ' ') {
                slug.append('-');
            } else if (c == '-' || Character.isLetterOrDigit(c) || type == Character.CONNECTOR_PUNCTUATION
                    || type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                    || type == Character.LETTER_NUMBER || type == Character.OTHER_NUMBER) {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }

    /** Text outside code as rendered: links and images by their text, emphasis and tags gone. */
    private static String rendered(String s) {
        return s.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "")
                .replaceAll("(?<![\\p{L}\\p{N}_])(_+)(?=\\S)(.+?)(?<=\\S)\\1(?![\\p{L}\\p{N}_])", "$2");
    }

    /** Which lines are inside a fenced code block, the fences included. */
    private static boolean[] codeLines(List<String> lines) {
        boolean[] code = new boolean[lines.size()];
        String open = null;
        for (int i = 0; i < lines.size(); i++) {
            Matcher f = FENCE.matcher(lines.get(i));
            if (open == null && f.matches()) {
                open = f.group(1);
                code[i] = true;
            } else if (open != null) {
                code[i] = true;
                String s = lines.get(i).strip();
                char fence = open.charAt(0);
                if (f.matches() && s.charAt(0) == fence && s.length() >= open.length()
                        && s.chars().allMatch(c -> c == fence)) {
                    open = null;
                }
            }
        }
        return code;
    }

    /** The links of a file's lines: its text outside fences, with inline code and comments masked. */
    static List<Link> find(List<String> lines) {
        boolean[] code = codeLines(lines);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            text.append(code[i] ? "" : lines.get(i)).append('\n');
        }
        String masked = mask(text.toString());
        List<Link> out = new ArrayList<>();
        for (int open = masked.indexOf('['); open >= 0; open = masked.indexOf('[', open + 1)) {
            int close = closing(masked, open);
            if (close < 0 || close + 1 >= masked.length() || masked.charAt(close + 1) != '(') {
                continue;
            }
            int start = close + 2;
            String target = destination(masked, text.toString(), start);
            if (target != null) {
                out.add(new Link(lineOf(masked, start), target));
            }
        }
        Matcher d = DEFINITION.matcher(masked);
        while (d.find()) {
            String target = d.group(2);
            if (target.startsWith("<")) {
                target = target.substring(1, target.length() - 1);
            }
            out.add(new Link(lineOf(masked, d.start(2)), target));
        }
        out.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return out;
    }

    /**
     * The text with inline code spans, HTML comments and backslash escapes replaced by
     * {@link #MASK}, the newlines kept so positions map to the same lines. A code span may
     * cross lines within a paragraph, never a blank line.
     */
    private static String mask(String text) {
        char[] out = text.toCharArray();
        int i = 0;
        while (i < out.length) {
            if (text.startsWith("<!--", i)) {
                int end = text.indexOf("-->", i + 4);
                end = end < 0 ? text.length() : end + 3;
                fill(out, i, end);
                i = end;
            } else if (text.charAt(i) == '\\' && i + 1 < text.length() && text.charAt(i + 1) != '\n') {
                fill(out, i, i + 2);
                i += 2;
            } else if (text.charAt(i) == '`') {
                int run = i;
                while (run < text.length() && text.charAt(run) == '`') {
                    run++;
                }
                String ticks = text.substring(i, run);
                int paragraphEnd = text.indexOf("\n\n", run);
                int close = run;
                int end = -1;
                while ((close = text.indexOf(ticks, close)) >= 0 && (paragraphEnd < 0 || close < paragraphEnd)) {
                    int after = close + ticks.length();
                    if (after >= text.length() || text.charAt(after) != '`') {
                        end = after;
                        break;
                    }
                    while (after < text.length() && text.charAt(after) == '`') {
                        after++;
                    }
                    close = after;
                }
                if (end < 0) {
                    i = run; // no closing run of the same length: the backticks are text
                } else {
                    fill(out, i, end);
                    i = end;
                }
            } else {
                i++;
            }
        }
        return new String(out);
    }

    private static void fill(char[] out, int from, int to) {
        for (int i = from; i < to; i++) {
            if (out[i] != '\n') {
                out[i] = MASK;
            }
        }
    }

    /** The index of the {@code ]} that closes the {@code [} at {@code open}, or -1; not past a blank line. */
    private static int closing(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                return -1;
            }
            if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The link destination starting at {@code start} (just after {@code (}) in the masked text
     * {@code s}, as written in {@code original}; null when it is none.
     */
    private static String destination(String s, String original, int start) {
        int i = start;
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        if (i < s.length() && s.charAt(i) == '<') {
            int end = s.indexOf('>', i);
            int newline = s.indexOf('\n', i);
            return end < 0 || (newline >= 0 && newline < end) ? null : original.substring(i + 1, end);
        }
        int depth = 0;
        int from = i;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c) || (c == ')' && depth == 0)) {
                break;
            }
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        }
        return original.substring(from, i);
    }

    private static int lineOf(String s, int index) {
        int line = 1;
        for (int i = 0; i < index; i++) {
            if (s.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
