import { expect } from 'vitest';
import { call } from '../helpers/test-server.js';
import { gatewayGet, type Key, type Server } from './uploads-helpers.js';

/** Shared by the garbage-collection tests (gc, gc-in-process). */

export async function pinAdd(server: Server, key: Key, cid: string): Promise<number> {
  return (await call(server, 'POST', '/api/v0/pin/add', { key, query: { arg: cid } })).status;
}

export async function runGc(server: Server, key: Key): Promise<{ pins_removed: number; blocks_deleted: number }> {
  const response = await call<{ data: { pins_removed: number; blocks_deleted: number } }>(server, 'POST', '/api/v0/repo/gc', { key });
  if (response.status !== 200) throw new Error(`gc failed: ${response.status} ${response.text}`);
  return response.json.data;
}

export async function served(server: Server, key: Key, path: string, format?: string): Promise<Buffer | null> {
  const response = await gatewayGet(server, key, path, format ? { query: { format } } : {});
  if (response.status === 404) return null;
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${response.bytes.toString()}`);
  return response.bytes;
}

export async function expectReadable(server: Server, key: Key, cid: string, bytes: Uint8Array): Promise<void> {
  const body = await served(server, key, `/ipfs/${cid}`);
  expect(body, `${cid} should be readable`).not.toBeNull();
  expect(Buffer.compare(body as Buffer, Buffer.from(bytes)), `${cid} bytes`).toBe(0);
}
