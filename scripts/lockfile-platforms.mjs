#!/usr/bin/env node
/**
 * Adds lockfile records for platform-specific optional packages (other operating systems' builds of biome,
 * workerd, …) that npm leaves out when this machine's registry cannot serve them. Without the records,
 * `npm ci` refuses the lockfile ("Missing: … from lock file"); with them, it skips the packages on os/cpu
 * mismatch as it should. Run after `npm install` changes package-lock.json: `node scripts/lockfile-platforms.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;

const OS = [
  [/darwin/, 'darwin'],
  [/win32|windows/, 'win32'],
  [/android/, 'android'],
  [/linux/, 'linux'],
  [/freebsd/, 'freebsd'],
];
const CPU = [
  [/arm64|aarch64/, 'arm64'],
  [/x64|-64\b|amd64/, 'x64'],
  [/ia32/, 'ia32'],
  [/arm\b|armv7/, 'arm'],
];

function platformOf(name) {
  const n = name.toLowerCase();
  const os = OS.find(([re]) => re.test(n))?.[1];
  const cpu = CPU.find(([re]) => re.test(n))?.[1];
  return os && cpu ? { os: [os], cpu: [cpu], ...(/musl/.test(n) ? { libc: ['musl'] } : {}) } : null;
}

let added = 0;
for (const [location, meta] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    // Resolve like Node: the dependent's own node_modules first, then each ancestor's, then the root's.
    const candidates = [];
    for (let dir = location; ; ) {
      candidates.push(`${dir ? `${dir}/` : ''}node_modules/${dep}`);
      if (!dir) break;
      const cut = dir.lastIndexOf('/node_modules/');
      dir = cut === -1 ? '' : dir.slice(0, cut);
    }
    const found = candidates.find((c) => pkgs[c]);
    if (found && pkgs[found].version === version) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    // Hoist to the root unless another version of the package lives there already.
    const hoisted = `node_modules/${dep}`;
    const at = pkgs[hoisted] ? candidates[0] : hoisted;
    pkgs[at] = { version, ...(meta.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile-platforms: added ${added} platform record(s)`);
