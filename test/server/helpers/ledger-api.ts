/**
 * A reference server with its Ledger API for tests: the real simulated ledger (SQLite :memory:)
 * with an auditor party, the app on 127.0.0.1:0, tokens minted as `reserve-audit ledger-token`
 * mints them, and a `call` that checks every answer against Canton's OpenAPI document
 * (test/helpers/ledger-openapi.ts) before handing it back.
 */
import { expect } from 'vitest';
import type { ContractIdVersion } from '../../../src/core/hash/contract-id-version.js';
import type { AppOptions } from '../../../src/server/app.js';
import { formatLedgerToken } from '../../../src/server/ledger-api/auth.js';
import { createManualClock, type ManualClock } from '../../../src/sim/clock.js';
import { createExchange, type SimulatedExchange } from '../../../src/sim/ledger.js';
import { createSeededRng } from '../../../src/sim/rng.js';
import { loadSeedMarket } from '../../../src/sim/seed-market.js';
import { openServerDb } from '../../../src/sim/store/connection.js';
import { loadLedgerOpenApi } from '../../helpers/ledger-openapi.js';
import { startTestServer, type TestServer } from './start.js';

export const LEDGER_SECRET = new TextEncoder().encode('a test secret of the ledger api, 43 bytes');
export const AUDITOR = 'auditor::1220aa';
const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);

export const ledgerOpenApi = loadLedgerOpenApi();

export interface LedgerServer {
  readonly ex: SimulatedExchange;
  readonly s: TestServer;
  readonly clock: ManualClock;
  close(): Promise<void>;
}

export async function startLedgerServer(
  o: {
    version?: ContractIdVersion;
    auditorParty?: string | null;
    app?: Partial<AppOptions>;
    seed?: string;
  } = {},
): Promise<LedgerServer> {
  const db = openServerDb(':memory:');
  const clock = createManualClock(T0);
  const auditor = o.auditorParty === undefined ? AUDITOR : o.auditorParty;
  const ex = createExchange({
    db,
    clock,
    rng: createSeededRng(o.seed ?? 'ledger-api'),
    contractIdVersion: o.version ?? 'v12',
    seedMarket: loadSeedMarket(),
    extraPools: 2,
    ...(auditor === null ? {} : { auditorParty: auditor }),
  });
  const s = await startTestServer({
    exchange: ex,
    ledgerApi: { ledger: ex, auth: { hs256Secret: LEDGER_SECRET } },
    ...o.app,
  });
  return {
    ex,
    s,
    clock,
    async close() {
      await s.close();
      expect(s.loggedErrors).toEqual([]);
      db.close();
    },
  };
}

export function tokenFor(
  parties: readonly string[],
  o: {
    user?: string;
    secret?: Uint8Array;
    audience?: string;
    nowMs?: number;
    expiresInSeconds?: number;
  } = {},
): Promise<string> {
  return formatLedgerToken({
    secret: o.secret ?? LEDGER_SECRET,
    user: o.user ?? 'auditor-user',
    readAs: parties,
    expiresInSeconds: o.expiresInSeconds ?? 3600,
    nowMs: o.nowMs ?? Date.now(),
    ...(o.audience === undefined ? {} : { audience: o.audience }),
  });
}

export interface LedgerAnswer {
  readonly status: number;
  readonly contentType: string;
  /** the JSON body, or the text of a non-JSON body */
  readonly body: unknown;
}

/** Counts of answers checked against the document, per `METHOD path status`. */
export const checkedAnswers = new Map<string, number>();

/**
 * One request to the Ledger API; the answer must conform to Canton's OpenAPI document for
 * `docPath` (the path as the document lists it; the request's path by default).
 */
export async function call(
  s: TestServer,
  method: 'GET' | 'POST',
  path: string,
  o: { token?: string | null; body?: unknown; query?: string } = {},
): Promise<LedgerAnswer> {
  const headers: Record<string, string> = {};
  if (o.token !== undefined && o.token !== null) headers.Authorization = `Bearer ${o.token}`;
  if (o.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${s.origin}${path}${o.query ?? ''}`, {
    method,
    headers,
    ...(o.body === undefined ? {} : { body: typeof o.body === 'string' ? o.body : JSON.stringify(o.body) }),
  });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  const body: unknown = contentType.startsWith('application/json') ? JSON.parse(text) : text;
  if (ledgerOpenApi !== null) {
    expect(
      ledgerOpenApi.check(method, path, res.status, contentType, body),
      `${method} ${path} ${text.slice(0, 300)}`,
    ).toEqual([]);
    const key = `${method} ${path} ${res.status}`;
    checkedAnswers.set(key, (checkedAnswers.get(key) ?? 0) + 1);
  }
  return { status: res.status, contentType, body };
}

/** An EventFormat for `parties`, on the reserve template or every template, with blobs or not. */
export function eventFormat(
  parties: readonly string[],
  o: { templateId?: string; blob?: boolean } = {},
): Record<string, unknown> {
  const identifierFilter =
    o.templateId === undefined
      ? { WildcardFilter: { value: { includeCreatedEventBlob: o.blob ?? false } } }
      : { TemplateFilter: { value: { templateId: o.templateId, includeCreatedEventBlob: o.blob ?? false } } };
  return {
    filtersByParty: Object.fromEntries(parties.map((p) => [p, { cumulative: [{ identifierFilter }] }])),
    verbose: false,
  };
}

/** The ACS-delta update format of `/v2/updates`. */
export function updateFormat(
  parties: readonly string[],
  o: { templateId?: string; blob?: boolean } = {},
): unknown {
  return {
    includeTransactions: {
      eventFormat: eventFormat(parties, o),
      transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
    },
  };
}
