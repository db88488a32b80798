/**
 * The CLI audit of the tamper tests (test/e2e/audit-tamper.test.ts, test/slow/audit-tamper.test.ts):
 * `reserve-audit audit --json` in-process against the tampering proxy, with its finding codes.
 */
import { runCliForTest } from '../helpers/run-cli.js';
import type { AuditServer, Tamper } from '../helpers/tamper.js';

export async function auditCli(
  s: AuditServer,
  tamper: Tamper | undefined,
  extra: string[] = [],
): Promise<{ code: number; codes: string[]; stderr: string }> {
  s.setTamper(tamper);
  const r = await runCliForTest(['audit', '--base-url', s.base, '--json', ...extra]);
  s.setTamper(undefined);
  let codes: string[] = [];
  try {
    codes = (JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
  } catch {
    codes = [];
  }
  return { code: r.code, codes, stderr: r.stderr };
}

export const bump = (amount: string): string => {
  const [i, f] = amount.split('.');
  return `${BigInt(i ?? '0') + 1n}.${f ?? ''}`;
};
