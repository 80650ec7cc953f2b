#!/usr/bin/env node
// Runs every subcommand that the installed drift's `--help` lists, through the installed bin, on a copy
// of the example project: each must exit as documented and print its telling line. A command --help
// lists that has no plan here fails the smoke, so a new command cannot ship untried. `drift comment`
// posts and then updates one sticky comment on a GitHub stand-in on loopback started here; `drift mcp`
// answers initialize and tools/list over stdio. Called by scripts/check-package.sh:
//   node scripts/smoke-package.mjs <installed drift bin> <example project folder>
import { execFile, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const [drift, example] = process.argv.slice(2);
if (!drift || !example) {
  console.error('usage: node scripts/smoke-package.mjs <installed drift bin> <example project folder>');
  process.exit(2);
}
const env = { ...process.env, NO_COLOR: '1' };
delete env.CI; // update, accept, lock and migrate refuse to write under CI: the smoke runs them as a developer does

function run(args) {
  const result = spawnSync(drift, args, { cwd: example, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

/** As run, without blocking this process: drift comment talks to the stand-in server this process serves. */
async function runAsync(args, extraEnv) {
  try {
    const { stdout, stderr } = await promisify(execFile)(drift, args, { cwd: example, env: { ...env, ...extraEnv }, encoding: 'utf8', maxBuffer: 64 << 20 });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (error) {
    return { code: typeof error.code === 'number' ? error.code : 1, out: `${error.stdout ?? ''}${error.stderr ?? error.message}` };
  }
}

/** The commands `drift --help` lists, as commander prints them under "Commands:". */
function listedCommands() {
  const help = run(['--help']).out;
  const section = help.slice(help.indexOf('Commands:'));
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]);
}

/** A loopback stand-in for GitHub's issue-comment endpoints: enough for drift comment's Octokit. */
async function fakeGitHub() {
  const comments = [];
  const methods = [];
  const login = 'drift-smoke';
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      methods.push(req.method);
      const send = (status, data) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(data));
      };
      const view = (comment) => ({ id: comment.id, body: comment.body, user: { login, type: 'User', id: 1 }, html_url: `http://127.0.0.1/c/${comment.id}` });
      if (url.pathname === '/user') return send(200, { login, id: 1, type: 'User' });
      if (/^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/.test(url.pathname)) {
        if (req.method === 'GET') return send(200, comments.map(view));
        if (req.method === 'POST') {
          const comment = { id: 1000 + comments.length, body: JSON.parse(body).body };
          comments.push(comment);
          return send(201, view(comment));
        }
      }
      const one = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(url.pathname);
      if (one && req.method === 'PATCH') {
        const comment = comments.find((each) => each.id === Number(one[1]));
        if (!comment) return send(404, { message: 'Not Found' });
        comment.body = JSON.parse(body).body;
        return send(200, view(comment));
      }
      send(404, { message: `the smoke's stand-in does not answer ${req.method} ${url.pathname}` });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, comments, methods, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** initialize, then tools/list, over drift mcp's stdio; resolves with the tools' names. */
function mcpTools() {
  return new Promise((resolve, reject) => {
    const server = spawn(drift, ['mcp'], { cwd: example, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      server.kill();
      reject(new Error('drift mcp did not answer tools/list within 30 s'));
    }, 30_000);
    let buffer = '';
    server.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id === 1) {
          server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
          server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
        } else if (message.id === 2) {
          clearTimeout(timer);
          server.stdin.end();
          server.on('exit', (code) => (code === 0 ? resolve(message.result.tools.map((tool) => tool.name)) : reject(new Error(`drift mcp exited ${code} after its stdin closed`))));
        }
      }
    });
    server.on('error', reject);
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'drift-smoke', version: '1' } } })}\n`);
  });
}

const report = path.join(example, 'smoke-report.json');
/** A second, different report (one provider), so the second comment run has something to update. */
const narrower = path.join(example, 'smoke-report-gke.json');
const xrd = path.join(example, 'providers', 'gke', 'apis', 'definition.yaml');

/** Per command: what to run, the exit code it must give and a line its output must hold. */
const PLANS = {
  list: [{ args: ['list'], code: 0, line: /gke/ }],
  render: [{ args: ['render', '-p', 'gke', '-s', 'converge'], code: 0, line: /^kind: GKECluster/m }],
  diff: [{ args: ['diff', '--format', 'json', '-o', report], code: 0, line: /^$/ }, { args: ['diff', '-p', 'gke', '--format', 'json', '-o', narrower], code: 0, line: /^$/ }, { args: ['diff'], code: 0, line: /no findings/ }],
  update: [{ args: ['update', '-p', 'gke', '-s', 'converge'], code: 0, line: /1 unchanged/ }],
  accept: [{ args: ['accept', 'golden:gke:converge', '--reason', 'smoke'], code: 2, line: /drift update/ }],
  rules: [{ args: ['rules'], code: 0, line: /kubeconfig/i }],
  facets: [{ args: ['facets'], code: 0, line: /behavioral/ }],
  contract: [{ args: ['contract', '--check'], code: 0, line: /current/ }],
  lock: [{ args: ['lock', 'api', '--subject', 'provider-config-helm', '--reason', 'smoke'], code: 0, line: /conventions\.yaml/ }],
  unlock: [{ args: ['unlock', 'api', '--subject', 'provider-config-helm'], code: 0, line: /conventions\.yaml/ }],
  migrate: [{ args: ['migrate'], code: 0, line: /accepted\.yaml/ }],
  expect: [{ args: ['expect', '-p', 'gke'], code: 0, line: /met/ }],
  explain: [{ args: ['explain', 'split:requirements:requires'], code: 0, line: /requires/ }],
  'new-provider': [{ args: ['new-provider', 'smoke', '--xrd', xrd], code: 0, line: /provider\.yaml/ }, { args: ['list'], code: 0, line: /smoke/ }],
  report: [{ args: ['report', '--from', report], code: 0, line: /no findings/ }, { args: ['report', '--from', report, '--format', 'html'], code: 0, line: /^<!doctype html>/ }],
  help: [{ args: ['help', 'diff'], code: 0, line: /--changed/ }],
};

const failures = [];
const judge = (name, { args, code, line }, got) => {
  const ok = got.code === code && line.test(got.out);
  console.log(`smoke: drift ${args.map((arg) => (arg.startsWith('/') ? path.basename(arg) : arg)).join(' ')} -> exit ${got.code}${ok ? '' : ' FAILED'}`);
  if (!ok) failures.push(`${name}: drift ${args.join(' ')} exited ${got.code} (wanted ${code}, output matching ${line}):\n${got.out.slice(-2000)}`);
};
const expectRun = (name, plan) => judge(name, plan, run(plan.args));

const commands = listedCommands();
if (commands.length < 10) failures.push(`drift --help listed only ${commands.length} commands: ${commands.join(', ')}`);
for (const name of commands) {
  if (name === 'comment' || name === 'mcp') continue;
  const plans = PLANS[name];
  if (!plans) {
    failures.push(`drift --help lists "${name}", which this smoke does not run: add its plan to scripts/smoke-package.mjs`);
    continue;
  }
  for (const plan of plans) expectRun(name, plan);
}
rmSync(path.join(example, 'providers', 'smoke'), { recursive: true, force: true });

if (commands.includes('comment')) {
  if (!existsSync(report) || !('schemaVersion' in JSON.parse(readFileSync(report, 'utf8')))) failures.push('comment: drift diff -o wrote no JSON report to comment on');
  const github = await fakeGitHub();
  const ghEnv = { GITHUB_API_URL: github.url, GITHUB_TOKEN: 'smoke-token' };
  const comment = { args: ['comment', '--repo', 'o/r', '--pr', '7', '--report', report], code: 0, line: /comment/i };
  judge('comment', comment, await runAsync(comment.args, ghEnv));
  const update = { ...comment, args: ['comment', '--repo', 'o/r', '--pr', '7', '--report', narrower] };
  judge('comment', update, await runAsync(update.args, ghEnv));
  await github.close();
  if (github.comments.length !== 1 || !github.methods.includes('PATCH')) failures.push(`comment: two runs left ${github.comments.length} comments on the pull request (requests: ${github.methods.join(' ')}), not one sticky comment posted then updated`);
  else console.log(`smoke: one sticky comment, posted then updated (${github.comments[0].body.length} characters)`);
}
if (commands.includes('mcp')) {
  try {
    const tools = await mcpTools();
    console.log(`smoke: drift mcp -> ${tools.length} tools (${tools.join(', ')})`);
    if (!tools.includes('diff')) failures.push(`mcp: tools/list has no diff tool: ${tools.join(', ')}`);
  } catch (error) {
    failures.push(`mcp: ${error.message}`);
  }
}

if (failures.length) {
  console.error(`smoke: ${failures.length} failed\n${failures.join('\n\n')}`);
  process.exit(1);
}
console.log(`smoke: all ${commands.length} subcommands ran as documented`);
