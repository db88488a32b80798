/**
 * The strict response parsers (src/core/wire) against the reference server's real responses (every
 * endpoint, unknown keys rejected), against the live service's recorded quote bodies
 * (fixtures/recordings), and against a table of malformed shapes with path-precise messages.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseAggregatorOrderbookResponse,
  parseAggregatorPairsResponse,
  parseAggregatorTickersResponse,
  parseConnectQuoteResponse,
  parseErrorResponse,
  parseExchangeInfoResponse,
  parseMarketsInfoResponse,
  parsePoolsInfoResponse,
  parsePoolsProofPerPool,
  parsePoolsProofResponse,
  parsePoolsQuoteResponse,
  parsePoolsStatePerPool,
  parsePoolsStateResponse,
  parseStatsResponse,
  parseSwapInfoResponse,
  parseTokensInfoResponse,
  parseVolumeResponse,
} from '../../src/core/wire/index.js';
import { ApiShapeError } from '../../src/errors/api.js';
import { type ReferenceServer, startReferenceServer } from './reference-server.js';

type Parser = (json: unknown, o?: { unknownKeys?: 'ignore' | 'reject'; maxArrayLength?: number }) => unknown;

const RECORDINGS = new URL('../../fixtures/recordings/', import.meta.url);
const recording = (name: string): { body: unknown; body_raw_text: string } =>
  JSON.parse(readFileSync(new URL(name, RECORDINGS), 'utf8')) as { body: unknown; body_raw_text: string };

let server: ReferenceServer;
const bodies = new Map<string, unknown>();
let connectQuote: unknown;
let poolsQuote: unknown;

const ENDPOINTS: readonly [string, Parser][] = [
  ['/tokens/info', parseTokensInfoResponse],
  ['/swap/info', parseSwapInfoResponse],
  ['/markets/info', parseMarketsInfoResponse],
  ['/exchange/info', parseExchangeInfoResponse],
  ['/pools/info', parsePoolsInfoResponse],
  ['/pools/state', parsePoolsStateResponse],
  ['/pools/proof', parsePoolsProofResponse],
  ['/stats', parseStatsResponse],
  ['/volume', parseVolumeResponse],
  ['/aggregator/pairs', parseAggregatorPairsResponse],
  ['/aggregator/tickers', parseAggregatorTickersResponse],
];

beforeAll(async () => {
  server = await startReferenceServer({ prefillMs: 2 * 3600_000, swapsPerMinute: 1 });
  for (const [path] of ENDPOINTS) {
    const res = await fetch(server.base + path);
    expect(res.status, path).toBe(200);
    bodies.set(path, await res.json());
  }
  const pairs = bodies.get('/aggregator/pairs') as { ticker_id: string }[];
  const ob = await fetch(
    `${server.base}/aggregator/orderbook?ticker_id=${encodeURIComponent(pairs[0]?.ticker_id ?? '')}`,
  );
  bodies.set('/aggregator/orderbook', await ob.json());
  const cc = (
    bodies.get('/swap/info') as {
      data: { fees: { network_fee: { instrument_id: string; instrument_admin: string } } };
    }
  ).data.fees.network_fee;
  const usdcx = (
    bodies.get('/tokens/info') as { tokens: { info: { instrument_id: string; instrument_admin: string } }[] }
  ).tokens
    .map((t) => t.info)
    .find((t) => t.instrument_id === 'USDCx');
  const req = {
    sellAmount: '100',
    sellInstrumentId: cc.instrument_id,
    sellInstrumentAdmin: cc.instrument_admin,
    buyInstrumentId: usdcx?.instrument_id,
    buyInstrumentAdmin: usdcx?.instrument_admin,
    affiliateCode: 'abc',
  };
  const q = await fetch(`${server.base}/connect/quote`, { method: 'POST', body: JSON.stringify(req) });
  expect(q.status).toBe(200);
  connectQuote = await q.json();
  const { affiliateCode: _drop, ...poolsReq } = req;
  const pq = await fetch(`${server.base}/pools/quote`, { method: 'POST', body: JSON.stringify(poolsReq) });
  poolsQuote = pq.status === 200 ? await pq.json() : null;
});

afterAll(async () => {
  await server?.close();
});

function expectShapeError(fn: () => unknown, message: string | RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ApiShapeError);
  const e = caught as ApiShapeError;
  expect(e.code).toBe('API_SHAPE_INVALID');
  if (typeof message === 'string') expect(e.shortMessage).toBe(message);
  else expect(e.shortMessage).toMatch(message);
}

const clone = <T>(v: T): T => structuredClone(v);

describe('the reference server responses parse strictly (unknown keys rejected)', () => {
  it.each(ENDPOINTS.map(([p]) => [p]))('%s', (path) => {
    const parse = ENDPOINTS.find(([p]) => p === path)?.[1] as Parser;
    const body = bodies.get(path);
    const parsed = parse(body, { unknownKeys: 'reject' });
    // the parsed value keeps exactly the documented data: equal to the body for our own server
    expect(parsed).toEqual(body);
  });

  it('/aggregator/orderbook', () => {
    const body = bodies.get('/aggregator/orderbook');
    const ob = parseAggregatorOrderbookResponse(body, { unknownKeys: 'reject' });
    expect(ob.bids.length).toBeGreaterThan(0);
    expect(ob).toEqual(body);
  });

  it('/connect/quote (with memo and affiliate_code)', () => {
    const q = parseConnectQuoteResponse(connectQuote, { unknownKeys: 'reject' });
    expect(q.memo).toBe('USDCx ref:abc');
    expect(q.sent.affiliate_code).toBe('abc');
    expect(q).toEqual(connectQuote);
  });

  it('/pools/quote (extension) when served', () => {
    if (poolsQuote === null) return;
    expect(parsePoolsQuoteResponse(poolsQuote, { unknownKeys: 'reject' })).toEqual(poolsQuote);
  });
});

describe('recorded live quote bodies (fixtures/recordings)', () => {
  for (const name of ['synfin-pools-quote-cc-usdcx-100.json', 'synfin-pools-quote-cc-usdcx-500.json']) {
    it(`${name} parses as a /pools/quote response with no unknown key`, () => {
      const rec = recording(name);
      const q = parsePoolsQuoteResponse(JSON.parse(rec.body_raw_text), { unknownKeys: 'reject' });
      expect(q.pools).toHaveLength(1);
      expect(q.estimated_time_seconds).toMatch(/^\d+\.\d\d$/);
      expect(q).toEqual(rec.body);
    });
  }

  it('a /pools/quote body is not a /connect/quote body: sent.affiliate_code and memo are required there', () => {
    const rec = recording('synfin-pools-quote-cc-usdcx-100.json');
    const body = clone(rec.body) as { sent: Record<string, unknown> };
    expectShapeError(
      () => parseConnectQuoteResponse(body),
      'sent.affiliate_code expected a string or null, got no value (missing key)',
    );
    body.sent.affiliate_code = null;
    expectShapeError(
      () => parseConnectQuoteResponse(body),
      'memo expected a string, got no value (missing key)',
    );
  });

  it('the trimmed network fee is accepted only where api-decisions §1 allows it', () => {
    const body = clone(recording('synfin-pools-quote-cc-usdcx-100.json').body) as {
      fees: { amount_admin: string };
    };
    body.fees.amount_admin = '0.005';
    expectShapeError(
      () => parsePoolsQuoteResponse(body),
      'fees.amount_admin expected a decimal string with 10 decimals, got "0.005": it has 3 decimal places, not 10',
    );
  });
});

// biome-ignore lint/suspicious/noExplicitAny: mutations poke into parsed JSON of known shape
type Mutation = readonly [name: string, endpoint: string, mutate: (b: any) => void, message: string | RegExp];

const MALFORMED: readonly Mutation[] = [
  [
    'number instead of decimal string',
    '/pools/state',
    (b) => {
      b.data.pools[3].reserve_a = 12;
    },
    'data.pools[3].reserve_a expected a decimal string with 10 decimals, got 12',
  ],
  [
    'exponent',
    '/pools/state',
    (b) => {
      b.data.pools[0].reserve_b = '1e5';
    },
    'data.pools[0].reserve_b expected a decimal string with 10 decimals, got "1e5": it has an exponent',
  ],
  [
    'negative reserve',
    '/pools/state',
    (b) => {
      b.data.pools[0].reserve_a = '-1.0000000000';
    },
    /^data\.pools\[0\]\.reserve_a expected a decimal string/,
  ],
  [
    '2 decimals where 10 are decided',
    '/pools/state',
    (b) => {
      b.data.pools[1].tvl_cc = '10.00';
    },
    'data.pools[1].tvl_cc expected a decimal string with 10 decimals, got "10.00": it has 2 decimal places, not 10',
  ],
  [
    'leading zero',
    '/pools/state',
    (b) => {
      b.data.pools[0].fee_rate = '00.0030000000';
    },
    /^data\.pools\[0\]\.fee_rate expected/,
  ],
  [
    'price neither string nor null',
    '/pools/state',
    (b) => {
      b.data.pools[0].price = 0.15;
    },
    'data.pools[0].price expected a decimal string with 10 decimals, got 0.15',
  ],
  [
    'missing key',
    '/pools/state',
    (b) => {
      delete b.data.updated_at;
    },
    'data.updated_at expected an ISO 8601 timestamp with offset +00:00, got no value (missing key)',
  ],
  [
    'Z instead of +00:00',
    '/pools/state',
    (b) => {
      b.data.updated_at = '2026-11-01T12:00:00Z';
    },
    'data.updated_at expected an ISO 8601 timestamp with offset +00:00, got "2026-11-01T12:00:00Z"',
  ],
  [
    'impossible date',
    '/swap/info',
    (b) => {
      b.data.updated_at = '2026-02-30T12:00:00+00:00';
    },
    /^data\.updated_at expected an ISO 8601 timestamp/,
  ],
  [
    'other offset',
    '/exchange/info',
    (b) => {
      b.data.updated_at = '2026-11-01T12:00:00+01:00';
    },
    /^data\.updated_at expected an ISO 8601 timestamp/,
  ],
  [
    'pools not an array',
    '/pools/info',
    (b) => {
      b.pools = {};
    },
    'pools expected an array, got {}',
  ],
  [
    'element not an object',
    '/tokens/info',
    (b) => {
      b.tokens[1] = null;
    },
    'tokens[1] expected an object, got null',
  ],
  [
    'nested info missing',
    '/tokens/info',
    (b) => {
      delete b.tokens[0].info;
    },
    'tokens[0].info expected an object, got no value (missing key)',
  ],
  [
    'price_aggregator_id a number',
    '/tokens/info',
    (b) => {
      b.tokens[0].info.price_aggregator_id = 7;
    },
    'tokens[0].info.price_aggregator_id expected a string or null, got 7',
  ],
  [
    'blob not base64',
    '/pools/proof',
    (b) => {
      b.data.pools[0].reserve_contract.created_event_blob = 'not base64!';
    },
    'data.pools[0].reserve_contract.created_event_blob expected a base64 string, got "not base64!"',
  ],
  [
    'upper-case contract id',
    '/pools/proof',
    (b) => {
      b.data.pools[0].reserve_contract.contract_id = '00AB';
    },
    'data.pools[0].reserve_contract.contract_id expected a lower-case hex string, got "00AB"',
  ],
  [
    'package id not 32 bytes',
    '/pools/proof',
    (b) => {
      b.data.pools[0].reserve_contract.template.package_id = 'ab'.repeat(40);
    },
    /^data\.pools\[0\]\.reserve_contract\.template\.package_id expected a lower-case hex string/,
  ],
  [
    'negative count',
    '/stats',
    (b) => {
      b.stats.swaps.count_24h = -1;
    },
    'stats.swaps.count_24h expected a non-negative integer, got -1',
  ],
  [
    'fractional count',
    '/stats',
    (b) => {
      b.stats.active_traders.count_90d = 1.5;
    },
    'stats.active_traders.count_90d expected a non-negative integer, got 1.5',
  ],
  [
    'speed as string',
    '/stats',
    (b) => {
      b.stats.swap_performance.avg_speed = '1';
    },
    'stats.swap_performance.avg_speed expected a finite number, got "1"',
  ],
  [
    'swap_count with decimals',
    '/volume',
    (b) => {
      b.data.swap_count = '1.5';
    },
    'data.swap_count expected an integer string, got "1.5"',
  ],
  [
    'policy boolean as string',
    '/exchange/info',
    (b) => {
      b.data.policy.need_invite_code = 'false';
    },
    'data.policy.need_invite_code expected a boolean, got "false"',
  ],
  [
    'market source unknown',
    '/markets/info',
    (b) => {
      b.data.markets[0].source = 'other source';
    },
    'data.markets[0].source expected "external" or an exchange name (1-64 letters, digits, ".", "_", "-"), got "other source"',
  ],
  [
    'candle period zero',
    '/markets/info',
    (b) => {
      b.data.candle_periods[0] = 0;
    },
    'data.candle_periods[0] expected a positive integer, got 0',
  ],
  [
    'ticker price as string',
    '/aggregator/tickers',
    (b) => {
      b[0].last_price = '0.15';
    },
    '[0].last_price expected a finite number, got "0.15"',
  ],
  [
    'orderbook level of one number',
    '/aggregator/orderbook',
    (b) => {
      b.bids[2] = [1];
    },
    'bids[2] expected a [price, amount] pair, got [1]',
  ],
  [
    'orderbook amount as string',
    '/aggregator/orderbook',
    (b) => {
      b.asks[0][1] = '5';
    },
    'asks[0][1] expected a finite number, got "5"',
  ],
];

describe('malformed shapes are rejected with the exact path', () => {
  it.each(MALFORMED.map((c) => [c[0], c]))('%s', (_name, c) => {
    const [, endpoint, mutate, message] = c as Mutation;
    const parse =
      endpoint === '/aggregator/orderbook'
        ? parseAggregatorOrderbookResponse
        : (ENDPOINTS.find(([p]) => p === endpoint)?.[1] as Parser);
    const body = clone(bodies.get(endpoint));
    mutate(body);
    expectShapeError(() => parse(body), message);
  });

  it('quote: a third route hop, a bad memo type and a bad slippage', () => {
    const q = clone(connectQuote) as { pools: unknown[]; memo: unknown; slippage: string };
    expectShapeError(
      () => parseConnectQuoteResponse({ ...q, pools: [q.pools[0], q.pools[0], q.pools[0]] }),
      'pools expected a route of 1 or 2 pools, got 3',
    );
    expectShapeError(() => parseConnectQuoteResponse({ ...q, memo: 5 }), 'memo expected a string, got 5');
    expect(parseConnectQuoteResponse({ ...q, slippage: '-0.0000000001' }).slippage).toBe('-0.0000000001');
    expectShapeError(
      () => parseConnectQuoteResponse({ ...q, estimated_time_seconds: '12.4' }),
      'estimated_time_seconds expected a decimal string with 2 decimals, got "12.4"',
    );
  });

  it('every parser rejects non-objects with a typed error (never a TypeError)', () => {
    const all: Parser[] = [
      ...ENDPOINTS.map(([, p]) => p),
      parseAggregatorOrderbookResponse,
      parseConnectQuoteResponse,
      parseErrorResponse,
    ];
    for (const parse of all) {
      for (const bad of [null, 42, 'text', true, undefined, [[]], { a: 1 }]) {
        expect(() => parse(bad), `${parse.name}(${JSON.stringify(bad)})`).toThrow(ApiShapeError);
      }
    }
  });
});

describe('hostile input', () => {
  it('a __proto__ key is ignored (default) or named (reject mode) and never pollutes', () => {
    const text =
      '{"__proto__": {"polluted": true}, "tokens": [{"info": {"instrument_admin": "a", "instrument_id": "b", "instrument_name": "c", "instrument_symbol": "D", "price_aggregator_id": null, "__proto__": {"x": 1}}}]}';
    const parsed = parseTokensInfoResponse(JSON.parse(text));
    expect(parsed.tokens[0]?.info.instrument_id).toBe('b');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(parsed, '__proto__')).toBe(false);
    expectShapeError(
      () => parseTokensInfoResponse(JSON.parse(text), { unknownKeys: 'reject' }),
      /^__proto__ expected no such key/,
    );
  });

  it('unknown keys are skipped by default and rejected on request', () => {
    const body = { ...(clone(bodies.get('/volume')) as object), extra: 1 };
    expect(parseVolumeResponse(body)).not.toHaveProperty('extra');
    expectShapeError(
      () => parseVolumeResponse(body, { unknownKeys: 'reject' }),
      'extra expected no such key (not in the documented shape), got 1',
    );
  });

  it('a 200,000-deep nesting is rejected with a short message, never a RangeError', () => {
    const n = 200_000;
    const deep = JSON.parse(`{"tokens":[${'['.repeat(n)}${']'.repeat(n)}]}`);
    expectShapeError(() => parseTokensInfoResponse(deep), 'tokens[0] expected an object, got [[[[…]]]]');
    const wide = {
      tokens: [Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 'x'.repeat(1000)]))],
    };
    let msg = '';
    try {
      parseTokensInfoResponse(wide);
    } catch (e) {
      msg = (e as ApiShapeError).shortMessage;
    }
    expect(msg).toMatch(/^tokens\[0\]\.info expected an object, got no value \(missing key\)$/);
    expectShapeError(
      () => parseTokensInfoResponse({ tokens: wide }),
      /^tokens expected an array, got \{"tokens":\[\{"k0":"xxx/,
    );
    try {
      parseTokensInfoResponse({ tokens: wide });
    } catch (e) {
      expect((e as ApiShapeError).shortMessage.length).toBeLessThan(200);
    }
  });

  it('array lengths are capped', () => {
    const body = clone(bodies.get('/pools/state')) as { data: { pools: unknown[] } };
    expect(body.data.pools.length).toBeGreaterThan(2);
    expectShapeError(
      () => parsePoolsStateResponse(body, { maxArrayLength: 2 }),
      /^data\.pools expected an array of at most 2 elements/,
    );
  });

  it('error bodies: {error} is read, a missing error is rejected', () => {
    expect(parseErrorResponse({ error: 'minimum ticket size is 50 CC' }).error).toBe(
      'minimum ticket size is 50 CC',
    );
    expectShapeError(
      () => parseErrorResponse({ message: 'x' }),
      'error expected a string, got no value (missing key)',
    );
  });
});

describe('per-pool reading of /pools/proof and /pools/state (one bad pool does not hide the others)', () => {
  const proofBody = (pools: unknown[]): unknown => ({
    data: { updated_at: '2026-11-22T03:00:00+00:00', pools },
  });
  it('a malformed entry is set aside with its pool, path and expectation; the rest are kept', () => {
    const sample = bodies.get('/pools/proof') as { data: { pools: unknown[] } };
    const pools = sample.data.pools as Record<string, unknown>[];
    expect(pools.length).toBeGreaterThan(0);
    const bad = structuredClone(pools[0]) as { pool_id: string; reserve_contract: Record<string, unknown> };
    bad.pool_id = 'bad-pool';
    bad.reserve_contract.reserve_a = 12;
    const body = proofBody([...pools, bad]);
    expect(() => parsePoolsProofResponse(body)).toThrow(/reserve_a expected a decimal string/);
    const r = parsePoolsProofPerPool(body);
    expect(r.data.pools.map((p) => p.pool_id)).toEqual(pools.map((p) => p.pool_id));
    expect(r.malformed).toEqual([
      {
        index: pools.length,
        poolId: 'bad-pool',
        path: `data.pools[${pools.length}].reserve_contract.reserve_a`,
        expected: 'a decimal string with 10 decimals',
        message: `data.pools[${pools.length}].reserve_contract.reserve_a expected a decimal string with 10 decimals, got 12`,
      },
    ]);
    // a well-formed body reads the same either way
    expect(parsePoolsProofPerPool(sample)).toEqual({ ...parsePoolsProofResponse(sample), malformed: [] });
  });
  it('the response-level shape still throws', () => {
    expect(() =>
      parsePoolsProofPerPool({ data: { updated_at: '2026-11-22T03:00:00+00:00', pools: {} } }),
    ).toThrow(/data\.pools expected an array/);
    expect(() => parsePoolsStatePerPool([])).toThrow(/expected an object/);
    expect(() => parsePoolsProofPerPool({ data: { pools: [] } })).toThrow(/updated_at/);
  });
  it('an entry that is not an object, or without a readable pool_id, is named by its index', () => {
    const r = parsePoolsStatePerPool({
      data: {
        updated_at: '2026-11-22T03:00:00+00:00',
        pools: [7, { pool_id: '' }, { pool_id: 'x'.repeat(201) }],
      },
    });
    expect(r.data.pools).toEqual([]);
    expect(r.malformed?.map((m) => [m.index, m.poolId])).toEqual([
      [0, null],
      [1, null],
      [2, null],
    ]);
  });
});
