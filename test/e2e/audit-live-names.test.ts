/**
 * The auditor reads both spellings of the API (api-decisions §10): an audit of a server started
 * with `--exchange-name cantex` passes exactly as one without (same checks, same statuses, no
 * finding), also when the server speaks only the live names — aggregator data under /coingecko/*
 * only, token ids only as `coingecko_id` — and the report says which spellings it found.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer, type Tamper } from '../helpers/tamper.js';

const servers: AuditServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

interface Report {
  summary: {
    outcome: string;
    api: { aggregatorPath: string | null; exchangeNames: string[]; tokenIdField: string | null };
  };
  findings: unknown[];
  checks: { name: string; pool: string | null; status: string }[];
}

async function audit(base: string): Promise<{ code: number; doc: Report; text: string }> {
  const json = await runCliForTest(['audit', '--base-url', base, '--json', '--probe-quotes']);
  const text = await runCliForTest(['audit', '--base-url', base]);
  return { code: json.code, doc: JSON.parse(json.stdout) as Report, text: text.stdout };
}

/** The `api …` line of the text report's header (the verdict, the coverage lines, then this line). */
const headerApiLine = (text: string): string | undefined =>
  text
    .split('\n\n')[0]
    ?.split('\n')
    .find((l) => l.startsWith('api  '));

const checkList = (r: Report): string[] =>
  r.checks.map((c) => `${c.name}|${c.pool ?? '-'}|${c.status}`).sort();

/** Only the live names: /aggregator/* answers 404, /tokens/info carries only coingecko_id. */
const liveNamesOnly: Tamper = (ctx) => {
  if (ctx.path.startsWith('/aggregator/')) return { status: 404, json: { error: 'not found' } };
  if (ctx.path === '/tokens/info') {
    const body = ctx.json as { tokens: { info: Record<string, unknown> }[] };
    for (const t of body.tokens) delete t.info.price_aggregator_id;
    return { json: body };
  }
  return undefined;
};

describe('audit of a server speaking the live names', () => {
  it('--exchange-name cantex passes exactly as the default, and the report names the spellings', async () => {
    const plain = await startAuditServer({ seed: 'live-names' });
    const cantex = await startAuditServer({ seed: 'live-names', exchangeName: 'cantex' });
    servers.push(plain, cantex);
    const a = await audit(plain.base);
    const b = await audit(cantex.base);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(a.doc.summary.outcome).toBe('passed');
    expect(b.doc.summary.outcome).toBe('passed');
    expect(a.doc.findings).toEqual([]);
    expect(b.doc.findings).toEqual([]);
    expect(checkList(b.doc)).toEqual(checkList(a.doc));
    expect(a.doc.summary.api).toEqual({
      aggregatorPath: '/aggregator',
      exchangeNames: ['service'],
      tokenIdField: 'coingecko_id',
    });
    expect(b.doc.summary.api.exchangeNames).toEqual(['cantex']);
    expect(headerApiLine(b.text)).toBe(
      'api  exchange cantex, aggregator data under /aggregator, token ids coingecko_id',
    );
  });

  it('finds the aggregator data under /coingecko when /aggregator is 404, and reads coingecko_id alone', async () => {
    const plain = await startAuditServer({ seed: 'live-names' });
    const live = await startAuditServer({
      seed: 'live-names',
      exchangeName: 'cantex',
      tamper: liveNamesOnly,
    });
    servers.push(plain, live);
    const a = await audit(plain.base);
    const b = await audit(live.base);
    expect(b.code).toBe(0);
    expect(b.doc.findings).toEqual([]);
    expect(checkList(b.doc)).toEqual(checkList(a.doc));
    expect(b.doc.summary.api).toEqual({
      aggregatorPath: '/coingecko',
      exchangeNames: ['cantex'],
      tokenIdField: 'coingecko_id',
    });
    expect(b.text).toContain(
      'api  exchange cantex, aggregator data under /coingecko, token ids coingecko_id',
    );
  });

  it('neither aggregator path: the market checks could not check, and the report says so', async () => {
    const none = await startAuditServer({
      seed: 'live-names',
      tamper: (ctx) =>
        ctx.path.startsWith('/aggregator/') || ctx.path.startsWith('/coingecko/')
          ? { status: 404, json: { error: 'not found' } }
          : undefined,
    });
    servers.push(none);
    const r = await audit(none.base);
    expect(r.doc.summary.api.aggregatorPath).toBeNull();
    expect(r.doc.checks.some((c) => c.name === 'market.pairs' && c.status === 'could-not-check')).toBe(true);
  });
});
