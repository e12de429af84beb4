package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orrery.demo.arena.ArenaExplorer;
import dev.orrery.demo.arena.InputCodec;
import dev.orrery.demo.net.ServerConfig;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The explorer in a real browser: a recorded demo run with the explorer and edits on, its page
 * opened in headless Chromium (Debian's {@code chromium}, driven through the system
 * {@code chromedriver}; Selenium Manager never downloads anything). Each view is opened by
 * its address and checked with live data:
 *
 * <ul>
 *   <li>overview: the charts start from the server's history (ticks from before the page
 *       was opened), the figures move, six chart panes draw, the log scale switches;
 *   <li>schedule: the graph renders with a node per system and each node's time, the
 *       per-system table shows matched entities, jobs and time;
 *   <li>world: archetypes (each a link to its entities), resources with their values (the
 *       clock's tick moves), the {@code ChildOf} tree opens a squad;
 *   <li>query: a typed query returns the right count (every agent), and an archetype's link
 *       lists its entities;
 *   <li>entity: a server-owned field is read-only with the reason, a refused edit shows the
 *       simulation's reason against its number, an accepted edit shows the tick that applied
 *       it and is journaled as a client {@code SET}; the parent link leads to the squad, whose
 *       address loads it again;
 *   <li>timeline: the edited agent the tick before its edit and at the edit's tick, replayed
 *       from the recording, with the damage field shown as changed, and a query's diff;
 *   <li>map and search: points are drawn and a click inspects one; an id typed in the search
 *       box finds its entity.
 * </ul>
 *
 * <p>It saves a screenshot of each view under {@code target/explorer-shots/}, or under
 * {@code docs/explorer/} (the book's pictures) when run with
 * {@code -Dorrery.explorer.shots=docs}, so an ordinary build leaves the tree as it was. Waits
 * are on conditions, with generous limits, for a loaded machine. It fails, not skips, when
 * the browser is missing: {@code .ci/install-browser} installs it.
 */
class ExplorerBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SHOTS = "docs".equals(System.getProperty("orrery.explorer.shots"))
            ? Path.of("..", "docs", "explorer") : Path.of("target", "explorer-shots");
    private static final int AGENTS = 2_000;

    @TempDir
    Path tmp;

    @Test
    void shouldShowEveryViewWithLiveDataAndTellTheTruthAboutEdits() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("the explorer's browser test needs " + CHROMIUM + " and " + CHROMEDRIVER
                    + "; run .ci/install-browser (it installs Debian's chromium and chromium-driver)");
        }
        Path recording = tmp.resolve("run");
        RunOptions options = new RunOptions(AGENTS, 2, 0, 2, 7, 60, 0, -1, ServerConfig.loopback(), recording, null,
                null, null, true).withExplorer(0, true);
        RunningDemo run = RunningDemo.start(options);
        WebDriver browser = null;
        Path profile = Files.createTempDirectory("orrery-chromium"); // outside @TempDir: see deleteProfile
        long edited;
        try {
            assertTrue(run.explorerPort() > 0, "no explorer port; log: " + run.log());
            String base = "http://127.0.0.1:" + run.explorerPort() + "/";
            browser = chromium(profile);
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60)); // generous: CI machines are shared
            wait.ignoring(StaleElementReferenceException.class); // the live views redraw: look again
            Thread.sleep(3_000); // let the server keep some ticks, which the charts must start from
            long opened = System.currentTimeMillis();
            browser.get(base + "#/overview");
            overview(browser, wait, opened);
            schedule(browser, wait);
            world(browser, wait);
            query(browser, wait);
            edited = entity(browser, wait, base);
            timeline(browser, wait, base, edited);
            map(browser, wait);
            search(browser, wait);
        } finally {
            if (browser != null) {
                browser.quit();
            }
            deleteProfile(profile);
            run.stop();
        }
        run.finish();
        assertTrue(journaledEdit(recording.resolve(RunRecorder.JOURNAL), edited),
                "the page's edit of entity " + edited + " is not in the journal as a SET from the explorer");
    }

    private static void overview(WebDriver b, WebDriverWait wait, long opened) throws Exception {
        String first = wait.until(d -> text(d, "#fig-tick b"));
        wait.until(d -> {
            String now = text(d, "#fig-tick b");
            return now != null && !now.equals(first) ? now : null;
        });
        // the history came from the server's ring: the chart holds ticks from before the page was opened
        double oldest = ((Number) js(b, "return hist.t.length ? hist.t[0] : 1e12")).doubleValue();
        assertTrue(oldest * 1000 < opened - 1_000, "the charts start at " + oldest + ", not before the page opened at "
                + opened / 1000.0);
        wait.until(d -> d.findElements(By.cssSelector("#panes .pane canvas")).size() >= 6);
        wait.until(d -> d.findElements(By.cssSelector("#systems .bar")).size() >= 5);
        wait.until(d -> ((Number) js(d, "return hist.st.length")).intValue() >= 2); // per-second figures: tps, heap
        b.findElement(By.id("log-scale")).click(); // linear, then log again: the charts are rebuilt each time
        wait.until(d -> d.findElements(By.cssSelector("#pane-tick canvas")).size() == 1);
        b.findElement(By.id("log-scale")).click();
        wait.until(d -> d.findElements(By.cssSelector("#pane-tick canvas")).size() == 1);
        assertTrue(text(b, "#state").contains("last state hash:"), text(b, "#state"));
        shot(b, "overview");
    }

    private static void schedule(WebDriver b, WebDriverWait wait) throws Exception {
        b.findElement(By.cssSelector("nav a[data-tab=schedule]")).click();
        wait.until(d -> d.findElements(By.cssSelector("#graph svg g.node")).size() >= 5);
        wait.until(d -> d.findElements(By.cssSelector("#system-table tbody tr")).size() >= 5);
        // per-system figures: the table's time column fills once the systems are timed, and the graph shows it
        wait.until(d -> {
            String steer = text(d, "#system-table tr[data-system=steer]");
            return steer != null && steer.matches(".*\\b2000\\b.*\\d+\\.\\d{3}.*") ? steer : null;
        });
        wait.until(d -> d.findElements(By.cssSelector("#graph text.timing")).stream()
                .anyMatch(t -> t.getText().endsWith("ent")));
        assertTrue(b.findElement(By.id("graph-text")).getText().contains("phase"), "no graph text");
        shot(b, "schedule");
    }

    private static void world(WebDriver b, WebDriverWait wait) throws Exception {
        b.findElement(By.cssSelector("nav a[data-tab=world]")).click();
        wait.until(d -> d.findElements(By.cssSelector("#archetypes tbody tr")).size() >= 2);
        assertTrue(b.findElement(By.id("archetypes")).getText().contains("Secondary"), "no agent archetype");
        // resources show their values, live: the clock's tick moves between two reads
        String clock = wait.until(d -> cell(d, "#resources", "Clock", 2));
        assertTrue(clock.startsWith("tick "), clock);
        wait.until(d -> { String now = cell(d, "#resources", "Clock", 2); return now != null && !now.equals(clock); });
        // the ChildOf tree opens a squad to its agents
        click(wait, "#tree > ul > li > button.open:enabled", e -> true, e -> "");
        wait.until(d -> d.findElements(By.cssSelector("#tree > ul > li > ul > li a[data-entity]")).size() >= 1);
        shot(b, "world");
    }

    private static void query(WebDriver b, WebDriverWait wait) throws Exception {
        b.findElement(By.cssSelector("nav a[data-tab=query]")).click();
        WebElement q = b.findElement(By.id("query-text"));
        q.clear();
        q.sendKeys("Agent, ?Health");
        b.findElement(By.cssSelector("#query-form button")).click();
        // every agent matches: the arena keeps AGENTS of them, respawning the dead in the same tick
        wait.until(d -> String.valueOf(AGENTS).equals(attribute(d, "#query-summary", "data-count")));
        wait.until(d -> d.findElements(By.cssSelector("#query-table tbody tr")).size() == 50);
        assertTrue(b.getCurrentUrl().contains("#/query?q=Agent"), "the query has an address: " + b.getCurrentUrl());
        // an archetype's link lists exactly its entities
        b.findElement(By.cssSelector("nav a[data-tab=world]")).click();
        click(wait, "#archetypes tbody a", a -> a.getText().contains("Secondary"), a -> "");
        wait.until(d -> String.valueOf(AGENTS).equals(attribute(d, "#query-summary", "data-count")));
        assertTrue(text(b, "#query-archetypes tbody").contains("Secondary"));
        shot(b, "query");
    }

    /**
     * The inspector on a live agent: a server-owned field is read-only, a refused edit shows
     * the server's reason against its number, an accepted one the tick that applied it.
     * Retries with another agent when the one picked dies first. Returns the edited agent.
     */
    private static long entity(WebDriver b, WebDriverWait wait, String base) throws Exception {
        StringBuilder tries = new StringBuilder();
        for (int attempt = 0; attempt < 4; attempt++) {
            b.get(base + "#/query?q=" + "Agent%2C%20Health&page=" + attempt);
            long id = Long.parseLong(click(wait, "#query-table tbody a[data-entity]", a -> true,
                    a -> a.getAttribute("data-entity")));
            try {
                wait.until(d -> text(d, "td[data-field='Primary.damage']"));
            } catch (org.openqa.selenium.TimeoutException gone) {
                tries.append("; try ").append(attempt + 1).append(": ").append(text(b, "#entity-view"));
                continue;
            }
            assertTrue(b.getCurrentUrl().endsWith("#/entity/" + id), b.getCurrentUrl());
            String readOnly = attribute(b, "span[data-readonly='Velocity.x']", "title");
            assertTrue(readOnly != null && readOnly.contains("server-owned"), "Velocity.x is not read-only: "
                    + readOnly);
            assertTrue(b.findElements(By.cssSelector("input[data-edit='Velocity.x']")).isEmpty());

            if (!set(b, "Health.hp", "-5")) {
                tries.append("; try ").append(attempt + 1).append(": no Health.hp to set: ").append(text(b, "#entity-view"));
                continue;
            }
            // The status and the text are two reads, and the page may show the next state of the edit
            // between them (a Temurin 25 run read an earlier edit's "refused" beside this one's "taken"):
            // take the text only when it is a refusal and the status said so before and after it.
            String refused = wait.until(d -> {
                String t = "refused".equals(attribute(d, "#edit-result", "data-status")) ? text(d, "#edit-result") : null;
                return t != null && t.contains(": refused: ")
                        && "refused".equals(attribute(d, "#edit-result", "data-status")) ? t : null;
            });
            if (refused.contains("NOT_FOUND")) {
                tries.append("; try ").append(attempt + 1).append(": died before the edit: ").append(refused);
                continue;
            }
            assertTrue(refused.contains("BAD_VALUE") && refused.contains("Health.hp"), refused);
            if (!set(b, "Primary.damage", "12.5")) { // the agent died after the refused edit
                tries.append("; try ").append(attempt + 1).append(": no Primary.damage to set: ")
                        .append(text(b, "#entity-view"));
                continue;
            }
            String outcome = wait.until(d -> {
                String s = attribute(d, "#edit-result", "data-status");
                return s != null && !s.equals("pending") && !text(d, "#edit-result").contains("Health.hp")
                        ? text(d, "#edit-result") : null;
            });
            if (!outcome.contains("applied at tick")) {
                tries.append("; try ").append(attempt + 1).append(": ").append(outcome);
                continue;
            }
            wait.until(d -> d.findElements(By.cssSelector("#edit-list tbody tr")).size() >= 2);
            shot(b, "entity");
            // the parent link leads to the squad, which lists its children; its address loads it again
            String parent = wait.until(d -> {
                List<WebElement> links = d.findElements(By.cssSelector("div[data-relation='ChildOf'] a[data-entity]"));
                if (!links.isEmpty()) {
                    links.get(0).click();
                    return "followed";
                }
                String v = text(d, "#entity-view"); // an agent that dies now loses its parent link
                return v != null && v.contains("not alive") ? v : null;
            });
            if (!parent.equals("followed")) {
                tries.append("; try ").append(attempt + 1).append(": died before its parent link was followed: ")
                        .append(parent);
                continue;
            }
            wait.until(d -> {
                String s = text(d, "div[data-relation='ChildOf']");
                return s != null && s.contains("held by ");
            });
            assertTrue(text(b, "#entity-view").contains("Squad"), text(b, "#entity-view"));
            String squadUrl = b.getCurrentUrl();
            b.get(base + "#/overview");
            b.get(squadUrl);
            wait.until(d -> { String s = text(d, "#entity-view"); return s != null && s.contains("Squad"); });
            return id;
        }
        throw new AssertionError("no agent lived long enough for its edits in four tries" + tries);
    }

    /**
     * The timeline: the edited agent as it was the tick before its edit and at the edit's
     * tick, replayed from the recording (which the recorder may still be writing: the page is
     * asked again until the journal holds the tick).
     */
    private static void timeline(WebDriver b, WebDriverWait wait, String base, long agent) throws Exception {
        b.get(base + "#/entity/" + agent);
        String outcome = wait.until(d -> {
            String t = text(d, "#edit-list tbody tr[data-status=applied]");
            return t != null && t.contains("Primary.damage") ? t : null;
        });
        long tick = Long.parseLong(outcome.replaceAll("(?s).*applied at tick (\\d+).*", "$1"));
        String url = base + "#/timeline?tick=" + (tick - 1) + "&vs=" + tick + "&id=" + agent + "&q=" + "Projectile";
        long until = System.nanoTime() + 90_000_000_000L;
        String diff = null;
        StringBuilder seen = new StringBuilder();
        while (diff == null && System.nanoTime() < until) {
            b.get(base + "#/overview");
            b.get(url);
            try {
                diff = new WebDriverWait(b, Duration.ofSeconds(20)).until(d -> {
                    String e = text(d, "#tl-error");
                    if (e != null) {
                        seen.append("; ").append(e);
                        return "";
                    }
                    return text(d, "#tl-diff tr[data-field='Primary.damage']");
                });
            } catch (org.openqa.selenium.TimeoutException slow) {
                seen.append("; no answer in 20 s");
            }
            if (diff != null && diff.isEmpty()) {
                diff = null; // the recorder has not written the tick yet: ask again
                Thread.sleep(1_000);
            }
        }
        assertTrue(diff != null, "the timeline never showed the edit's tick: " + seen);
        assertTrue(diff.matches("Primary\\.damage \\S+ 12\\.5") && !diff.startsWith("Primary.damage 12.5"),
                "the damage before and after the edit: " + diff);
        assertTrue(text(b, "#tl-entity-view").contains("after tick " + (tick - 1)), text(b, "#tl-entity-view"));
        wait.until(d -> attribute(d, "#tl-query-summary", "data-count-from") != null);
        shot(b, "timeline");
    }

    /**
     * Types {@code value} into the field's input and presses Set (again if the view was
     * redrawn meanwhile, or the input was not interactable while it was). Returns false when the input is not there within ten seconds: the
     * live inspector drops a field's inputs when its entity dies, which agents in the arena do.
     */
    private static boolean set(WebDriver b, String field, String value) {
        By input = By.cssSelector("input[data-edit='" + field + "']");
        for (int attempt = 0; ; attempt++) {
            try {
                new WebDriverWait(b, Duration.ofSeconds(10)).until(d -> !d.findElements(input).isEmpty());
            } catch (org.openqa.selenium.TimeoutException gone) {
                return false;
            }
            try {
                WebElement box = b.findElement(input);
                // clear() leaves the input unfocused and fires no 'input' event, so the live view's
                // refresh refilled it before the typing once ("35.0-5"): the page leaves an input
                // alone while it has the focus, so type into the focused input over a selection,
                // and look at what it holds before sending.
                box.click();
                box.sendKeys(Keys.chord(Keys.CONTROL, "a"), value);
                if (!value.equals(box.getDomProperty("value"))) {
                    if (attempt == 10) {
                        fail(field + " holds '" + box.getDomProperty("value") + "' after typing '" + value + "'");
                    }
                    continue;
                }
                box.findElement(By.xpath("following-sibling::button")).click();
                return true;
            } catch (org.openqa.selenium.StaleElementReferenceException | org.openqa.selenium.NoSuchElementException
                    | org.openqa.selenium.ElementNotInteractableException redrawn) {
                if (attempt == 10) {
                    throw redrawn;
                }
                // not interactable: the view was being redrawn (seen once in CI); look again shortly
                LockSupport.parkNanos(100_000_000L);
            }
        }
    }

    private static void map(WebDriver b, WebDriverWait wait) throws Exception {
        b.findElement(By.cssSelector("nav a[data-tab=map]")).click();
        wait.until(d -> js(d, "return mapPoints && mapPoints.points.length") != null);
        shot(b, "map");
        WebElement canvas = b.findElement(By.id("map-canvas"));
        canvas.click(); // the point nearest the centre
        wait.until(d -> d.getCurrentUrl().contains("#/entity/"));
    }

    private static void search(WebDriver b, WebDriverWait wait) throws Exception {
        String id = b.getCurrentUrl().substring(b.getCurrentUrl().indexOf("#/entity/") + 9);
        WebElement box = b.findElement(By.id("search"));
        box.clear();
        box.sendKeys(id, Keys.ENTER);
        wait.until(d -> {
            String s = text(d, "#search-table tbody");
            return s != null && s.contains("entity") ? s : null;
        });
        box.clear();
        box.sendKeys("Squad", Keys.ENTER);
        wait.until(d -> {
            String s = text(d, "#search-table tbody");
            return s != null && s.contains("component") ? s : null;
        });
        shot(b, "search");
    }

    /**
     * Clicks the first element {@code css} finds that {@code test} accepts, looking again
     * while the live view redraws it (the wait ignores stale elements); returns what
     * {@code read} took from it just before the click.
     */
    private static String click(WebDriverWait wait, String css, Predicate<WebElement> test,
            Function<WebElement, String> read) {
        return wait.until(d -> {
            for (WebElement e : d.findElements(By.cssSelector(css))) {
                if (test.test(e)) {
                    String value = read.apply(e);
                    e.click();
                    return value == null ? "" : value;
                }
            }
            return null;
        });
    }

    private static Object js(WebDriver b, String script) {
        return ((JavascriptExecutor) b).executeScript(script);
    }

    private static boolean journaledEdit(Path journal, long entity) throws Exception {
        byte[] scratch = new byte[InputCodec.MAX_PAYLOAD];
        try (JournalReader r = JournalReader.open(journal)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                InputBatch in = t.inputs();
                for (int i = 0; i < in.size(); i++) {
                    if (in.type(i) == InputCodec.SET && in.payloadLong(i, 0) == ArenaExplorer.CLIENT_ID
                            && in.payloadLong(i, 16) == entity) {
                        int n = in.copyPayload(i, scratch, 0);
                        String names = new String(scratch, 0, n, StandardCharsets.US_ASCII);
                        if (names.contains("Primary") && names.contains("damage")) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    /**
     * Deletes the browser's profile folder (about 5 MB a run), looking again for a second while
     * a helper process of the browser that outlived {@code quit()} still writes into it. Not a
     * JUnit {@code @TempDir}: its clean-up fails the test when a file cannot be deleted, and a
     * late write of the browser's is no fault of the explorer's.
     */
    private static void deleteProfile(Path profile) throws Exception {
        for (int attempt = 0; attempt < 10 && Files.exists(profile); attempt++) {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException changing) {
                // a file went while the walk listed its folder: look again
            }
            if (Files.exists(profile)) {
                Thread.sleep(100);
            }
        }
    }

    private static WebDriver chromium(Path profile) throws Exception {
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                "--user-data-dir=" + profile);
        return new ChromeDriver(service, o);
    }

    /**
     * The text of the first element {@code css} finds, or null when there is none (or it is
     * blank, or the page replaced it between finding and reading: the views re-render).
     */
    private static String text(WebDriver b, String css) {
        List<WebElement> found = b.findElements(By.cssSelector(css));
        if (found.isEmpty()) {
            return null;
        }
        try {
            String t = found.get(0).getText();
            return t == null || t.isBlank() ? null : t;
        } catch (org.openqa.selenium.StaleElementReferenceException replaced) {
            return null; // the waits that call this look again
        }
    }

    private static String attribute(WebDriver b, String css, String name) {
        List<WebElement> found = b.findElements(By.cssSelector(css));
        try {
            return found.isEmpty() ? null : found.get(0).getAttribute(name);
        } catch (org.openqa.selenium.StaleElementReferenceException replaced) {
            return null;
        }
    }

    /** The text of cell {@code column} of the row of table {@code table} whose first cell is {@code key}. */
    private static String cell(WebDriver b, String table, String key, int column) {
        try {
            for (WebElement tr : b.findElements(By.cssSelector(table + " tbody tr"))) {
                List<WebElement> tds = tr.findElements(By.tagName("td"));
                if (tds.size() > column && tds.get(0).getText().equals(key)) {
                    String t = tds.get(column).getText();
                    return t == null || t.isBlank() ? null : t;
                }
            }
        } catch (org.openqa.selenium.StaleElementReferenceException replaced) {
            return null;
        }
        return null;
    }

    private static void shot(WebDriver browser, String name) throws Exception {
        Files.createDirectories(SHOTS);
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SHOTS.resolve(name + ".png"), png);
        assertEquals((byte) 0x89, png[0], "a screenshot is not a PNG");
        File f = SHOTS.resolve(name + ".png").toFile();
        assertTrue(f.length() > 1000, "screenshot " + f + " is empty");
    }
}
