/**
 * The ledger database (src/sim/store): migrations, restart on the same file keeps the ledger,
 * and determinism — the same seed gives the same contract IDs and events.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/sim/clock.js';
import type { SimulatedExchange } from '../../src/sim/ledger.js';
import { openServerDb, readSchemaVersion } from '../../src/sim/store/connection.js';
import { MIGRATIONS } from '../../src/sim/store/migrations.js';
import { openTestLedger, T0, TRADER, tokenBySymbol } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'reserve-audit-sim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function activity(ex: SimulatedExchange): void {
  ex.prefillHistory({ duration: 1800_000, swapsPerMinute: 1 });
  ex.transfer({ sender: TRADER, instrument: ex.cc(), amount: '777', memo: 'CBTC' });
  ex.addLiquidity(ex.pools()[2]!.poolId, '100', '100', TRADER);
  ex.retirePool(ex.pools().find((p) => p.tokenA.id === 'CTX')!.poolId);
}

const snapshot = (ex: SimulatedExchange) => ({
  pools: ex.pools(),
  events: ex.swapEvents(0, ex.nowMs() + 1),
  history: ex.pools().map((p) => ex.reserveContracts(p.poolId, 1000)),
});

describe('ledger database', () => {
  it('applies the migrations once, in WAL mode with foreign keys', () => {
    const path = join(dir, 'a', 'nested', 'server.db');
    const db = openServerDb(path);
    expect(readSchemaVersion(db)).toBe(MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
    const again = openServerDb(path);
    expect((again.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n).toBe(
      MIGRATIONS.length,
    );
    again.close();
  });

  it('refuses a database from a newer schema', () => {
    const path = join(dir, 'newer.db');
    openServerDb(path).close();
    const raw = openServerDb(path);
    raw
      .prepare('INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (999, ?, 0)')
      .run('future');
    raw.close();
    expect(() => openServerDb(path)).toThrow(expect.objectContaining({ code: 'DB_OPEN_FAILED' }));
  });

  it('a restart on the same file keeps the ledger and continues it', () => {
    const path = join(dir, 'restart.db');
    const a = openTestLedger({ path, seed: 'restart' });
    activity(a.exchange);
    const before = snapshot(a.exchange);
    a.db.close();

    const b = openTestLedger({ path, seed: 'restart', clock: createManualClock(T0) });
    expect(snapshot(b.exchange)).toEqual(before);
    expect(b.exchange.tokens().map((t) => t.symbol)).toEqual(a.exchange.tokens().map((t) => t.symbol));
    // continues: the next change chains on the last contract, event seq continues
    const last = before.events[before.events.length - 1]!;
    const r = b.exchange.transfer({
      sender: TRADER,
      instrument: b.exchange.cc(),
      amount: '500',
      memo: 'USDCx',
    });
    expect(r.status === 'executed' && r.events[0]!.seq).toBe(last.seq + 1);
    const pool = b.exchange.pools().find((p) => p.poolId === '2820898830768735469')!;
    const old = before.pools.find((p) => p.poolId === pool.poolId)!;
    expect(b.exchange.reserveContracts(pool.poolId, 1)[0]!.previous).toBe(old.reserveContract.contractId);
    expect(pool.reserveContract.createdAtMicros > old.reserveContract.createdAtMicros).toBe(true);
    b.db.close();
  });

  it('the same seed gives the same contract IDs and events; another seed does not', () => {
    const x = openTestLedger({ seed: 'det' });
    const y = openTestLedger({ seed: 'det' });
    const z = openTestLedger({ seed: 'other' });
    for (const l of [x, y, z]) activity(l.exchange);
    expect(snapshot(y.exchange)).toEqual(snapshot(x.exchange));
    expect(snapshot(x.exchange).events.length).toBeGreaterThan(20);
    expect(z.exchange.pools()[0]!.reserveContract.contractId).not.toBe(
      x.exchange.pools()[0]!.reserveContract.contractId,
    );
  });

  it('a restarted seeded ledger continues the same random stream as an uninterrupted one', () => {
    const path = join(dir, 'stream.db');
    const a = openTestLedger({ path, seed: 'stream' });
    a.exchange.transfer({ sender: TRADER, instrument: a.exchange.cc(), amount: '100', memo: 'MOD' });
    a.db.close();
    const b = openTestLedger({ path, seed: 'stream' });
    b.exchange.transfer({
      sender: TRADER,
      instrument: tokenBySymbol(b.exchange, 'MOD'),
      amount: '100',
      memo: 'Amulet',
    });
    const c = openTestLedger({ seed: 'stream' });
    c.exchange.transfer({ sender: TRADER, instrument: c.exchange.cc(), amount: '100', memo: 'MOD' });
    // MOD cannot be sold through Connect → refunded in both, no RNG use; then a swap CC → USDCx
    c.exchange.transfer({
      sender: TRADER,
      instrument: tokenBySymbol(c.exchange, 'MOD'),
      amount: '100',
      memo: 'Amulet',
    });
    b.exchange.transfer({ sender: TRADER, instrument: b.exchange.cc(), amount: '100', memo: 'USDCx' });
    c.exchange.transfer({ sender: TRADER, instrument: c.exchange.cc(), amount: '100', memo: 'USDCx' });
    expect(snapshot(b.exchange)).toEqual(snapshot(c.exchange));
    b.db.close();
  });
});
