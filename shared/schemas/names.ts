import { boolean, number, object, string } from 'valibot';

/** A row of `GET /api/v0/ipns`, `GET /api/v0/ipns/{name}`, the `name` event, and `name/public`'s answer. */
export const IpnsRecordViewSchema = object({
  name: string(),
  value: string(),
  alias: string(),
  created_at: number(),
  publish_at: number(),
  public: boolean(),
});

/** What `name/create`, `name/publish` and `name/import` answer. */
export const NameBindingSchema = object({
  name: string(),
  value: string(),
});
