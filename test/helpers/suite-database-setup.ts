import { afterAll } from 'vitest';
import { registerSuiteDatabaseCleanup, stopSuitePostgres } from './suite-database.js';

/**
 * Setup file of the integration projects when the suite runs on PostgreSQL (vitest.config.ts): the
 * file's PostgreSQL, started by its first test server, stops after the file's own afterAll hooks closed
 * the servers, so no postgres process outlives its test file.
 */
registerSuiteDatabaseCleanup();
afterAll(stopSuitePostgres);
