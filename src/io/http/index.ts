/** The auditor's HTTP edge: the undici client and the snapshot fetcher. */
export { type BaseUrl, parseBaseUrl, splitUrlCredentials } from './base-url.js';
export {
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  type RequestCounts,
  type SendOptions,
} from './client.js';
export {
  type FetchSnapshotOptions,
  fetchSnapshot,
  type RefetchRequest,
  type RefetchResult,
  refetchMarketData,
  type SnapshotProgress,
} from './fetch-snapshot.js';
export {
  createPacer,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_MAX_RPS,
  type Pacer,
  type PacerOptions,
} from './pacer.js';
export { redactUrl } from './redact-url.js';
export { joinUrl, parseJsonBody, statusError } from './response.js';
