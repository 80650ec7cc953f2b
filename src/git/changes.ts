/**
 * Edge module: the only place drift runs git. `drift diff --changed` asks it which files differ
 * between a base commit and the working tree; everything it decides from those paths is pure
 * (src/pipeline/changedRun.ts). git runs without a shell, with optional locks off, so asking changes
 * nothing in the checkout (not even the index's stat cache).
 */
import type { Environment } from '../util/envVars.js';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { DriftError } from '../errors.js';

/** What changed in a checkout since the merge base of HEAD with a ref. */
export interface ChangesSince {
  /**
   * The checkout's top folder, reached from the folder drift was asked about (not git's real path,
   * so a project under a symlinked folder still lines up with its config's paths).
   */
  top: string;
  /** The ref as given, or the default branch drift chose. */
  ref: string;
  /** The merge base of HEAD and `ref`: a full commit id. */
  base: string;
  /** Paths relative to `top` that differ from `base` in the working tree, untracked ones included; sorted, each once. */
  paths: string[];
}

/** Where `--changed` without a ref compares from, in this order: the remote's default branch, then `main`, then `master`. */
export const DEFAULT_REFS = ['origin/HEAD', 'main', 'master'] as const;

const FETCH_ADVICE = 'fetch more history (`git fetch --deepen=50`, or `git fetch origin <branch>` for the branch you compare with; in GitHub Actions, `fetch-depth: 0` on actions/checkout)';

interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

function git(top: string, args: string[], env: Environment): Promise<GitResult> {
  // node:child_process, not execa: execa is a development dependency only (its import alone costs
  // more than these git calls).
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-C', top, ...args],
      // No index refresh written back, no pager, no prompts: reading the checkout must leave it as it was.
      { env: { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        if (error && typeof code !== 'number') {
          reject(new DriftError(`--changed needs git: ${code === 'ENOENT' ? 'git is not installed or not on PATH' : error.message}; install git or run drift diff without --changed`));
          return;
        }
        resolve({ ok: !error, stdout: String(stdout ?? ''), stderr: String(stderr ?? '').trim() });
      },
    );
  });
}

const nulSeparated = (text: string) => text.split('\0').filter((entry) => entry !== '');

/** The commit a ref names, or undefined when this checkout cannot resolve it. */
async function commitOf(top: string, ref: string, env: Environment): Promise<string | undefined> {
  const result = await git(top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], env);
  return result.ok ? result.stdout.trim() : undefined;
}

/** The first of DEFAULT_REFS this checkout has, as a name a person would type (`origin/main`). */
async function defaultRef(top: string, env: Environment): Promise<string | undefined> {
  const remote = await git(top, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], env);
  if (remote.ok && remote.stdout.trim()) return remote.stdout.trim();
  for (const ref of DEFAULT_REFS.slice(1)) if (await commitOf(top, ref, env)) return ref;
  return undefined;
}

/**
 * The files that differ between the merge base of HEAD with `ref` (default: see DEFAULT_REFS) and
 * the working tree of the checkout holding `dir`: committed, staged, unstaged and untracked changes
 * alike, ignored files left out. A ref the checkout cannot resolve, or no merge base (a shallow
 * clone), is a DriftError saying to fetch more history.
 */
export async function changesSince(dir: string, ref: string | undefined, env: Environment): Promise<ChangesSince> {
  if (ref !== undefined && (ref === '' || ref.startsWith('-'))) throw new DriftError(`--changed ${JSON.stringify(ref)}: not a git ref; name a branch, tag or commit (e.g. --changed origin/main)`);
  // One call for where the checkout's top is, whether it is shallow, and HEAD: git prints the first
  // two even when HEAD has no commit yet, and nothing outside a checkout.
  const inside = await git(dir, ['rev-parse', '--show-prefix', '--is-shallow-repository', '--verify', '--quiet', 'HEAD^{commit}'], env);
  const [prefix = '', shallowLine, head] = inside.stdout.split('\n');
  if (shallowLine !== 'true' && shallowLine !== 'false') {
    // git's reason on one line: outside a checkout on its own mount, git adds a line about the file system boundary.
    const why = inside.stderr.trim().split(/\s*\n\s*/).join(' ');
    throw new DriftError(`--changed: ${dir} is not inside a git checkout (${why || 'git rev-parse failed'}); run drift diff without --changed, or in a clone of the repository`);
  }
  // The prefix is `dir` relative to the top (`sub/`, or empty at the top): climbing it from `dir`
  // reaches the top by the same route the config's paths took.
  const top = path.resolve(dir, path.relative(prefix, ''));
  const shallow = shallowLine === 'true' ? ' (this checkout is a shallow clone)' : '';
  if (!inside.ok || !head) throw new DriftError(`--changed: HEAD has no commit in ${top} yet; commit first, or run drift diff without --changed`);
  const chosen = ref ?? (await defaultRef(top, env));
  if (chosen === undefined) {
    throw new DriftError(`--changed: this checkout has none of ${DEFAULT_REFS.join(', ')} to compare with${shallow}; name the ref (\`drift diff --changed origin/main\`) or ${FETCH_ADVICE}`);
  }
  const mergeBase = await git(top, ['merge-base', head, chosen], env);
  if (!mergeBase.ok) {
    // Only now tell the two failures apart: a ref this checkout does not have, or no shared history.
    if (!(await commitOf(top, chosen, env))) throw new DriftError(`--changed ${chosen}: this checkout cannot resolve "${chosen}"${shallow}; ${FETCH_ADVICE}, or name a ref it has`);
    throw new DriftError(`--changed ${chosen}: HEAD and ${chosen} have no common ancestor in this checkout${shallow}; ${FETCH_ADVICE}`);
  }
  const base = mergeBase.stdout.trim();
  // Tracked files against the base (renames as a deletion and an addition, so both paths count),
  // then untracked ones that .gitignore does not exclude.
  const [tracked, untracked] = await Promise.all([
    git(top, ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', '--ignore-submodules', base, '--'], env),
    git(top, ['ls-files', '--others', '--exclude-standard', '-z'], env),
  ]);
  for (const result of [tracked, untracked]) if (!result.ok) throw new DriftError(`--changed ${chosen}: git could not list the changed files: ${result.stderr}`);
  const paths = [...new Set([...nulSeparated(tracked.stdout), ...nulSeparated(untracked.stdout)])].sort();
  return { top, ref: chosen, base, paths };
}

/**
 * Which of `providers` have goldens committed at HEAD: a file under `<goldens>/<provider>/` in HEAD's
 * tree. Those are the established providers; a provider whose goldens are not committed yet is a
 * newcomer (src/compare/tipped.ts). Undefined where git cannot tell (no git, not a checkout, no commit
 * yet): then every provider with goldens counts as established.
 */
export async function committedGoldens(goldens: string, providers: readonly string[], env: Environment): Promise<Set<string> | undefined> {
  let listed: GitResult;
  try {
    listed = await git(goldens, ['ls-tree', '-r', '--name-only', '-z', 'HEAD', '--', '.'], env);
  } catch {
    return undefined;
  }
  if (!listed.ok) return undefined;
  const folders = new Set(nulSeparated(listed.stdout).map((file) => file.split('/')[0]!));
  return new Set(providers.filter((provider) => folders.has(provider)));
}
