/**
 * The server works over the exchange interface only (docs/architecture.md): every module under
 * src/server except serve.ts (the composition root that constructs the exchange) reaches the
 * simulated ledger only through sim/exchange.ts and the injected clock (sim/clock.ts), and the
 * server's modules import one another without a circle. Checked with dependency-cruiser, the tool
 * `npm run check:deps` runs, and against the rule `server-uses-exchange-view` of its rules file.
 */
import { createRequire } from 'node:module';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

const rules = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
};

const ALLOWED_SIM = new Set(['src/sim/exchange.ts', 'src/sim/clock.ts']);
const COMPOSITION_ROOT = 'src/server/serve.ts';

let result: ICruiseResult;

beforeAll(async () => {
  const out = await cruise(
    ['src/server'],
    {
      ruleSet: { forbidden: rules.forbidden },
      validate: true,
      tsPreCompilationDeps: true,
      // cruise the server only; what it imports is listed but not followed further
      doNotFollow: { path: ['node_modules', '^src/(?!server/)'] },
    },
    {},
    { tsConfig: extractTSConfig('tsconfig.json') },
  );
  result = out.output as ICruiseResult;
}, 60_000);

describe('server layering', () => {
  it('server modules other than serve.ts import nothing of src/sim but exchange.ts and clock.ts', () => {
    const server = result.modules.filter((m) => m.source.startsWith('src/server/'));
    expect(server.map((m) => m.source)).toContain('src/server/app.ts');
    const reached = new Map<string, string[]>();
    for (const m of server) {
      if (m.source === COMPOSITION_ROOT) continue;
      for (const d of m.dependencies) {
        if (!d.resolved.startsWith('src/sim/') || ALLOWED_SIM.has(d.resolved)) continue;
        reached.set(m.source, [...(reached.get(m.source) ?? []), d.resolved]);
      }
    }
    expect(Object.fromEntries(reached)).toEqual({});
  });

  it('every server module resolves its imports (the check above saw them all)', () => {
    const unresolved = result.modules
      .filter((m) => m.source.startsWith('src/server/'))
      .flatMap((m) =>
        m.dependencies.filter((d) => d.couldNotResolve).map((d) => `${m.source} → ${d.module}`),
      );
    expect(unresolved).toEqual([]);
  });

  it('the serve.ts composition root is the one server module that constructs the ledger', () => {
    const root = result.modules.find((m) => m.source === COMPOSITION_ROOT);
    expect(root?.dependencies.map((d) => d.resolved)).toContain('src/sim/ledger.ts');
  });

  it('the rules file forbids it, and the server breaks no rule (no circle among app, routes, ws)', () => {
    expect(rules.forbidden.map((r) => r.name)).toContain('server-uses-exchange-view');
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(violations).toEqual([]);
  });
});
