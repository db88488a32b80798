/**
 * Authentication, read-as rights, visibility and refusals of the reference server's Ledger API
 * (src/server/ledger-api/), over HTTP on a free port. A token that is missing, expired, signed
 * with another key or for another audience is `401 UNAUTHENTICATED`; reading as a party the token
 * does not grant is `403 PERMISSION_DENIED`; a party that is no stakeholder of a reserve contract
 * sees nothing of it (`404 CONTRACT_EVENTS_NOT_FOUND`, empty lists); bad input is a 4xx in Canton's
 * shape, never a 5xx. RS256 tokens verify under a configured public key (PEM or JWK). Every answer
 * is checked against Canton's OpenAPI document (helpers/ledger-api.ts `call`).
 */
import fc from 'fast-check';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LEDGER_AUDIENCE, parseLedgerPublicKey } from '../../src/server/ledger-api/auth.js';
import { RESERVE_PACKAGE_ID } from '../../src/sim/reserve-template.js';
import {
  AUDITOR,
  call,
  eventFormat,
  LEDGER_SECRET,
  type LedgerServer,
  startLedgerServer,
  tokenFor,
  updateFormat,
} from './helpers/ledger-api.js';
import { startTestServer } from './helpers/start.js';

const STRANGER = 'stranger::1220bb';
let L: LedgerServer;
let auditorToken: string;
let contractId: string;

beforeAll(async () => {
  L = await startLedgerServer();
  auditorToken = await tokenFor([AUDITOR]);
  contractId = L.ex.pools()[0]!.reserveContract.contractId;
});
afterAll(async () => {
  await L.close();
});

const byId = (token: string | null, party: string) =>
  call(L.s, 'POST', '/v2/events/events-by-contract-id', {
    token,
    body: { contractId, eventFormat: eventFormat([party]) },
  });

type CantonError = { code: string; cause: string; errorCategory: number; grpcCodeValue: number };

describe('bearer tokens', () => {
  it('a valid token of the auditor reads the contract', async () => {
    expect((await byId(auditorToken, AUDITOR)).status).toBe(200);
  });

  it.each([
    ['no token', async () => null],
    [
      'a token signed with another secret',
      () => tokenFor([AUDITOR], { secret: new TextEncoder().encode('another secret, also 32 bytes long!') }),
    ],
    [
      'an expired token',
      () => tokenFor([AUDITOR], { nowMs: Date.now() - 7_200_000, expiresInSeconds: 3_600 }),
    ],
    [
      'a token for another audience',
      () => tokenFor([AUDITOR], { audience: 'https://daml.com/jwt/aud/participant/other' }),
    ],
    ['a token that is not a JWT', async () => 'not-a-jwt'],
    [
      'an unsigned token (alg none)',
      async () => {
        const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
        return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: 'u', aud: DEFAULT_LEDGER_AUDIENCE, exp: 9e9, read_as: [AUDITOR] })}.`;
      },
    ],
    [
      'a token without exp',
      () =>
        new SignJWT({ read_as: [AUDITOR] })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('u')
          .setAudience(DEFAULT_LEDGER_AUDIENCE)
          .sign(LEDGER_SECRET),
    ],
    [
      'a token whose read_as is not a list of parties',
      () =>
        new SignJWT({ read_as: 'auditor' })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('u')
          .setAudience(DEFAULT_LEDGER_AUDIENCE)
          .setExpirationTime('1h')
          .sign(LEDGER_SECRET),
    ],
  ])('%s is 401 UNAUTHENTICATED, on every endpoint', async (_name, make) => {
    const token = await make();
    for (const [method, path, body] of [
      ['POST', '/v2/events/events-by-contract-id', { contractId, eventFormat: eventFormat([AUDITOR]) }],
      ['GET', '/v2/state/ledger-end', undefined],
      ['GET', '/v2/version', undefined],
      ['POST', '/v2/state/active-contracts', { activeAtOffset: 1, eventFormat: eventFormat([AUDITOR]) }],
      ['POST', '/v2/updates', { beginExclusive: 0, updateFormat: updateFormat([AUDITOR]) }],
    ] as const) {
      const r = await call(L.s, method, path, { token, ...(body === undefined ? {} : { body }) });
      expect(r.status, `${method} ${path}`).toBe(401);
      expect((r.body as CantonError).code).toBe('UNAUTHENTICATED');
      expect((r.body as CantonError).errorCategory).toBe(6);
      // the token is never echoed
      if (token !== null) expect(JSON.stringify(r.body)).not.toContain(token);
    }
  });

  it('an RS256 token verifies under the configured public key (PEM and JWK), an HS256 one then does not', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const sign = (alg: 'RS256') =>
      new SignJWT({ read_as: [AUDITOR] })
        .setProtectedHeader({ alg })
        .setSubject('rs-user')
        .setAudience(DEFAULT_LEDGER_AUDIENCE)
        .setExpirationTime('10m')
        .sign(privateKey);
    for (const text of [await exportSPKI(publicKey), JSON.stringify(await exportJWK(publicKey))]) {
      const key = await parseLedgerPublicKey(text);
      // the same ledger, served with the public key only
      const s = await startTestServer({
        exchange: L.ex,
        ledgerApi: { ledger: L.ex, auth: { rs256PublicKey: key } },
      });
      try {
        const ok = await call(s, 'GET', '/v2/state/ledger-end', { token: await sign('RS256') });
        expect(ok.status).toBe(200);
        const hs = await call(s, 'GET', '/v2/state/ledger-end', { token: await tokenFor([AUDITOR]) });
        expect(hs.status).toBe(401);
      } finally {
        await s.close();
      }
    }
  });

  it('a private key, or text that is no key, is refused as the public key', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    await expect(parseLedgerPublicKey(JSON.stringify(await exportJWK(privateKey)))).rejects.toThrow(
      /SERVER_OPTION_INVALID/,
    );
    await expect(parseLedgerPublicKey('hello')).rejects.toThrow(/SERVER_OPTION_INVALID/);
  });
});

describe('read-as rights and visibility', () => {
  it('reading as a party the token does not grant is 403 PERMISSION_DENIED', async () => {
    const operator = L.ex.operatorParty();
    const r = await byId(auditorToken, operator);
    expect(r.status).toBe(403);
    expect((r.body as CantonError).code).toBe('PERMISSION_DENIED');
    const any = await call(L.s, 'POST', '/v2/state/active-contracts', {
      token: auditorToken,
      body: { activeAtOffset: 1, eventFormat: { filtersForAnyParty: {} } },
    });
    expect(any.status).toBe(403);
  });

  it('a party that is no stakeholder sees nothing: 404 for the contract, empty lists', async () => {
    const stranger = await tokenFor([STRANGER], { user: 'stranger' });
    const r = await byId(stranger, STRANGER);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'CONTRACT_EVENTS_NOT_FOUND', errorCategory: 11, grpcCodeValue: 5 });
    const end = (await call(L.s, 'GET', '/v2/state/ledger-end', { token: stranger })).body as {
      offset: number;
    };
    expect(end.offset).toBeGreaterThan(0);
    const acs = await call(L.s, 'POST', '/v2/state/active-contracts', {
      token: stranger,
      body: { activeAtOffset: end.offset, eventFormat: eventFormat([STRANGER]) },
    });
    expect(acs.body).toEqual([]);
    const updates = await call(L.s, 'POST', '/v2/updates', {
      token: stranger,
      body: { beginExclusive: 0, updateFormat: updateFormat([STRANGER]) },
    });
    expect(updates.body).toEqual([]);
    // the unknown contract is the same 404 as the invisible one
    const unknown = await call(L.s, 'POST', '/v2/events/events-by-contract-id', {
      token: auditorToken,
      body: { contractId: `00${'ab'.repeat(68)}`, eventFormat: eventFormat([AUDITOR]) },
    });
    expect(unknown.status).toBe(404);
  });

  it('the operator, a signatory, sees the contract too; the witnesses are the requesting stakeholders', async () => {
    const operator = L.ex.operatorParty();
    const both = await tokenFor([AUDITOR, operator, STRANGER], { user: 'exchange' });
    const r = await call(L.s, 'POST', '/v2/events/events-by-contract-id', {
      token: both,
      body: { contractId, eventFormat: eventFormat([operator, AUDITOR, STRANGER]) },
    });
    expect(r.status).toBe(200);
    const ev = r.body as { created: { createdEvent: { witnessParties: string[] } } };
    expect(ev.created.createdEvent.witnessParties).toEqual([operator, AUDITOR]);
  });

  it('without --auditor-party the auditor is no stakeholder: the same contract is not visible to it', async () => {
    const plain = await startLedgerServer({ auditorParty: null });
    try {
      const cid = plain.ex.pools()[0]!.reserveContract.contractId;
      const r = await call(plain.s, 'POST', '/v2/events/events-by-contract-id', {
        token: auditorToken,
        body: { contractId: cid, eventFormat: eventFormat([AUDITOR]) },
      });
      expect(r.status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('users configured on the server read as their parties with a token that names none', async () => {
    const s = await startTestServer({
      exchange: L.ex,
      ledgerApi: {
        ledger: L.ex,
        auth: { hs256Secret: LEDGER_SECRET, users: new Map([['audit-desk', [AUDITOR]]]) },
      },
    });
    try {
      const desk = await tokenFor([], { user: 'audit-desk' });
      const ok = await call(s, 'POST', '/v2/events/events-by-contract-id', {
        token: desk,
        body: { contractId, eventFormat: eventFormat([AUDITOR]) },
      });
      expect(ok.status).toBe(200);
      const other = await tokenFor([], { user: 'someone-else' });
      const no = await call(s, 'POST', '/v2/events/events-by-contract-id', {
        token: other,
        body: { contractId, eventFormat: eventFormat([AUDITOR]) },
      });
      expect(no.status).toBe(403);
    } finally {
      await s.close();
    }
  });
});

describe('refusals in Canton shape, never a 5xx', () => {
  const post = (path: string, body: unknown, query = '') =>
    call(L.s, 'POST', path, { token: auditorToken, body, query });

  it.each([
    ['/v2/events/events-by-contract-id', 'not json', 400, null],
    ['/v2/events/events-by-contract-id', [], 400, null],
    ['/v2/events/events-by-contract-id', { contractId }, 400, null],
    ['/v2/events/events-by-contract-id', { contractId: 5, eventFormat: {} }, 400, null],
    [
      '/v2/events/events-by-contract-id',
      { contractId: 'zz', eventFormat: eventFormat([AUDITOR]) },
      400,
      'INVALID_ARGUMENT',
    ],
    ['/v2/events/events-by-contract-id', { contractId: '00', eventFormat: {} }, 400, 'INVALID_ARGUMENT'],
    [
      '/v2/events/events-by-contract-id',
      { contractId: '00', eventFormat: { filtersByParty: { 'bad party!': {} } } },
      400,
      'INVALID_ARGUMENT',
    ],
    [
      '/v2/events/events-by-contract-id',
      {
        contractId: '00',
        eventFormat: eventFormat([AUDITOR], { templateId: `${RESERVE_PACKAGE_ID}:Other:Template` }),
      },
      404,
      'TEMPLATES_OR_INTERFACES_NOT_FOUND',
    ],
    ['/v2/state/active-contracts', { eventFormat: eventFormat([AUDITOR]) }, 400, null],
    ['/v2/state/active-contracts', { activeAtOffset: '1', eventFormat: eventFormat([AUDITOR]) }, 400, null],
    [
      '/v2/state/active-contracts',
      { activeAtOffset: -1, eventFormat: eventFormat([AUDITOR]) },
      400,
      'INVALID_ARGUMENT',
    ],
    [
      '/v2/state/active-contracts',
      { activeAtOffset: 1e12, eventFormat: eventFormat([AUDITOR]) },
      400,
      'OFFSET_AFTER_LEDGER_END',
    ],
    ['/v2/state/active-contracts', { activeAtOffset: 1 }, 400, 'INVALID_ARGUMENT'],
    ['/v2/updates', { beginExclusive: 0 }, 400, 'INVALID_ARGUMENT'],
    [
      '/v2/updates',
      { beginExclusive: 1e12, updateFormat: updateFormat([AUDITOR]) },
      400,
      'OFFSET_AFTER_LEDGER_END',
    ],
    [
      '/v2/updates',
      { beginExclusive: 3, endInclusive: 2, updateFormat: updateFormat([AUDITOR]) },
      400,
      'OFFSET_OUT_OF_RANGE',
    ],
    [
      '/v2/updates',
      {
        beginExclusive: 0,
        updateFormat: {
          includeTransactions: {
            eventFormat: eventFormat([AUDITOR]),
            transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
          },
        },
      },
      400,
      'INVALID_ARGUMENT',
    ],
  ])('POST %s %j → %i %s', async (path, body, status, code) => {
    const r = await post(path, body);
    expect(r.status).toBe(status);
    if (code === null) {
      expect(r.contentType).toMatch(/^text\/plain/);
      expect(r.body).toMatch(/^Invalid value for: body/);
    } else {
      expect((r.body as CantonError).code).toBe(code);
    }
  });

  it('a malformed limit is 400; a limit bounds the list', async () => {
    const bad = await post(
      '/v2/state/active-contracts',
      { activeAtOffset: 1, eventFormat: eventFormat([AUDITOR]) },
      '?limit=x',
    );
    expect(bad.status).toBe(400);
    const end = L.ex.ledgerEnd();
    const two = await post(
      '/v2/state/active-contracts',
      { activeAtOffset: end, eventFormat: eventFormat([AUDITOR]) },
      '?limit=2',
    );
    expect((two.body as unknown[]).length).toBe(2);
  });

  it('more elements than the list limit, without a smaller limit, is 413 JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', async () => {
    const s = await startTestServer({
      exchange: L.ex,
      ledgerApi: { ledger: L.ex, auth: { hs256Secret: LEDGER_SECRET }, listLimit: 2 },
    });
    try {
      const body = { activeAtOffset: L.ex.ledgerEnd(), eventFormat: eventFormat([AUDITOR]) };
      const r = await call(s, 'POST', '/v2/state/active-contracts', { token: auditorToken, body });
      expect(r.status).toBe(413);
      expect((r.body as CantonError).code).toBe('JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED');
      const limited = await call(s, 'POST', '/v2/state/active-contracts', {
        token: auditorToken,
        body,
        query: '?limit=2',
      });
      expect(limited.status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it("random bodies, near-valid and hostile, never produce a 5xx and always answer in the document's shapes (fast-check)", async () => {
    const scalar = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(AUDITOR),
      fc.constant(contractId),
      fc.constant(Number.MAX_SAFE_INTEGER + 2),
    );
    const identifierFilter = fc.oneof(
      scalar,
      fc.record({
        WildcardFilter: fc.oneof(
          scalar,
          fc.record({ value: fc.record({ includeCreatedEventBlob: scalar }) }),
        ),
      }),
      fc.record({
        TemplateFilter: fc.record({
          value: fc.record(
            {
              templateId: fc.oneof(
                scalar,
                fc.constantFrom(
                  `${RESERVE_PACKAGE_ID}:Amm.Pool:PoolReserve`,
                  '#amm-pools:Amm.Pool:PoolReserve',
                  '#x:Y:Z',
                  ':::',
                ),
              ),
              includeCreatedEventBlob: scalar,
            },
            { requiredKeys: [] },
          ),
        }),
      }),
      fc.record({ InterfaceFilter: fc.record({ value: fc.record({ interfaceId: scalar }) }) }),
      fc.record({ Empty: fc.constant({}) }),
    );
    const filters = fc.oneof(
      scalar,
      fc.record(
        {
          cumulative: fc.oneof(
            scalar,
            fc.array(fc.oneof(scalar, fc.record({ identifierFilter })), { maxLength: 3 }),
          ),
        },
        { requiredKeys: [] },
      ),
    );
    // near-valid most of the time, so the sweep reaches the handlers' later rules (and 200s)
    const valid = fc.constantFrom(
      eventFormat([AUDITOR]),
      eventFormat([AUDITOR], { blob: true, templateId: `#amm-pools:Amm.Pool:PoolReserve` }),
      eventFormat([STRANGER]),
      eventFormat(['cantex-amm-operator::1220']),
    );
    const format = fc.oneof(
      { arbitrary: valid, weight: 4 },
      { arbitrary: scalar, weight: 1 },
      fc.record(
        {
          filtersByParty: fc.oneof(
            scalar,
            fc.dictionary(
              fc.oneof(fc.constant(AUDITOR), fc.constant(STRANGER), fc.string({ maxLength: 8 })),
              filters,
              { maxKeys: 3 },
            ),
          ),
          filtersForAnyParty: filters,
          verbose: scalar,
        },
        { requiredKeys: [] },
      ),
    );
    const seldom = <T>(a: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: a, weight: 1 });
    const offset = fc.oneof(
      { arbitrary: fc.integer({ min: -2, max: 40 }), weight: 4 },
      { arbitrary: scalar, weight: 1 },
    );
    const cid = fc.oneof({ arbitrary: fc.constant(contractId), weight: 3 }, { arbitrary: scalar, weight: 1 });
    const bodies = fc.oneof(
      fc
        .record({ contractId: cid, eventFormat: format }, { requiredKeys: ['eventFormat'] })
        .map((b) => ['/v2/events/events-by-contract-id', b] as const),
      fc
        .record(
          {
            activeAtOffset: offset,
            eventFormat: format,
            filter: seldom(format),
            streamContinuationToken: seldom(scalar),
          },
          { requiredKeys: ['activeAtOffset', 'eventFormat'] },
        )
        .map((b) => ['/v2/state/active-contracts', b] as const),
      fc
        .record(
          {
            beginExclusive: offset,
            endInclusive: offset,
            updateFormat: fc.oneof(
              {
                arbitrary: format.map((eventFormat) => ({
                  includeTransactions: { eventFormat, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
                })),
                weight: 3,
              },
              { arbitrary: scalar, weight: 1 },
              fc.record(
                {
                  includeTransactions: fc.oneof(
                    scalar,
                    fc.record(
                      {
                        eventFormat: format,
                        transactionShape: fc.oneof(
                          scalar,
                          fc.constantFrom('TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
                        ),
                      },
                      { requiredKeys: [] },
                    ),
                  ),
                },
                { requiredKeys: [] },
              ),
            ),
            filter: seldom(format),
            descendingOrder: seldom(scalar),
          },
          { requiredKeys: ['beginExclusive', 'updateFormat'] },
        )
        .map((b) => ['/v2/updates', b] as const),
      fc.jsonValue().map((b) => ['/v2/updates/flats', b] as const),
    );
    // reads as the auditor and as a party that is no stakeholder (404s), not as the operator (403s)
    const token = await tokenFor([AUDITOR, STRANGER], { user: 'fuzz' });
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        bodies,
        fc.oneof(
          { arbitrary: fc.constant(''), weight: 4 },
          {
            arbitrary: fc.constantFrom('?limit=1', '?limit=-1', '?limit=1e3', '?stream_idle_timeout_ms=x'),
            weight: 1,
          },
        ),
        async ([path, body], query) => {
          const r = await call(L.s, 'POST', path, { token, body: JSON.stringify(body), query });
          expect(r.status).toBeLessThan(500);
          seen.add(r.status);
        },
      ),
      { numRuns: 300 },
    );
    // the sweep reached answers of every kind, not only the body decoder's
    expect([...seen].sort()).toEqual([200, 400, 403, 404]);
  });
});
