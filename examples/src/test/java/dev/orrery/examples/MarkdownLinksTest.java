package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader who clicks a link in a Markdown file of the project (the files {@link SnippetTest}
 * reads: every {@code .md} but {@code CHANGELOG.md}) lands somewhere real. Read without fetching
 * anything:
 * <ul>
 * <li>every inline link or image {@code [text](target)} and every reference definition
 *     {@code [label]: target} outside fenced code blocks, inline code and HTML comments;</li>
 * <li>an absolute URL ({@code https:}, {@code mailto:}, any scheme) is left alone;</li>
 * <li>a relative path resolves, from the Markdown file's folder, to a file or folder of the
 *     project (not one under a {@code target/} build folder, which is not in the repository);</li>
 * <li>an anchor, {@code #frag} alone or after a {@code .md} path (or a folder, meaning its
 *     {@code README.md}), names a heading of that file under GitHub's slug rules (lower case,
 *     spaces to {@code -}, punctuation but {@code -} and {@code _} dropped, a repeated heading
 *     {@code -1}, {@code -2}, ...) or an {@code <a id=...>}/{@code <a name=...>} anchor; on
 *     another file only a line anchor ({@code #L10}, {@code #L10-L20}) is accepted.</li>
 * </ul>
 * And every page under {@code docs/} is reachable by links from {@code README.md} or the book's
 * index {@code docs/README.md}, so none is written and then lost.
 */
class MarkdownLinksTest {
    private static final Path ROOT = Path.of("..");

    @Test
    void shouldLinkOnlyToFilesAndHeadingsThatExist() throws IOException {
        MarkdownLinks links = new MarkdownLinks(ROOT);
        List<String> problems = new ArrayList<>();
        int count = 0;
        for (Path md : SnippetTest.markdownFiles()) {
            count += links.of(md).size();
            problems.addAll(links.check(md));
        }
        assertTrue(count > 100, "only " + count + " links found in the project's Markdown files: the test reads "
                + "the wrong folder or no longer finds links");
        assertTrue(problems.isEmpty(), problems.size() + " links lead nowhere (fix the path or the anchor; an "
                + "anchor is the heading's GitHub slug):\n  " + String.join("\n  ", problems));
    }

    @Test
    void shouldReachEveryPageOfTheDocsFromTheReadmeOrTheBooksIndex() throws IOException {
        MarkdownLinks links = new MarkdownLinks(ROOT);
        Set<Path> reached = links.reachable(List.of(ROOT.resolve("README.md"), ROOT.resolve("docs/README.md")));
        List<String> lost = new ArrayList<>();
        Path docs = ROOT.resolve("docs").toAbsolutePath().normalize();
        for (Path md : SnippetTest.markdownFiles()) {
            Path page = md.toAbsolutePath().normalize();
            if (page.startsWith(docs) && !reached.contains(page)) {
                lost.add(ROOT.relativize(md.normalize()).toString());
            }
        }
        assertTrue(reached.contains(docs.resolve("the-simulation.md")), "the book is not reached: " + reached);
        assertTrue(lost.isEmpty(), lost.size() + " pages under docs/ are reached by no link from README.md or "
                + "docs/README.md: link a chapter from docs/README.md's contents, a design note from "
                + "docs/design/README.md's table, or delete the page:\n  " + String.join("\n  ", lost));
    }

    @Test
    void shouldReportEveryBrokenLinkWithItsLineAndSkipCodeCommentsAndUrls(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/other.md"), "# Other page\n\n<a id=\"kept\"></a>\n\n## Same\n\n## Same\n");
        Files.writeString(dir.resolve("sub/README.md"), "# Sub folder\n");
        Files.writeString(dir.resolve("page.md"), String.join("\n",
                "# The page: `code_name` and *more*", // 1
                "",
                "[ok](sub/other.md) [ok](sub/other.md#other-page) [ok](sub/other.md#same-1) [ok](#setext-title)",
                "[ok](sub/other.md#kept) [ok](sub/) [ok](sub#sub-folder) [ok](<sub/other.md>) ![ok](page.md)",
                "[gone](sub/missing.md) and [bad anchor](sub/other.md#same-2) and [self](#nope)", // 5
                "[ok](https://example.com/nowhere) [ok](mailto:a@b.c) [ok](#the-page-code_name-and-more)",
                "`[not a link](missing-1.md)` and ``[nor](missing-2.md)``",
                "<!-- [a comment](missing-3.md) -->",
                "```md",
                "[in a fence](missing-4.md)", // 10
                "```",
                "A [wrapped",
                "link](sub/also-missing.md) and [a badge ![img](none.png)](page.md)",
                "",
                "Setext title", // 15
                "============",
                "",
                "[def]: sub/defined-missing.md \"title\"",
                "[ok]: page.md#setext-title",
                "[ok](sub/data.txt#L3) [not a line](page.md#L3) [build](target/x.jar) [up](../../x.md)", // 20
                ""));
        Files.createDirectories(dir.resolve("target"));
        Files.writeString(dir.resolve("target/x.jar"), "");
        Files.writeString(dir.resolve("sub/data.txt"), "1\n2\n3\n");
        MarkdownLinks links = new MarkdownLinks(dir);
        List<String> problems = links.check(dir.resolve("page.md"));
        String all = String.join("\n", problems);
        String[] expected = {"page.md:5: 'sub/missing.md'", "page.md:5: 'sub/other.md#same-2'", "page.md:5: '#nope'",
            "page.md:13: 'sub/also-missing.md'", "page.md:13: 'none.png'", "page.md:18: 'sub/defined-missing.md'",
            "page.md:20: 'page.md#L3'", "page.md:20: 'target/x.jar'", "page.md:20: '../../x.md'"};
        for (String e : expected) {
            assertTrue(all.contains(e), "not reported: " + e + "\n" + all);
        }
        assertEquals(expected.length, problems.size(), all);
        assertTrue(all.contains("has headings #same, #same-1"), "the anchors that exist are not listed:\n" + all);
    }

    @Test
    void shouldSlugHeadingsAsGitHubDoes() {
        assertEquals("8-may-one-query-serve-several-systems",
                MarkdownLinks.slug("8. May one `Query` serve several systems?"));
        assertEquals("heavy_compute-four-more-runs", MarkdownLinks.slug("heavy_compute, four more runs"));
        assertEquals("a-second-sitting-2026-11-27-code-at-d3606be",
                MarkdownLinks.slug("A second sitting, 2026-11-27 (code at `d3606be`)"));
        assertEquals("the-book--links", MarkdownLinks.slug("The [book](docs/README.md) & links"));
        assertEquals("emphasis-and-snake_case", MarkdownLinks.slug("_Emphasis_ and **snake_case**"));
        assertEquals("données-über", MarkdownLinks.slug("Données: über!"));
        Set<String> anchors = MarkdownLinks.anchors(List.of("# Same", "## Same", "Same", "---", "### Same-1", "```",
                "# Not one", "```", "# Same", "Set", "===", "<a name='x'></a>"));
        assertEquals(new TreeSet<>(Set.of("same", "same-1", "same-2", "same-1-1", "same-3", "set", "x")),
                new TreeSet<>(anchors));
    }
}
