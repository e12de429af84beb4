/**
 * The compiled source of every Java code block in the book ({@code docs/}), one class per
 * chapter: each block is a region marked for the snippet check, which fails the build when a
 * chapter's text and its region here differ ({@code -Dorrery.snippets.update=true} rewrites the
 * text). {@code BookChaptersTest} runs the regions, so no block in the book rots. The whole
 * programs the book links to are in {@code dev.orrery.examples}.
 */
package dev.orrery.examples.book;
