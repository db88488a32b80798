/** Reserve profiles: the fixture equals the built-in default; invalid profiles are typed errors. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RESERVE_PROFILE,
  findTemplateProfile,
  parseReserveProfile,
} from '../../src/core/proof/index.js';
import { isReserveAuditError } from '../../src/errors/base.js';
import { TEMPLATE } from './fixtures.js';

const fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/profiles/amm-pools.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

describe('reserve profiles', () => {
  it('fixtures/profiles/amm-pools.json is the built-in default', () => {
    const p = parseReserveProfile(fixture);
    expect(p.templates).toEqual(DEFAULT_RESERVE_PROFILE.templates);
    expect(findTemplateProfile(p, TEMPLATE)).not.toBeNull();
    expect(findTemplateProfile(p, { ...TEMPLATE, entityName: 'X' })).toBeNull();
  });

  it('package_ids restrict the accepted packages', () => {
    const t = (fixture.templates as Record<string, unknown>[])[0]!;
    const p = parseReserveProfile({ ...fixture, templates: [{ ...t, package_ids: ['cd'.repeat(32)] }] });
    expect(findTemplateProfile(p, TEMPLATE)).toBeNull();
    expect(findTemplateProfile(p, { ...TEMPLATE, packageId: 'cd'.repeat(32) })).not.toBeNull();
  });

  const t0 = (fixture.templates as Record<string, unknown>[])[0]!;
  const bad: [string, unknown][] = [
    ['not an object', 42],
    ['wrong format', { ...fixture, format: 'v0' }],
    ['no templates', { ...fixture, templates: [] }],
    [
      'missing reserve_b',
      {
        ...fixture,
        templates: [{ ...t0, fields: { reserve_a: { position: 4 }, total_lp_supply: { position: 6 } } }],
      },
    ],
    [
      'unknown role',
      { ...fixture, templates: [{ ...t0, fields: { ...(t0.fields as object), colour: { position: 1 } } }] },
    ],
    [
      'negative position',
      {
        ...fixture,
        templates: [{ ...t0, fields: { ...(t0.fields as object), reserve_a: { position: -1 } } }],
      },
    ],
    [
      'wrong type',
      {
        ...fixture,
        templates: [
          { ...t0, fields: { ...(t0.fields as object), reserve_a: { position: 4, type: 'Text' } } },
        ],
      },
    ],
    [
      'no locator',
      {
        ...fixture,
        templates: [{ ...t0, fields: { ...(t0.fields as object), reserve_a: { type: 'Numeric' } } }],
      },
    ],
    ['bad package id', { ...fixture, templates: [{ ...t0, package_ids: ['XY'] }] }],
  ];
  it.each(bad)('rejects %s with PROFILE_INVALID', (_name, json) => {
    try {
      parseReserveProfile(json);
      expect.unreachable();
    } catch (e) {
      expect(isReserveAuditError(e) && e.code).toBe('PROFILE_INVALID');
    }
  });
});
