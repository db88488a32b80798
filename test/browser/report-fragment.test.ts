/**
 * The report page's fragment (src/web/report/fragment.ts; issue 30): any fragment is read without
 * throwing — a malformed percent-escape used to be an uncaught URIError that left the page
 * without charts — and `#pool-<id>` still names its pool. The page itself is opened with such
 * fragments in report.test.ts (chromium).
 */
import { describe, expect, it } from 'vitest';
import { parseReportFragment } from '../../src/web/report/fragment.js';

describe('parseReportFragment', () => {
  it('reads #pool-<id>, percent-decoded', () => {
    expect(parseReportFragment('#pool-7741952063284100513')).toBe('7741952063284100513');
    expect(parseReportFragment('#pool-a%20b')).toBe('a b');
    expect(parseReportFragment('pool-x')).toBe('x');
  });

  it.each([
    '#%E0%A4%A',
    '#pool-%E0%A4%A',
    '#%',
    '#pool-%',
    '#%FF',
    '#pool-%uD800',
    '#',
    '',
    '#verdict',
    '#pool-',
  ])('never throws on %j', (hash) => {
    expect(() => parseReportFragment(hash)).not.toThrow();
  });

  it('takes a malformed escape as written', () => {
    expect(parseReportFragment('#pool-%E0%A4%A')).toBe('%E0%A4%A');
    expect(parseReportFragment('#%E0%A4%A')).toBeNull();
    expect(parseReportFragment('#verdict')).toBeNull();
  });
});
