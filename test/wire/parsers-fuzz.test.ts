/**
 * Property: mutating any leaf or key of a valid response body never makes a parser throw anything
 * but ApiShapeError, and a parse that succeeds returns only documented data (fast-check, bounded
 * runs to stay fast; bodies recorded from the live service plus one built by hand per endpoint).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseConnectQuoteResponse,
  parsePoolsProofResponse,
  parsePoolsQuoteResponse,
  parseVolumeResponse,
} from '../../src/core/wire/index.js';
import { ApiShapeError } from '../../src/errors/api.js';

const rec = JSON.parse(
  readFileSync(
    new URL('../../fixtures/recordings/synfin-pools-quote-cc-usdcx-500.json', import.meta.url),
    'utf8',
  ),
) as { body: Record<string, unknown> };

const PROOF = {
  data: {
    updated_at: '2026-11-01T12:00:00+00:00',
    pools: [
      {
        pool_id: '1',
        pool_cid: 'p1',
        token_a_instrument: { id: 'Amulet', admin: 'DSO::1220aa' },
        token_b_instrument: { id: 'USDCx', admin: 'usdc::1220bb' },
        reserve_contract: {
          contract_id: `00${'ab'.repeat(32)}ca1220${'cd'.repeat(32)}`,
          update_id: 'u1',
          template: {
            package_id: 'ef'.repeat(32),
            package_name: 'amm-pools',
            module_name: 'Amm.Pool',
            entity_name: 'PoolReserve',
          },
          ledger_created_at: '2026-11-01T11:59:28.902108+00:00',
          created_event_blob: 'AAEC',
          reserve_a: '1.0000000000',
          reserve_b: '2.0000000000',
          total_lp_supply: '3.0000000000',
        },
      },
    ],
  },
};
const VOLUME = {
  data: {
    start_time: '2026-10-31T12:00:00+00:00',
    end_time: '2026-11-01T12:00:00+00:00',
    swap_count: '3',
    volume_cc: '10.0000000000',
    fees_cc: '0.0300000000',
    lp_fees_cc: '0.0270000000',
    protocol_fees_cc: '0.0030000000',
  },
};

type Path = (string | number)[];

function leafPaths(v: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) leafPaths(x, [...path, Array.isArray(v) ? Number(k) : k], out);
  }
  out.push(path);
  return out;
}

function mutate(body: unknown, path: Path, value: unknown, mode: 'set' | 'delete' | 'rename'): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  if (path.length === 0) return value;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (mode === 'set') node[last] = value;
  else if (mode === 'delete') delete node[last];
  else {
    node.__proto__renamed = node[last];
    delete node[last];
  }
  return copy;
}

const CASES: [string, unknown, (j: unknown) => unknown][] = [
  ['pools quote (live recording)', rec.body, parsePoolsQuoteResponse],
  [
    'connect quote',
    { ...rec.body, sent: { ...(rec.body.sent as object), affiliate_code: null }, memo: 'USDCx' },
    parseConnectQuoteResponse,
  ],
  ['pools proof', PROOF, parsePoolsProofResponse],
  ['volume', VOLUME, parseVolumeResponse],
];

describe('shape parsers under random mutation', () => {
  for (const [name, body, parse] of CASES) {
    it(`${name}: parse succeeds or throws ApiShapeError, never anything else`, () => {
      expect(parse(body)).toBeTruthy();
      const paths = leafPaths(body);
      fc.assert(
        fc.property(
          fc.constantFrom(...paths),
          fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('1e5', '-0', '', '0.00000000001', '１')),
          fc.constantFrom('set', 'delete', 'rename') as fc.Arbitrary<'set' | 'delete' | 'rename'>,
          (path, value, mode) => {
            const m = mutate(body, path, value, mode);
            try {
              const parsed = parse(m);
              expect(JSON.stringify(parsed)).not.toContain('__proto__renamed');
            } catch (e) {
              if (!(e instanceof ApiShapeError)) throw e;
              expect(e.code).toBe('API_SHAPE_INVALID');
            }
          },
        ),
        { numRuns: 300, seed: 7 },
      );
    });
  }
});
