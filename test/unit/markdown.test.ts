import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/compare/findings.js';
import {
  codeSpan,
  DEFAULT_BUDGET,
  escapeHtml,
  escapeInline,
  fence,
  GITHUB_COMMENT_LIMIT,
  inlineWithCode,
  markerFor,
  readMarker,
  renderMarkdown,
} from '../../src/report/markdown.js';
import { buildReport } from '../../src/report/model.js';
import { cleanReport, PROVIDERS, SCENARIOS, syntheticDiff, syntheticReport } from '../helpers/reports.js';

/** Pipes that end a GFM table cell: not preceded by an odd number of backslashes. */
function cellPipes(line: string): number {
  let count = 0;
  for (let i = 0; i < line.length; i += 1) {
    if (line[i] !== '|') continue;
    let slashes = 0;
    for (let j = i - 1; j >= 0 && line[j] === '\\'; j -= 1) slashes += 1;
    if (slashes % 2 === 0) count += 1;
  }
  return count;
}

/** The text outside fenced code blocks and code spans: what GitHub parses as Markdown and HTML. */
function outsideCode(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let open: string | undefined;
  for (const line of lines) {
    if (open) {
      if (line.trimEnd() === open) open = undefined;
      continue;
    }
    const start = /^(`{3,})/.exec(line);
    if (start) {
      open = start[1];
      continue;
    }
    out.push(line);
  }
  expect(open, 'every fence closes').toBeUndefined();
  return out.join('\n').replace(/(?<![\\`])(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g, '');
}

/** HTML tags outside code: only the ones the renderer writes itself. */
function tags(markdown: string): string[] {
  return [...outsideCode(markdown).matchAll(/<\/?([A-Za-z][A-Za-z0-9-]*)/g)].map((m) => m[1]!.toLowerCase());
}

const EVIL = 'evil </details></summary> <img src=x onerror=alert(1)> <script>x</script> | pipe \\| [link](javascript:alert(1)) ![img](http://x/y.png) **bold** _em_ ~~s~~ `code` \n\n# heading\n| a | b |\n```\n&lt;entity&gt;';

function evilFinding(overrides: Partial<Finding> = {}): Finding {
  return {
    id: 'golden:eks/default:resources.`evil`|id',
    type: 'golden',
    class: 'contract',
    provider: 'eks',
    scenario: 'default',
    subject: 'resources.a|b`c',
    message: EVIL,
    hint: `run \`drift update --provider eks\` then ${EVIL}`,
    values: { eks: EVIL, gke: { nested: 'a|b\\|c`d``e</td>' }, nebius: ['```', '|'] },
    consensus: '</table>|',
    diff: `- a\n+ b\n\`\`\`\`\`\`\n</details>\n<script>alert(1)</script>\n~~~\n${EVIL}`,
    ...overrides,
  };
}

describe('escaping', () => {
  it('escapeHtml leaves no tag, quote or line break', () => {
    const out = escapeHtml('<b a="1">x</b>\n\n<i>&');
    expect(out).toBe('&lt;b a=&quot;1&quot;&gt;x&lt;/b&gt;  &lt;i&gt;&amp;');
  });

  it('escapeInline neutralises HTML, links, emphasis, code and cell pipes, on one line', () => {
    const out = escapeInline(EVIL);
    expect(out).not.toMatch(/[<>\n\r]/);
    expect(out).toContain('&lt;img');
    expect(out).toContain('\\[link\\]\\(javascript:alert\\(1\\)\\)');
    expect(out).toContain('\\*\\*bold\\*\\*');
    expect(out).toContain('&amp;lt;entity&amp;gt;');
    expect(cellPipes(out)).toBe(0);
  });

  it('escapeInline defuses GitHub autolinks: URLs, www. hosts and e-mail addresses', () => {
    const out = escapeInline('see https://evil.example/x, HTTP://a.b, www.evil.com and mail me@evil.com');
    expect(out).toBe('see https\u200B://evil.example/x, HTTP\u200B://a.b, www\u200B.evil.com and mail me@\u200Bevil.com');
    // Nothing GitHub's autolink extension recognises is left.
    expect(out).not.toMatch(/https?:\/\/|www\.|[A-Za-z0-9.+-]@[A-Za-z0-9]/i);
    // Also where drift's own sentences carry untrusted text around their commands.
    expect(inlineWithCode('run `drift diff` on https://x.y')).toBe('run `drift diff` on https\u200B://x.y');
  });

  it('escapeInline and escapeHtml link no issue, pull request or person: #123, owner/repo#1, GH-1, @someone', () => {
    const text = 'fixes #123 and acme/widgets#7, see GH-1 and gh-22, cc @octocat; keep #tag and issue-#x';
    const inline = escapeInline(text);
    expect(inline).toBe('fixes \\#\u200B123 and acme/widgets\\#\u200B7, see GH-\u200B1 and gh-\u200B22, cc @\u200Boctocat; keep \\#tag and issue-\\#x');
    const html = escapeHtml(text);
    expect(html).toBe('fixes #\u200B123 and acme/widgets#\u200B7, see GH-\u200B1 and gh-\u200B22, cc @\u200Boctocat; keep #tag and issue-#x');
    // What GitHub reads as a reference or a mention: none is left in either.
    for (const out of [inline, html]) expect(out).not.toMatch(/#\d|\bgh-\d|@[a-z]/i);
  });

  it('shows a finding type or cell state it does not know (a newer report) by its name', () => {
    const report = buildReport(PROVIDERS, SCENARIOS, []);
    const newer = {
      ...report,
      cells: { ...report.cells, [SCENARIOS[0]!]: { ...report.cells[SCENARIOS[0]!], [PROVIDERS[0]!]: 'quarantined' } },
      findings: [{ id: 'quarantine:x', type: 'quarantine', class: 'behavioral', provider: PROVIDERS[0]!, scenario: SCENARIOS[0]!, subject: 'pool', message: 'providers split in two camps', hint: 'look' }],
      summary: { ...report.summary, findings: 1, behavioral: 1, clean: false },
    } as unknown as typeof report;
    const out = renderMarkdown(newer);
    expect(out).toContain('**quarantine** `pool`: providers split in two camps');
    expect(out).toContain('❔ quarantined');
    const constructorType = renderMarkdown({ ...newer, findings: [{ ...newer.findings[0]!, type: 'constructor' as never }] });
    expect(constructorType).toContain('**constructor** `pool`');
    expect(constructorType).not.toContain('native code');
  });

  it('escapeInline keeps a pipe after a backslash escaped', () => {
    expect(cellPipes(escapeInline('a\\|b'))).toBe(0);
    expect(cellPipes(escapeInline('a\\\\|b\\\\\\|c'))).toBe(0);
  });

  it('codeSpan uses a delimiter longer than any backtick run and pads edge backticks', () => {
    expect(codeSpan('plain')).toBe('`plain`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('a```b')).toBe('````a```b````');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('')).toBe('` `');
    expect(codeSpan('two\n\nlines')).toBe('`two  lines`');
  });

  it('codeSpan in a table escapes every pipe, whatever backslashes precede it', () => {
    for (const text of ['a|b', 'a\\|b', 'a\\\\|b', 'a\\\\\\|b', '|||', '\\|']) expect(cellPipes(codeSpan(text, { table: true }))).toBe(0);
  });

  it('fence is longer than any backtick run in the content, so nothing inside closes it', () => {
    expect(fence('plain', 'diff')).toBe('```diff\nplain\n```');
    const text = '```\n````\n`````` inner\n</details>';
    const out = fence(text, 'diff');
    expect(out.startsWith('```````diff\n')).toBe(true);
    expect(out.endsWith('\n```````')).toBe(true);
    const inner = out.split('\n').slice(1, -1);
    expect(inner.every((line) => !/^ {0,3}`{7,}\s*$/.test(line))).toBe(true);
    expect(fence('a\r\nb\rc\n\n')).toBe('```\na\nb\nc\n```');
  });

  it("inlineWithCode shows drift's `commands` as code and escapes the rest", () => {
    expect(inlineWithCode('run `drift update --provider eks` now')).toBe('run `drift update --provider eks` now');
    expect(inlineWithCode('run `<b>` *x*')).toBe('run `<b>` \\*x\\*');
    expect(inlineWithCode('stray ` tick <i>')).toBe('stray \\` tick &lt;i&gt;');
  });
});

describe('marker', () => {
  it('is a hidden first line naming the report', () => {
    expect(markerFor()).toBe('<!-- drift-report: drift -->');
    expect(markerFor('nightly/eks')).toBe('<!-- drift-report: nightly/eks -->');
    expect(renderMarkdown(cleanReport()).split('\n')[0]).toBe('<!-- drift-report: drift -->');
    expect(renderMarkdown(cleanReport(), { id: 'nightly' }).split('\n')[0]).toBe('<!-- drift-report: nightly -->');
  });

  it('refuses ids that could end the comment', () => {
    expect(() => markerFor('x -->')).toThrow(/invalid report id/);
    expect(() => markerFor('')).toThrow(/invalid report id/);
    expect(() => renderMarkdown(cleanReport(), { id: 'a b' })).toThrow(/invalid report id/);
  });

  it('readMarker finds it only as the first line', () => {
    expect(readMarker(renderMarkdown(cleanReport()))).toBe('<!-- drift-report: drift -->');
    expect(readMarker('\uFEFF\n<!-- drift-report: x -->\r\nbody')).toBe('<!-- drift-report: x -->');
    expect(readMarker('# title\n<!-- drift-report: drift -->')).toBeUndefined();
    expect(readMarker('<!-- drift-report: a --> b')).toBeUndefined();
    expect(readMarker('')).toBeUndefined();
  });
});

describe('renderMarkdown', () => {
  it('says a clean report is clean', () => {
    const out = renderMarkdown(cleanReport());
    expect(out).toContain('## ✅ drift: clean');
    expect(out).toContain('No findings: every provider × scenario cell is clean (3 providers × 4 scenarios).');
    expect(out).toContain('| scenario | eks | gke | nebius |');
    expect(out).toContain('| default | ✅ clean | ✅ clean | ✅ clean |');
    expect(out).not.toContain('[!NOTE]');
    expect(out).not.toContain('<details>');
  });

  it('has the title, the matrix, details per provider/scenario by class, and accepted findings with reasons', () => {
    const report = syntheticReport(9, 2);
    const out = renderMarkdown(report);
    expect(out).toContain('## ❌ drift: 9 findings (3 contract, 3 behavioral, 3 stylistic)');
    for (const scenario of SCENARIOS) expect(out).toMatch(new RegExp(`^\\| ${scenario} \\|`, 'm'));
    expect(out).toMatch(/\| default \| ⛔ contract \| 🔀 divergent \| 📝 changed \|/);
    const contract = out.indexOf('### ⛔ Contract (3)');
    const behavioral = out.indexOf('### ⚠️ Behavioral (3)');
    const stylistic = out.indexOf('### 🎨 Stylistic (3)');
    const accepted = out.indexOf('### ☑️ Accepted (2)');
    expect(contract).toBeGreaterThan(0);
    expect(behavioral).toBeGreaterThan(contract);
    expect(stylistic).toBeGreaterThan(behavioral);
    expect(accepted).toBeGreaterThan(stylistic);
    expect(out).toContain('<summary>eks / default: 1 finding</summary>');
    expect(out).toContain('```diff\n- golden\n+ rendered');
    // Values are in words where the hint says them, in full in the JSON report: never a JSON table.
    expect(out).not.toContain('| provider | value |');
    expect(out).toContain("accepted: known difference");
    expect(out.match(/<details>/g)?.length).toBe(out.match(/<\/details>/g)?.length);
    expect(out).not.toContain('[!NOTE]');
    expect(renderMarkdown(report)).toBe(out);
  });

  it('lets no untrusted string open HTML, break a table row or a fence, or start a heading', () => {
    const report = buildReport(PROVIDERS, SCENARIOS, [
      evilFinding(),
      evilFinding({ id: 'div', type: 'divergence', class: 'behavioral', provider: 'gke', diff: undefined }),
      evilFinding({ id: 'acc', class: 'stylistic', provider: 'nebius', accepted: { reason: EVIL } }),
    ]);
    const out = renderMarkdown(report);
    expect(new Set(tags(out))).toEqual(new Set(['details', 'summary', 'sub', 'br']));
    const outside = outsideCode(out);
    expect(outside).not.toMatch(/^#{1,6} (?!✅|❌|⛔|⚠️|🎨|☑️)/m); // only the renderer's own headings
    expect(outside).not.toMatch(/\]\(/); // no link or image syntax survives
    for (const line of out.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| scenario') && !l.startsWith('| ---'))) {
      if (/^\| (eks|gke|nebius|\*convention\*) \|/.test(line)) expect(cellPipes(line)).toBe(3);
    }
    expect(out.match(/<details>/g)?.length).toBe(2);
    expect(outsideCode(out).match(/<\/details>/g)?.length).toBe(2);
  });

  it("puts an error finding's multi-line output in a code block, not in its one-line message", () => {
    const message = [
      'crash: the function exited (code 1) before answering a call. Command: python main.py --address {address}',
      '  output (last lines):',
      '    Traceback (most recent call last):',
      '    **not bold** <b>x</b> ``` https://x.y',
    ].join('\n');
    const error: Finding = {
      id: 'error:eks/default',
      type: 'error',
      class: 'contract',
      provider: 'eks',
      scenario: 'default',
      subject: 'render',
      message,
      hint: 'fix the function',
    };
    const out = renderMarkdown(buildReport(PROVIDERS, SCENARIOS, [error]));
    const headline = out.split('\n').find((line) => line.startsWith('**💥 error**'))!;
    expect(headline).toBe('**💥 error** `render`: crash: the function exited \\(code 1\\) before answering a call. Command: python main.py --address {address}<br>');
    expect(out).toContain(fence(message.split('\n').slice(1).join('\n'), 'text'));
    expect(out).toContain('````text\n  output (last lines):\n    Traceback (most recent call last):\n    **not bold** <b>x</b> ``` https://x.y\n````');
    // A one-line listing (when details are dropped) shows the first line only.
    const tight = renderMarkdown(buildReport(PROVIDERS, SCENARIOS, [error, ...syntheticReport(400, 0, { diffLines: 40 }).findings]), { budget: 20_000 });
    expect(tight).toMatch(/^- eks \/ default: crash: the function exited \\\(code 1\\\) before answering a call\. Command: python main\.py --address \{address\} `error:eks\/default`$/m);
  });

  it('fits a report with thousands of findings in the budget and says what it dropped', () => {
    const report = syntheticReport(5000, 200, { diffLines: 20 });
    const unbounded = renderMarkdown(report, { budget: 100_000_000 });
    const out = renderMarkdown(report);
    console.log(`markdown budget: ${report.summary.findings} findings + ${report.summary.accepted} accepted: ${unbounded.length} characters unbounded, ${out.length} within the default budget of ${DEFAULT_BUDGET}`);
    expect(unbounded.length).toBeGreaterThan(DEFAULT_BUDGET * 10);
    expect(out.length).toBeLessThanOrEqual(DEFAULT_BUDGET);
    expect(out.length).toBeGreaterThan(DEFAULT_BUDGET * 0.9); // uses the room it has
    expect(out.split('\n')[0]).toBe('<!-- drift-report: drift -->');
    expect(out).toContain('| scenario | eks | gke | nebius |');
    for (const scenario of SCENARIOS) expect(out).toMatch(new RegExp(`^\\| ${scenario} \\|`, 'm'));
    expect(out).toMatch(/> Shortened to fit GitHub's comment limit: details of 1667 contract, 1667 behavioral, 1666 stylistic findings dropped; \d+ findings not listed; 200 accepted findings not listed\./);
    expect(out).toContain("*details of 1666 stylistic findings dropped to fit GitHub's comment limit; run `drift diff` locally or see the job's artifact*");
    expect(out).toMatch(/\*\d+ more not listed\.\*/);
    expect(out.trimEnd().endsWith('</sub>')).toBe(true);
  });

  it('drops stylistic details first, then behavioral, then contract', () => {
    const findings = syntheticReport(30, 0, { diffLines: 150 }).findings;
    const report = buildReport(PROVIDERS, SCENARIOS, findings);
    const sizes = [60_000, 25_000, 12_000, 4_000].map((budget) => {
      const out = renderMarkdown(report, { budget });
      expect(out.length).toBeLessThanOrEqual(budget);
      const dropped = (cls: string) => Number(new RegExp(`details of (\\d+) ${cls} findings? dropped to fit`).exec(out)?.[1] ?? 0);
      return { budget, contract: dropped('contract'), behavioral: dropped('behavioral'), stylistic: dropped('stylistic') };
    });
    for (const size of sizes) {
      if (size.behavioral > 0) expect(size.stylistic).toBe(10);
      if (size.contract > 0) expect(size.behavioral).toBe(10);
    }
    expect(sizes[0]!.stylistic).toBeGreaterThan(0);
    expect(sizes[0]!.contract).toBe(0);
    expect(sizes.at(-1)!.contract).toBe(10);
    // Fewer characters never means more details.
    for (let i = 1; i < sizes.length; i += 1) {
      const before = sizes[i - 1]!;
      const after = sizes[i]!;
      expect(after.contract + after.behavioral + after.stylistic).toBeGreaterThanOrEqual(before.contract + before.behavioral + before.stylistic);
    }
  });

  it('keeps the whole report when it fits, and honours a custom budget', () => {
    const report = syntheticReport(60, 5);
    const full = renderMarkdown(report, { budget: 1_000_000 });
    expect(full).not.toContain('[!NOTE]');
    expect(renderMarkdown(report, { budget: full.length })).toBe(full);
    const smaller = renderMarkdown(report, { budget: full.length - 1 });
    expect(smaller.length).toBeLessThan(full.length);
    expect(smaller).toContain('[!NOTE]');
    expect(() => renderMarkdown(report, { budget: 100 })).toThrow(/at least/);
  });

  it('shortens one huge diff instead of dropping every other detail', () => {
    const huge = syntheticDiff(5_000);
    const report = buildReport(PROVIDERS, SCENARIOS, [{ ...evilFinding(), message: 'huge', hint: 'h', diff: huge, values: undefined, consensus: undefined }, ...syntheticReport(6).findings]);
    const out = renderMarkdown(report);
    expect(out.length).toBeLessThanOrEqual(DEFAULT_BUDGET);
    expect(out).toMatch(/… \d+ more lines \(diff shortened\)/);
    expect(out).not.toContain('[!NOTE]');
  });

  it('stays under GitHub limit by default', () => {
    expect(DEFAULT_BUDGET).toBeLessThan(GITHUB_COMMENT_LIMIT);
  });
});
