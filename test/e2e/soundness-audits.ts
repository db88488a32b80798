/**
 * The audits the soundness tests run against the in-process reference server with a manual clock
 * (test/e2e/audit-soundness.test.ts, and the slow part in test/slow/audit-soundness.test.ts).
 */
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { runAudit } from '../../src/run/audit.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import type { AuditServer } from '../helpers/tamper.js';

/** The server is in this process: no pacing (the default 50 requests/s only waits; test/http/pacer.test.ts tests it). */
const UNPACED = 1000;

export interface Injection {
  /** after the response to this path (below /v1/public) */
  readonly after: string;
  readonly swaps: number;
  readonly advanceMs: number;
}

export async function auditWith(s: AuditServer, injections: readonly Injection[], probeQuotes = true) {
  const pending = [...injections];
  s.setTamper((ctx) => {
    for (let i = 0; i < pending.length; i++) {
      const inj = pending[i];
      if (inj === undefined || inj.after !== ctx.path) continue;
      pending.splice(i, 1);
      s.clock.advanceMs(inj.advanceMs);
      for (let k = 0; k < inj.swaps; k++) simulateRandomSwap(s.ex, s.ex.rng);
      break;
    }
    return undefined;
  });
  try {
    const r = await runAudit({
      baseUrl: s.base,
      probeQuotes,
      now: () => s.clock.nowMs(),
      exitCodeOf,
      maxRps: UNPACED,
    });
    return { ...r, errors: r.findings.filter((f) => f.severity === 'error') };
  } finally {
    s.setTamper(undefined);
  }
}

/**
 * After every quote the clock moves past the pool snapshot and swaps run, so each quote names a
 * contract that no /pools/proof of the audit shows; `edit` may change each 200 quote body.
 */
export async function auditMovingQuotes(s: AuditServer, edit?: (quote: QuoteJson) => void) {
  s.clock.advanceMs(61_000);
  for (let k = 0; k < 20; k++) simulateRandomSwap(s.ex, s.ex.rng);
  s.setTamper((ctx) => {
    if (ctx.path !== '/connect/quote') return undefined;
    s.clock.advanceMs(6_000);
    for (let k = 0; k < 10; k++) simulateRandomSwap(s.ex, s.ex.rng);
    if (ctx.status !== 200 || edit === undefined) return undefined;
    const j = ctx.json as QuoteJson;
    edit(j);
    return { json: j };
  });
  try {
    const r = await runAudit({
      baseUrl: s.base,
      probeQuotes: true,
      now: () => s.clock.nowMs(),
      exitCodeOf,
      maxRps: UNPACED,
    });
    return { ...r, quoteChecks: r.checks.filter((k) => k.name.startsWith('quote.')) };
  } finally {
    s.setTamper(undefined);
  }
}

export interface QuoteJson {
  returned: { amount: string };
  pools: { pool_id: string; contract_id: string; created_event_blob?: string }[];
}
