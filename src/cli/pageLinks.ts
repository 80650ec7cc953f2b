/**
 * Where the conformance page's places link, decided at the edge from `drift diff` and `drift report`
 * options and the environment (GitHub's server and repository), never in the renderer.
 */
import path from 'node:path';
import { Option, type Command } from 'commander';
import { DriftError } from '../errors.js';
import type { LinkBase } from '../report/html/placeLinks.js';
import type { ReportFormat } from '../report/formats.js';
import type { Invocation } from './io.js';

export interface PageOptions {
  linkBase?: string;
  githubSha?: string;
}

// A link drift writes itself: a plain https URL, nothing in it that ends an attribute or starts markup.
const BLOB_URL = /^https:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:\/[A-Za-z0-9._~%@+-]+)*\/?$/;
const RELATIVE = /^(?:\.\.?\/)*(?:[A-Za-z0-9._-]+\/)*$/;
const SHA = /^[0-9a-f]{7,64}$/;
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** The options `drift diff` and `drift report` take for the page's links. */
export function addPageOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--github-sha <sha>',
        'html: link every place to its file at this commit on GitHub ($GITHUB_SERVER_URL, default https://github.com, and $GITHUB_REPOSITORY); in CI, the pull request head',
      ).conflicts('linkBase'),
    )
    .option('--link-base <url-or-path>', 'html: link every place under this https URL (e.g. https://github.com/OWNER/NAME/blob/SHA) or relative path (default: the path from the page to the project root)');
}

/**
 * Where the page's places link to: --github-sha (with the repository from the environment), else
 * --link-base, else the relative path from the page's folder (`output`, or the working folder when
 * the page goes to stdout) to the project root.
 */
export function pageLinks(options: PageOptions & { format: ReportFormat }, cli: Invocation, root: string, output: string | undefined): LinkBase {
  if (options.format !== 'html' && (options.githubSha !== undefined || options.linkBase !== undefined)) {
    throw new DriftError(`${options.githubSha !== undefined ? '--github-sha' : '--link-base'} is for --format html: the other formats link nothing`);
  }
  if (options.githubSha !== undefined) {
    if (!SHA.test(options.githubSha)) throw new DriftError(`--github-sha must be a commit's hex SHA, got ${JSON.stringify(options.githubSha)}`);
    const repository = cli.io.env.GITHUB_REPOSITORY ?? '';
    if (!REPOSITORY.test(repository)) throw new DriftError(`--github-sha needs GITHUB_REPOSITORY=OWNER/NAME (GitHub Actions sets it), got ${JSON.stringify(repository)}; or give --link-base https://.../blob/SHA`);
    const server = (cli.io.env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
    const url = `${server}/${repository}/blob/${options.githubSha}`;
    if (!BLOB_URL.test(url)) throw new DriftError(`GITHUB_SERVER_URL must be a plain https URL, got ${JSON.stringify(cli.io.env.GITHUB_SERVER_URL)}`);
    return { kind: 'blob', url };
  }
  if (options.linkBase !== undefined) {
    const base = options.linkBase;
    if (base.startsWith('https://')) {
      if (!BLOB_URL.test(base)) throw new DriftError(`--link-base must be a plain https URL or a relative path, got ${JSON.stringify(base)}`);
      return { kind: 'blob', url: base.replace(/\/+$/, '') };
    }
    const prefix = base === '' || base.endsWith('/') ? base : `${base}/`;
    if (!RELATIVE.test(prefix)) throw new DriftError(`--link-base must be a plain https URL or a relative path (letters, digits, . _ - and /), got ${JSON.stringify(base)}`);
    return { kind: 'relative', prefix: prefix === './' ? '' : prefix };
  }
  const relative = path.relative(output === undefined ? cli.io.cwd : path.dirname(output), root).split(path.sep).join('/');
  return { kind: 'relative', prefix: relative === '' ? '' : `${relative}/` };
}
