/**
 * Memory for sending files in pieces, kept from one upload to the next. Fresh memory for every upload is
 * external memory to V8, which runs a full garbage collection for every 64 MiB of it allocated: with two
 * fresh 1 MiB buffers a pack, 4 MiB packs cost the service more in collections than in sending. Only a
 * buffer whose sender knows it is no longer read (every write acknowledged) comes back; at most `keep`
 * are kept, so a burst of uploads at once leaves no more than that behind.
 */
export class PieceBuffers {
  private readonly free: Buffer[] = [];

  constructor(
    readonly pieceBytes: number,
    private readonly keep: number,
  ) {}

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.pieceBytes);
  }

  give(buffer: Buffer): void {
    if (this.free.length < this.keep && buffer.byteLength === this.pieceBytes) this.free.push(buffer);
  }
}
