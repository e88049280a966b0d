/** Small named values of the data folder (the sealed check of its master key). */
export interface MetaRepository {
  metaValue(key: string): Promise<Buffer | null>;
  setMetaValue(key: string, value: Uint8Array): Promise<void>;
}
