/**
 * `fetch.identifiers` (issue 30): an exchange-supplied identifier or symbol with control or
 * bidirectional-control characters is a warning naming the endpoint, field and characters — never
 * an error, and never a silent pass of the check's text.
 */
import { describe, expect, it } from 'vitest';
import { type AuditInput, type AuditSnapshot, runAuditChecks } from '../../src/core/audit/index.js';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { honestSnapshot, POOLS, proofsOf, verifiedOf } from './fixtures.js';

function run(edit: (s: AuditSnapshot) => AuditSnapshot) {
  const snapshot = edit(honestSnapshot());
  const input: AuditInput = {
    snapshot,
    reserveProofs: proofsOf(snapshot, POOLS.map(verifiedOf)),
    history: null,
    profile: DEFAULT_RESERVE_PROFILE,
  };
  return runAuditChecks(input);
}

describe('fetch.identifiers', () => {
  it('passes when no identifier holds a control character', () => {
    const r = run((s) => s);
    expect(r.checks.find((c) => c.name === 'fetch.identifiers')?.status).toBe('pass');
    expect(r.findings.filter((f) => f.code === 'IDENTIFIER_CONTROL_CHARACTERS')).toEqual([]);
  });

  it.each([
    ['ESC (OSC retitle)', 'CC\u001b]0;pwned\u0007', ['\\u001b', '\\u0007']],
    ['NUL', 'C\u0000C', ['\\u0000']],
    ['DEL', 'C\u007fC', ['\\u007f']],
    ['C1 CSI', 'C\u009b2J', ['\\u009b']],
    ['right-to-left override', 'CC\u202eDSU', ['\\u202e']],
    ['first strong isolate', 'CC\u2068', ['\\u2068']],
  ])('a token symbol with %s is a warning naming it', (_name, symbol, chars) => {
    const r = run((s) => ({
      ...s,
      tokens: s.tokens.ok
        ? { ok: true, value: s.tokens.value.map((t, i) => (i === 0 ? { ...t, symbol } : t)) }
        : s.tokens,
    }));
    const f = r.findings.filter((x) => x.code === 'IDENTIFIER_CONTROL_CHARACTERS');
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({
      severity: 'warning',
      label: 'asserted',
      area: 'fetch',
      evidence: { endpoint: '/tokens/info', field: 'symbol', got: symbol, characters: chars },
    });
    // the message shows the value escaped, never raw
    expect(f[0]!.message).not.toContain(symbol);
    expect(f[0]!.message).toContain(chars[0]);
    expect(r.outcome).toBe('passed');
  });

  it('a pool id with a bidi override in both proof fetches and the state: one warning per endpoint', () => {
    const evil = `${POOLS[0]!.poolId}\u202e`;
    const r = run((s) => ({
      ...s,
      proofsAfter: s.proofsAfter.ok
        ? { ok: true, value: s.proofsAfter.value.map((p, i) => (i === 0 ? { ...p, poolId: evil } : p)) }
        : s.proofsAfter,
      proofs: s.proofs.ok
        ? { ok: true, value: s.proofs.value.map((p, i) => (i === 0 ? { ...p, poolId: evil } : p)) }
        : s.proofs,
      state: s.state.ok
        ? { ok: true, value: s.state.value.map((p, i) => (i === 0 ? { ...p, poolId: evil } : p)) }
        : s.state,
    }));
    const f = r.findings.filter((x) => x.code === 'IDENTIFIER_CONTROL_CHARACTERS');
    expect(f.map((x) => x.evidence.endpoint).sort()).toEqual(['/pools/proof', '/pools/state']);
    expect(f.every((x) => x.pool === evil && x.severity === 'warning')).toBe(true);
  });

  it('names a malformed entry whose pool id holds control characters', () => {
    const r = run((s) => ({
      ...s,
      malformed: {
        proofs: [
          { index: 9, poolId: 'x\u001b[2J', path: 'data.pools[9].x', expected: 'a string', message: 'm' },
        ],
        state: [],
      },
    }));
    const f = r.findings.filter((x) => x.code === 'IDENTIFIER_CONTROL_CHARACTERS');
    expect(f).toHaveLength(1);
    expect(f[0]!.evidence).toMatchObject({ endpoint: '/pools/proof', field: 'pool_id', got: 'x\u001b[2J' });
  });
});
