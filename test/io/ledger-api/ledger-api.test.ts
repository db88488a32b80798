/**
 * The ledger client against Canton's published OpenAPI document (issue 26):
 * - the committed generated types are what `npm run gen:ledger-types` makes of the document;
 * - every answer of the test participant (test/helpers/fake-participant.ts), in the 3.5 and the 3.4
 *   forms, is valid against the document's schemas (ajv, OpenAPI `nullable`), so the client is tested
 *   on real shapes, not ours — and the client reads each of them;
 * - hostile answers (wrong types, negative offsets, a huge nesting) are typed failures, never values.
 * Skipped, saying so, when ../shared/spec/ledger-api is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createHttpClient, parseBaseUrl } from '../../../src/io/http/index.js';
import { createLedgerClient } from '../../../src/io/ledger-api/index.js';
import {
  parseActiveContracts,
  parseEventsByContractId,
  parseLedgerEnd,
} from '../../../src/io/ledger-api/parse-ledger.js';
import {
  type FakeParticipant,
  type ParticipantContract,
  startFakeParticipant,
} from '../../helpers/fake-participant.js';

const repo = join(import.meta.dirname, '..', '..', '..');
const specDir = join(repo, '..', 'shared', 'spec', 'ledger-api');
const specFile = join(specDir, 'openapi-3.5.7.yaml');
const present = existsSync(specFile);
if (!present)
  console.warn(
    `the ledger API OpenAPI document is missing (${specFile}): its schema and generation tests are skipped`,
  );

const PARTY = 'auditor::1220aa';
const CONTRACTS: ParticipantContract[] = [
  {
    contractId: `00${'11'.repeat(32)}ca1112`,
    blob: 'CgMyLjESAA==',
    createdAt: '2026-11-22T03:00:00.123456Z',
    templateId: `${'ab'.repeat(32)}:Amm.Pool:PoolReserve`,
    packageName: 'amm-pools',
    signatories: ['exchange::1220bb'],
    observers: [PARTY],
  },
  {
    contractId: `00${'22'.repeat(32)}ca1112`,
    blob: 'CgMyLjESAQ==',
    createdAt: '2026-11-22T03:00:01Z',
    templateId: `${'ab'.repeat(32)}:Amm.Pool:PoolReserve`,
    packageName: 'amm-pools',
    signatories: ['exchange::1220bb'],
    archived: { effectiveAt: '2026-11-22T03:00:05.5Z' },
  },
];

describe.skipIf(!present)('ledger API: the published document', () => {
  it('the committed generated types are up to date (npm run gen:ledger-types)', async () => {
    const { renderLedgerTypesModule } = (await import(join(repo, 'scripts', 'gen-ledger-types.mjs'))) as {
      renderLedgerTypesModule: (spec: string) => Promise<string>;
    };
    const committed = readFileSync(
      join(repo, 'src', 'io', 'ledger-api', 'generated', 'ledger-api-v2.ts'),
      'utf8',
    );
    expect(await renderLedgerTypesModule(specFile)).toBe(committed);
    expect(committed).toContain('licence Apache-2.0');
  });

  describe.each(['3.5', '3.4'] as const)('answers in the %s form', (variant) => {
    let p: FakeParticipant;
    const http = createHttpClient({ maxRps: 1000, timeoutMs: 5000 });
    beforeAll(async () => {
      p = await startFakeParticipant({ token: 'tok', party: PARTY, variant });
      p.set({ contracts: CONTRACTS });
    });
    afterAll(async () => {
      await p.close();
      await http.close();
    });

    it('are valid against the OpenAPI document, and the client reads each of them', async () => {
      const client = createLedgerClient({ baseUrl: parseBaseUrl(p.url), token: 'tok', party: PARTY, http });
      const end = await client.readLedgerEnd();
      expect(end).toEqual({ ok: true, value: 5 });
      expect(await client.readPrunedOffset()).toEqual({ ok: true, value: 0 });
      const first = await client.readEventsOfContract(CONTRACTS[0]!.contractId);
      expect(first.ok && first.value.created?.createdEventBlob).toBe(CONTRACTS[0]!.blob);
      expect(first.ok && first.value.archived).toBe(null);
      const second = await client.readEventsOfContract(CONTRACTS[1]!.contractId);
      expect(second.ok && second.value.archived?.offset).toBe(4);
      const at = await client.readUpdateEffectiveAt(4, ['#amm-pools:Amm.Pool:PoolReserve']);
      expect(at).toEqual({ ok: true, value: Date.parse('2026-11-22T03:00:05.500Z') });
      const acs = await client.readActiveContracts(5, ['#amm-pools:Amm.Pool:PoolReserve']);
      expect(acs.ok && acs.value.map((c) => c.contractId)).toEqual([CONTRACTS[0]!.contractId]);
      const missing = await client.readEventsOfContract(`00${'33'.repeat(32)}`);
      expect(missing).toMatchObject({ ok: false, status: 404, code: 'CONTRACT_EVENTS_NOT_FOUND' });
      // the requests the client sent are the document's request shapes too
      const doc = parse(readFileSync(specFile, 'utf8')) as Record<string, unknown>;
      const ajv = new Ajv({ strict: false, allErrors: true, formats: { int32: true, int64: true } });
      addFormats.default(ajv);
      ajv.addSchema(doc, 'openapi');
      const validate = (ref: string, value: unknown): void => {
        const v = ajv.getSchema(`openapi${ref}`);
        expect(v, ref).toBeDefined();
        const ok = v!(value);
        expect(ok, `${ref}: ${JSON.stringify(v!.errors?.slice(0, 3))}`).toBe(true);
      };
      // the validator does refuse what the document does not allow
      const events = ajv.getSchema('openapi#/components/schemas/JsGetEventsByContractIdResponse')!;
      expect(events({ created: { createdEvent: { offset: 1 }, synchronizerId: 's' } })).toBe(false);
      expect(p.answers.length).toBeGreaterThanOrEqual(7);
      for (const a of p.answers) {
        if (a.schema.array) for (const item of a.body as unknown[]) validate(a.schema.ref, item);
        else validate(a.schema.ref, a.body);
      }
      const bodies: Record<string, string> = {
        '/v2/events/events-by-contract-id': '#/components/schemas/GetEventsByContractIdRequest',
        '/v2/state/active-contracts': '#/components/schemas/GetActiveContractsRequest',
        '/v2/updates': '#/components/schemas/GetUpdatesRequest',
      };
      for (const q of p.requests) {
        const ref = bodies[q.path];
        if (ref !== undefined) validate(ref, JSON.parse(q.body));
        expect(q.authorization).toBe('Bearer tok');
      }
    });
  });
});

describe('ledger API: hostile answers are typed failures', () => {
  it.each([
    ['an offset that is negative', () => parseLedgerEnd({ offset: -1 })],
    ['an offset past 2^53', () => parseLedgerEnd({ offset: 2 ** 60 })],
    ['an offset that is text', () => parseLedgerEnd({ offset: 'ten' })],
    [
      'a created event without contractId',
      () => parseEventsByContractId({ created: { createdEvent: { offset: 1 } } }),
    ],
    ['an archive without an event', () => parseEventsByContractId({ archived: { synchronizerId: 's' } })],
    ['an ACS that is an object', () => parseActiveContracts({ contractEntry: {} })],
    [
      'an ACS entry of the wrong type',
      () => parseActiveContracts([{ contractEntry: { JsActiveContract: 5 } }]),
    ],
  ])('%s', (_what, f) => {
    expect(f).toThrowError(expect.objectContaining({ code: 'LEDGER_RESPONSE_INVALID' }));
  });

  it("goes through the auditor's HTTP client: a 503 with Retry-After is retried inside the budget, POSTs included", async () => {
    const { createServer } = await import('node:http');
    let n = 0;
    const s = createServer((q, r) => {
      n++;
      if (n <= 2) {
        r.writeHead(503, { 'retry-after': '0', 'content-type': 'text/plain' });
        r.end('busy');
        return;
      }
      expect(q.headers.authorization).toBe('Bearer tok');
      r.writeHead(200, { 'content-type': 'application/json' });
      r.end('[]');
    });
    await new Promise<void>((res) => s.listen(0, '127.0.0.1', res));
    const http = createHttpClient({ maxRps: 1000, timeoutMs: 5000 });
    try {
      const port = (s.address() as { port: number }).port;
      const client = createLedgerClient({
        baseUrl: parseBaseUrl(`http://127.0.0.1:${port}`),
        token: 'tok',
        party: PARTY,
        http,
      });
      expect(await client.readActiveContracts(3, ['#amm-pools:Amm.Pool:PoolReserve'])).toEqual({
        ok: true,
        value: [],
      });
      expect(http.counts()).toMatchObject({ sent: 3, retried: 2, failed: 2 });
    } finally {
      await http.close();
      s.closeAllConnections();
      await new Promise<void>((res) => s.close(() => res()));
    }
  });

  it('a body nested past the JSON bounds is refused before it is parsed, as a could-not-check answer', async () => {
    const { createServer } = await import('node:http');
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const s = createServer((_q, r) => {
      r.writeHead(200, { 'content-type': 'application/json' });
      r.end(deep);
    });
    await new Promise<void>((res) => s.listen(0, '127.0.0.1', res));
    const http = createHttpClient({ maxRps: 1000, timeoutMs: 2000 });
    try {
      const port = (s.address() as { port: number }).port;
      const client = createLedgerClient({
        baseUrl: parseBaseUrl(`http://127.0.0.1:${port}`),
        token: null,
        party: PARTY,
        http,
      });
      expect(await client.readLedgerEnd()).toMatchObject({ ok: false, code: 'HTTP_JSON_TOO_COMPLEX' });
    } finally {
      await http.close();
      s.closeAllConnections();
      await new Promise<void>((res) => s.close(() => res()));
    }
  });
});
