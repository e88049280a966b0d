import type { CID } from 'multiformats/cid';

/**
 * What Pinfold asks of Delegated Routing V1 endpoints (contract section 11; ipfs/specs
 * routing/http-routing-v1): the HTTP providers of a CID, and IPNS records to read and to publish. One
 * implementation asks every endpoint of the network settings (routing-client.ts); offline, none is asked.
 * Records come back as bytes: verifying them is the names domain's business (its validator is the one
 * that decides what a record may say).
 */
export interface RoutingClient {
  /**
   * Trustless gateway URLs (`https://host[:port]`) of the peers the endpoints list as providers of `cid`
   * over `transport-ipfs-gateway-http`, deduplicated, as they arrive; nothing when offline.
   */
  gatewayProviders(cid: CID, options?: { signal?: AbortSignal }): AsyncIterable<string>;
  /**
   * Every record the endpoints answer for `name` (a libp2p-key CID), as bytes, unverified, each with the endpoint
   * that answered it (a conflict on a sync folder says where the other record was seen); [] when none or offline.
   */
  getRecords(name: CID, options?: { signal?: AbortSignal }): Promise<RoutedRecord[]>;
  /**
   * PUTs a record to every endpoint; resolves with the endpoints that accepted it and those that did not
   * (with why), never throws for an endpoint's failure. Offline: nothing is sent, both lists empty.
   */
  putRecord(name: CID, record: Uint8Array, options?: { signal?: AbortSignal }): Promise<{ accepted: string[]; failed: { endpoint: string; reason: string }[] }>;
}

/** A record as one routing endpoint answered it. */
export interface RoutedRecord {
  endpoint: string;
  record: Uint8Array;
}
