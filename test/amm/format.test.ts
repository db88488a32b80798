/** Number rendering and the strict amount parser (api-decisions §1, §4 "invalid sellAmount"). */
import { describe, expect, it } from 'vitest';
import { Dec, formatAmount, formatSeconds, formatTrimmed, parseAmount } from '../../src/core/amm/index.js';
import { isAmmError } from '../../src/errors/index.js';

describe('formatAmount / formatTrimmed / formatSeconds', () => {
  it.each([
    ['0.0005', '0.0005000000'],
    ['100', '100.0000000000'],
    ['0.152314001', '0.1523140010'],
    ['3222533.0991649266', '3222533.0991649266'],
    ['0', '0.0000000000'],
    ['123456789012345678.1234567891', '123456789012345678.1234567891'],
    ['0.00000000001', '0.0000000000'],
  ])('formatAmount(%s) = %s', (input, want) => {
    expect(formatAmount(input)).toBe(want);
  });

  it('never uses an exponent for tiny or huge values', () => {
    expect(formatAmount(new Dec('1e-9'))).toBe('0.0000000010');
    expect(formatAmount(new Dec('1e25'))).toBe('10000000000000000000000000.0000000000');
    expect(formatTrimmed(new Dec('1e-7'))).toBe('0.0000001');
  });

  it.each([
    ['2', '2'],
    ['0.7948', '0.7948'],
    ['0', '0'],
    ['2.0000000000', '2'],
    ['0.79480', '0.7948'],
  ])('formatTrimmed(%s) = %s', (input, want) => {
    expect(formatTrimmed(input)).toBe(want);
  });

  it.each([
    ['12.4', '12.40'],
    ['5.1', '5.10'],
    ['12', '12.00'],
    ['3.005', '3.01'],
  ])('formatSeconds(%s) = %s', (input, want) => {
    expect(formatSeconds(input)).toBe(want);
  });
});

describe('parseAmount', () => {
  it.each([
    '100',
    '0.1',
    '1.0000000001',
    '0.007',
    '9999999999999999999999999999',
    '123456789012345678.1234567890',
  ])('accepts %s exactly', (s) => {
    expect(parseAmount(s, 'sellAmount').eq(new Dec(s))).toBe(true);
  });

  it.each([
    '',
    '0',
    '0.0',
    '-1',
    '+1',
    '1e3',
    '1E3',
    ' 1',
    '1 ',
    '.5',
    '5.',
    '1.00000000001',
    '0x10',
    'Infinity',
    'NaN',
    '1,5',
    '１',
    '99999999999999999999999999999',
    '1234567890123456789.1234567890',
    '007',
    '00100',
    '00.5',
  ])('rejects %j with AMM_INVALID_AMOUNT naming the field', (s) => {
    try {
      parseAmount(s, 'sellAmount');
      expect.unreachable();
    } catch (e) {
      expect(isAmmError(e)).toBe(true);
      if (isAmmError(e)) {
        expect(e.code).toBe('AMM_INVALID_AMOUNT');
        expect(e.shortMessage).toMatch(/^"sellAmount" expected .+, got /);
      }
    }
  });

  it.each([100, null, undefined, {}, ['1']])('rejects the non-string %j', (v) => {
    expect(() => parseAmount(v, 'amount')).toThrow(/AMM_INVALID_AMOUNT/);
  });
});
