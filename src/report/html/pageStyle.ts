/**
 * The page's style sheet: inline, so the page needs nothing from the network, and allowed by its
 * hash in the page's Content-Security-Policy. Every state has a symbol and a word besides its color:
 * the symbol drawn here before each cell and legend entry (with empty alternative text, so a screen
 * reader reads the cell's word instead), the word in the cell's visually hidden `i`.
 */
import { CELL_KINDS } from './viewModel.js';

/** A CSS string escape of each character, so the style sheet stays ASCII (the bundle must). */
const cssText = (text: string) => [...text].map((char) => `\\${char.codePointAt(0)!.toString(16)} `).join('');

const SYMBOLS = CELL_KINDS.map(({ kind, symbol }) => `.k-${kind}::before{content:"${cssText(symbol)}" / ""}`).join('\n');

export const STYLE = `
:root{color-scheme:light;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--head:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header,main,nav{padding:0 1.25rem}
h1{font-size:1.4rem;margin:1rem 0 .25rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}h3{font-size:1rem;margin:1rem 0 .4rem}
.summary,.note{margin:.25rem 0;color:var(--muted)}
nav ul{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.25rem .75rem}
a{color:#0550ae}a:focus-visible,td:focus-visible,input:focus-visible{outline:3px solid #fb8c00;outline-offset:-2px}
.sr,td>i{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
td>var{font-style:normal}.g{font-weight:700;margin-right:.2rem}
fieldset{border:1px solid var(--line);border-radius:6px;display:inline-flex;gap:1rem;padding:.35rem .75rem;margin:.25rem 0}
legend{padding:0 .25rem;color:var(--muted)}
.legend{display:flex;flex-wrap:wrap;gap:.35rem .9rem;list-style:none;padding:0;margin:.5rem 0}
.legend li{padding:0 .35rem;border-radius:4px}
.scroll{overflow:auto;max-height:75vh;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse}
#matrix-table{font-size:13px}
#matrix-table th,#matrix-table td{border-bottom:1px solid var(--line);padding:.2rem .45rem;text-align:left;vertical-align:top}
#matrix-table thead th{position:sticky;top:0;background:var(--head);z-index:2}
#matrix-table tbody th[scope=row]{font-weight:500;white-space:nowrap;max-width:20rem;overflow:hidden;text-overflow:ellipsis;position:sticky;left:0;background:var(--bg);z-index:1}
#matrix-table th[scope=rowgroup]{background:var(--head);font-weight:600;text-align:left}
#matrix-table td{max-width:14rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;cursor:default}
small{color:var(--muted);font-weight:400}
td a{font-size:11px;margin-left:.3rem}
.k-convention{background:#dafbe1}.k-split{background:#ddf4ff}.k-divergent{background:#ffebe9}.k-accepted{background:#fff8c5}
.k-locked{background:#fbefff}.k-broken{background:#ffd8d3;font-weight:600}.k-changed{background:#ffe7c2}.k-error{background:#ff8182}.k-clean{color:var(--muted)}
[class^="k-"]::before{display:inline-block;min-width:1.1em;font-weight:700}
${SYMBOLS}
#detail{background:var(--head);border:1px solid var(--line);border-radius:6px;padding:.4rem .75rem;margin:.5rem 0;height:8.5em;overflow:auto}
#detail dl{display:flex;flex-wrap:wrap;gap:.15rem .4rem;margin:0}
#detail dt{color:var(--muted)}#detail dt::after{content:":"}#detail dd{margin:0 .8rem 0 0;white-space:pre-wrap;word-break:break-word}
section.provider{border-top:1px solid var(--line);margin-top:1.5rem;content-visibility:auto;contain-intrinsic-size:auto 1200px}
.findings{padding-left:1.1rem}.findings li{margin:.35rem 0}
.tag{display:inline-block;border:1px solid var(--line);border-radius:10px;padding:0 .4rem;font-size:12px;margin-right:.25rem}
.c-contract{border-color:#cf222e}.c-behavioral{border-color:#bf8700}.c-stylistic{border-color:#8250df}
.fix{color:var(--muted)}
.grid th,.grid td{border:1px solid var(--line);padding:.15rem .4rem;font-size:12px;text-align:left;vertical-align:top;white-space:nowrap}
.grid thead th{background:var(--head)}
.diff{font:12px/1.35 ui-monospace,SFMono-Regular,Menlo,monospace;width:100%;table-layout:fixed}
.diff td{white-space:pre-wrap;word-break:break-all;border:1px solid var(--line);padding:0 .4rem;vertical-align:top}
.diff .removed,.diff .changed .l{background:#ffebe9}.diff .added,.diff .changed .r{background:#dafbe1}
.diff .m{width:1.2rem;color:var(--muted);text-align:center}
ul.met{columns:18rem;font-size:12px;color:var(--muted)}
`;
