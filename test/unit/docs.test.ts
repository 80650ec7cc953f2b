/**
 * The documentation stays true to the code: README.md and docs/*.md link only to files and headings
 * that exist, every `drift ...` line in their code names a command and options the CLI really has,
 * the pages written from meta are current, every number and format version a page states is the
 * code's (STATED below, and README's example run against a real run), and every cost a page states
 * says when and where it was measured. In-process: the CLI is the commander program `buildProgram`
 * builds, and the example run is the built drift's `main`, not a spawned drift.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config/load.js';
import { RULE_METAS } from '../../src/compare/rules/index.js';
import { FACETS } from '../../src/facets/registry.js';
import { RUFF_VERSION } from '../../src/outline/formatter.js';
import { READABLE_SCHEMA_VERSIONS } from '../../src/report/artifact.js';
import { LOCAL_POLICY } from '../../src/util/ci.js';
import { generatedPages, regenerate } from '../../src/report/generatedDocs.js';
import { DEFAULT_BUDGET } from '../../src/report/markdown.js';
import { SKELETON_VERSION } from '../../src/skeleton/types.js';
import { runDrift } from '../helpers/drift.js';
import { SEEDS } from '../helpers/mutationSeeds.js';
import { REPO, tempDir } from '../helpers/project.js';

const PAGES = ['README.md', ...readdirSync(path.join(REPO, 'docs')).filter((file) => file.endsWith('.md')).sort().map((file) => `docs/${file}`)];

/** A Markdown file split into what the checks read: its prose, its code, its headings. */
interface Parsed {
  /** Lines outside fences with inline code blanked out, so a link in code is not taken for one. */
  prose: { line: number; text: string }[];
  /** Each fenced line and each inline code span. */
  code: { line: number; text: string }[];
  headings: string[];
}

function parseMarkdown(text: string): Parsed {
  const parsed: Parsed = { prose: [], code: [], headings: [] };
  let fence: string | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const marker = /^\s*(`{3,}|~{3,})/.exec(raw)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && raw.trim() === marker) fence = undefined;
      else parsed.code.push({ line, text: raw });
      return;
    }
    if (marker !== undefined) {
      fence = marker;
      return;
    }
    // In a table, `\|` is a pipe inside the cell, also inside a code span.
    const prose = raw.replace(/(`+)(.+?)\1/g, (_whole, _ticks: string, span: string) => {
      parsed.code.push({ line, text: span.replaceAll('\\|', '|') });
      return ' ';
    });
    parsed.prose.push({ line, text: prose });
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw)?.[1];
    if (heading !== undefined) parsed.headings.push(heading);
  });
  return parsed;
}

/** The anchors GitHub gives a page's headings: the rendered text lowercased, punctuation dropped, spaces as dashes, repeats numbered. */
function anchors(headings: readonly string[]): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of headings) {
    const rendered = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '').replace(/<[^>]+>/g, '');
    const slug = rendered.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

const parsedPages = new Map(PAGES.map((page) => [page, parseMarkdown(readFileSync(path.join(REPO, page), 'utf8'))]));

/** Every relative link of a page that does not resolve, as `page:line: target (why)`. */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const { line, text } of parsedPages.get(page)!.prose) {
    const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((match) => match[1]!);
    for (const target of targets) {
      if (/^[a-z][a-z\d+.-]*:/i.test(target)) continue; // https:, mailto: ...: not a file of this repository
      const [file, fragment] = target.split('#', 2) as [string, string | undefined];
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(file)));
      if (resolved.startsWith('../') || !existsSync(path.join(REPO, resolved))) {
        broken.push(`${page}:${line}: ${target} (no such file)`);
        continue;
      }
      if (fragment === undefined || !resolved.endsWith('.md')) continue;
      const target_ = parsedPages.get(resolved) ?? parseMarkdown(readFileSync(path.join(REPO, resolved), 'utf8'));
      if (!anchors(target_.headings).has(fragment.toLowerCase())) broken.push(`${page}:${line}: ${target} (no heading #${fragment} in ${resolved})`);
    }
  }
  return broken;
}

/** The CLI's commands and the flags each accepts (its own, the global ones and help), from commander's program. */
function cliFlags(): { globals: Map<string, Option>; commands: Map<string, Map<string, Option>> } {
  const program: Command = buildProgram({ io: { stdout: { write: () => true }, stderr: { write: () => true }, cwd: REPO, env: {} }, policy: LOCAL_POLICY, code: 0 });
  const flagsOf = (options: readonly Option[]): Map<string, Option> => {
    const flags = new Map<string, Option>();
    for (const option of options) for (const flag of [option.short, option.long]) if (flag) flags.set(flag, option);
    return flags;
  };
  const globals = flagsOf(program.options);
  const commands = new Map<string, Map<string, Option>>();
  for (const command of program.commands) {
    const flags = flagsOf(command.options);
    for (const name of [command.name(), ...command.aliases()]) commands.set(name, flags);
  }
  return { globals, commands };
}

const CLI = cliFlags();
const HELP = new Set(['-h', '--help']);

/** The `drift ...` command lines in one piece of code (a fenced line, an inline span), each as its tokens up to a shell operator or comment. */
function commandLines(code: string): string[][] {
  // Quoted text is an argument (a reason, a finding id), never an option or a command of its own;
  // a shell comment is prose.
  const text = code.replace(/"[^"]*"|'[^']*'/g, ' ARG ').replace(/(^|\s)#.*$/, '$1');
  const lines: string[][] = [];
  // A command starts the code or follows a shell operator, maybe run through npx or a path (`/drift`
  // is the bot's comment); `drift` inside other text (an output line, a sentence) is not one.
  for (const match of text.matchAll(/(?:^|&&|\|\||[;|])\s*(?:\$\s+)?(?:npx\s+|\S*\/)?drift[ \t]+/g)) {
    const tokens: string[] = [];
    let depth = 0;
    let token = '';
    const rest = text.slice(match.index + match[0].length);
    const flush = (): void => {
      if (token !== '') tokens.push(token);
      token = '';
    };
    for (let i = 0; i < rest.length; i += 1) {
      const char = rest[i]!;
      if (depth === 0 && (char === ';' || char === '|' || char === '&' || char === '\n' || (char === '#' && token === ''))) break;
      if (char === '[' || char === '(') depth += 1;
      if (char === ']' || char === ')') depth = Math.max(0, depth - 1);
      if (/[\s[\]()|]/.test(char)) flush();
      else token += char;
    }
    flush();
    lines.push(tokens);
  }
  return lines;
}

/** What is wrong with one command line, or undefined when the CLI has the command and every option. */
function commandProblem(tokens: readonly string[]): string | undefined {
  const flag = (word: string): string | undefined => /^(--?[A-Za-z][\w-]*)(=.*)?$/.exec(word)?.[1];
  let index = 0;
  // Global options come first, with their values; then the command.
  for (; index < tokens.length; index += 1) {
    const name = flag(tokens[index]!);
    if (name === undefined) break;
    const option = CLI.globals.get(name);
    if (option === undefined && !HELP.has(name)) return `unknown global option ${name}`;
    if (option !== undefined && (option.required || option.optional) && !tokens[index]!.includes('=')) index += 1;
  }
  const word = tokens[index];
  if (word === undefined) return undefined; // `drift --version`
  if (!/^[a-z][a-z-]*$/.test(word)) return undefined; // not a command line: `drift -->`, `drift <command>`
  if (word === 'help') {
    const topic = tokens[index + 1];
    return topic === undefined || topic.startsWith('<') || CLI.commands.has(topic) ? undefined : `help for unknown command ${topic}`;
  }
  const command = word;
  const flags = CLI.commands.get(command);
  if (flags === undefined) return `unknown command ${command}`;
  for (const token of tokens.slice(index + 1)) {
    const name = flag(token);
    if (name !== undefined && !flags.has(name) && !CLI.globals.has(name) && !HELP.has(name)) return `drift ${command} has no option ${name}`;
  }
  return undefined;
}

describe('the documentation', () => {
  it('covers README.md and the docs/ pages', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES.length).toBeGreaterThan(10);
  });

  it('links only to files that exist, and to headings that exist in them', () => {
    expect(PAGES.flatMap(brokenLinks)).toEqual([]);
  });

  it("names only drift's real commands and options in its command lines", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [page, parsed] of parsedPages) {
      for (const { line, text } of parsed.code) {
        for (const tokens of commandLines(text)) {
          checked += 1;
          const problem = commandProblem(tokens);
          if (problem !== undefined) problems.push(`${page}:${line}: drift ${tokens.join(' ')}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('README.md stays a short manual', () => {
    expect(readFileSync(path.join(REPO, 'README.md')).length).toBeLessThanOrEqual(10 * 1024);
  });
});

describe('the checks themselves', () => {
  const problems = (code: string): (string | undefined)[] => commandLines(code).map(commandProblem);

  it('refuse an unknown command, an unknown option and an option of another command', () => {
    expect(problems('npx drift frobnicate -p gke')).toEqual(['unknown command frobnicate']);
    expect(problems('drift diff --nope')).toEqual(['drift diff has no option --nope']);
    expect(problems('drift rules --prune')).toEqual(['drift rules has no option --prune']);
    expect(problems('drift --colour diff')).toEqual(['unknown global option --colour']);
  });

  it('accept global options before the command, alternatives in brackets and quoted arguments', () => {
    expect(problems('drift --config ../x/drift.config.yaml -v diff -p gke -s converge --format=json')).toEqual([undefined]);
    expect(problems('drift render -p P -s S [--step N | --all-steps]')).toEqual([undefined]);
    expect(problems(`drift accept 'div:a:b:c:d' --reason "the --nope in a reason is text"`)).toEqual([undefined]);
    expect(problems('npx drift diff -f json | jq --nope && drift list # drift --nope')).toEqual([undefined, undefined]);
    expect(problems('changed since main: nothing drift reads changed')).toEqual([]);
    expect(problems('/drift update --provider gke')).toEqual([undefined]);
  });

  it('find a broken anchor the way GitHub spells anchors', () => {
    expect([...anchors(['`drift diff --changed`', 'Roles and planes', 'Roles and planes'])]).toEqual(['drift-diff---changed', 'roles-and-planes', 'roles-and-planes-1']);
  });
});

describe('pages written from meta', () => {
  it('are current (npm run docs rewrites them)', () => {
    for (const page of generatedPages()) {
      const file = path.join(REPO, page.file);
      expect(existsSync(file), `${page.file} is missing: run npm run docs`).toBe(true);
      const committed = readFileSync(file, 'utf8');
      expect(regenerate(page, committed), page.file).toEqual({ text: committed });
    }
  });

  it('refuse a page without the markers rather than guess where the list goes', () => {
    const withBlocks = generatedPages().filter((page) => 'blocks' in page);
    expect(withBlocks.length).toBeGreaterThan(0);
    for (const page of withBlocks) expect(regenerate(page, '# a page\n')).toEqual({ missing: page.blocks[0] });
  });
});

/**
 * A number or version a page states, and the code's: `says` finds each statement (its first group is
 * the stated value), `is` computes the value from the code. `pages` are where the statement must be
 * found at least once (a page reworded so the pattern no longer finds it fails: change the pattern
 * with the page); every other page may make the statement too, and is checked when it does.
 */
interface Stated {
  what: string;
  says: RegExp;
  is: () => string;
  pages: readonly string[];
}

const DEFAULTS = (): ReturnType<typeof loadConfig> => {
  const empty = tempDir('drift-docs-');
  try {
    return loadConfig(undefined, empty.dir);
  } finally {
    empty.remove();
  }
};
const optionDefault = (command: string, flag: string): string => {
  const program: Command = buildProgram({ io: { stdout: { write: () => true }, stderr: { write: () => true }, cwd: REPO, env: {} }, policy: LOCAL_POLICY, code: 0 });
  const option = program.commands.find((each) => each.name() === command)?.options.find((each) => each.long === flag);
  return String(option?.defaultValue);
};
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
/** A stated value as the code writes it: `60,000` is 60000, `five` is 5. */
const plain = (value: string): string => (WORDS.includes(value.toLowerCase()) ? String(WORDS.indexOf(value.toLowerCase())) : value.replaceAll(',', ''));
/** The entries of one of the repository's folders holding `file` (the bundled providers) or ending in `file` (the scenarios). */
const bundled = (folder: string, file: string): string =>
  String(readdirSync(path.join(REPO, folder)).filter((entry) => (file.startsWith('.') ? entry.endsWith(file) : existsSync(path.join(REPO, folder, entry, file)))).length);

const STATED: readonly Stated[] = [
  { what: "the skeleton format version a golden's first line holds", says: /^\s*skeleton: (\d+)\b/gm, is: () => String(SKELETON_VERSION), pages: ['docs/skeleton.md'] },
  { what: "the JSON report's schemaVersion drift writes", says: /"schemaVersion": (\d+)/g, is: () => String(Math.max(...READABLE_SCHEMA_VERSIONS)), pages: ['docs/ci.md'] },
  { what: 'the ruff version drift installs when a provider has none', says: /\bruff[ =-]{1,2}(\d+\.\d+\.\d+)\b/g, is: () => RUFF_VERSION, pages: ['docs/precision.md'] },
  { what: "the PR comment's character budget", says: /within ([\d,]+) characters/g, is: () => String(DEFAULT_BUDGET), pages: ['docs/ci.md'] },
  { what: "a function's start-up timeout by default", says: /\bstartMs: (\d+)/g, is: () => String(DEFAULTS().timeouts.startMs), pages: ['docs/adapters.md'] },
  { what: "a call's timeout by default", says: /\bcallMs: (\d+)/g, is: () => String(DEFAULTS().timeouts.callMs), pages: ['docs/adapters.md'] },
  { what: 'the steps a scenario may take by default', says: /^maxSteps: (\d+)/gm, is: () => String(DEFAULTS().maxSteps), pages: ['docs/adapters.md'] },
  { what: "drift mcp's default deadline per rendering call", says: /--deadline \d+` lets one rendering call take at most \d+ s\s+\(default (\d+)\)/g, is: () => optionDefault('mcp', '--deadline'), pages: ['docs/mcp.md'] },
  { what: 'the seeded drifts of the mutation suite', says: /\ball (\d+) seeds\b/g, is: () => String(SEEDS.length), pages: ['docs/architecture.md'] },
  { what: 'the bundled example providers', says: /\bthe (\w+)\s+bundled\s+(?:example\s+)?providers\b/gi, is: () => bundled('providers', 'provider.yaml'), pages: ['README.md'] },
  { what: 'the bundled scenarios', says: /\bthe (\w+)\s+bundled\s+scenarios\b/gi, is: () => bundled('scenarios', '.yaml'), pages: ['README.md'] },
  { what: "the bundle's size bound", says: /the bundle's bound of ([\d,]+) bytes/g, is: () => /^const MAX_BYTES = ([\d_]+);$/m.exec(readFileSync(path.join(REPO, 'scripts/bundle.mjs'), 'utf8'))![1]!.replaceAll('_', ''), pages: ['docs/caches.md'] },
  { what: 'the facets drift compares', says: /\b(\d+) facets\b/g, is: () => String(FACETS.length), pages: [] },
  { what: 'the contract rules', says: /\b(\d+) (?:contract )?rules\b/g, is: () => String(RULE_METAS.length), pages: [] },
];

/** The statements of `stated` in one page: the line and the value each states. */
function statements(page: string, stated: Stated): { line: number; value: string }[] {
  const text = readFileSync(path.join(REPO, page), 'utf8');
  return [...text.matchAll(stated.says)].map((match) => ({ line: text.slice(0, match.index).split('\n').length, value: plain(match[1]!) }));
}

describe('the numbers the documentation states', () => {
  for (const stated of STATED) {
    it(`are the code's: ${stated.what}`, () => {
      const is = stated.is();
      for (const page of stated.pages) expect(statements(page, stated).length, `${page} no longer states ${stated.what} (${stated.says}): change the pattern in STATED with the page`).toBeGreaterThan(0);
      const wrong = PAGES.flatMap((page) => statements(page, stated).filter(({ value }) => value !== is).map(({ line, value }) => `${page}:${line}: states ${value}, the code ${is}`));
      expect(wrong, stated.what).toEqual([]);
    });
  }

  it("README's example run is what `drift diff` prints on this repository", async () => {
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const example = /`npx drift diff` on this repository[^`]*```\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'README.md: the example run after "`npx drift diff` on this repository" is gone: change this test with it').toBeDefined();
    const run = await runDrift(['diff'], REPO);
    expect(run.exitCode, run.all).toBe(0);
    const printed = run.stdout.split('\n');
    // `...` stands for lines left out, and a line ending in `...` for the rest of a longer one.
    const missing = example!
      .split('\n')
      .filter((line) => line.trim() !== '' && line.trim() !== '...')
      .filter((line) => !printed.some((out) => (line.endsWith(' ...') ? out.startsWith(line.slice(0, -4)) : out === line)));
    expect(missing, 'README.md states lines drift does not print; paste them from `NO_COLOR=1 npx drift diff`').toEqual([]);
  });
});

describe('the conformance page in docs/', () => {
  it('docs/report-page.example.html is the page `drift diff --format html` writes on this repository (npm run docs rewrites it)', async () => {
    const out = tempDir('drift-docs-page-');
    try {
      const page = path.join(out.dir, 'page.html');
      // From docs/ the project root is ../: what the docs script writes there.
      const run = await runDrift(['diff', '--format', 'html', '--output', page, '--link-base', '../'], REPO);
      expect(run.exitCode, run.all).toBe(0);
      expect(readFileSync(path.join(REPO, 'docs/report-page.example.html'), 'utf8') === readFileSync(page, 'utf8'), 'docs/report-page.example.html is not current: run npm run docs').toBe(true);
    } finally {
      out.remove();
    }
  });
});

/** A figure of time: `26 ms`, `1.05 s`, `16.1 s`, `260 CPU-s`, `3½ minutes`. */
const TIME = /\d[\d,.½]*\s?(?:ms|µs|CPU-s|s|seconds|minutes)(?![\w-])/;
/** Words that make a figure of time a cost someone measured, not a limit drift sets. */
const MEASURED_WORDS = /measur|median|\bCPU\b|CPU-s|\bwall\b|\bcosts?\b|\btook\b|\bbench|\bruns? (?:in|took)\b|faster|slower|\bsaves?\b|\bspent\b|\babout\b|~\d/i;
/** A limit or default: `at most 300 s`, `a budget of 1000 ms`, `--deadline`, a timeout. */
const LIMIT_WORDS = /at most|budget|deadline|timeout|\bgrace\b|\bdefault\b/i;
/** How a cost says when and where: `measured on 7 December 2026 (2-core Intel Xeon, Node 20.20)`. */
const DATED = /measured\s+on\s+(?:\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}|\d{4}-\d{2}-\d{2})[^.()]{0,80}\([^)]+\)/i;

/**
 * The costs a page states without saying when and where they were measured, as `page:line: sentence`.
 * A cost is a figure of time in a sentence (a table cell counts as one) with a word of measuring and
 * none of limits; its paragraph, or the one before (a table's introduction), must say
 * "measured on DATE (machine)".
 */
function undatedCosts(page: string, text: string): string[] {
  const problems: string[] = [];
  const paragraphs: { line: number; text: string }[] = [];
  let line = 1;
  for (const paragraph of text.split(/\n[ \t]*\n/)) {
    paragraphs.push({ line, text: paragraph });
    line += paragraph.split('\n').length + 1;
  }
  paragraphs.forEach((paragraph, index) => {
    const dated = DATED.test(paragraph.text) || (index > 0 && DATED.test(paragraphs[index - 1]!.text));
    if (dated) return;
    for (const sentence of paragraph.text.split(/(?<=[.;])\s+|\|/)) {
      if (TIME.test(sentence) && MEASURED_WORDS.test(sentence) && !LIMIT_WORDS.test(sentence)) {
        const at = paragraph.line + paragraph.text.slice(0, paragraph.text.indexOf(sentence)).split('\n').length - 1;
        problems.push(`${page}:${at}: ${sentence.replace(/\s+/g, ' ').trim().slice(0, 120)}`);
      }
    }
  });
  return problems;
}

describe('the costs the documentation states', () => {
  it('say when and where they were measured, or are not stated', () => {
    expect(PAGES.flatMap((page) => undatedCosts(page, readFileSync(path.join(REPO, page), 'utf8')))).toEqual([]);
  });

  it('find a cost without its date, and pass a dated one or a limit', () => {
    expect(undatedCosts('p.md', 'A run costs about 260 CPU-s.\n')).toEqual(['p.md:1: A run costs about 260 CPU-s.']);
    expect(undatedCosts('p.md', 'Intro.\n\nThe median was 1.05 s wall.\n')).toEqual(['p.md:3: The median was 1.05 s wall.']);
    expect(undatedCosts('p.md', 'A run costs about 98 s wall, measured on 7 December 2026 (2 cores, Intel Xeon).\n')).toEqual([]);
    expect(undatedCosts('p.md', 'Measured on 2026-12-07 at e6a6caf (2 cores):\n\n| run | CPU |\n| --- | --- |\n| clean | 78 CPU-s |\n')).toEqual([]);
    expect(undatedCosts('p.md', '`drift mcp --deadline 300` lets one call take at most 300 s (default 600).\n')).toEqual([]);
  });
});
