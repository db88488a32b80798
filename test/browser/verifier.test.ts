/**
 * The single-file verifier page in a real browser (issue 13): every real vector gives the CLI's
 * verdict (V12 with the real DAR dropped in when ../shared/dars is present), a tampered blob gives
 * mismatch, garbage gives could-not-check with its reason, a shareable #cid=…&blob=… link verifies
 * at once, a /pools/proof document has every pool verified — with no console error and no request
 * leaving the page. Screenshots go to test-results/.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';
import { SHARED_DARS_SKIP_REASON, sharedDarsDir } from '../helpers/shared.js';
import { startAuditServer } from '../helpers/tamper.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import {
  CHROMIUM,
  CHROMIUM_SKIP_REASON,
  launchBrowser,
  type OpenedPage,
  openFile,
  screenshot,
} from './browser.js';

const vectors = loadContractIdVectors().blobVectors;
const darDir = sharedDarsDir();
const dar = darDir === null ? null : join(darDir, 'splice-amulet-0.1.17.dar');
if (darDir === null)
  process.stderr.write(`verifier page: V12 vectors checked without a DAR: ${SHARED_DARS_SKIP_REASON}\n`);

const b64url = (b64: string): string => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

async function cliVerdict(cid: string, blob: string, withDar: boolean): Promise<string> {
  const r = await runCliForTest([
    'verify-contract',
    '--contract-id',
    cid,
    '--blob',
    blob,
    ...(withDar && dar !== null ? ['--dar', dar] : []),
    '--json',
  ]);
  return (JSON.parse(r.stdout) as { status: string }).status;
}

async function verdictOf(o: OpenedPage): Promise<string> {
  await o.page.waitForFunction(`document.getElementById('verdict').dataset.verdict !== ''`);
  return (await o.page.getAttribute('#verdict', 'data-verdict')) ?? '';
}

describe.skipIf(CHROMIUM === null)(
  `verifier page in chromium${CHROMIUM === null ? ` (${CHROMIUM_SKIP_REASON})` : ''}`,
  () => {
    let browser: Browser;
    let page: string;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'verifier-page-'));
      page = join(dir, 'verify.html');
      const r = await runCliForTest(['verifier', '--out', page]);
      expect(r.code, r.stderr).toBe(0);
      browser = await launchBrowser();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('gives the CLI verdict for every real vector, pasted (V12 with the real DAR dropped in when present)', async () => {
      const o = await openFile(browser, page);
      for (const v of vectors) {
        const isV12 = v.cantonContractIdVersion.endsWith('V12');
        const expected = await cliVerdict(v.contractId, v.createdEventBlobBase64, isV12);
        if (isV12 && dar !== null) {
          if ((await o.page.locator('#types li', { hasText: '.dar' }).count()) === 0)
            await o.page.setInputFiles('#files', dar);
          await o.page.waitForSelector('#types li:has-text(".dar")');
        }
        await o.page.fill('#cid', v.contractId);
        await o.page.fill('#blob', v.createdEventBlobBase64);
        await o.page.evaluate(`document.getElementById('verdict').dataset.verdict = ''`);
        await o.page.click('#verify');
        expect(await verdictOf(o), v.name).toBe(expected);
        if (!isV12 || dar !== null) expect(expected, v.name).toBe('verified');
      }
      await screenshot(o.page, 'verifier-verified', true);
      expect(o.errors).toEqual([]);
      expect(o.outbound).toEqual([]);
    }, 120_000);

    it('verifies at once from a shareable #cid=…&blob=… link and shows the decoded contract', async () => {
      const v = vectors.find((x) => x.cantonContractIdVersion.endsWith('V10'))!;
      const o = await openFile(
        browser,
        page,
        `#cid=${v.contractId}&blob=${b64url(v.createdEventBlobBase64)}`,
      );
      expect(await verdictOf(o)).toBe('verified');
      const text = await o.page.textContent('#contract');
      expect(text).toContain(v.decoded.signatories[0]!);
      expect(text).toContain(v.decoded.templateId.split(':').slice(1).join(':'));
      expect(o.errors).toEqual([]);
    }, 60_000);

    it('says mismatch for a tampered blob, with the code', async () => {
      const v = vectors.find((x) => x.cantonContractIdVersion.endsWith('V11'))!;
      const bytes = Buffer.from(v.createdEventBlobBase64, 'base64');
      bytes[bytes.length - 40]! ^= 0x01; // a byte inside the create argument / metadata
      const tampered = bytes.toString('base64');
      const expected = await cliVerdict(v.contractId, tampered, false);
      const o = await openFile(browser, page, `#cid=${v.contractId}&blob=${b64url(tampered)}`);
      const got = await verdictOf(o);
      expect(got).toBe(expected);
      expect(['mismatch', 'could-not-check']).toContain(got);
      // flipping a salt byte always decodes and always changes the suffix: a definite mismatch
      const salted = Buffer.from(v.createdEventBlobBase64, 'base64');
      const salt = Buffer.from(v.decoded.saltHex, 'hex');
      salted[salted.indexOf(salt)]! ^= 0xff;
      const o2 = await openFile(
        browser,
        page,
        `#cid=${v.contractId}&blob=${b64url(salted.toString('base64'))}`,
      );
      expect(await verdictOf(o2)).toBe('mismatch');
      expect(await cliVerdict(v.contractId, salted.toString('base64'), false)).toBe('mismatch');
      expect(await o2.page.textContent('#reasons')).toMatch(/[A-Z_]{6,}/);
      await screenshot(o2.page, 'verifier-mismatch');
      expect([...o.errors, ...o2.errors]).toEqual([]);
    }, 60_000);

    it('says could-not-check with the reason for garbage', async () => {
      const o = await openFile(browser, page);
      await o.page.fill('#cid', 'not a contract id');
      await o.page.fill('#blob', '%%% not base64 %%%');
      await o.page.click('#verify');
      expect(await verdictOf(o)).toBe('could-not-check');
      const reasons = await o.page.textContent('#reasons');
      expect(reasons).toMatch(/INVALID_BASE64|BLOB_|CONTRACT_ID/);
      expect(await cliVerdict('not a contract id', '%%% not base64 %%%', false)).toBe('could-not-check');
      await screenshot(o.page, 'verifier-could-not-check');
      expect(o.errors).toEqual([]);
    }, 60_000);

    it("verifies the reference server's V12 contracts with its built-in types, and says which DAR to drop for another package", async () => {
      const s = await startAuditServer({ version: 'v12', seed: 'verifier-page-v12' });
      try {
        const text = await (await fetch(`${s.directBase}/pools/proof`)).text();
        const file = join(dir, 'proof-v12.json');
        writeFileSync(file, text);
        const n = (JSON.parse(text) as { data: { pools: unknown[] } }).data.pools.length;
        const o = await openFile(browser, page);
        expect(await o.page.textContent('#types')).toContain('amm-pools.json, built in');
        await o.page.setInputFiles('#files', file);
        expect(await verdictOf(o)).toBe('verified');
        expect(await o.page.locator('#pools tr[data-verdict="verified"]').count()).toBe(n);
        const omr = vectors.find((v) => v.name === 'Splice OpenMiningRound (V12)')!;
        await o.page.fill('#cid', omr.contractId);
        await o.page.fill('#blob', omr.createdEventBlobBase64);
        await o.page.evaluate(`document.getElementById('verdict').dataset.verdict = ''`);
        await o.page.click('#verify');
        expect(await verdictOf(o)).toBe('could-not-check');
        const reasons = (await o.page.textContent('#reasons')) ?? '';
        expect(reasons).toMatch(/TYPE_NOT_FOUND.*the DAR of package "splice-amulet"/);
        expect(reasons).toContain('Drop that DAR (or type file) anywhere on this page');
        expect(o.errors).toEqual([]);
        expect(o.outbound).toEqual([]);
      } finally {
        await s.close();
      }
    }, 60_000);

    it('verifies every pool of a dropped /pools/proof document', async () => {
      const s = await startAuditServer({ version: 'v11', seed: 'verifier-page' });
      try {
        const res = await fetch(`${s.directBase}/pools/proof`);
        const text = await res.text();
        const file = join(dir, 'proof.json');
        writeFileSync(file, text);
        const n = (JSON.parse(text) as { data: { pools: unknown[] } }).data.pools.length;
        const o = await openFile(browser, page);
        await o.page.setInputFiles('#files', file);
        expect(await verdictOf(o)).toBe('verified');
        expect(await o.page.locator('#pools tr[data-verdict="verified"]').count()).toBe(n);
        await screenshot(o.page, 'verifier-proof');
        expect(o.errors).toEqual([]);
      } finally {
        await s.close();
      }
    }, 60_000);
  },
);
