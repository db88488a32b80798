/**
 * Where the Prometheus binaries are (Debian's `prometheus` package: /usr/bin/prometheus and
 * /usr/bin/promtool, or PROMETHEUS_PATH / PROMTOOL_PATH); when absent the tests that need them skip
 * saying why — except under CI=true, where a missing one is a failure (`.ci/run` installs it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function findBinary(name: string, envVar: string): string | null {
  const env = process.env[envVar];
  if (env !== undefined && env !== '' && existsSync(env)) return env;
  try {
    const p = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    return p === '' ? null : p;
  } catch {
    return null;
  }
}

export const PROMETHEUS = findBinary('prometheus', 'PROMETHEUS_PATH');
export const PROMTOOL = findBinary('promtool', 'PROMTOOL_PATH');
const PROMETHEUS_SKIP_REASON =
  'no prometheus/promtool on PATH (apt-get install prometheus, or set PROMETHEUS_PATH/PROMTOOL_PATH): Prometheus tests skipped';
if (PROMETHEUS === null || PROMTOOL === null) {
  if (process.env.CI === 'true') throw new Error(`CI=true but ${PROMETHEUS_SKIP_REASON}`);
  process.stderr.write(`${PROMETHEUS_SKIP_REASON}\n`);
}
