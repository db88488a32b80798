/**
 * The history prefill tells its progress (issue 27 item 5): swaps done of the total, about a hundred
 * times, increasing, the last call being total/total — what `serve --history` shows on a terminal
 * (src/cli/commands/serve.ts, one line rewritten in place; nothing on a pipe).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/render/progress.js';
import { openTestLedger } from './helpers.js';

const HOUR = 3600_000;

describe('prefillHistory progress', () => {
  it('reports done/total about 100 times, increasing, ending at total', () => {
    const { exchange: ex } = openTestLedger({ seed: 'prefill-progress' });
    const calls: [number, number][] = [];
    const r = ex.prefillHistory({
      duration: 6 * HOUR,
      swapsPerMinute: 1,
      onProgress: (d, t) => calls.push([d, t]),
    });
    const total = r.executed + r.refunded;
    expect(total).toBe(360);
    expect(calls.length).toBeGreaterThanOrEqual(90);
    expect(calls.length).toBeLessThanOrEqual(120);
    for (let i = 1; i < calls.length; i++) expect(calls[i]![0]).toBeGreaterThan(calls[i - 1]![0]);
    expect(calls.every(([, t]) => t === total)).toBe(true);
    expect(calls[calls.length - 1]).toEqual([total, total]);
  });

  it('a terminal sees counts in one rewritten line; a pipe sees nothing', () => {
    const render = (tty: boolean): string => {
      const err = Object.assign(new PassThrough(), { isTTY: tty });
      let out = '';
      err.on('data', (c: Buffer) => (out += c.toString()));
      const p = createProgress(err, { NO_COLOR: '1' });
      const { exchange: ex } = openTestLedger({ seed: 'prefill-progress-tty' });
      ex.prefillHistory({
        duration: HOUR,
        swapsPerMinute: 1,
        onProgress: (d, t) => (d === t ? p.clear() : p.update(`prefilling history: ${d}/${t} swaps`)),
      });
      return out;
    };
    const tty = render(true);
    const erase = '\r\x1b[2K';
    expect(tty).toContain(`${erase}prefilling history: 1/60 swaps`);
    expect(tty.endsWith(`prefilling history: 59/60 swaps${erase}`)).toBe(true);
    expect(render(false)).toBe('');
  });
});
