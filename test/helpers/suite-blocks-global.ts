import type { TestProject } from 'vitest/node';
import { startCephRgw } from './engines/ceph-rgw.js';

/**
 * Global setup of the `integration-scale-out` project: one Ceph RADOS Gateway for the whole run (it takes
 * about ten seconds to start, too long to start per file), handed to the test files through vitest's
 * provide/inject; each server gets a prefix of its own in the one bucket (suite-database.ts).
 */
export interface SuiteRgw {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    suiteRgw: SuiteRgw | null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const rgw = await startCephRgw();
  project.provide('suiteRgw', { endpoint: rgw.endpoint, region: rgw.region, accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey });
  return async () => rgw.stop();
}
