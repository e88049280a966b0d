/**
 * The Pins page while a pin's blocks come in from the network (issue "Pinfold on the IPFS network"): a
 * `pinning` row says where it fetches from and how much has arrived, follows the fetch live, and turns
 * Pinned by itself. The service fetches from a local trustless gateway that sends a block a second.
 */
import { importer } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import type { CID } from 'multiformats/cid';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTrustlessGateway, type GatewayBlock, type TestGateway } from '../helpers/trustless-gateway.js';
import { axeCheck, launchBrowser, newContext, screenshots, signIn, startService, type E2eService } from './kit/index.js';

let gateway: TestGateway;
let service: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let root: CID;

/** A file of `size` bytes in 16 KiB raw leaves, as blocks: many more than a source is asked for at once, so a fetch is seen under way. */
async function fileBlocks(size: number): Promise<{ root: CID; blocks: GatewayBlock[] }> {
  const blocks: GatewayBlock[] = [];
  const store = {
    put: async (cid: CID, bytes: Uint8Array) => {
      blocks.push({ cid, bytes });
      return cid;
    },
  };
  const content = new Uint8Array(size).map((_, i) => (i * 7) % 251);
  let last: CID | undefined;
  for await (const entry of importer([{ content }], store, { cidVersion: 1, rawLeaves: true, chunker: fixedSize({ chunkSize: 16_384 }) })) last = entry.cid;
  if (last === undefined) throw new Error('no root');
  return { root: last, blocks };
}

beforeAll(async () => {
  const file = await fileBlocks(40 * 16_384);
  root = file.root;
  // Blocks only, each after 2 s: the fetch is walked in waves of the source's concurrency, slowly enough to be watched.
  gateway = await startTrustlessGateway(file.blocks, { car: 'refuse', trickleMs: 2000 });
  service = await startService(['--fetch-from', gateway.url, '--routing', gateway.url]);
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await service?.dispose();
  await gateway?.close();
});

describe('Pins: a pin fetched from the network', () => {
  it('says where its blocks come from and how many have arrived, live, then turns Pinned', async () => {
    await signIn(page, service);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pins' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pins' }).waitFor();
    const answer = await service.call('POST', '/api/v0/pin/add', { query: { arg: root.toString(), name: 'shared dataset' } });
    expect(answer.status, answer.text).toBe(200);

    const row = page.getByRole('table', { name: 'Pins' }).locator('tbody tr').filter({ hasText: 'shared dataset' });
    const host = new URL(gateway.url).host;
    // Live, without a reload: the row follows the pin's events as blocks arrive.
    await row.getByText(new RegExp(`Fetching from ${host.replace(/\./g, '\\.')}: \\d+ blocks?, `)).waitFor({ timeout: 20_000 });
    await axeCheck(page, 'Pins, fetching');
    await screenshots(page, 'pins-fetching');
    await row.getByText('Pinned').waitFor({ timeout: 60_000 });
    expect(await row.textContent()).not.toContain('Fetching');
  });
});
