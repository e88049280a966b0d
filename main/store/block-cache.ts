/**
 * Recently read small blocks, by multihash. Blocks never change under their hash, so a cached copy is
 * always right as long as the block is still indexed: the blockstore deletes a block from here in the
 * same step that GC removes it from the index, so a collected block is never served from here. Only
 * small blocks are kept (directory nodes, small files: the gateway's hot set); big file chunks stream
 * from the packs.
 */
export class BlockCache {
  private readonly entries = new Map<string, Uint8Array>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 32 * 1024 * 1024,
    private readonly maxBlockBytes = 256 * 1024,
  ) {}

  get(key: string): Uint8Array | undefined {
    const block = this.entries.get(key);
    if (block === undefined) return undefined;
    // Re-insert: the map's order is least recently used first.
    this.entries.delete(key);
    this.entries.set(key, block);
    return block;
  }

  set(key: string, block: Uint8Array): void {
    if (block.byteLength > this.maxBlockBytes || this.entries.has(key)) return;
    this.entries.set(key, block);
    this.bytes += block.byteLength;
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.bytes -= (this.entries.get(oldest.value) as Uint8Array).byteLength;
      this.entries.delete(oldest.value);
    }
  }

  delete(key: string): void {
    const block = this.entries.get(key);
    if (block === undefined) return;
    this.bytes -= block.byteLength;
    this.entries.delete(key);
  }
}
