/**
 * `pretest` (runs before `npm test`): makes sure the browser of the dashboard's end-to-end test is there —
 * Debian's `chromium` package at /usr/bin/chromium, driven by playwright-core, which never downloads a browser.
 *
 * When it is missing and this user can install packages (root, or passwordless `sudo`), it installs the package
 * with apt-get; otherwise it stops `npm test` with one line saying what to install. It never skips the test
 * silently. `TOOLDRIFT_CHROMIUM_CHECK_PATH` replaces the path checked, for this script's own tests only.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const PACKAGE = 'chromium';

/** What the script finds out about the machine. */
export interface ChromiumFacts {
  /** The browser is present and executable. */
  present: boolean;
  root: boolean;
  /** apt-get is on PATH (a Debian-like system). */
  aptGet: boolean;
  /** `sudo -n true` succeeds (sudo without a password prompt). */
  passwordlessSudo: boolean;
}

export type ChromiumPlan =
  | { kind: 'present' }
  | { kind: 'install'; commands: string[][] }
  | { kind: 'cannot-install'; message: string };

const APT_OPTIONS = ['-o', 'DPkg::Lock::Timeout=600', '-qq'];

/** What to do, from the facts alone. */
export function chromiumPlan(facts: ChromiumFacts, path = CHROMIUM_PATH): ChromiumPlan {
  if (facts.present) return { kind: 'present' };
  if (!facts.aptGet) {
    return {
      kind: 'cannot-install',
      message: `npm test needs Chromium at ${path} for test/e2e/dashboard.test.ts and this system has no apt-get: install a Chromium build at ${path}, then run npm test again.`,
    };
  }
  if (!facts.root && !facts.passwordlessSudo) {
    return {
      kind: 'cannot-install',
      message: `npm test needs Chromium at ${path} for test/e2e/dashboard.test.ts and this user cannot install packages (not root, no passwordless sudo): run \`sudo apt-get install ${PACKAGE}\`, then npm test again.`,
    };
  }
  const sudo = facts.root ? [] : ['sudo', '-n', '--preserve-env=DEBIAN_FRONTEND'];
  return {
    kind: 'install',
    commands: [
      [...sudo, 'apt-get', ...APT_OPTIONS, 'update'],
      [...sudo, 'apt-get', ...APT_OPTIONS, 'install', '-y', '--no-install-recommends', PACKAGE],
    ],
  };
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir !== '' && executable(join(dir, command)));
}

function probe(path: string): ChromiumFacts {
  const root = process.getuid?.() === 0;
  return {
    present: executable(path),
    root,
    aptGet: onPath('apt-get'),
    passwordlessSudo:
      !root && onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
  };
}

function main(): number {
  const path = process.env.TOOLDRIFT_CHROMIUM_CHECK_PATH ?? CHROMIUM_PATH;
  const plan = chromiumPlan(probe(path), path);
  if (plan.kind === 'present') return 0;
  if (plan.kind === 'cannot-install') {
    console.error(plan.message);
    return 1;
  }
  console.log(`${path} is missing: installing Debian's ${PACKAGE} package (apt-get) for the dashboard test.`);
  for (const [cmd, ...args] of plan.commands) {
    const r = spawnSync(cmd as string, args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0) {
      console.error(
        `installing ${PACKAGE} failed (${[cmd, ...args].join(' ')} exited with ${r.status ?? r.signal}): install Debian's ${PACKAGE} package, then run npm test again.`,
      );
      return 1;
    }
  }
  if (!executable(path)) {
    console.error(
      `${PACKAGE} was installed but ${path} is still missing: install a Chromium build at ${path}.`,
    );
    return 1;
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
