/**
 * One redactor for everything drift takes from a function's output (its answers, its stderr, the
 * errors it causes): the values of drift's secret variables and the machine's absolute paths are
 * replaced before any of it reaches a finding, a golden, a report, a comment or an MCP answer. What a
 * provider printed still reads the same on every machine, and a token drift holds never leaves it.
 */
import type { Environment } from './envVars.js';

/** Replaces secrets and machine paths in one text. */
export interface Redact {
  (text: string): string;
  /**
   * Whether UTF-8 bytes hold anything the redactor replaces. An answer's strings and keys are its
   * wire bytes decoded, so when its bytes hold no needle no string of it changes: the answer is
   * not walked (providerRender.ts).
   */
  foundIn(bytes: Uint8Array): boolean;
}

/** Variables whose values are secrets: GITHUB_TOKEN and every `*_TOKEN`, `*_SECRET`, `*_KEY`, `*_PASSWORD`. */
const SECRET_NAME = /^(GITHUB_TOKEN|.+_TOKEN|.+_SECRET|.+_KEY|.+_PASSWORD)$/;
/**
 * A secret shorter than this is left alone: replacing every `1` or `on` in a report would hide more
 * than it protects, and no real token is that short (docs/limits.md).
 */
export const MIN_SECRET_LENGTH = 6;

export interface MachinePaths {
  /** The project's root folder (as given, and its real path): shown as `.`. */
  root: readonly string[];
  /** Folders outside the root the config lists (`roots:`): shown relative to the root, as drift shows paths. */
  roots: ReadonlyMap<string, string>;
  /** The home folder: shown as `~`. */
  home: readonly string[];
  /** Temporary folders (the OS's, TMPDIR): shown as `<tmp>`. */
  tmp: readonly string[];
  /** Interpreter prefixes (a virtual environment, the base install's lib/pythonX.Y): shown as `<python>`, or `<python>/lib/pythonX.Y`. */
  python: ReadonlyMap<string, string>;
}

/** The names of the secret variables set in `env`, sorted. */
export function secretNames(env: Environment): string[] {
  return Object.keys(env)
    .filter((name) => SECRET_NAME.test(name) && (env[name]?.length ?? 0) >= MIN_SECRET_LENGTH)
    .sort();
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The redactor for drift's environment and this machine's paths. Longer needles win (a project under
 * the temporary folder is `.`, not `<tmp>/...`); a path matches only whole (`/home/al` is not a prefix
 * of `/home/alice`).
 */
export function redactor(env: Environment, paths: MachinePaths): Redact {
  const replacements = new Map<string, string>();
  const secrets: string[] = [];
  for (const name of secretNames(env)) {
    const value = env[name]!;
    if (!replacements.has(value)) secrets.push(value);
    replacements.set(value, `<${name}>`);
  }
  const folders: string[] = [];
  const addFolder = (folder: string | undefined, shown: string) => {
    const clean = folder?.replace(/\/+$/, '');
    // The file-system root itself is no machine path worth hiding, and would hide every path.
    if (!clean || !clean.startsWith('/') || replacements.has(clean)) return;
    replacements.set(clean, shown);
    folders.push(clean);
  };
  for (const [folder, shown] of [...paths.python].sort(([a], [b]) => b.length - a.length)) addFolder(folder, shown);
  for (const folder of paths.root) addFolder(folder, '.');
  for (const [folder, shown] of paths.roots) addFolder(folder, shown);
  for (const folder of paths.tmp) addFolder(folder, '<tmp>');
  for (const folder of paths.home) addFolder(folder, '~');
  if (replacements.size === 0) return Object.assign((text: string) => text, { foundIn: () => false });
  const byLength = (a: string, b: string) => b.length - a.length;
  const alternatives = [...secrets.sort(byLength).map(escape), ...folders.sort(byLength).map((folder) => `${escape(folder)}(?![\\w.-])`)];
  const pattern = new RegExp(alternatives.join('|'), 'g');
  // A folder needle's bytes without its whole-path test: a superset of what the pattern matches.
  const needles = [...replacements.keys()].map((needle) => Buffer.from(needle, 'utf8'));
  const redact = (text: string) => {
    if (typeof text !== 'string' || text.length === 0) return text;
    pattern.lastIndex = 0;
    if (!pattern.test(text)) return text;
    pattern.lastIndex = 0;
    return text.replace(pattern, (match) => replacements.get(match) ?? match);
  };
  const foundIn = (bytes: Uint8Array) => {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return needles.some((needle) => buffer.includes(needle));
  };
  return Object.assign(redact, { foundIn });
}

/**
 * `value` with every string in it (keys included) redacted: the same object when nothing changed,
 * so an answer without secrets or paths costs one walk and no copy. An object or list is copied
 * only from its first changed entry on: answers are walked for every call, and copying each
 * object only to drop the copy made most of the walk's cost.
 */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const next = redactDeep(item, redact);
      if (next !== item) out ??= value.slice(0, index);
      out?.push(next);
    }
    return (out ?? value) as T;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let out: Record<string, unknown> | undefined;
    const source = value as Record<string, unknown>;
    for (const key in source) {
      const item = source[key];
      const name = redact(key);
      const next = redactDeep(item, redact);
      if (!out && (name !== key || next !== item)) {
        out = {};
        for (const earlier in source) {
          if (earlier === key) break;
          out[earlier] = source[earlier];
        }
      }
      if (out) out[name] = next;
    }
    return (out ?? value) as T;
  }
  return value;
}
