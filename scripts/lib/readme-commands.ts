/**
 * Every command the README shows is run, or named here with the reason it is not (issue 24 item 7: README examples
 * had broken silently). `runReadme` runs against a live instance:
 *  - each ```sh block, in README order, in one bash session (`set -euo pipefail`; variables carry from block to
 *    block as they do for a reader), with `curl` failing on any HTTP error (`--fail-with-body`) — unless the
 *    line's comment starts with the error status the example shows (`# 410: …`), which it must then get —, the instance's
 *    address and keys in place of `localhost:8787`, `dev-user-key` and `dev-admin-key`, and `npx tooldrift` this
 *    repository's CLI; a block in `BLOCKS_NOT_RUN` is skipped for its reason, and one in `BLOCKS_NOT_WAITED` runs
 *    with `--no-wait` (the run must be accepted; the check does not wait for it);
 *  - each command in inline code: `curl` ones are run the same way, `npm run X` must name a script of
 *    package.json, `npx tooldrift X` must answer `--help`; the rest must match `INLINE_NOT_RUN` (with its reason).
 * A command that is neither run nor named fails the check, so a new example cannot go unchecked. What the check
 * started is cleaned up: evaluations it launched are cancelled, schedules it created deleted.
 * Used by `npm run readme:check` (scripts/readme-check.ts) and the e2e test test/e2e/readme.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReadmeCommand {
  /** 1-based line of the README where it starts. */
  line: number;
  text: string;
}

/** Blocks not run, by a pattern of their text, and why. */
export const BLOCKS_NOT_RUN: { pattern: RegExp; reason: string }[] = [
  {
    pattern: /^npm ci && npm start/m,
    reason:
      'the two commands of a fresh machine: CI runs them itself (.ci/run: npm ci, npm test; the instance this check runs against is what npm start serves)',
  },
  {
    pattern: /^vllm serve/m,
    reason: 'external model servers (vLLM, Ollama): GPUs and weights this machine does not have',
  },
  {
    pattern: /^D=\.\.\/shared\/data\/retrieval$/m,
    reason:
      "the papers' public retrieval data: local use only, without a licence for the repository, so not on a fresh machine",
  },
  {
    pattern: /^npm run demo:loop\b/m,
    reason:
      'trains two policies with Python (torch) for minutes of CPU and installs wheels; no instance is involved (it runs its own exploration, server and evaluation)',
  },
];

/**
 * Blocks run with `--no-wait` on `tooldrift eval`: the suite must be accepted, its hundreds of task runs are not
 * waited for. An evaluation over a query set (`--api`, ten items) is waited for: its table is what the README shows.
 */
export const BLOCKS_NOT_WAITED = /^npx tooldrift eval (?!--api )/m;

/** Inline commands not run, by pattern, and why. */
export const INLINE_NOT_RUN: { pattern: RegExp; reason: string }[] = [
  { pattern: /^npm (ci|install|test)\b|^npm ci && npm test$/, reason: 'what CI itself runs (.ci/run)' },
  {
    pattern: /^(PORT=\d+ |WORLD_SCALE=\d+ )?npm start\b/,
    reason: 'starts a server (the instance this check runs against is one)',
  },
  {
    pattern: /^npx wrangler (login|d1 create|queues create|secret put|dev)\b/,
    reason: 'needs a Cloudflare account, or starts a server',
  },
  { pattern: /^npx vitest run --project e2e$/, reason: 'the e2e project this check is part of' },
  {
    pattern: /^tooldrift (export|schedules) /,
    reason: 'a synopsis of subcommands (each is run from a block)',
  },
];

const COMMAND = /^(npm |npx |curl |tooldrift |PORT=|WORLD_SCALE=)/;

/** The ```sh blocks of a README, with the line each starts on. */
export function shellBlocks(readme: string): ReadmeCommand[] {
  const out: ReadmeCommand[] = [];
  const re = /^```sh\n([\s\S]*?)^```/gm;
  for (let m = re.exec(readme); m; m = re.exec(readme)) {
    out.push({ line: readme.slice(0, m.index).split('\n').length + 1, text: m[1] as string });
  }
  return out;
}

/** Commands written in inline code (outside blocks), with their lines. */
export function inlineCommands(readme: string): ReadmeCommand[] {
  const out: ReadmeCommand[] = [];
  const lines = readme.split('\n');
  let inBlock = false;
  lines.forEach((line, i) => {
    if (line.startsWith('```')) inBlock = !inBlock;
    if (inBlock) return;
    for (const m of line.matchAll(/`([^`\n]+)`/g)) {
      const text = m[1] as string;
      if (COMMAND.test(text)) out.push({ line: i + 1, text });
    }
  });
  return out;
}

export interface ReadmeResult {
  command: ReadmeCommand;
  status: 'ran' | 'checked' | 'skipped' | 'failed';
  detail: string;
}

export interface ReadmeOptions {
  root: string;
  baseUrl: string;
  userKey: string;
  adminKey: string;
  /** Output of the shell as it runs. */
  log?: (text: string) => void;
}

/**
 * The README's words for the instance, replaced by the instance's own; a curl line commented with an HTTP error
 * status (`curl … | jq -r .detail   # 410: names the successor`) expects exactly that status (README_EXPECT).
 */
function localize(text: string, o: ReadmeOptions): string {
  const host = new URL(o.baseUrl).host;
  return text
    .replace(/^(\s*)(curl\b.*#\s*)([45]\d\d)\b/gm, '$1README_EXPECT=$3 $2$3')
    .replaceAll('http://localhost:8787', o.baseUrl)
    .replaceAll('localhost:8787', host)
    .replaceAll('dev-user-key', o.userKey)
    .replaceAll('dev-admin-key', o.adminKey);
}

function preamble(o: ReadmeOptions): string {
  const cli = join(o.root, 'bin', 'tooldrift.mjs');
  return `set -euo pipefail
export TOOLDRIFT_URL=${JSON.stringify(o.baseUrl)} TOOLDRIFT_KEY=${JSON.stringify(o.userKey)}
curl() {
  if [ -z "\${README_EXPECT:-}" ]; then command curl --fail-with-body -sS --max-time 600 "$@"; return; fi
  local out code
  out=$(command curl -sS --max-time 600 -w '\n%{http_code}' "$@")
  code=\${out##*$'\n'}
  printf '%s\n' "\${out%$'\n'*}"
  if [ "$code" != "$README_EXPECT" ]; then echo "expected HTTP $README_EXPECT, got $code" >&2; return 22; fi
}
npx() {
  if [ "$1" = tooldrift ]; then
    shift
    if [ "$1" = eval ] && [ -n "\${README_NO_WAIT:-}" ]; then set -- "$@" --no-wait; fi
    node ${JSON.stringify(cli)} "$@"
  else
    command npx "$@"
  fi
}
`;
}

/** Runs a bash script in `cwd`; resolves with its exit code and output. */
function bash(
  script: string,
  cwd: string,
  log?: (t: string) => void,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    const take = (d: Buffer) => {
      output += d.toString();
      log?.(d.toString());
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function api(o: ReadmeOptions, path: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(`${o.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${o.userKey}`, ...init.headers },
  });
  return res.status === 204 ? null : res.json();
}

async function ids(o: ReadmeOptions, path: string): Promise<Set<string>> {
  const page = (await api(o, `${path}?limit=100`)) as { items: { id: string }[] };
  return new Set(page.items.map((x) => x.id));
}

export async function runReadme(o: ReadmeOptions): Promise<ReadmeResult[]> {
  const readme = readFileSync(join(o.root, 'README.md'), 'utf8');
  const pkg = JSON.parse(readFileSync(join(o.root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const results: ReadmeResult[] = [];
  // A scratch directory: examples write files (sft.jsonl) and read the repository's example files (docs/) and
  // benchmark files (data/: RestBench's TMDB document and queries); `npm run X` in a block runs the checkout's
  // script (package.json, scripts/ and node_modules linked).
  const cwd = mkdtempSync(join(tmpdir(), 'tooldrift-readme-'));
  for (const dir of ['docs', 'data', 'package.json', 'scripts', 'node_modules'])
    symlinkSync(join(o.root, dir), join(cwd, dir));
  const schedulesBefore = await ids(o, '/v1/schedules');
  const evalsBefore = await ids(o, '/v1/evals');
  try {
    let script = preamble(o);
    const ran: ReadmeCommand[] = [];
    for (const block of shellBlocks(readme)) {
      const skip = BLOCKS_NOT_RUN.find((b) => b.pattern.test(block.text));
      if (skip) {
        results.push({ command: block, status: 'skipped', detail: skip.reason });
        continue;
      }
      const noWait = BLOCKS_NOT_WAITED.test(block.text)
        ? 'export README_NO_WAIT=1\n'
        : 'unset README_NO_WAIT\n';
      script += `echo "::: README line ${block.line}" >&2\n${noWait}${localize(block.text, o)}\n`;
      ran.push(block);
    }
    const blocks = await bash(script, cwd, o.log);
    const failedAt = [...blocks.output.matchAll(/^::: README line (\d+)$/gm)].at(-1)?.[1];
    for (const block of ran) {
      const failed = blocks.code !== 0 && String(block.line) === failedAt;
      const after = blocks.code !== 0 && failedAt !== undefined && block.line > Number(failedAt);
      results.push({
        command: block,
        status: failed || after ? 'failed' : 'ran',
        detail: failed ? blocks.output.slice(-2000) : after ? 'not reached (an earlier block failed)' : '',
      });
    }

    for (const command of inlineCommands(readme)) {
      const skip = INLINE_NOT_RUN.find((x) => x.pattern.test(command.text));
      const npmRun = /^npm run ([\w:-]+)/.exec(command.text);
      const cli = /^npx tooldrift(?: (\w+))?/.exec(command.text);
      if (npmRun) {
        const name = npmRun[1] as string;
        results.push({
          command,
          status: name in pkg.scripts ? 'checked' : 'failed',
          detail: name in pkg.scripts ? `package.json script ${name}` : `no script ${name} in package.json`,
        });
      } else if (cli) {
        const r = await bash(`${preamble(o)}npx tooldrift ${cli[1] ?? ''} --help >/dev/null`, cwd);
        results.push({ command, status: r.code === 0 ? 'checked' : 'failed', detail: r.output.slice(-500) });
      } else if (/^curl /.test(command.text)) {
        const r = await bash(`${preamble(o)}${localize(command.text, o)} >/dev/null`, cwd);
        results.push({ command, status: r.code === 0 ? 'ran' : 'failed', detail: r.output.slice(-500) });
      } else if (skip) {
        results.push({ command, status: 'skipped', detail: skip.reason });
      } else {
        results.push({
          command,
          status: 'failed',
          detail: 'neither run nor listed in INLINE_NOT_RUN with a reason',
        });
      }
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
    // Leave the instance as it was: no schedule created here ticks on, no evaluation started here runs on.
    for (const id of await ids(o, '/v1/schedules'))
      if (!schedulesBefore.has(id)) await api(o, `/v1/schedules/${id}`, { method: 'DELETE' });
    for (const id of await ids(o, '/v1/evals'))
      if (!evalsBefore.has(id)) await api(o, `/v1/evals/${id}`, { method: 'DELETE' });
  }
  return results;
}
