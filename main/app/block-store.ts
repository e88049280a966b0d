import type { ServiceConfig } from '../base/config.js';
import { BadInputError } from '../base/errors.js';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { Blocks } from '../store/blocks.js';
import { openBlockstore, type BlockIndexStore } from '../store/blockstore/blockstore.js';

/** The blocks the service runs on, and how to let go of them when the service stops. */
export interface BlockStore extends Blocks {
  close(): Promise<void>;
}

export interface BlockStoreOptions {
  /** The data folder's `blocks/` (the local pack files). */
  localDir: string;
  /** The metadata store the index lives in. */
  index: BlockIndexStore;
  /** Where the metadata lives: an S3 bucket shared by several instances needs an index they share too. */
  metadataEngine: 'sqlite' | 'postgres';
  clock: Clock;
  logger: Logger;
}

/**
 * Opens the block store the config names: an S3-compatible bucket with `--blocks` (the scale-out mode,
 * which needs `--db`: the index must be shared as the bucket is), else the data folder's pack files, held
 * exclusively under the data folder's lock.
 */
export async function openBlockStore(config: ServiceConfig, options: BlockStoreOptions): Promise<BlockStore> {
  if (config.blocks === undefined) return openBlockstore(options.localDir, options.index, { clock: options.clock, exclusive: true, logger: options.logger });
  if (options.metadataEngine !== 'postgres') {
    throw new BadInputError('--blocks needs --db postgres://…: the block index lives in the metadata, and every instance on the bucket must share it');
  }
  // Loaded only here: the AWS SDK is megabytes of heap that every desktop install would carry, and whose
  // collection the idle service would pay for (test/bench/sync.ts, idle CPU).
  const { openObjectBlockstore } = await import('../store/objects/object-blockstore.js');
  return openObjectBlockstore(config.blocks, options.index, { clock: options.clock, logger: options.logger });
}
