/** The HTML report's model never shows credentials, even from runs recorded before URLs were redacted on entry. */
import { describe, expect, it } from 'vitest';
import { buildReportModelFromMirror } from '../../src/cli/render/report-model.js';

describe('buildReportModelFromMirror', () => {
  it('redacts a password stored in an older audit run', () => {
    const m = buildReportModelFromMirror(
      {
        baseUrl: 'http://alice:s3cret-pw@127.0.0.1:8080/v1/public?token=s3cret-tok',
        startedAtMs: Date.UTC(2026, 0, 2),
        outcome: 'passed',
        checks: [],
        findings: [],
        summary: {},
      },
      new Map(),
      '2026-01-02T00:00:00.000Z',
    );
    const text = JSON.stringify({ title: m.title, run: m.run });
    expect(text).not.toContain('s3cret');
    expect(m.run?.baseUrl).toContain('127.0.0.1:8080');
  });
});
