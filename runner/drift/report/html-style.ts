// The HTML report's inline style sheet: system fonts only (nothing to fetch), colours as variables
// with a dark set for prefers-color-scheme on screens, and print rules (the light set, an item never
// split across pages).
export const STYLE = `
:root {
  --fg: #1b1f24; --bg: #ffffff; --muted: #57606a; --line: #d0d7de; --head: #f6f8fa;
  --new: #cf222e; --persisting: #bc4c00; --waived: #6e7781; --resolved: #1a7f37; --problem: #8250df;
  --add-bg: #dafbe1; --add-fg: #116329; --del-bg: #ffebe9; --del-fg: #82071e; --hunk: #0550ae;
}
@media screen and (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --bg: #0d1117; --muted: #8d96a0; --line: #30363d; --head: #161b22;
    --new: #ff7b72; --persisting: #ffa657; --waived: #8d96a0; --resolved: #3fb950; --problem: #d2a8ff;
    --add-bg: #12261e; --add-fg: #7ee787; --del-bg: #2d1216; --del-fg: #ffa198; --hunk: #79c0ff;
  }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem; color: var(--fg); background: var(--bg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { margin: 0 0 .25rem; font-size: 1.6rem; }
h2 { margin: 1.75rem 0 .5rem; font-size: 1.25rem; border-bottom: 1px solid var(--line); }
h3 { margin: 0 0 .5rem; font-size: 1.05rem; overflow-wrap: anywhere; }
code, pre { font: 13px/1.4 ui-monospace, "Cascadia Mono", Menlo, Consolas, monospace; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid var(--line); padding: .25rem .6rem; text-align: left; vertical-align: top; }
thead th { background: var(--head); }
td code { white-space: pre-wrap; overflow-wrap: anywhere; }
a { color: inherit; }
.summary { font-weight: 600; }
.counts { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; margin: .5rem 0; }
.counts li { border: 1px solid var(--line); border-radius: 1rem; padding: .1rem .7rem; }
.counts .new { color: var(--new); } .counts .persisting { color: var(--persisting); }
.counts .waived { color: var(--waived); } .counts .resolved { color: var(--resolved); }
.counts .unreachable, .counts .failed { color: var(--problem); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .5rem 0; }
dt { color: var(--muted); } dd { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.hosts tr.drifted th { color: var(--new); } .hosts tr.problem th { color: var(--problem); }
.item { border: 1px solid var(--line); border-left: .35rem solid var(--waived); border-radius: .3rem;
  padding: .75rem 1rem; margin: .75rem 0; }
.item.new { border-left-color: var(--new); } .item.persisting { border-left-color: var(--persisting); }
.item.resolved { border-left-color: var(--resolved); }
.badge { display: inline-block; min-width: 6.5rem; text-transform: uppercase; font-size: .8rem; letter-spacing: .04em; }
.item.new .badge { color: var(--new); } .item.persisting .badge { color: var(--persisting); }
.item.waived .badge { color: var(--waived); } .item.resolved .badge { color: var(--resolved); }
.item.expired .badge::after { content: " (waiver expired)"; text-transform: none; }
.note { color: var(--muted); font-style: italic; }
pre.diff { margin: .5rem 0 0; padding: .5rem 0; border: 1px solid var(--line); overflow-x: auto; }
pre.diff span { display: block; padding: 0 .75rem; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.diff .add { background: var(--add-bg); color: var(--add-fg); }
pre.diff .del { background: var(--del-bg); color: var(--del-fg); }
pre.diff .hunk { color: var(--hunk); } pre.diff .file { color: var(--muted); }
.problems td:last-child { white-space: pre-wrap; overflow-wrap: anywhere; }
@media print {
  :root { --fg: #000; --head: #eee; --line: #999; }
  body { max-width: none; padding: 0; font-size: 11pt; }
  .item, tr { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  pre.diff { overflow: visible; }
  a { text-decoration: none; }
}
`;
