/**
 * The seed market (api-decisions §2): tokens, pools with their opening reserves, the exchange
 * policy, the swap party, the operator and the CC-USD reference price. Read from JSON
 * (fixtures/seed-market.json, format `reserve-audit/seed-market/v1`) and optionally widened with
 * N generated pools (`generate.pools`, or the `extraPools` option) for benchmarks.
 * Generated pools are a pure function of their index (SHA-256 derived), independent of the RNG.
 */
import { readFileSync } from 'node:fs';
import { formatAmount } from '../core/amm/format.js';
import type { Amount, ExchangePolicy, Token, TokenRef } from '../core/amm/types.js';
import type { Sha256 } from '../core/hash/sha256.js';
import { Dec, roundDown10 } from '../core/money/decimal.js';
import { formatGot } from '../errors/base.js';
import { ServerError } from '../errors/server.js';
import { resolvePackagePath } from '../io/files/package-root.js';
import { sha256Node } from '../io/node-sha256.js';

const SEED_MARKET_FORMAT = 'reserve-audit/seed-market/v1';
const DEFAULT_SEED_MARKET_PATH = resolvePackagePath('fixtures/seed-market.json');

export interface SeedPool {
  readonly poolId: string;
  readonly tokenA: TokenRef;
  readonly tokenB: TokenRef;
  /** fraction, 10 decimals */
  readonly feeRate: Amount;
  readonly reserveA: Amount;
  readonly reserveB: Amount;
}

export interface SeedMarket {
  readonly operator: string;
  readonly swapParty: string;
  readonly cc: TokenRef;
  readonly ccUsdPrice: Amount;
  readonly adminFeeShare: Amount;
  readonly policy: ExchangePolicy;
  readonly tokens: readonly Token[];
  readonly pools: readonly SeedPool[];
  /** generated pools to add at genesis (`generate.pools`) */
  readonly generatePools: number;
}

const PARTY = /^[A-Za-z0-9_-]{1,185}::1220[0-9a-f]{64}$/;
const DECIMAL = /^\d{1,28}(\.\d{1,10})?$/;
const MAX_GENERATED_POOLS = 100_000;

type Json = Record<string, unknown>;

function fail(path: string, rule: string, got: unknown): never {
  throw new ServerError('SEED_MARKET_INVALID', `"${path}" expected ${rule}, got ${formatGot(got)}`);
}
function obj(x: unknown, path: string): Json {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) fail(path, 'an object', x);
  return x as Json;
}
function str(o: Json, k: string, path: string): string {
  const v = o[k];
  if (typeof v !== 'string' || v.length === 0) fail(`${path}.${k}`, 'a non-empty string', v);
  return v;
}
function party(o: Json, k: string, path: string): string {
  const v = str(o, k, path);
  if (!PARTY.test(v)) fail(`${path}.${k}`, 'a party id <name>::1220<64 hex>', v);
  return v;
}
function dec(
  o: Json,
  k: string,
  path: string,
  opts: { positive?: boolean; fraction?: boolean } = {},
): Amount {
  const v = str(o, k, path);
  if (!DECIMAL.test(v)) fail(`${path}.${k}`, 'a plain decimal string with at most 10 decimals', v);
  const d = new Dec(v);
  if (opts.positive === true && !d.gt(0)) fail(`${path}.${k}`, 'a positive decimal', v);
  if (opts.fraction === true && d.gte(1)) fail(`${path}.${k}`, 'a fraction below 1', v);
  return formatAmount(d);
}
function int(o: Json, k: string, path: string, max: number): number {
  const v = o[k];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
    fail(`${path}.${k}`, `an integer in 0..${max}`, v);
  return v;
}

/** Validates a parsed seed-market JSON document. Throws SEED_MARKET_INVALID naming the field. */
export function parseSeedMarket(json: unknown): SeedMarket {
  const root = obj(json, '$');
  if (root.format !== SEED_MARKET_FORMAT) fail('$.format', JSON.stringify(SEED_MARKET_FORMAT), root.format);
  const ccJson = obj(root.cc, '$.cc');
  const cc: TokenRef = {
    admin: party(ccJson, 'instrument_admin', '$.cc'),
    id: str(ccJson, 'instrument_id', '$.cc'),
  };
  const p = obj(root.policy, '$.policy');
  const policy: ExchangePolicy = {
    connectFeeRate: dec(p, 'connect_fee_rate', '$.policy', { fraction: true }),
    networkFeeCc: dec(p, 'network_fee_cc', '$.policy'),
    transferFeeCc: dec(p, 'transfer_fee_cc', '$.policy'),
    allocationFeeCc: dec(p, 'allocation_fee_cc', '$.policy'),
    freeTransfersPerDay: int(p, 'free_transfers_per_day', '$.policy', 1_000_000),
    minRecommendedCcBalance: dec(p, 'min_recommended_cc_balance', '$.policy'),
    minSwapAmountForFeeWaiverCc: dec(p, 'min_swap_amount_for_fee_waiver_cc', '$.policy'),
    minSwapAmountSizeCc: dec(p, 'min_swap_amount_size_cc', '$.policy'),
    minConnectSwapAmountSizeCc: dec(p, 'min_connect_swap_amount_size_cc', '$.policy'),
    needInviteCode: p.need_invite_code === true,
  };
  if (!Array.isArray(root.tokens)) fail('$.tokens', 'an array', root.tokens);
  const tokens: Token[] = root.tokens.map((t, i) => {
    const path = `$.tokens[${i}]`;
    const o = obj(t, path);
    const agg = o.price_aggregator_id;
    if (agg !== null && (typeof agg !== 'string' || agg.length === 0))
      fail(`${path}.price_aggregator_id`, 'a string or null', agg);
    const symbol = str(o, 'instrument_symbol', path);
    if (symbol !== symbol.toUpperCase()) fail(`${path}.instrument_symbol`, 'an upper-case symbol', symbol);
    return {
      admin: party(o, 'instrument_admin', path),
      id: str(o, 'instrument_id', path),
      name: str(o, 'instrument_name', path),
      symbol,
      priceAggregatorId: agg as string | null,
    };
  });
  const bySymbol = new Map<string, Token>();
  const byRef = new Set<string>();
  for (const t of tokens) {
    if (bySymbol.has(t.symbol)) fail('$.tokens', 'unique instrument_symbol values', t.symbol);
    if (byRef.has(`${t.admin}\n${t.id}`)) fail('$.tokens', 'unique (instrument_admin, instrument_id)', t.id);
    bySymbol.set(t.symbol, t);
    byRef.add(`${t.admin}\n${t.id}`);
  }
  if (!byRef.has(`${cc.admin}\n${cc.id}`)) fail('$.cc', 'a token listed in $.tokens', cc.id);
  if (!Array.isArray(root.pools)) fail('$.pools', 'an array', root.pools);
  const poolIds = new Set<string>();
  const pools: SeedPool[] = root.pools.map((x, i) => {
    const path = `$.pools[${i}]`;
    const o = obj(x, path);
    const poolId = str(o, 'pool_id', path);
    if (poolIds.has(poolId)) fail(`${path}.pool_id`, 'a unique pool id', poolId);
    poolIds.add(poolId);
    const a = bySymbol.get(str(o, 'token_a', path));
    const b = bySymbol.get(str(o, 'token_b', path));
    if (a === undefined) fail(`${path}.token_a`, 'a symbol from $.tokens', o.token_a);
    if (b === undefined) fail(`${path}.token_b`, 'a symbol from $.tokens', o.token_b);
    if (a === b) fail(`${path}.token_b`, 'a token other than token_a', o.token_b);
    const isCc = (t: Token): boolean => t.admin === cc.admin && t.id === cc.id;
    if (!isCc(a) && !isCc(b)) fail(path, 'a pool pairing some token with CC (api-decisions §2)', poolId);
    return {
      poolId,
      tokenA: { admin: a.admin, id: a.id },
      tokenB: { admin: b.admin, id: b.id },
      feeRate: dec(o, 'fee_rate', path, { fraction: true }),
      reserveA: dec(o, 'reserve_a', path, { positive: true }),
      reserveB: dec(o, 'reserve_b', path, { positive: true }),
    };
  });
  const gen = root.generate === undefined ? { pools: 0 } : obj(root.generate, '$.generate');
  return {
    operator: party(root, 'operator', '$'),
    swapParty: party(root, 'swap_party', '$'),
    cc,
    ccUsdPrice: dec(root, 'cc_usd_price', '$', { positive: true }),
    adminFeeShare: dec(root, 'admin_fee_share', '$'),
    policy,
    tokens,
    pools,
    generatePools: int(gen, 'pools', '$.generate', MAX_GENERATED_POOLS),
  };
}

/** Reads and validates a seed-market file (default: fixtures/seed-market.json). */
export function loadSeedMarket(path: string | URL = DEFAULT_SEED_MARKET_PATH): SeedMarket {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ServerError(
      'SEED_MARKET_INVALID',
      `"seedMarket" expected a readable file, got ${formatGot(String(path))}`,
      {
        cause,
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ServerError('SEED_MARKET_INVALID', `"seedMarket" expected JSON, got ${formatGot(text)}`, {
      cause,
    });
  }
  return parseSeedMarket(json);
}

const GENERATED_FEES = ['0.0005000000', '0.0010000000', '0.0030000000', '0.0100000000'];

function generatedFeeRate(n: number): Amount {
  const own = GENERATED_FEES[n % 4] as string;
  if (n % 10 !== 0) return own;
  // the second pool of a pair: a fee rate different from the first pool's
  return GENERATED_FEES[(n - 1) % 4] === '0.0100000000' ? '0.0030000000' : '0.0100000000';
}

function derived(sha256: Sha256, label: string): Uint8Array {
  return sha256(new TextEncoder().encode(`reserve-audit/seed-market/generated/${label}`));
}
function u48(b: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = at; i < at + 6; i++) v = (v << 8n) | BigInt(b[i] ?? 0);
  return v;
}

/**
 * Adds `count` generated pools (and their tokens) to a market. Pool n (1-based) is `SIMnnnn-CC`
 * on a new token `SIMnnnn`, except every 10th pool, which is a second pool (fee rate 1%) of the
 * previous token's pair with a different fee rate — so the benchmark market also has multi-pool pairs. Pool ids are the
 * first 63 bits of SHA-256("reserve-audit/seed-market/generated/pool/<n>") in decimal; the CC
 * reserve is 10 000–2 000 000 CC and the token price 0.001–99.99 CC, both from that hash.
 */
export function expandSeedMarket(market: SeedMarket, count: number, sha256: Sha256 = sha256Node): SeedMarket {
  if (!Number.isInteger(count) || count < 0 || count > MAX_GENERATED_POOLS) {
    throw new ServerError(
      'SIMULATOR_OPTION_INVALID',
      `"extraPools" expected an integer in 0..${MAX_GENERATED_POOLS}, got ${count}`,
    );
  }
  if (count === 0) return market;
  const issuerHex = Buffer.from(
    sha256(new TextEncoder().encode('reserve-audit/seed-market/party/sim-issuer')),
  ).toString('hex');
  const admin = `sim-issuer::1220${issuerHex}`;
  const tokens: Token[] = [...market.tokens];
  const pools: SeedPool[] = [...market.pools];
  const ids = new Set(pools.map((p) => p.poolId));
  let last: Token | null = null;
  for (let n = 1; n <= count; n++) {
    const h = derived(sha256, `pool/${n}`);
    let token: Token;
    if (n % 10 === 0 && last !== null) {
      token = last;
    } else {
      const tag = String(n).padStart(4, '0');
      token = {
        admin,
        id: `SIM${tag}`,
        name: `Simulated Token ${n}`,
        symbol: `SIM${tag}`,
        priceAggregatorId: null,
      };
      tokens.push(token);
      last = token;
    }
    let poolId = (
      (BigInt(`0x${Buffer.from(h.subarray(0, 8)).toString('hex')}`) & ((1n << 63n) - 1n)) |
      1n
    ).toString();
    while (ids.has(poolId)) poolId = (BigInt(poolId) + 1n).toString();
    ids.add(poolId);
    // CC reserve 10_000 .. 2_000_000; price (CC per token) 10^(-3 .. 2)
    const ccReserve = new Dec(10_000)
      .add(new Dec(u48(h, 8).toString()).mod(1_990_000))
      .add(new Dec(u48(h, 14).toString()).div(2 ** 48));
    // mantissa 1.000000–9.999999 × 10^(−3 … 1)
    const mantissa = new Dec(1).add(new Dec((u48(h, 20) % 9_000_000n).toString()).div(1_000_000));
    const price = mantissa.mul(new Dec(10).pow(Number(h[26]! % 5) - 3));
    const tokenReserve = roundDown10(ccReserve.div(price));
    pools.push({
      poolId,
      tokenA: { admin: token.admin, id: token.id },
      tokenB: market.cc,
      feeRate: generatedFeeRate(n),
      reserveA: formatAmount(tokenReserve.gt(0) ? tokenReserve : new Dec('0.0000000001')),
      reserveB: formatAmount(roundDown10(ccReserve)),
    });
  }
  return { ...market, tokens, pools, generatePools: 0 };
}
