/**
 * `npm test`'s set-up of the dashboard test's browser (scripts/ensure-chromium.ts): present → nothing to do;
 * missing → installed with apt-get by root or through passwordless sudo; otherwise `npm test` stops with one
 * line naming what to install — never a silent skip. The decision is tested from injected facts, and the
 * "cannot install" path end to end: the script run as a user without root or sudo, with the browser missing.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChromiumFacts, chromiumPlan } from '../../../scripts/ensure-chromium.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const missing: ChromiumFacts = { present: false, root: false, aptGet: true, passwordlessSudo: false };

describe('chromiumPlan', () => {
  it('does nothing when the browser is there, whoever runs it', () => {
    expect(chromiumPlan({ ...missing, present: true })).toEqual({ kind: 'present' });
    expect(chromiumPlan({ ...missing, present: true, aptGet: false })).toEqual({ kind: 'present' });
  });

  it('installs Debian’s chromium with apt-get as root, and through non-interactive sudo otherwise', () => {
    const asRoot = chromiumPlan({ ...missing, root: true });
    expect(asRoot.kind).toBe('install');
    const rootCommands = asRoot.kind === 'install' ? asRoot.commands : [];
    expect(rootCommands.map((c) => c[0])).toEqual(['apt-get', 'apt-get']);
    expect(rootCommands.at(-1)).toEqual(expect.arrayContaining(['install', '-y', 'chromium']));

    const withSudo = chromiumPlan({ ...missing, passwordlessSudo: true });
    const sudoCommands = withSudo.kind === 'install' ? withSudo.commands : [];
    expect(sudoCommands.length).toBe(2);
    for (const c of sudoCommands) expect(c.slice(0, 2)).toEqual(['sudo', '-n']);
    expect(sudoCommands.at(-1)).toEqual(expect.arrayContaining(['apt-get', 'install', 'chromium']));
  });

  it('refuses with one line naming the package when the user cannot install it', () => {
    const plan = chromiumPlan(missing);
    expect(plan.kind).toBe('cannot-install');
    const message = plan.kind === 'cannot-install' ? plan.message : '';
    expect(message).not.toContain('\n');
    expect(message).toContain('/usr/bin/chromium');
    expect(message).toContain('sudo apt-get install chromium');
  });

  it('refuses with one line naming the path on a system without apt-get, even as root', () => {
    const plan = chromiumPlan({ ...missing, root: true, aptGet: false }, '/opt/x/chromium');
    expect(plan.kind).toBe('cannot-install');
    const message = plan.kind === 'cannot-install' ? plan.message : '';
    expect(message).not.toContain('\n');
    expect(message).toContain('install a Chromium build at /opt/x/chromium');
  });
});

describe('scripts/ensure-chromium.ts as a process', () => {
  // A PATH with node and an `apt-get` but no sudo; readable by the unprivileged user below.
  const bin = mkdtempSync(join(tmpdir(), 'ensure-chromium-'));
  chmodSync(bin, 0o755);
  symlinkSync('/bin/false', join(bin, 'apt-get'));
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  const run = (checkPath: string) => {
    // As root, drop to `nobody` (setpriv, util-linux) so the script meets a user who cannot install packages.
    const setpriv = spawnSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).stdout.trim();
    const drop =
      process.getuid?.() === 0 ? [setpriv, '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
    const command = [
      ...drop,
      process.execPath,
      join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      join(root, 'scripts', 'ensure-chromium.ts'),
    ];
    return spawnSync(command[0] as string, command.slice(1), {
      cwd: root,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: [bin, dirname(process.execPath)].join(delimiter),
        HOME: bin,
        TOOLDRIFT_CHROMIUM_CHECK_PATH: checkPath,
      },
    });
  };

  it('stops with exactly one line saying what to install when the browser is missing and the user cannot install', () => {
    const r = run(join(bin, 'no-such-chromium'));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('sudo apt-get install chromium');
  });

  it('passes silently when the browser is there', () => {
    const r = run(process.execPath);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
    expect(r.status).toBe(0);
  });
});
