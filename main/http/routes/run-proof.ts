import type { FastifyInstance } from 'fastify';
import { runProof } from '../../base/run-proof.js';
import { ok } from '../envelope.js';
import { requestInput } from '../input/request-input.js';
import { RunProofQuery } from '../input/run-proof-input.js';

/**
 * `GET /api/v0/service/proof?nonce=…` (extension, the desktop app only): the proof that this process is
 * the one the desktop's main process started (base/run-proof.ts), asked before the main process trusts
 * the port with its window, the owner key or its own calls. Public: the caller must not send a key to a
 * port it has not verified yet, and the answer is worth nothing but to the holder of the nonce.
 * Registered only in a process started with a run token; elsewhere the path is not found.
 */
export function runProofRoutes(app: FastifyInstance, runToken: string): void {
  app.get('/api/v0/service/proof', { config: { access: 'public' } }, async (request, reply) => {
    const { nonce } = requestInput(RunProofQuery, request.query);
    void reply.header('Cache-Control', 'no-store');
    return ok({ proof: runProof(runToken, nonce) });
  });
}
