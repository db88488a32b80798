/**
 * The real steps of `watch` (src/run/watch.ts): the snapshot pipeline (src/run/snapshot.ts) on the
 * watch's open mirror and the audit pipeline (`runAudit`, src/run/audit.ts) on the same mirror,
 * each over a fresh HTTP client of src/io/http (its retries, Retry-After and pacing) that tells
 * every attempt to `onAttempt` by endpoint: the path below the base URL without its query.
 */
import type { ReserveProfile } from '../core/proof/profile.js';
import type { TypeEnv } from '../core/types/type-env.js';
import { type BaseUrl, createHttpClient, type HttpClient } from '../io/http/index.js';
import type { MirrorStore } from '../io/store/index.js';
import { runAudit } from './audit.js';
import { takeSnapshot } from './snapshot.js';
import type { WatchSteps } from './watch.js';

export interface WatchStepsOptions {
  readonly baseUrl: BaseUrl;
  /** the mirror target the audit opens (the same the snapshot step's `mirror` was opened from) */
  readonly mirrorPath: string;
  readonly mirror: MirrorStore;
  /** the Daml types the snapshot step verifies with (loaded once from typeFiles/dars, or the default) */
  readonly types: TypeEnv | undefined;
  /** where the audit loads its types from (each audit, as `audit --types/--dar` does) */
  readonly typeFiles: readonly string[];
  readonly dars: readonly string[];
  readonly profile?: ReserveProfile;
  readonly timeoutMs?: number;
  readonly maxRps?: number;
  readonly maxInFlight?: number;
  readonly probeQuotes?: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly onAttempt?: (a: {
    readonly endpoint: string;
    readonly retry: boolean;
    readonly status: number | null;
  }) => void;
}

/** `/pools/proof` from a shown URL below the shown base URL (`other` when it is not below it). */
export function computeEndpointLabel(baseDisplay: string, url: string): string {
  const base = baseDisplay.replace(/\/+$/, '');
  if (!url.startsWith(base)) return 'other';
  const path = url.slice(base.length).split(/[?#]/)[0] ?? '';
  return path === '' ? '/' : path;
}

export function createWatchSteps(o: WatchStepsOptions): WatchSteps {
  const client = (): HttpClient =>
    createHttpClient({
      ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
      ...(o.maxRps === undefined ? {} : { maxRps: o.maxRps }),
      ...(o.maxInFlight === undefined ? {} : { maxInFlight: o.maxInFlight }),
      ...(o.env === undefined ? {} : { env: o.env }),
      ...(o.onAttempt === undefined
        ? {}
        : {
            onAttempt: (a) =>
              o.onAttempt?.({
                endpoint: computeEndpointLabel(o.baseUrl.display, a.url),
                retry: a.retry,
                status: a.status,
              }),
          }),
    });
  // a fresh client per step, closed when the step ends
  const withClient = async <T>(use: (c: HttpClient) => Promise<T>): Promise<T> => {
    const c = client();
    try {
      return await use(c);
    } finally {
      await c.close();
    }
  };
  return {
    snapshot: () =>
      withClient((c) =>
        takeSnapshot({
          mirror: o.mirror,
          baseUrl: o.baseUrl,
          client: c,
          ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
          probeQuotes: o.probeQuotes === true,
          types: o.types,
          ...(o.profile === undefined ? {} : { profile: o.profile }),
        }),
      ),
    audit: () =>
      withClient((c) =>
        runAudit({
          baseUrl: o.baseUrl,
          mirrorPath: o.mirrorPath,
          client: c,
          typeFiles: o.typeFiles,
          dars: o.dars,
          ...(o.profile === undefined ? {} : { profile: o.profile }),
          ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
          probeQuotes: o.probeQuotes === true,
          cwd: o.cwd,
        }),
      ),
  };
}
