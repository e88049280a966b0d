/**
 * One search box for a list that reads what is typed in two ways: as an identifier when it parses as one
 * (a CID on the Pins page, an IPNS name on the Names page), otherwise as text (part of a pin's name, a
 * name's alias). The URL keeps the box's text under the parameter of the kind it reads as, which is also
 * the kind's name (`?cid=`, `?name=`, `?alias=`), so a link can say which it means.
 */

/** What the box searches for: nothing, the identifier `I`, or the text `T`, each under its own field (`{ kind: 'cid', cid }`). */
export type BoxSearch<I extends string, T extends string> = { kind: 'none' } | ({ kind: I } & Record<I, string>) | ({ kind: T } & Record<T, string>);

export interface SearchBoxSpec<I extends string, T extends string> {
  /** The identifier's kind, field and URL parameter. */
  identifier: I;
  /** The identifier in a trimmed text (in any of the forms users paste), or null when it is not one. */
  parseIdentifier: (text: string) => string | null;
  /** The text's kind, field and URL parameter. */
  text: T;
  /** The longest text the service searches for; longer text is cut. */
  maxText: number;
}

export interface SearchBox<I extends string, T extends string> {
  search: (text: string) => BoxSearch<I, T>;
  /** The box's text as the URL keeps it: under the parameter of its kind, the other cleared (null). */
  params: (text: string) => Record<I | T, string | null>;
  /** The box's text from the URL (the identifier's parameter first, should both be given). */
  textOf: (params: URLSearchParams) => string;
}

export function searchBox<I extends string, T extends string>(spec: SearchBoxSpec<I, T>): SearchBox<I, T> {
  const search = (text: string): BoxSearch<I, T> => {
    const trimmed = text.trim();
    if (trimmed === '') return { kind: 'none' };
    const identifier = spec.parseIdentifier(trimmed);
    if (identifier !== null) return { kind: spec.identifier, [spec.identifier]: identifier } as BoxSearch<I, T>;
    return { kind: spec.text, [spec.text]: trimmed.slice(0, spec.maxText) } as BoxSearch<I, T>;
  };
  return {
    search,
    params: (text) => {
      const { kind } = search(text);
      return { [spec.identifier]: kind === spec.identifier ? text : null, [spec.text]: kind === spec.text ? text : null } as Record<I | T, string | null>;
    },
    textOf: (params) => params.get(spec.identifier) ?? params.get(spec.text) ?? '',
  };
}
