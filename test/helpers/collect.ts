/** Every item of an async (or plain) iterable, in order. */
export async function collect<T>(source: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

/** The chunks of a byte stream, joined. */
export async function collectBytes(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Buffer> {
  return Buffer.concat(await collect(source));
}
