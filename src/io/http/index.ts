/** The auditor's HTTP edge: the undici client and the snapshot fetcher. */
export { type BaseUrl, parseBaseUrl } from './base-url.js';
export {
  type AttemptRecord,
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  type RequestCounts,
  type SendOptions,
} from './client.js';
export {
  type FetchSnapshotOptions,
  fetchSnapshot,
  type RefetchResult,
  refetchMarketData,
  type SnapshotProgress,
} from './fetch-snapshot.js';
export { createPacer } from './pacer.js';
export { redactUrl } from './redact-url.js';
