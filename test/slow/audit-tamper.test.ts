/**
 * The slow TAMPER scenario (test/e2e/audit-tamper.test.ts holds the others): /volume fees that do
 * not add up. The audit takes some 17 s here, the others 1–2 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCli, bump } from '../e2e/tamper-audit.js';
import { type AuditServer, startAuditServer, type Tamper } from '../helpers/tamper.js';

let s: AuditServer;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'tamper' });
}, 30_000);
afterAll(async () => {
  await s.close();
});

const audit = (tamper: Tamper | undefined) => auditCli(s, tamper);

describe('TAMPER scenarios → finding code, exit 1', () => {
  it('fees that do not add up → VOLUME_FEES_DONT_ADD_UP', async () => {
    const r = await audit((ctx) => {
      if (ctx.path !== '/volume') return undefined;
      const v = ctx.json as { data: { fees_cc: string } };
      v.data.fees_cc = bump(v.data.fees_cc);
      return { json: v };
    });
    expect(r.codes).toContain('VOLUME_FEES_DONT_ADD_UP');
    expect(r.code).toBe(1);
  });
});
