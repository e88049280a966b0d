import type { PsaList, PsaPin } from '../pins/psa-pins.js';
import type { PsaStatus } from '../pins/psa-status.js';

/** The Pinning Service API's `PinStatus` (spec 1.0.0), as Pinfold answers it. */
export interface PsaPinStatus {
  requestid: string;
  status: PsaStatus;
  /** RFC 3339 with milliseconds: unique within the account, so `before` the oldest of a page reads the next. */
  created: string;
  pin: { cid: string; name?: string; origins: string[]; meta: Record<string, string> };
  /** Pinfold's own address (`/ip4/127.0.0.1/tcp/5080/http`): the spec wants at least one. */
  delegates: string[];
  /** `dag_size` once pinned: the bytes of the pin's DAG (its unique blocks), as a string like every `info` value. */
  info?: Record<string, string>;
}

export interface PsaPinResults {
  count: number;
  results: PsaPinStatus[];
}

export function psaPinStatus({ pin, status }: PsaPin, delegates: string[]): PsaPinStatus {
  return {
    requestid: pin.requestId,
    status,
    created: new Date(pin.createdMs).toISOString(),
    // No name is no `name` (the spec's string has no empty form in Kubo's listing).
    pin: { cid: pin.cid, ...(pin.name !== '' ? { name: pin.name } : {}), origins: [...pin.origins], meta: { ...pin.meta } },
    delegates,
    ...(status === 'pinned' ? { info: { dag_size: String(pin.size) } } : {}),
  };
}

export function psaPinResults(list: PsaList, delegates: string[]): PsaPinResults {
  return { count: list.count, results: list.results.map((pin) => psaPinStatus(pin, delegates)) };
}
