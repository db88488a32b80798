/**
 * The one decimal grammar (docs/protocol/public-api.md "Decimal strings"; src/core/wire/decimal-text.ts):
 * more than 10 places is a decimal string, compared exactly; a string that breaks the grammar is
 * refused with the rule it breaks; a malformed /pools/info entry is set aside for that pool alone.
 */
import { describe, expect, it } from 'vitest';
import { isSameAmount } from '../../src/core/audit/decimal-strings.js';
import { checkDecimalText } from '../../src/core/wire/decimal-text.js';
import { parsePoolsInfoPerPool, parsePoolsInfoResponse } from '../../src/core/wire/index.js';

const entry = (id: string, fee: unknown) => ({
  contract_id: 'ab'.repeat(69),
  pool_id: id,
  token_a_instrument_id: 'CC',
  token_a_instrument_admin: 'dso::1220aa',
  token_b_instrument_id: 'USDCx',
  token_b_instrument_admin: 'circle::1220bb',
  fee_rate: fee,
  admin_fee_share: '0.2000000000',
});

describe('checkDecimalText', () => {
  it.each([
    '0',
    '2',
    '0.7948',
    '0.0005000000',
    '0.00025000000',
    `1.${'0'.repeat(60)}`,
    `${'9'.repeat(28)}.5`,
  ])('accepts %s', (s) => expect(checkDecimalText(s)).toBeNull());
  it.each([
    ['1e-4', 'it has an exponent'],
    ['2.5E3', 'it has an exponent'],
    ['-1', 'it has a sign'],
    ['+1', 'it has a sign'],
    ['01.5', 'it has a leading zero'],
    ['.5', 'it has no digit before the point'],
    ['5.', 'it has no digit after the point'],
    ['1 000', 'it has spaces'],
    ['1,5', 'it has a character other than digits and one point'],
    ['1.2.3', 'it has a character other than digits and one point'],
    ['', 'it is empty'],
    [`${'9'.repeat(29)}`, 'it has more than 28 digits before the point'],
    [`1.${'0'.repeat(300)}`, 'it is longer than 200 characters'],
    [12, 'it is not a string'],
  ] as const)('refuses %j: %s', (s, why) => expect(checkDecimalText(s)).toBe(why));

  it('signed fields take a leading minus, Numeric 10 fields exactly 10 places', () => {
    expect(checkDecimalText('-0.0100000000', { signed: true, places: 10 })).toBeNull();
    expect(checkDecimalText('+0.0100000000', { signed: true, places: 10 })).toBe('it has a sign');
    expect(checkDecimalText('0.01', { places: 10 })).toBe('it has 2 decimal places, not 10');
    expect(checkDecimalText('1', { places: 10 })).toBe('it has 0 decimal places, not 10');
  });

  it('more places compare exactly: 0.00025000000 = 0.0002500000 ≠ 0.00025000001', () => {
    expect(isSameAmount('0.00025000000', '0.0002500000')).toBe(true);
    expect(isSameAmount('0.00025000001', '0.0002500000')).toBe(false);
  });
});

describe('/pools/info', () => {
  it("accepts a fee rate with 11 decimal places (the issue's example)", () => {
    const r = parsePoolsInfoResponse({ pools: [entry('p1', '0.00025000000')] });
    expect(r.pools[0]?.fee_rate).toBe('0.00025000000');
  });

  it('a malformed entry is set aside with the rule it breaks; the other pools are kept', () => {
    const body = { pools: [entry('p1', '0.0030000000'), entry('p2', '2.5e-4'), entry('p3', 0.003)] };
    expect(() => parsePoolsInfoResponse(body)).toThrow(
      'pools[1].fee_rate expected a decimal string, got "2.5e-4": it has an exponent',
    );
    const r = parsePoolsInfoPerPool(body);
    expect(r.pools.map((p) => p.pool_id)).toEqual(['p1']);
    expect(r.malformed).toEqual([
      {
        index: 1,
        poolId: 'p2',
        path: 'pools[1].fee_rate',
        expected: 'a decimal string',
        message: 'pools[1].fee_rate expected a decimal string, got "2.5e-4": it has an exponent',
      },
      {
        index: 2,
        poolId: 'p3',
        path: 'pools[2].fee_rate',
        expected: 'a decimal string',
        message: 'pools[2].fee_rate expected a decimal string, got 0.003',
      },
    ]);
  });
});
