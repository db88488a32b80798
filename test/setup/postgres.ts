/**
 * vitest globalSetup: one throw-away PostgreSQL cluster for the whole suite (test/helpers/pg-cluster.ts),
 * its URL provided to the tests as `pgUrl`; each test file creates databases of its own in it
 * (test/helpers/postgres.ts). Without PostgreSQL binaries `pgUrl` is null and `pgMissing` says why:
 * the PostgreSQL tests then skip saying so — or fail, under CI=true.
 */
import type { TestProject } from 'vitest/node';
import { findPgBinaries, type PgCluster, startPgCluster } from '../helpers/pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string | null;
    pgMissing: string | null;
  }
}

let cluster: PgCluster | null = null;

export async function setup(project: TestProject): Promise<void> {
  const bins = findPgBinaries();
  if ('missing' in bins) {
    project.provide('pgUrl', null);
    project.provide('pgMissing', bins.missing);
    return;
  }
  try {
    cluster = await startPgCluster(bins);
    project.provide('pgUrl', cluster.url);
    project.provide('pgMissing', null);
  } catch (e) {
    project.provide('pgUrl', null);
    project.provide('pgMissing', (e as Error).message);
  }
}

export function teardown(): void {
  cluster?.stop();
  cluster = null;
}
