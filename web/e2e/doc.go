// Package e2e holds the end-to-end tests of the browser client: a complete
// server, built by package server as dobble serve builds it, runs in the
// test process with a fresh SQLite file, and real headless Chromium
// (Debian's chromium), driven through the DevTools protocol with
// chromedp, plays through the pages as people do: filling in the forms,
// clicking and tapping the symbols on the cards, reloading, watching.
//
// No assertion depends on how fast the machine or a bot is: the tables
// whose outcome a test checks seat only the people the test plays, or
// bots whose moves cannot change what is checked, and the tests wait for
// what the pages show (polling with a deadline), never for a time to pass.
// Screenshots of every stage are written to the directory named by
// DOBBLE_SCREENSHOTS (scripts/test sets it), or to a temporary directory
// that the tests log.
package e2e
