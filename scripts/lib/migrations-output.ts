/**
 * One line for what `wrangler d1 migrations apply` printed (it repeats the migration table after every migration
 * it applies): which migrations it applied, or that none were pending.
 */
export function summariseMigrations(output: string): string {
  const names = [...new Set(output.match(/\b\d{4}_[\w.-]+\.sql\b/g) ?? [])].sort();
  if (/No migrations to apply/i.test(output) || names.length === 0) return 'D1 migrations: up to date.';
  return names.length === 1
    ? `D1 migrations: applied ${names[0]}.`
    : `D1 migrations: applied ${names.length} (${names[0]} … ${names[names.length - 1]}).`;
}
